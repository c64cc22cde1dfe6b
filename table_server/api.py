"""The HTTP API: public state and its event stream, seat and referee actions, finished games.

Every refusal is JSON ``{"error": SENTENCE, "rule": ID or null}`` with a 4xx status, checked in
a fixed order: who is asking (401/429), whether the body makes sense (400), whether the seat
exists (404), whether this caller may act for it (403), and last what the rules say (409).
Anything else would be a bug, and shows as a 500.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, request, session, stream_with_context

from engine.actions import VERBS
from table_server.app import ctx, json_error
from table_server.auth import same_secret
from table_server.present import decorate
from table_server.sse import event_stream

bp = Blueprint("api", __name__, url_prefix="/api")

BUTTONS = ("THROW", "BET", "CALL", "PASS")
CORRECTIONS = ("fix-dice", "undo", "void-hand", "new-game")
ACT_EXAMPLE = '{"seat": "Ann", "action": "bet", "chips": 1}'


@dataclass(frozen=True)
class Caller:
    """Who sent a request: the referee, or the holder of one seat's token."""

    referee: bool = False
    seat: str | None = None

    def may_act_for(self, seat: str) -> bool:
        return self.referee or self.seat == seat


class Refused(Exception):
    """Raised inside a view to answer with a JSON error."""

    def __init__(self, status: int, sentence: str, rule: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(sentence)
        self.status, self.sentence, self.rule = status, sentence, rule
        self.retry_after = retry_after


@bp.errorhandler(Refused)
def _refused(e: Refused) -> Any:
    if e.retry_after is not None:
        return json_error(e.status, e.sentence, e.rule, Retry_After=str(e.retry_after))
    return json_error(e.status, e.sentence, e.rule)


def client_address() -> str:
    return request.remote_addr or "unknown"


def check_not_blocked() -> None:
    """Refuse with 429 when this address has failed too many PIN or token checks."""
    limiter = ctx().limiter
    message = limiter.blocked_message(client_address())
    if message:
        raise Refused(429, message, retry_after=int(limiter.retry_after(client_address())) + 1)


def caller(*, allow_session: bool = False) -> Caller:
    """Authenticate the request by its Bearer token (or, for reads, the console session)."""
    check_not_blocked()
    c = ctx()
    header = request.headers.get("Authorization", "")
    if not header:
        if allow_session and session.get("referee"):
            return Caller(referee=True)
        raise Refused(401, "This request needs the header 'Authorization: Bearer TOKEN' with "
                           "a seat's token (from its QR code) or the referee token.")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Refused(401, "The Authorization header must read 'Bearer TOKEN'; "
                           "other schemes are not accepted.")
    is_referee = same_secret(token, c.settings.referee_token)
    seat = c.tokens.seat_of(token)
    if is_referee:
        return Caller(referee=True)
    if seat is not None:
        return Caller(seat=seat)
    c.limiter.fail(client_address())
    raise Refused(401, "That token is not valid at this table; open the seat page again from "
                       "its QR code on the referee console, or use the referee token.")


def require_referee(*, allow_session: bool = False) -> Caller:
    who = caller(allow_session=allow_session)
    if not who.referee:
        raise Refused(403, f"Only the referee may do this; the token given is {who.seat}'s "
                           f"seat token.")
    return who


def json_body(example: str) -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what to send."""
    try:
        data = request.get_json(silent=True, force=True)
    except RecursionError:  # nested past Python's limit: not a request anyone means to send
        data = None
    if not isinstance(data, dict):
        raise Refused(400, f"The request body must be a JSON object such as {example}.")
    return data


def given(value: Any) -> str:
    """The end of a refusal saying what the client sent, in JSON's words (null, true,
    "2"), not Python's (None, True, '2'): ``; none was given`` or ``, not VALUE``."""
    if value is None:
        return "; none was given"
    text = json.dumps(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f", not {text}"


def no_unknown_keys(data: dict[str, Any], known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            raise Refused(400, f"Unknown field {key!r}; the fields are {', '.join(known)}.")


def existing_seat(value: Any) -> str:
    """``value`` as a seat of the current game, or 400/404 naming the seats."""
    seats = ctx().seat_names()
    if not isinstance(value, str) or not value:
        raise Refused(400, f"The field \"seat\" must be a seat's name, one of {', '.join(seats)}.")
    if value not in seats:
        raise Refused(404, f"There is no seat named {value!r} at this table; the seats are "
                           f"{', '.join(seats)}.")
    return value


def check_may_act(who: Caller, seat: str) -> None:
    if not who.may_act_for(seat):
        raise Refused(403, f"This token is {who.seat}'s seat token; it can act only for "
                           f"{who.seat}, not for {seat}.")


def outcome_response(outcome: Any) -> Any:
    """200 with the new public state for an accepted command, 409 with the refusal otherwise."""
    if not outcome.ok:
        raise Refused(409, outcome.message, outcome.rule)
    return jsonify({"ok": True, "message": outcome.message,
                    "state": decorate(ctx().controller.public_state())})


def submit(command: Any) -> Any:
    try:
        outcome = ctx().controller.submit(command, timeout=10.0)
    except TimeoutError:
        raise Refused(503, "The table did not answer within 10 seconds; check that it is "
                           "running and try again.") from None
    return outcome_response(outcome)


def commands() -> Any:
    """The controller's command classes (imported late: the app only needs the facade)."""
    from firmware import controller

    return controller


# --- public ---------------------------------------------------------------------------


@bp.get("/state")
def state() -> Any:
    """The public state: no concealed die, ever."""
    return jsonify(decorate(ctx().controller.public_state()))


@bp.get("/events")
def events() -> Response:
    """Server-Sent Events: the current public state, then one event per state change."""
    c = ctx()
    stream = event_stream(c.controller, keepalive=c.settings.keepalive, stopping=c.stopping,
                          transform=decorate)
    return Response(stream_with_context(stream), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/games")
def games() -> Any:
    """Finished games (a game in progress is not history yet)."""
    return jsonify({"games": finished_games()})


def finished_games() -> list[dict[str, Any]]:
    return [g for g in ctx().controller.games() if g.get("status") != "playing"]


def finished_record(game_id: int) -> dict[str, Any] | None:
    """The record of finished game ``game_id`` as a dict, or None if unknown or still playing."""
    if not any(g["id"] == game_id for g in finished_games()):
        return None
    record = ctx().controller.record(game_id)
    if record is None:
        return None
    return record.to_dict() if hasattr(record, "to_dict") else dict(record)


@bp.get("/games/<int:game_id>")
def game_record(game_id: int) -> Any:
    record = finished_record(game_id)
    if record is None:
        raise Refused(404, f"There is no finished game {game_id}; GET /api/games lists them "
                           "(a game in progress is shown only when it is over).")
    return jsonify(record)


# --- seats ----------------------------------------------------------------------------


@bp.post("/act")
def act() -> Any:
    """``{"seat", "action", "chips"}``: play a verb for a seat (its token, or the referee's)."""
    who = caller()
    data = json_body(ACT_EXAMPLE)
    no_unknown_keys(data, ("seat", "action", "chips"))
    seat = existing_seat(data.get("seat"))
    verb = data.get("action")
    if not isinstance(verb, str) or verb not in VERBS:
        raise Refused(400, f"The field \"action\" must be one of {', '.join(VERBS)}{given(verb)}.")
    chips = data.get("chips")
    takes_chips = VERBS[verb][1] == "chips"
    if takes_chips:
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
            raise Refused(400, f"A {verb} needs \"chips\": a whole number of chips, at least 1"
                               f"{given(chips)}.")
    elif chips not in (None, 0):
        raise Refused(400, f"A {verb} takes no chips; leave \"chips\" out.")
    check_may_act(who, seat)
    source = "referee" if who.referee else "web"
    return submit(commands().Act(seat, verb, chips if takes_chips else None, source))


@bp.post("/press")
def press() -> Any:
    """``{"seat", "button", "long"}``: a seat-panel press from a seat controller page."""
    who = caller()
    data = json_body('{"seat": "Ann", "button": "THROW", "long": false}')
    no_unknown_keys(data, ("seat", "button", "long"))
    seat = existing_seat(data.get("seat"))
    button = data.get("button")
    if button not in BUTTONS:
        raise Refused(400, f"The field \"button\" must be one of {', '.join(BUTTONS)}"
                           f"{given(button)}.")
    long = data.get("long", False)
    if not isinstance(long, bool):
        raise Refused(400, f"The field \"long\" must be true or false{given(long)}.")
    check_may_act(who, seat)
    return submit(commands().Press(seat, button, long, "referee" if who.referee else "web"))


@bp.get("/seat/<seat>")
def seat_state(seat: str) -> Any:
    """The public state plus this seat's own dice and last refusal (its token, or referee)."""
    who = caller()
    seat = existing_seat(seat)
    check_may_act(who, seat)
    return jsonify(decorate(ctx().controller.seat_state(seat)))


# --- referee --------------------------------------------------------------------------


@bp.get("/referee/state")
def referee_state() -> Any:
    require_referee(allow_session=True)
    return jsonify(ctx().controller.referee_state())


@bp.get("/referee/camera.jpg")
def camera() -> Any:
    require_referee(allow_session=True)
    annotated = request.args.get("annotated", "1") not in ("0", "false", "no")
    return camera_response(annotated)


def camera_response(annotated: bool) -> Any:
    try:
        jpeg = ctx().controller.camera_jpeg(annotated)
    except OSError as e:
        raise Refused(503, f"No camera picture: {e}") from None
    if not jpeg:
        raise Refused(503, "The camera has not given a picture yet; check that it is plugged "
                           "in and wait a moment.")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/referee/dice")
def enter_dice() -> Any:
    """``{"seat", "values"}``: the referee enters dice the camera could not read."""
    require_referee()
    data = json_body('{"seat": "Ann", "values": [6, 5, 4]}')
    no_unknown_keys(data, ("seat", "values"))
    seat = existing_seat(data.get("seat"))
    values = dice_values(data.get("values"))
    return submit(commands().EnterDice(seat, values, "referee"))


def dice_values(values: Any) -> tuple[int, ...]:
    if (not isinstance(values, list) or len(values) not in (1, 3)
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6
                       for v in values)):
        raise Refused(400, f"The field \"values\" must be a list of three dice (one for a "
                           f"captain roll), each 1 to 6{given(values)}.")
    return tuple(values)


@bp.get("/referee/zones")
def get_zones() -> Any:
    """The camera zones the table reads now: ``{"zones": {seat: {x, y, w, h}}}``."""
    require_referee(allow_session=True)
    return jsonify({"zones": ctx().controller.zones()})


@bp.post("/referee/zones")
def set_zones() -> Any:
    """``{"zones": {seat: {x, y, w, h}}}``: the referee gives the seats' dice zones (instead
    of ``bidou-table calibrate``); checked as the config's ``[zones]``, read from at once and
    saved in the config when the table was started with one."""
    require_referee()
    data = json_body('{"zones": {"Ann": {"x": 10, "y": 10, "w": 300, "h": 200}, ...}}')
    no_unknown_keys(data, ("zones",))
    return zones_response(data.get("zones"))


def zones_response(table: Any) -> Any:
    outcome = ctx().controller.set_zones(table, "referee")
    if not outcome.ok:
        raise Refused(400, outcome.message)
    return outcome_response(outcome)


@bp.post("/referee/reread")
def reread() -> Any:
    """``{"seat"}``: read a seat that needs a look again (after the dice were tidied)."""
    require_referee()
    data = json_body('{"seat": "Ann"}')
    no_unknown_keys(data, ("seat",))
    return submit(commands().Reread(existing_seat(data.get("seat")), "referee"))


@bp.post("/referee/correct")
def correct() -> Any:
    """``{"kind", "why", ...}``: undo, void a hand, fix a die or start a new game."""
    require_referee()
    data = json_body('{"kind": "undo", "why": "pressed by mistake"}')
    return submit(correction_from(data))


def correction_from(data: dict[str, Any]) -> Any:
    """A controller Correct command from a JSON object or form; 400 naming what is wrong."""
    kind = data.get("kind")
    if kind not in CORRECTIONS:
        raise Refused(400, f"The field \"kind\" must be one of {', '.join(CORRECTIONS)}"
                           f"{given(kind)}.")
    why = data.get("why")
    if not isinstance(why, str) or not why.strip():
        raise Refused(400, "Say why in \"why\": every correction is kept in the log with its "
                           "reason.")
    known = {"fix-dice": ("position", "seat", "values"), "undo": (), "void-hand": (),
             "new-game": ("variant", "players", "options")}[kind]
    no_unknown_keys(data, ("kind", "why", *known))
    extra = {k: data[k] for k in known if k in data}
    if kind == "fix-dice":
        position = data.get("position")
        if position is None and "seat" not in data:
            raise Refused(400, "Say which dice to fix: \"position\" (the action's number in "
                               "the game record) or \"seat\" (that seat's latest throw).")
        if position is not None and (isinstance(position, bool)
                                     or not isinstance(position, int) or position < 1):
            raise Refused(400, "The field \"position\" must be the number (from 1) of the "
                               "action to fix in the game record.")
        if "seat" in data:
            extra["seat"] = existing_seat(data["seat"])
        extra["values"] = dice_values(data.get("values"))
    if kind == "new-game":
        players = data.get("players")
        if players is not None:
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise Refused(400, "The field \"players\" must be a list of names in seat "
                                   "order (or left out for the table's usual players).")
            extra["players"] = tuple(players)
        if "variant" in data and not isinstance(data["variant"], str):
            raise Refused(400, "The field \"variant\" must be two-hand, multi-hand or "
                               "montevideo.")
        if "options" in data and not isinstance(data["options"], dict):
            raise Refused(400, "The field \"options\" must be a JSON object.")
    return commands().Correct(kind, "referee", why.strip(), **extra)
