"""Who is asking: seat tokens, the referee token and PIN, failed-attempt limits and CSRF.

Every secret is compared with ``hmac.compare_digest`` against every candidate (no early exit),
so response times say nothing about how close a guess was. Failed attempts are counted per
client address and refused with 429 once too many fall within a minute, which makes guessing a
6-digit PIN hopeless. The referee console is a browser page with forms, so it logs in by PIN
into Flask's signed session cookie and every form carries a CSRF token tied to that session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from table_server.access.sliding_window import SlidingWindow

REFEREE = "referee"
_ALL = "\x00every address"  # the key of the PIN attempts across addresses (never an address)
_TOKEN, _PIN = "t", "p"  # prefixes of an address's keys: its wrong tokens, its PIN attempts


class SeatTokens:
    """One secret token per seat: ``HMAC-SHA256(key, seat)`` when given a ``key`` (the table
    keeps its key in the log, so a restart gives every seat the same token and an open seat
    page keeps working), else ``secrets.token_urlsafe`` at first use (new at each start).

    A seat added later (a new game with new names) gets its token on first use. Thread-safe.
    """

    def __init__(self, seats: Iterable[str] = (), *, key: str | None = None) -> None:
        self._lock = threading.Lock()
        self._key = key.encode() if key else None
        self._tokens: dict[str, str] = {}
        for seat in seats:
            self.token_for(seat)

    def token_for(self, seat: str) -> str:
        """The token of ``seat``, made on first request."""
        with self._lock:
            if seat not in self._tokens:
                self._tokens[seat] = self._make(seat)
            return self._tokens[seat]

    def _make(self, seat: str) -> str:
        if self._key is None:
            return secrets.token_urlsafe(18)
        digest = hmac.new(self._key, seat.encode("utf-8"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()

    def seat_of(self, token: str) -> str | None:
        """The seat whose token is ``token``, or None; compares with every token, constant time."""
        with self._lock:
            items = list(self._tokens.items())
        found = None
        given = token.encode("utf-8", "surrogateescape")
        for seat, secret in items:
            if hmac.compare_digest(given, secret.encode()):
                found = seat
        return found


def bearer_token(header: str) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None for any other form
    (the guards and the press gate read the header alike)."""
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def same_secret(given: str | None, secret: str) -> bool:
    """Whether ``given`` equals ``secret``, in time that does not depend on where they differ."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), secret.encode())


@dataclass(frozen=True)
class Wait:
    """A refused attempt: the sentence, and the whole seconds to put in ``Retry-After``."""

    sentence: str
    seconds: int


class RateLimiter:
    """Counts failed attempts per client address, apart for tokens and PINs; refuses an
    address after too many in a window, and paces PIN comparisons across every address.

    Why apart: a phone with a stale seat token (another log) must not keep the referee's own
    device from logging in with the PIN; wrong tokens then only block tokens from that
    address, wrong PINs only the PIN. Why paced, not locked: a lock for everyone after
    ``max_pin_attempts`` wrong PINs a window would let any guest with a few addresses lock the
    referee out, again every minute. Past that many PIN attempts in a window (from any
    addresses), one PIN is compared every ``window / max_pin_attempts`` seconds across the
    table: guesses stay at ``max_pin_attempts`` a window however many addresses send them (a
    6-digit PIN then takes weeks). Why turns: a refused address is given the next free turn,
    kept for it, and told its time in ``Retry-After``; coming back then, its PIN is compared,
    whatever others sent meanwhile. Without turns the guests' threads would take every free
    moment first, and the referee, retrying when told, would be refused again and again. An
    address holds one turn at a time, so 40 guessing addresses make a new device wait about
    40 turns; the referee's known devices are not paced at all (``table_server.access.devices``).
    ``clock`` is injectable so tests can move time without sleeping.
    """

    def __init__(self, max_failures: int = 5, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, *,
                 max_pin_attempts: int = 20) -> None:
        self.max_failures = max_failures
        self.max_pin_attempts = max_pin_attempts
        self.window = window
        self.clock = clock
        self._lock = threading.Lock()
        self._attempts = SlidingWindow(window)
        self._turns: dict[str, float] = {}  # address -> the time of the turn kept for it
        self._next_turn = float("-inf")  # the first time no turn is kept for

    @property
    def pace(self) -> float:
        """Seconds between two PIN comparisons once the table has had its window's share."""
        return self.window / max(1, self.max_pin_attempts)

    def retry_after(self, address: str) -> float:
        """Seconds until ``address`` may send a token again; 0 when it is not blocked."""
        with self._lock:
            return self._attempts.wait(_TOKEN + address, self.max_failures, self.clock())

    def fail(self, address: str) -> None:
        """Record one wrong token from ``address``."""
        with self._lock:
            self._attempts.add(_TOKEN + address, self.clock())

    def attempt_pin(self, address: str) -> Wait | None:
        """Count a PIN attempt from ``address`` BEFORE the PIN is compared: None when it may
        be compared, else the refusal (sentence and seconds to wait). Counting first means
        concurrent guesses cannot all pass the check before any failure is recorded. A
        right PIN then calls :meth:`forgive`."""
        with self._lock:
            now = self.clock()
            wait = self._attempts.wait(_PIN + address, self.max_failures, now)
            if wait > 0:
                return Wait(f"Too many wrong PINs from this address; wait {int(wait) + 1} "
                            "seconds and try again.", int(wait) + 1)
            last = self._attempts.latest(_ALL)
            if self._attempts.count(_ALL, now) >= self.max_pin_attempts and last is not None:
                turn = self._turn(address, now, last)
                if turn > now:
                    wait = math.ceil(turn - now)
                    return Wait(f"Many wrong PINs have been tried at this table in the last "
                                f"minute, so a PIN is checked every {self.pace:g} seconds; "
                                f"wait {wait} seconds and try again.", wait)
            self._attempts.add(_PIN + address, now)
            self._attempts.add(_ALL, now)
            return None

    def _turn(self, address: str, now: float, last: float) -> float:
        """When ``address``'s PIN may be compared while the table is paced (lock held): its
        kept turn, else now if no turn is kept for now, else the next free turn, kept for it.
        A turn is spent when it is used, and forgotten a window after its time."""
        for who in [a for a, at in self._turns.items() if now - at >= self.window]:
            del self._turns[who]
        kept = self._turns.get(address)
        if kept is not None:
            if kept <= now:
                del self._turns[address]
            return kept
        free = max(self._next_turn, last + self.pace)
        if free <= now:
            self._next_turn = now + self.pace
            return now
        self._turns[address] = free
        self._next_turn = free + self.pace
        return free

    def forgive(self, address: str) -> None:
        """Take back the attempt :meth:`attempt_pin` counted: the PIN was right."""
        with self._lock:
            for key in (_PIN + address, _ALL):
                self._attempts.forgive(key)

    def tracked(self) -> int:
        """How many addresses have failures within the window."""
        with self._lock:
            return len({key[1:] for key in self._attempts.keys(self.clock()) if key != _ALL})

    def blocked_message(self, address: str) -> str | None:
        """The sentence to answer a token from a blocked address with, or None if it may
        try."""
        wait = self.retry_after(address)
        if wait <= 0:
            return None
        return (f"Too many wrong tokens from this address; wait {int(wait) + 1} seconds and "
                "try again.")


