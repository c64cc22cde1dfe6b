"""League seats on the referee console: a rostered player, or a guest, in each seat.

Before a game's first action the referee picks, for each seat, a player of the league's
roster (the table's copy, ``venue.roster_copy``, when the table has ``[venue]``) or leaves
it a guest; the table logs it as a ``seating`` entry (``firmware.table.roster_seating``). The
console's section is ``referee_seats.html``, drawn from ``league_seats()``; the form posts
to ``/referee/seating`` and the API takes ``POST /api/referee/seating``
(``{"seats": {"Ann": "p0001", "Bob": null}}``, the referee's token). An id the table's copy
does not hold is refused with a sentence (a table without a copy takes any well-formed id:
the league refuses an unknown one).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, jsonify, redirect, request, url_for

from firmware.gamelog.seating_entry import GUEST
from firmware.table.roster_seating import Seat
from table_server.access.guards import csrf_protected, referee_required, require_referee
from table_server.context import Refused, ask, ctx, json_error

bp = Blueprint("league_seats", __name__)


def roster_copy() -> Any:
    """The table's roster copy (``[venue]`` set), else None."""
    return current_app.config.get("LEAGUE_ROSTER")


def league_seats() -> dict[str, Any]:
    """What the console's League seats section shows: each seat with its player, the
    roster to choose from, and the copy's status."""
    copy = roster_copy()
    players = list(copy.players) if copy is not None else []
    names = {p.id: p for p in players}
    seating = ctx().controller.seating()
    state = ctx().controller.public_state()
    return {
        "seats": [{"name": seat, "id": pid, "player": names.get(pid) if pid else None}
                  for seat, pid in seating.items()],
        "roster": players,
        "status": copy.status() if copy is not None else None,
        "open": state.get("status") == "playing" and not state.get("actions"),
        "game": state.get("game_id"),
    }


def _seat_command(seats: Any) -> Seat:
    """The ``Seat`` command of ``{seat: id or None}``; Refused (400) with a sentence."""
    if not isinstance(seats, dict) or not all(
            isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in seats.items()):
        raise Refused(400, 'Send {"seats": {"SEAT": "ID" or null, ...}}: each seat of the game '
                           "with a roster id, or null for a guest.")
    ids = {k: (None if v in (None, "", GUEST) else v.strip()) for k, v in seats.items()}
    copy = roster_copy()
    if copy is not None and copy.players:
        unknown = sorted(i for i in ids.values() if i is not None and copy.find(i) is None)
        if unknown:
            raise Refused(409, f"{', '.join(unknown)} is not in the league's roster as this "
                               f"table last heard it ({len(copy.players)} players); pick a "
                               "rostered player, or leave the seat a guest.")
    return Seat(ids, "referee")


@bp.post("/referee/seating")
@referee_required
@csrf_protected
def seating_form() -> Any:
    """The console's form: ``seat.NAME`` = a roster id or ``guest``."""
    seats = {k.removeprefix("seat."): v for k, v in request.form.items()
             if k.startswith("seat.")}
    try:
        outcome = ask(_seat_command(seats))
        flash(outcome.message, "ok" if outcome.ok else "error")
    except Refused as e:
        flash(str(e), "error")
    return redirect(url_for("referee.console"), code=303)


@bp.post("/api/referee/seating")
def seating_api() -> Any:
    try:
        require_referee()
        body = request.get_json(silent=True)
        outcome = ask(_seat_command(body.get("seats") if isinstance(body, dict) else None))
    except Refused as e:
        return json_error(e.status, e.sentence, e.rule)
    if not outcome.ok:
        return json_error(409, outcome.message, outcome.rule)
    return jsonify({"ok": True, "message": outcome.message,
                    "seating": ctx().controller.seating()})


@bp.get("/api/referee/seating")
def seating_now() -> Any:
    try:
        require_referee(allow_session=True)
    except Refused as e:
        return json_error(e.status, e.sentence, e.rule)
    info = league_seats()
    return jsonify({"seating": ctx().controller.seating(), "open": info["open"],
                    "roster": [p.as_json() for p in info["roster"]], "copy": info["status"]})


@bp.record_once
def _install(state: Any) -> None:
    state.app.jinja_env.globals["league_seats"] = league_seats
