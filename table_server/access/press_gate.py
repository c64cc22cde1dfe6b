"""A press past its seat's rate is refused here, before Flask sees the request.

Why: a script holding a seat token and pressing as fast as it can (a press flood, about 350 presses
a second) is refused 429 by the app's rate limit only after Flask has built a request, opened a
session, matched the route, parsed the body and checked the token: a millisecond of the interpreter
each, which every other request and every event stream waits for. Here the refusal costs a token
comparison and a bucket look-up, and says the same thing (``{"error": ..., "rule": null}``,
``Retry-After``, the same headers) as the view would.

Only a refusal is answered here; any press within its rate, and every other request, goes on
to the app, which checks everything again and spends the press.

On the real server a refusal is also held until the seat may press again (its Retry-After, at
most ``HOLD_MAX`` seconds), ``hold_slots`` refusals at a time (the dashboard gives 4 of its 16
threads): a script that presses again the moment it is answered then presses a few times a
second instead of hundreds, and a phone pressing faster than a hand is told no later than it
could have pressed anyway. Refusals past the held ones are answered at once, so the hold can
never take the threads other requests need.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from table_server.access.auth import PressLimiter, SeatTokens, bearer_token
from web.secure_headers import SECURE_HEADERS

#: The endpoints where a seat token presses (``table_server.pages.api``).
PRESS_PATHS = frozenset({"/api/press", "/api/act"})
#: The longest a refusal is held (the seat's next press is rarely further off).
HOLD_MAX = 1.0


def too_many_presses(seat: str) -> str:
    """The sentence of a press past its seat's rate (the view and the gate say the same)."""
    return f"Too many presses from {seat}'s seat; wait a moment and press again."


class PressGate:
    """WSGI middleware: see the module docstring. ``limits()`` gives the app's tokens and
    press limiter (read per request: a test may replace them); ``hold_slots`` refusals are
    held at once (0: none, as under Flask's test client), with ``sleep``."""

    def __init__(self, app: Callable[..., Iterable[bytes]],
                 limits: Callable[[], tuple[SeatTokens, PressLimiter]], *,
                 hold_slots: int = 0, sleep: Callable[[float], None] = time.sleep) -> None:
        self.app, self.limits, self.sleep = app, limits, sleep
        self.hold_slots = hold_slots
        self._held = 0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") in PRESS_PATHS:
            token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
            if token is not None:
                tokens, presses = self.limits()
                seat = tokens.seat_of(token)
                wait = presses.waiting(seat) if seat is not None else 0.0
                if seat is not None and wait > 0:
                    self._hold(wait)
                    return _refuse(start_response, too_many_presses(seat),
                                   presses.waiting(seat))
        return self.app(environ, start_response)

    def _hold(self, wait: float) -> None:
        with self._lock:
            if self._held >= self.hold_slots:
                return
            self._held += 1
        try:
            self.sleep(min(wait, HOLD_MAX))
        finally:
            with self._lock:
                self._held -= 1


def _refuse(start_response: Any, sentence: str, wait: float) -> list[bytes]:
    """The 429 the view would give: ``wait`` is the seconds until the seat may press."""
    body = (json.dumps({"error": sentence, "rule": None}, separators=(",", ":")) + "\n").encode()
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
               ("Retry-After", str(max(1, math.ceil(wait)))), ("Cache-Control", "no-store"),
               *SECURE_HEADERS.items()]
    start_response("429 TOO MANY REQUESTS", headers)
    return [body]