class PressLimiter:
    """A token bucket per seat: ``burst`` presses at once, then ``rate`` a second.

    A seat token is a phone in a player's hand; a script holding one could otherwise fill the
    table's queue and delay every other seat. ``clock`` is injectable for the tests.
    """

    def __init__(self, rate: float = 5.0, burst: int = 10,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, key: str) -> float:
        """Spend one press for ``key``: 0 when allowed, else the seconds until one is."""
        with self._lock:
            tokens, now = self._refilled(key)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return (1.0 - tokens) / self.rate
            self._buckets[key] = (tokens - 1.0, now)
            return 0.0

    def waiting(self, key: str) -> float:
        """Seconds until ``key`` may press again (0 when it may now), spending nothing."""
        with self._lock:
            tokens, _ = self._refilled(key)
            return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def _refilled(self, key: str) -> tuple[float, float]:
        """``key``'s presses in hand now (its bucket refilled since last seen), and now."""
        now = self.clock()
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - at) * self.rate), now


class RefereeSessions:
    """Which console sessions are live: the one generation a login now receives. Flask's
    session cookie is signed, not stored, so it cannot be revoked; a cookie is valid only
    while it names the current generation, and :meth:`end_all` (logout) starts a new one. A
    restart -- which a PIN change in the config needs -- starts a new one too."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.current = secrets.token_urlsafe(16)

    def holds(self, value: object) -> bool:
        """Whether a session's stored ``value`` names a live session."""
        with self._lock:
            current = self.current
        return isinstance(value, str) and hmac.compare_digest(value.encode(), current.encode())

    def end_all(self) -> None:
        with self._lock:
            self.current = secrets.token_urlsafe(16)


class OneTimePasses:
    """Links with which a logged-in console logs in another device, each once, for
    ``lifetime`` seconds, while the session generation that made it lasts (logout ends them).

    Why: past 20 PIN attempts a minute the PIN is paced for the whole table, so a flood of
    guesses from many addresses can keep the referee waiting for a slot; a console already
    open needs no PIN, and its link (32 random bytes) cannot be guessed. At most ``keep``
    links wait at once; a newer one pushes out the oldest. ``clock`` is injectable."""

    def __init__(self, lifetime: float = 300.0, keep: int = 8,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime, self.keep, self.clock = lifetime, keep, clock
        self._lock = threading.Lock()
        self._passes: dict[str, tuple[float, str]] = {}  # pass -> (made at, generation)

    def issue(self, generation: str) -> str:
        """A new pass for the session generation ``generation``."""
        secret = secrets.token_urlsafe(32)
        with self._lock:
            self._passes[secret] = (self.clock(), generation)
            while len(self._passes) > self.keep:
                del self._passes[next(iter(self._passes))]
        return secret

    def valid(self, given: str, generation: str) -> bool:
        """Whether ``given`` is a live pass of ``generation`` (nothing is spent)."""
        return self._find(given, generation, spend=False)

    def spend(self, given: str, generation: str) -> bool:
        """Use ``given`` up: True if it was a live pass of ``generation``."""
        return self._find(given, generation, spend=True)

    def _find(self, given: str, generation: str, *, spend: bool) -> bool:
        with self._lock:
            now, found = self.clock(), None
            for secret, (made, gen) in list(self._passes.items()):
                if now - made >= self.lifetime:
                    del self._passes[secret]
                elif same_secret(given, secret) and same_secret(gen, generation):
                    found = secret
            if found is not None and spend:
                del self._passes[found]
            return found is not None


def new_csrf_token() -> str:
    """A fresh random CSRF token for one console session."""
    return secrets.token_urlsafe(24)
