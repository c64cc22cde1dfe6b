"""A press past its seat's rate is refused here, before Flask sees the request.

Why: a script holding a seat token and pressing as fast as it can (issue 13's press flood,
about 350 presses a second) was refused 429 by the rate limit, but only after Flask had built
a request, opened a session, matched the route, parsed the body and checked the token: a
millisecond of the interpreter each, which every other request and every event stream waited
for. Here the refusal costs a token comparison and a bucket look-up, and says the same thing
(``{"error": ..., "rule": null}``, ``Retry-After``, the same headers) as the view would.

Only a refusal is answered here; any press within its rate, and every other request, goes on
to the app, which checks everything again and spends the press.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from table_server.auth import PressLimiter, SeatTokens
from table_server.secure_headers import SECURE_HEADERS

#: The endpoints where a seat token presses (``table_server.api``).
PRESS_PATHS = frozenset({"/api/press", "/api/act"})


def too_many_presses(seat: str) -> str:
    """The sentence of a press past its seat's rate (the view and the gate say the same)."""
    return f"Too many presses from {seat}'s seat; wait a moment and press again."


class PressGate:
    """WSGI middleware: see the module docstring. ``context()`` gives the app's tokens and
    press limiter (read per request: a test may replace them)."""

    def __init__(self, app: Callable[..., Iterable[bytes]],
                 limits: Callable[[], tuple[SeatTokens, PressLimiter]]) -> None:
        self.app, self.limits = app, limits

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") in PRESS_PATHS:
            scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                tokens, presses = self.limits()
                seat = tokens.seat_of(token.strip())
                wait = presses.waiting(seat) if seat is not None else 0.0
                if seat is not None and wait > 0:
                    return _refuse(start_response, too_many_presses(seat), wait)
        return self.app(environ, start_response)


def _refuse(start_response: Any, sentence: str, wait: float) -> list[bytes]:
    body = (json.dumps({"error": sentence, "rule": None}, separators=(",", ":")) + "\n").encode()
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
               ("Retry-After", str(max(1, math.ceil(wait)))), ("Cache-Control", "no-store"),
               *SECURE_HEADERS.items()]
    start_response("429 TOO MANY REQUESTS", headers)
    return [body]
