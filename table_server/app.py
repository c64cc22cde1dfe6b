"""``create_app(controller, settings)``: the one place where the dashboard is put together.

As in Flask's flaskr, configuration is decided here and views live in blueprints, one per
page group: ``api`` (JSON and the event stream), ``pages`` (table view, seat controllers),
``referee`` (the PIN-protected console) and ``history``. The app talks to the table only
through the controller's facade (docs/architecture.md), so it never touches engine state
or hardware itself, and tests can build it on the real controller in simulation.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from table_server.auth import RateLimiter, SeatTokens
from table_server.settings import ServerSettings


@dataclass
class Context:
    """What every view needs: the controller, the settings and the dashboard's own state."""

    controller: Any
    settings: ServerSettings
    tokens: SeatTokens
    limiter: RateLimiter
    stopping: threading.Event = field(default_factory=threading.Event)

    def seat_names(self) -> list[str]:
        """The seats of the current game, in order."""
        return [s["name"] for s in self.controller.public_state().get("seats", [])]


def ctx() -> Context:
    """The Context of the app handling this request."""
    return current_app.extensions["bidou"]


def json_error(status: int, sentence: str, rule: str | None = None, **headers: str) -> Any:
    """The API's error answer: ``{"error": SENTENCE, "rule": ID or null}`` with a 4xx status."""
    response = jsonify({"error": sentence, "rule": rule})
    response.status_code = status
    for key, value in headers.items():
        response.headers[key.replace("_", "-")] = value
    return response


_HTTP_SENTENCES = {
    400: "The request is malformed; check its parameters and body.",
    404: "There is no such page or endpoint here; the API is described in docs/dashboard.md.",
    405: "This endpoint does not accept that HTTP method; see docs/dashboard.md.",
    413: "The request body is too large.",
    500: "The dashboard hit a bug answering this; the game is safe in the log. Tell the "
         "referee, and report it with the table's log output.",
}


def create_app(controller: Any, settings: ServerSettings, *,
               tokens: SeatTokens | None = None,
               limiter: RateLimiter | None = None) -> Flask:
    """The dashboard's Flask app, serving ``controller`` with ``settings``."""
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=settings.secret_key,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        MAX_CONTENT_LENGTH=64 * 1024,
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    seats = [s["name"] for s in controller.public_state().get("seats", [])]
    app.extensions["bidou"] = Context(
        controller=controller,
        settings=settings,
        tokens=tokens or SeatTokens(seats),
        limiter=limiter or RateLimiter(max_failures=settings.max_failures),
    )

    from table_server import api, history, pages, referee

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(history.bp)

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Any:
        sentence = _HTTP_SENTENCES.get(e.code or 400, e.description or "The request failed.")
        if request.path.startswith("/api/"):
            return json_error(e.code or 400, sentence)
        return pages.error_page(e.code or 400, sentence)

    @app.after_request
    def _secure_headers(response: Any) -> Any:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
        )
        if request.path.startswith(("/api/", "/seat/", "/referee")):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
