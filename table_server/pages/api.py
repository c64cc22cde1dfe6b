"""The HTTP API: public state and its event stream, seat and referee actions, finished games.

Every refusal is JSON ``{"error": SENTENCE, "rule": ID or null}`` with a 4xx status, checked in
a fixed order: who is asking (401/429), whether the body makes sense (400), whether the seat
exists (404), whether this caller may act for it (403), whether its seat presses too fast
(429), whether the table takes it (503 with Retry-After: nothing played) and last what the
rules say (409). A command the table had begun when the wait ran out is answered 202 with an
id; ``GET /api/commands/ID`` gives its outcome.
Anything else would be a bug, and shows as a 500.
"""

from __future__ import annotations

import math
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    request,
    stream_with_context,
    url_for,
)

from engine.actions import VERBS
from firmware.table.commands import Act, EnterDice, Outcome, Press, Reread, Settle
from hardware.panel import BUTTONS
from table_server.access.guards import Caller, caller, check_may_act, require_referee
from table_server.access.press_gate import too_many_presses
from table_server.console.dice_teach import new_game_refusal
from table_server.context import (
    Refused,
    ask,
    camera_picture,
    ctx,
    finished_games,
    finished_record,
    json_error,
)
from table_server.streams.sse import event_stream
from table_server.validation import (
    correction_from,
    dice_values,
    existing_seat,
    given,
    json_body,
    no_unknown_keys,
)
from table_server.words import i18n
from table_server.words.present import decorate
from web import sse
from web.wsgi_server import HAND_OVER

bp = Blueprint("api", __name__, url_prefix="/api")

#: An event stream's headers: never cached, never buffered by a proxy.
ACT_EXAMPLE = '{"seat": "Ann", "action": "bet", "chips": 1}'


@bp.errorhandler(Refused)
def _refused(e: Refused) -> Any:
    if e.retry_after is not None:
        return json_error(e.status, e.sentence, e.rule, Retry_After=str(e.retry_after))
    return json_error(e.status, e.sentence, e.rule)


def answer(outcome: Outcome, refused_status: int = 409) -> Any:
    """200 with the new public state for an accepted command; 202 with the id to ask about
    for one the table is still applying; the refusal (409) otherwise."""
    if outcome.pending is not None:
        return _pending(outcome)
    if not outcome.ok:  # said in the asker's language (the rule's code stays in "rule")
        raise Refused(refused_status, i18n.say(outcome.phrase) or outcome.message, outcome.rule)
    return jsonify({"ok": True, "message": outcome.message,
                    "state": decorate(ctx().controller.public_state())})


def _pending(outcome: Outcome) -> Any:
    """202: the table has begun the command and not finished it; GET ``outcome`` tells."""
    assert outcome.pending is not None
    response = jsonify({"ok": False, "pending": outcome.pending, "message": outcome.message,
                        "outcome": url_for("api.command_outcome", command_id=outcome.pending)})
    response.status_code = 202
    return response


def check_press_rate(who: Caller, seat: str) -> None:
    """429 when a seat token presses faster than a hand can (the referee is not limited)."""
    if who.referee:
        return
    wait = ctx().presses.take(seat)
    if wait > 0:
        raise Refused(429, too_many_presses(seat), retry_after=math.ceil(wait))


def repeat_id(data: dict[str, Any]) -> str | None:
    """A press's or act's optional ``id`` (1-64 characters): a repeat of it within a moment is
    the same command (``firmware.table.press_repeats``). 400 for anything else."""
    found = data.get("id")
    if found is not None and not (isinstance(found, str) and 0 < len(found) <= 64):
        raise Refused(400, f"The field \"id\" must be a text of 1 to 64 characters naming "
                           f"the press, or left out{given(found)}.")
    return found


# --- public ---------------------------------------------------------------------------


@bp.get("/state")
def state() -> Any:
    """The public state: no concealed die, ever."""
    return jsonify(decorate(ctx().controller.public_state()))


@bp.get("/events")
def events() -> Response:
    """Server-Sent Events: the current public state, then one event per state change."""
    c = ctx()
    hand_over = request.environ.get(HAND_OVER)
    if c.broadcaster is not None and hand_over is not None:
        release = c.streams.reserve()
        if release is None:
            raise _too_many_streams(c.streams.limit)
        broadcaster = c.broadcaster
        hand_over.take = lambda sock, chunked: broadcaster.add(sock, chunked=chunked,
                                                               release=release)
        hand_over.abandon = release
        return sse.response(iter(()))
    # off the real server (the test client): the stream written by the request's own thread
    subscription = c.streams.open(c.controller)
    if subscription is None:
        raise _too_many_streams(c.streams.limit)
    stream = event_stream(c.controller, keepalive=c.settings.keepalive, stopping=c.stopping,
                          transform=decorate, streams=c.streams, subscription=subscription)
    response = sse.response(stream_with_context(stream))
    # a client gone before the first chunk never starts the generator: close here too
    response.call_on_close(lambda: c.streams.close(subscription))
    return response


def _too_many_streams(limit: int) -> Refused:
    return Refused(503, f"{limit} screens already follow the table, which is as many as it "
                        "serves; close one, or read GET /api/state.", retry_after=30)


@bp.get("/games")
def games() -> Any:
    """Finished games (a game in progress is not history yet)."""
    return jsonify({"games": finished_games()})


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
    no_unknown_keys(data, ("seat", "action", "chips", "id"))
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
    act_id = repeat_id(data)
    check_may_act(who, seat)
    check_press_rate(who, seat)
    source = "referee" if who.referee else "web"
    return answer(ask(Act(seat, verb, chips if takes_chips else None, source, act_id)))


