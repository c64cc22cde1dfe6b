"""What every view shares: the app's Context, the table's answers, and how errors are given.

As flaskr's blueprints import ``db`` and never the factory, the blueprints here import this
module: ``ctx()`` for the controller and settings, ``ask(command)`` to have the table apply a
command, :class:`Refused` to answer with a JSON error (``api``) or a page (``error_page``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, jsonify, render_template

from firmware.settings.server_settings import ServerSettings
from firmware.table.commands import Command, Outcome
from firmware.table.controller import TableController
from table_server.access.auth import (
    OneTimePasses,
    PressLimiter,
    RateLimiter,
    RefereeSessions,
    SeatTokens,
)
from table_server.access.devices import RefereeDevices
from table_server.streams.broadcast import Broadcaster
from table_server.streams.sse import Streams

#: How long a request waits for the table to apply its command.
ANSWER_TIMEOUT = 10.0
#: Event streams open at once (200 viewers is the target; each costs a socket).
MAX_STREAMS = 240


@dataclass
class Context:
    """What every view needs: the controller, the settings and the dashboard's own state."""

    controller: TableController
    settings: ServerSettings
    tokens: SeatTokens
    limiter: RateLimiter
    #: the browsers the referee logged in from (their device cookies, ``devices``)
    devices: RefereeDevices
    presses: PressLimiter = field(default_factory=PressLimiter)
    #: a player's words on shown dice (``POST /api/settle``), apart from the presses: two
    #: phones settling two seats at once must not find the bucket spent by the other's word
    settles: PressLimiter = field(default_factory=lambda: PressLimiter(rate=1.0, burst=4))
    referee_sessions: RefereeSessions = field(default_factory=lambda: RefereeSessions())
    #: links with which a logged-in console logs in another device (``referee_pass``)
    passes: OneTimePasses = field(default_factory=OneTimePasses)
    streams: Streams = field(default_factory=lambda: Streams(MAX_STREAMS))
    stopping: threading.Event = field(default_factory=threading.Event)
    #: writes every event stream once the real server runs (``Dashboard.start``)
    broadcaster: Broadcaster | None = None

    def seat_names(self) -> list[str]:
        """The seats of the current game, in order."""
        return [s["name"] for s in self.controller.public_state().get("seats", [])]


def ctx() -> Context:
    """The Context of the app handling this request."""
    context: Context = current_app.extensions["bidou"]
    return context


class Refused(Exception):
    """Raised inside a view to answer with an error: a status, a sentence, maybe a rule."""

    def __init__(self, status: int, sentence: str, rule: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(sentence)
        self.status, self.sentence, self.rule = status, sentence, rule
        self.retry_after = retry_after

    def __str__(self) -> str:
        return self.sentence + (f" ({self.rule})" if self.rule else "")


def json_error(status: int, sentence: str, rule: str | None = None, **headers: str) -> Any:
    """The API's error answer: ``{"error": SENTENCE, "rule": ID or null}`` with a 4xx status."""
    response = jsonify({"error": sentence, "rule": rule})
    response.status_code = status
    for key, value in headers.items():
        response.headers[key.replace("_", "-")] = value
    return response


def error_page(status: int, sentence: str) -> Any:
    """An HTML page with one sentence saying what is wrong and what to do."""
    return render_template("error.html", status=status, sentence=sentence), status


def ask(command: Command) -> Outcome:
    """Have the table apply ``command`` and return its Outcome (a refusal is an Outcome too,
    and so is a command still being applied when the wait ran out: ``Outcome.pending``).
    503 with Retry-After when the table did not take it (too many waiting, or withdrawn
    unplayed after the wait): nothing was played, and sending it again is safe."""
    outcome = ctx().controller.submit(command, timeout=ANSWER_TIMEOUT)
    if outcome.busy:
        raise Refused(503, outcome.message, retry_after=1)
    return outcome


def finished_games() -> list[dict[str, Any]]:
    """The log's games that are over or abandoned (a game in progress is not history yet).

    The table's live game is left out unless it is over, whatever its row says: a game that
    is being played is never history, since its record holds every concealed throw."""
    controller = ctx().controller
    live = controller.live_game_id
    return [g for g in controller.games() if g.get("status") != "playing"
            and (g["id"] != live or g.get("status") == "over")]


def finished_record(game_id: int) -> dict[str, Any] | None:
    """The record of finished game ``game_id`` as a dict, or None if unknown or still playing."""
    if not any(g["id"] == game_id for g in finished_games()):
        return None
    record = ctx().controller.record(game_id)
    return record.to_dict() if record is not None else None


def camera_picture(annotated: bool) -> Response:
    """The camera's JPEG (annotated or not); 503 with a sentence when there is none."""
    try:
        jpeg = ctx().controller.camera_jpeg(annotated)
    except OSError as e:
        raise Refused(503, f"No camera picture: {e}") from None
    if not jpeg:
        raise Refused(503, "The camera has not given a picture yet; check that it is plugged "
                           "in and wait a moment.")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
