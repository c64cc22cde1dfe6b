"""``create_app(controller, settings)``: the one place where the dashboard is put together.

As in Flask's flaskr, this module is the factory alone: configuration is decided here and
views live in blueprints, one per page group: ``api`` (JSON and the event stream), ``pages``
(table view, seat controllers), ``referee`` (the PIN-protected console) and ``history``. The
blueprints share ``table_server.context`` (the Context, errors), ``guards`` (who asks) and
``validation`` (what was sent), never this module. The app talks to the table only through
the controller's facade (docs/architecture.md), so it never touches engine state or hardware
itself, and tests build it on the real controller of a simulated table.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from firmware.settings.server_settings import ServerSettings
from firmware.table.controller import TableController
from firmware.words.phrases import N_
from table_server.access import referee_pass
from table_server.access.auth import PressLimiter, RateLimiter, SeatTokens
from table_server.access.devices import RefereeDevices, device_key
from table_server.access.press_gate import PressGate
from table_server.console import dice_teach, referee
from table_server.console.league_seats import bp as league_seats_bp
from table_server.context import Context, error_page, json_error
from table_server.pages import api, history
from table_server.pages import screens as pages
from table_server.words import howto, i18n
from web.guard import guard
from web.hosts import AllowedHosts

#: The largest request body the dashboard reads (a press is a few dozen bytes).
MAX_BODY = 64 * 1024
#: Paths whose answers are never cached (they carry a seat's or the referee's view).
PRIVATE_PREFIXES = ("/api/", "/seat/", "/referee")

_HTTP_SENTENCES = {
    400: N_("The request is malformed; check its parameters and body."),
    404: N_("There is no such page or endpoint here; the API is described in "
            "docs/dashboard.md."),
    405: N_("This endpoint does not accept that HTTP method; see docs/dashboard.md."),
    413: N_("The request body is too large: the table takes at most 64 KiB; send less."),
    500: N_("The dashboard hit a bug answering this; the game is safe in the log. Tell the "
            "referee, and report it with the table's log output."),
}
#: What a person's browser is told instead, on a page rather than the API.
_PAGE_SENTENCES = {
    404: N_("There is no such page at this table; the links at the top lead to its pages."),
}


def create_app(controller: TableController, settings: ServerSettings, *,
               tokens: SeatTokens | None = None,
               limiter: RateLimiter | None = None,
               presses: PressLimiter | None = None, hold_refusals: int = 0,
               settles: PressLimiter | None = None) -> Flask:
    """The dashboard's Flask app, serving ``controller`` with ``settings`` (``tokens``,
    ``limiter``, ``presses`` and ``settles`` given by tests that need their clocks;
    ``hold_refusals``: how many presses past their rate may be held at once,
    ``table_server.access.press_gate``)."""
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    seats = [s["name"] for s in controller.public_state().get("seats", [])]
    app.extensions["bidou"] = Context(
        controller=controller,
        settings=settings,
        tokens=tokens or SeatTokens(seats, key=controller.seat_key()),
        limiter=limiter or RateLimiter(max_failures=settings.max_failures),
        devices=RefereeDevices(device_key(controller.seat_key()),
                               max_failures=settings.max_failures),
        presses=presses or PressLimiter(),
    )
    if settles is not None:
        app.extensions["bidou"].settles = settles

    context: Context = app.extensions["bidou"]

    def refuse(status: int, sentence: str) -> Any:
        if request.path.startswith("/api/"):
            return json_error(status, sentence)
        return error_page(status, sentence)

    guard(app, AllowedHosts(public_url=settings.public_url, listen_host=settings.host), refuse,
          who="This table", set_name="set [server] public_url", max_body=MAX_BODY,
          private_prefixes=PRIVATE_PREFIXES,
          larger={dice_teach.UPLOAD_PATH: dice_teach.UPLOAD_BODY})
    app.wsgi_app = PressGate(  # type: ignore[method-assign]
        app.wsgi_app, lambda: (context.tokens, context.presses), hold_slots=hold_refusals)

    i18n.install(app, settings.language)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(referee_pass.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(howto.bp)
    app.register_blueprint(dice_teach.bp)
    app.register_blueprint(league_seats_bp)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Any:
        api = request.path.startswith("/api/")
        known = (None if api else _PAGE_SENTENCES.get(e.code or 400)) \
            or _HTTP_SENTENCES.get(e.code or 400)
        sentence = i18n.say(known) if known else (e.description or "The request failed.")
        if e.code == 413 and request.path == dice_teach.UPLOAD_PATH:
            sentence = dice_teach.UPLOAD_TOO_LARGE
        if api:
            return json_error(e.code or 400, sentence)
        return error_page(e.code or 400, sentence)

    return app
