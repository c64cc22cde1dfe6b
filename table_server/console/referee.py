"""The referee console: PIN login, camera picture, needs-a-look queue, corrections, set-up,
export and each seat's QR code.

It is a page of forms, so it logs in by PIN into Flask's signed session cookie (HttpOnly,
SameSite=Strict) and every form carries a CSRF token bound to that session. Wrong PINs count
against the client address (apart from wrong tokens), and many from every address slow the
PIN down for the whole table instead of locking it (``auth.RateLimiter``). Everything here
may show concealed dice: that is the referee's job, and nothing here is reachable without the
PIN.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import segno
from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from engine.variants import VARIANTS
from firmware.table.commands import CORRECTIONS, Command, Reread
from table_server.access.auth import new_csrf_token
from table_server.access.devices import COOKIE as DEVICE_COOKIE
from table_server.access.devices import COOKIE_AGE
from table_server.access.guards import (
    client_address,
    csrf_ok,
    csrf_protected,
    csrf_token,
    expired_form,
    logged_in,
    referee_required,
)
from table_server.access.referee_pin import RefereePin
from table_server.console import referee_forms
from table_server.console.dice_teach import new_game_refusal
from table_server.console.referee_forms import FormError
from table_server.context import (
    Refused,
    ask,
    camera_picture,
    ctx,
    error_page,
    finished_games,
    finished_record,
)
from table_server.validation import form_number
from table_server.words import howto, present
from table_server.words.i18n import gettext as _
from table_server.words.i18n import say
from web.addresses import public_base

bp = Blueprint("referee", __name__, url_prefix="/referee")


def base_url() -> str:
    """The address phones use: ``[server] public_url``, else the address the table listens on
    (the LAN address when it listens on every interface). Never the request's Host header,
    which the sender writes: a seat's link and QR code must not send its token elsewhere."""
    settings = ctx().settings
    port = str(request.environ.get("SERVER_PORT", "80"))  # the port bound, for --port 0
    bound = number if isinstance(number := form_number(port), int) else 80
    return public_base(settings.public_url, settings.host, settings.port or bound)


def seat_url(base: str, seat: str) -> str:
    return f"{base}/seat/{quote(seat)}?token={ctx().tokens.token_for(seat)}"


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno), drawn without any network access."""
    return segno.make(url, micro=False).svg_inline(scale=4, dark="#000", light="#fff")


def pin() -> RefereePin:
    """The PIN that opens this table's console now (the config's, or kept in the log)."""
    return RefereePin(ctx().settings, ctx().controller.log)


def venue_status() -> dict[str, Any] | None:
    """The venue forwarder's status (``[venue]`` set), else None: reachable, how many wait."""
    status = current_app.config.get("VENUE_STATUS")
    return status() if status is not None else None


@bp.get("")
def console() -> Any:
    """The console, or the PIN form when not logged in."""
    if not logged_in():
        return render_template("referee_login.html", csrf=csrf_token())
    c = ctx()
    base = base_url()
    seats = [
        {"name": s, "url": seat_url(base, s), "qr": qr_svg(seat_url(base, s))}
        for s in c.seat_names()
    ]
    return render_template(
        "referee.html",
        csrf=csrf_token(),
        state=c.controller.referee_state(),
        seats=seats,
        variants={v: say(howto.TITLES[v]) for v in VARIANTS},  # the form sends the key
        games=finished_games(),
        zones=c.controller.zones(),
        venue=venue_status(),
        kept=referee_forms.kept(),
        prompt=say(present.prompt_phrase(c.controller.public_state())),
        pin_in_config=pin().configured,
    )


@bp.post("/login")
def login() -> Any:
    """The PIN, counted before it is compared: per device for a browser that logged in
    before (its device cookie, ``table_server.access.devices``), else per address and at the
    table's pace (``auth.RateLimiter``)."""
    c = ctx()
    if not csrf_ok():
        return expired_form()
    device = c.devices.device_of(request.cookies.get(DEVICE_COOKIE))
    if device is not None and c.devices.attempt(device) is not None:
        device = None  # past its own limit: an unknown device for the rest of the window
    if device is None:
        wait = c.limiter.attempt_pin(client_address())
        if wait is not None:
            page, status = error_page(429, wait.sentence)
            return page, status, {"Retry-After": str(wait.seconds)}
    if not pin().opens(request.form.get("pin", "")):
        page = render_template("referee_login.html", csrf=csrf_token(),
                               error=_("That PIN is not right; try again."))
        return page, 401
    if device is None:
        c.limiter.forgive(client_address())
    else:
        c.devices.forgive(device)
    return log_in_here(device)


