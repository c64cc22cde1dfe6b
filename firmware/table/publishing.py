"""Publishing: the latest public state, its version, the event sentences and the listeners.

The controller's worker changes the game; after each change it hands the new public state
(built by ``firmware.table.views``) to :meth:`Publisher.publish`, which numbers it and gives every
:class:`Subscription` that same state, never changed after (``state()`` gives a copy).
Readers on other threads (the dashboard's requests and event streams) only ever see whole
states, never one half-built.
"""

from __future__ import annotations

import contextlib
import copy
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware.words.phrases import Phrase

#: How many event sentences the public state keeps (the table view shows the latest).
MAX_EVENTS = 30


class Subscription:
    """One listener's queue of public states, newest last; slow listeners lose old states.

    Every listener gets the same state object for a version (a copy each would cost 200
    deep copies per change, under the controller's lock, with 200 viewers): listeners read
    it and never change it.

    ``wake``, when given, is called after each state is queued: a listener that waits on
    sockets rather than on this queue (the dashboard's broadcaster) is woken by it."""

    def __init__(self, owner: Publisher, maxsize: int = 64,
                 wake: Callable[[], None] | None = None) -> None:
        self._owner = owner
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize)
        self._wake = wake
        self.closed = False
        # for a listener woken by ``wake``: states put, taken by latest(), and written out
        self._counts = threading.Condition()
        self._put = self._taken = self._written = 0

    def put(self, state: dict[str, Any] | None) -> None:
        with self._counts:
            while True:
                try:
                    self._queue.put_nowait(state)
                    break
                except queue.Full:
                    with contextlib.suppress(queue.Empty):
                        self._queue.get_nowait()
            self._put += 1
        if self._wake is not None:
            self._wake()

    def latest(self) -> dict[str, Any] | None:
        """The newest state queued, dropping the older ones, or None when none is queued:
        a listener that shows whole states needs only the last."""
        newest = None
        with self._counts:
            self._taken = self._put
            while True:
                try:
                    state = self._queue.get_nowait()
                except queue.Empty:
                    return newest
                if state is not None:
                    newest = state

    def written(self) -> None:
        """The listener has written out every state :meth:`latest` gave it."""
        with self._counts:
            self._written = self._taken
            self._counts.notify_all()

    def wait_written(self, timeout: float) -> bool:
        """Wait until every state put is written out (see :meth:`written`); False on
        timeout. Only a listener with ``wake`` says so: any other is never waited for."""
        if self._wake is None:
            return True
        with self._counts:
            return self._counts.wait_for(lambda: self.closed or self._written >= self._put,
                                         timeout)

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next public state, or None on timeout or once the controller stops."""
        if self.closed:
            return None
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop listening; idempotent."""
        self.closed = True
        self._owner.unsubscribe(self)
        self.put(None)
        with self._counts:
            self._counts.notify_all()


class Publisher:
    """The public state now, the event sentences behind it, and who listens for changes.

    ``lock`` is the controller's: a state is published while the game it shows is held still.
    """

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self._subs: list[Subscription] = []
        self._state: dict[str, Any] = {}
        self.version = 0
        self.events: list[Phrase] = []
        #: sentences said since the game was taken up: each keeps its number in the list
        self.said = 0

    def say(self, sentence: Phrase | str) -> None:
        """Add one sentence to the event list (the oldest beyond MAX_EVENTS are dropped)."""
        self.events.append(sentence if isinstance(sentence, Phrase) else Phrase(sentence))
        self.said += 1
        del self.events[:-MAX_EVENTS]

    @property
    def first_event(self) -> int:
        """The number of the oldest sentence kept in :attr:`events` (1 for the first said)."""
        return self.said - len(self.events) + 1

    def clear_events(self) -> None:
        self.events = []
        self.said = 0

    def publish(self, build: Callable[[int], dict[str, Any]]) -> bool:
        """Make the next version with ``build(version)`` and send it to every listener; False
        (and nothing sent) when it shows nothing new. A state goes out once per change, so a
        flood of refused presses costs the streams nothing."""
        with self._lock:
            state = build(self.version + 1)
            if self._state and _without_version(state) == _without_version(self._state):
                return False
            self.version += 1
            self._state = state
            for sub in list(self._subs):  # one state shared by every listener: not copied
                sub.put(self._state)     # 200 times under the controller's lock
            return True

    def wait_delivered(self, timeout: float) -> None:
        """Wait, at most ``timeout`` seconds in all, until every listener woken by ``wake``
        has written out the states published so far.

        Why the controller's worker waits here before a camera read: a read holds the
        interpreter's lock for a tenth of a second, and the event streams' writer would then
        wait for the lock between one viewer's socket and the next. The change already made
        reaches every screen first (a few milliseconds). Other commands do not wait: they
        are short, and states published meanwhile are coalesced (a stream gets the newest)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.wait_written(max(0.0, deadline - time.monotonic()))

    def state(self) -> dict[str, Any]:
        """A copy of the latest public state.

        Without the controller's lock: a published state is never changed, and taking the
        reference is atomic, so ``GET /api/state`` does not wait while the table reads a
        seat's dice under that lock (a camera read takes a tenth of a second or more)."""
        return copy.deepcopy(self._state)

    def subscribe(self, wake: Callable[[], None] | None = None) -> Subscription:
        """A Subscription that gets the current state now, then every new one."""
        sub = Subscription(self, wake=wake)
        with self._lock:
            self._subs.append(sub)
            sub.put(self._state)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._subs.remove(sub)

    @property
    def listeners(self) -> int:
        """How many subscriptions are open (tests check that streams let go)."""
        with self._lock:
            return len(self._subs)

    def close(self) -> None:
        """Tell every listener the table stopped (their ``get`` returns None)."""
        for sub in list(self._subs):
            sub.put(None)


def _without_version(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}
