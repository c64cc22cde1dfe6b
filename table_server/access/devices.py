"""Device cookies for the referee console's PIN login (OWASP, "Slow Down Online Guessing
Attacks with Device Cookies").

Why: the table paces PIN comparisons from every address together once a minute's share of wrong PINs
is spent (``auth.RateLimiter``), so that guests with many addresses cannot guess the PIN; but then
the same guests can keep the referee waiting (with pacing alone, the right PIN, retried as
``Retry-After`` says, is refused 429 twelve times in 30 s). A browser that has logged in with the
PIN before is the referee's own: it carries a signed device cookie, and its PINs are counted per
device (``max_failures`` a window), never by an address's count or the table's pace, so its right
PIN is always compared, and accepted. A device past its own limit is, for the rest of the window, an
unknown device like any other (paced). The cookie proves only that this browser once knew the PIN;
it opens nothing by itself (a session still needs the PIN or a pass).

The cookie is the device's random id signed with a key kept in the table's log (derived from
the seat tokens' key), so it survives a restart on the same log and cannot be made without it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable

from itsdangerous import BadSignature, URLSafeSerializer

from table_server.access.auth import Wait
from table_server.access.sliding_window import SlidingWindow

#: The cookie's name and its life (400 days: the longest a browser keeps a cookie).
COOKIE = "bidou_device"
COOKIE_AGE = 400 * 24 * 3600


def device_key(table_key: str) -> str:
    """The device cookies' signing key, derived from a secret the table keeps in its log."""
    return hmac.new(table_key.encode(), b"referee-devices", hashlib.sha256).hexdigest()


class RefereeDevices:
    """The devices the referee logged in from: signs and reads their cookies, and counts each
    one's wrong PINs. Thread-safe; ``clock`` is injectable for the tests."""

    def __init__(self, key: str, *, max_failures: int = 5, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._signer = URLSafeSerializer(key, salt="bidou-referee-device")
        self.max_failures, self.window, self.clock = max_failures, window, clock
        self._lock = threading.Lock()
        self._wrong = SlidingWindow(window)

    def cookie(self, device: str | None = None) -> tuple[str, str]:
        """(the device's id, its cookie's value): ``device`` again, or a new device."""
        device = device or secrets.token_urlsafe(16)
        return device, str(self._signer.dumps(device))

    def device_of(self, cookie: str | None) -> str | None:
        """The device a cookie names, or None when it is absent, forged or not ours."""
        if not cookie:
            return None
        try:
            device = self._signer.loads(cookie)
        except BadSignature:
            return None
        return device if isinstance(device, str) and device else None

    def attempt(self, device: str) -> Wait | None:
        """Count a PIN from ``device`` before it is compared: None when it may be compared
        (then :meth:`forgive` if it was right), else how long the device waits, as an unknown
        device (the caller then treats it as one)."""
        with self._lock:
            now = self.clock()
            wait = self._wrong.wait(device, self.max_failures, now)
            if wait > 0:
                return Wait(f"Too many wrong PINs from this device; wait {int(wait) + 1} "
                            "seconds and try again.", int(wait) + 1)
            self._wrong.add(device, now)
            return None

    def forgive(self, device: str) -> None:
        """Take back the attempt :meth:`attempt` counted: the PIN was right."""
        with self._lock:
            self._wrong.forgive(device)