@bp.post("/press")
def press() -> Any:
    """``{"seat", "button", "long", "id"}``: a seat-panel press from a seat controller page;
    ``id`` (optional) names the press, so a repeat of it (a double tap) gets the first one's
    answer and does nothing else (``firmware.table.press_repeats``)."""
    who = caller()
    data = json_body('{"seat": "Ann", "button": "THROW", "long": false, "id": "t1"}')
    no_unknown_keys(data, ("seat", "button", "long", "id"))
    seat = existing_seat(data.get("seat"))
    button = data.get("button")
    if button not in BUTTONS:
        raise Refused(400, f"The field \"button\" must be one of {', '.join(BUTTONS)}"
                           f"{given(button)}.")
    long = data.get("long", False)
    if not isinstance(long, bool):
        raise Refused(400, f"The field \"long\" must be true or false{given(long)}.")
    press_id = repeat_id(data)
    check_may_act(who, seat)
    check_press_rate(who, seat)
    return answer(ask(Press(seat, button, long, "referee" if who.referee else "web",
                            press_id)))


@bp.post("/settle")
def settle() -> Any:
    """``{"seat", "player", "values"}``: ``player`` says what ``seat``'s exposed dice show,
    while their values are pending at exposure (docs/rules/pending.md, D-S4); the player's
    own token. From the referee it is the referee's entry: it settles them at once."""
    who = caller()
    data = json_body('{"seat": "Ann", "player": "Bob", "values": [6, 5, 4]}')
    no_unknown_keys(data, ("seat", "player", "values"))
    seat = existing_seat(data.get("seat"))
    player = existing_seat(data.get("player", who.seat or seat))
    values = dice_values(data.get("values"))
    check_may_act(who, player)
    if not who.referee:  # one word per player and seat: its own bucket, not the presses'
        wait = ctx().settles.take(f"{player}\x00{seat}")
        if wait > 0:
            raise Refused(429, f"Too many words from {player} on {seat}'s dice; wait a "
                               "moment and say them again.", retry_after=math.ceil(wait))
    if who.referee:
        return answer(ask(EnterDice(seat, values, "referee")))
    return answer(ask(Settle(seat, values, player, "web")))


@bp.get("/settle/<seat>.jpg")
def settle_picture(seat: str) -> Any:
    """The camera's picture of ``seat``'s exposed dice, the unsure ones marked, only while
    their values are being settled (404 otherwise: it never shows a concealed throw). Public,
    like the table view that shows it: the dice in it are exposed."""
    seat = existing_seat(seat)
    try:
        jpeg = ctx().controller.settle_jpeg(seat)
    except LookupError as e:
        raise Refused(404, str(e)) from None
    except OSError as e:
        raise Refused(503, f"No picture: {e}") from None
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/commands/<command_id>")
def command_outcome(command_id: str) -> Any:
    """The outcome of a command answered 202: 202 again while it is applied, then 200 with
    ``ok`` and ``message`` (a refusal too: it was decided, not failed)."""
    caller()
    outcome = ctx().controller.command_outcome(command_id)
    if outcome is None:
        raise Refused(404, f"There is no pending command {command_id!r}; the id comes from a "
                           "202 answer, and outcomes are kept for the latest 256 only.")
    if outcome.pending is not None:
        return _pending(outcome)
    return jsonify({"ok": outcome.ok, "message": outcome.message, "rule": outcome.rule})


@bp.get("/seat/<seat>")
def seat_state(seat: str) -> Any:
    """The public state plus this seat's own dice and last refusal (its token, or referee)."""
    who = caller()
    seat = existing_seat(seat)
    check_may_act(who, seat)
    try:
        return jsonify(decorate(ctx().controller.seat_state(seat)))
    except KeyError:  # the referee started a game with other names since the check above
        seats = ", ".join(ctx().seat_names())
        raise Refused(404, f"There is no seat named {seat!r} at this table any more; the "
                           f"referee started a new game, whose seats are {seats}.") from None


# --- referee --------------------------------------------------------------------------


@bp.get("/referee/state")
def referee_state() -> Any:
    require_referee(allow_session=True)
    state = ctx().controller.referee_state()
    status = current_app.config.get("VENUE_STATUS")  # [venue]: the forwarder's status
    if status is not None:
        state["venue"] = status()
    return jsonify(state)


@bp.get("/referee/camera.jpg")
def camera() -> Any:
    require_referee(allow_session=True)
    annotated = request.args.get("annotated", "1") not in ("0", "false", "no")
    return camera_picture(annotated)


@bp.post("/referee/dice")
def enter_dice() -> Any:
    """``{"seat", "values"}``: the referee enters dice the camera could not read."""
    require_referee()
    data = json_body('{"seat": "Ann", "values": [6, 5, 4]}')
    no_unknown_keys(data, ("seat", "values"))
    seat = existing_seat(data.get("seat"))
    values = dice_values(data.get("values"))
    return answer(ask(EnterDice(seat, values, "referee")))


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
    return answer(ctx().controller.set_zones(data.get("zones"), "referee"), refused_status=400)


@bp.post("/referee/reread")
def reread() -> Any:
    """``{"seat"}``: read a seat's exposed dice again while their values are pending."""
    require_referee()
    data = json_body('{"seat": "Ann"}')
    no_unknown_keys(data, ("seat",))
    return answer(ask(Reread(existing_seat(data.get("seat")), "referee")))


@bp.post("/referee/correct")
def correct() -> Any:
    """``{"kind", "why", ...}``: undo, void a hand, fix a die or start a new game."""
    require_referee()
    data = json_body('{"kind": "undo", "why": "pressed by mistake"}')
    refusal = new_game_refusal(data.get("kind"))
    if refusal is not None:
        raise Refused(409, refusal)
    return answer(ask(correction_from(data)))