def log_in_here(device: str | None) -> Any:
    """This browser gets a console session (after the PIN or a one-time pass), and its device
    cookie, kept or new, so its next login is this device's."""
    c = ctx()
    session.clear()
    session["referee"] = c.referee_sessions.current
    session["csrf"] = new_csrf_token()
    response = redirect(url_for("referee.console"), code=303)
    _, cookie = c.devices.cookie(device)
    response.set_cookie(DEVICE_COOKIE, cookie, max_age=COOKIE_AGE, path="/referee",
                        httponly=True, samesite="Strict")
    return response


@bp.post("/logout")
@csrf_protected
def logout() -> Any:
    """Log out, and end every referee session: a saved copy of any console's cookie is
    worth nothing from now on (the referee logs in again with the PIN)."""
    ctx().referee_sessions.end_all()
    session.clear()
    return redirect(url_for("referee.console"), code=303)


def _answer(form_id: str, command: Callable[[], Command]) -> Any:
    """Read the form as ``command`` reads it, have the table apply it, and go back to the
    console: done, with the table's answer on top; refused, with the sentence beside that form
    and what the referee typed still in it."""
    try:
        outcome = ask(command())
    except (FormError, Refused) as e:
        return referee_forms.keep(form_id, request.form, str(e))
    if not outcome.ok:  # said for people, without the rule's code (the API's "rule" has it)
        return referee_forms.keep(form_id, request.form, say(outcome.phrase) or outcome.message)
    flash(outcome.message or "Done.", "ok")
    return redirect(url_for("referee.console"), code=303)


@bp.post("/correct")
@referee_required
@csrf_protected
def correct() -> Any:
    form, kind = request.form, request.form.get("kind", "")
    if kind not in CORRECTIONS:  # each correction's form on the console is named by its kind
        flash(_("There is no correction “%(kind)s”; reload the console and use its forms.",
                kind=kind[:40]), "error")
        return redirect(url_for("referee.console"), code=303)
    refusal = new_game_refusal(kind)
    if refusal is not None:
        return referee_forms.keep(kind, form, refusal)
    seats = ctx().seat_names()
    if kind == "fix-dice":
        return _answer(kind, lambda: referee_forms.fix_dice(form, seats))
    if kind == "new-game":
        return _answer(kind, lambda: referee_forms.new_game(form))
    return _answer(kind, lambda: referee_forms.correction(kind, form))


@bp.post("/dice")
@referee_required
@csrf_protected
def dice() -> Any:
    seats = ctx().seat_names()
    return _answer("enter-dice", lambda: referee_forms.enter_dice(request.form, seats))


@bp.post("/zones")
@referee_required
@csrf_protected
def zones() -> Any:
    """The zones form: x, y, w, h per seat, as ``POST /api/referee/zones`` takes them."""
    seats, controller = ctx().seat_names(), ctx().controller
    typed = referee_forms.zones_typed(request.form, seats)
    problem = referee_forms.zones_problem(typed, seats, controller.watcher)
    if problem is not None:
        return referee_forms.keep("zones", request.form, problem, seats)
    outcome = controller.set_zones(typed, "referee")
    if not outcome.ok:
        return referee_forms.keep("zones", request.form, outcome.message, seats)
    flash(outcome.message, "ok")
    return redirect(url_for("referee.console"), code=303)


@bp.post("/reread")
@referee_required
@csrf_protected
def reread() -> Any:
    seats = ctx().seat_names()
    return _answer("reread", lambda: Reread(referee_forms.seat_chosen(
        request.form.get("seat", ""), seats), "referee"))


@bp.post("/pin")
@referee_required
@csrf_protected
def change_pin() -> Any:
    """A new PIN, kept in the log; every other console is logged out (a PIN is changed when
    the old one got about), and this one stays in."""
    refusal = pin().change(request.form.get("pin", ""), request.form.get("again", ""))
    if refusal is not None:
        return referee_forms.keep("pin", {}, refusal)  # a PIN typed is never kept
    ctx().referee_sessions.end_all()
    response = log_in_here(ctx().devices.device_of(request.cookies.get(DEVICE_COOKIE)))
    flash(_("The new PIN opens the console from now on, after a restart too; every other "
            "console was logged out."), "ok")  # after log_in_here, which clears the session
    return response


@bp.get("/camera.jpg")
@referee_required
def camera() -> Any:
    try:
        return camera_picture(request.args.get("annotated", "1") != "0")
    except Refused as e:
        return error_page(e.status, e.sentence)


@bp.get("/qr/<seat>.svg")
@referee_required
def qr(seat: str) -> Any:
    if seat not in ctx().seat_names():
        return error_page(404, f"There is no seat named {seat!r} at this table.")
    return Response(qr_svg(seat_url(base_url(), seat)), mimetype="image/svg+xml")


@bp.get("/export")
@referee_required
def export() -> Any:
    """Every finished game's record, as one JSON file to download."""
    records = []
    for game in finished_games():
        record = finished_record(game["id"])
        if record is not None:
            records.append({"id": game["id"], "record": record})
    return Response(json.dumps(records, ensure_ascii=False, indent=1),
                    mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="bidou-records.json"'})

