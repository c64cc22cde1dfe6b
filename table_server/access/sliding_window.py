"""Attempts counted over a sliding window: the one count behind every limit on guessing.

The referee's PIN and the tokens are guarded by how many attempts fell within the last
minute: per client address, across the table, per referee device (``auth.RateLimiter``,
``devices.RefereeDevices``). Each asks the same questions of its attempts -- how many are
recent, how long until one fewer is, take back one that turned out right -- and this is where
they are answered. Not thread-safe: each limiter holds its own lock, since it asks about
several keys at once.
"""

from __future__ import annotations

from collections import deque


class SlidingWindow:
    """The times of attempts per key within the last ``window`` seconds; a key with none
    left is forgotten, so the table of addresses (or devices) stays small all evening.
    Times are given by the caller (``now``), from its own injectable clock."""

    def __init__(self, window: float) -> None:
        self.window = window
        self._times: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._times.get(key)
        if times is None:
            return deque()
        while times and now - times[0] >= self.window:
            times.popleft()
        if not times:
            del self._times[key]
        return times

    def count(self, key: str, now: float) -> int:
        """How many attempts ``key`` made within the window."""
        return len(self._recent(key, now))

    def wait(self, key: str, limit: int, now: float) -> float:
        """Seconds until the oldest of ``key``'s attempts leaves the window when it has made
        ``limit`` or more; 0 when it has made fewer."""
        times = self._recent(key, now)
        if len(times) < limit:
            return 0.0
        return max(0.0, self.window - (now - times[0]))

    def latest(self, key: str) -> float | None:
        """The time of ``key``'s latest attempt, or None when it has none."""
        times = self._times.get(key)
        return times[-1] if times else None

    def add(self, key: str, now: float) -> None:
        """Count one attempt of ``key`` at ``now``."""
        self._recent(key, now)
        self._times.setdefault(key, deque()).append(now)

    def forgive(self, key: str) -> None:
        """Take back ``key``'s latest attempt (it turned out right)."""
        times = self._times.get(key)
        if times:
            times.pop()
            if not times:
                del self._times[key]

    def keys(self, now: float) -> list[str]:
        """The keys with attempts within the window."""
        for key in list(self._times):
            self._recent(key, now)
        return list(self._times)
