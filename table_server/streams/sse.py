"""The table's event streams: one ``state`` event per state change, carrying the public state.

A client first gets the current state (so a page that connects mid-hand is right at once),
then every change: both come from ``controller.subscribe()``. When nothing happens for ``keepalive``
seconds a comment line is sent: it keeps proxies from closing the stream and is how a
vanished client is noticed (the write fails), so its subscription is always closed. The
messages are framed by ``web.sse``, as every stream's are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

from web.sse import KEEP_ALIVE, RETRY, message


def format_event(state: dict[str, Any], event: str = "state") -> str:
    """One SSE message: ``id`` is the state's version, ``data`` the state as one JSON line."""
    return message(state, event, state.get("version"))


class Streams:
    """The open event streams, at most ``limit``; past it a new one is refused (each costs a
    socket, and a stream written by its own server thread -- off the real server -- holds
    that thread). :meth:`end_all` wakes every stream at shutdown, so none waits out its
    keep-alive."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._open: set[Any] = set()
        self._text: tuple[Any, str] | None = None  # (the state, its event text)

    def event_text(self, state: dict[str, Any],
                   transform: Callable[[dict[str, Any]], dict[str, Any]]) -> str:
        """The event for ``state``, made once for every stream: the streams all get the same
        state object for a version, and 200 of them must not encode it 200 times."""
        with self._lock:
            if self._text is not None and self._text[0] is state:
                return self._text[1]
        text = format_event(transform(state))
        with self._lock:
            self._text = (state, text)
        return text

    def open(self, controller: Any) -> Any | None:
        """A new subscription to ``controller``, or None when ``limit`` streams are open."""
        with self._lock:
            if len(self._open) >= self.limit:
                return None
            subscription = controller.subscribe()
            self._open.add(subscription)
            return subscription

    def reserve(self) -> Callable[[], None] | None:
        """A place for one stream written by the broadcaster, or None when ``limit`` streams
        are open; calling the result gives the place back (once, however often called)."""
        place = object()
        with self._lock:
            if len(self._open) >= self.limit:
                return None
            self._open.add(place)

        def release() -> None:
            with self._lock:
                self._open.discard(place)

        return release

    def close(self, subscription: Any) -> None:
        with self._lock:
            self._open.discard(subscription)
        subscription.close()

    def end_all(self) -> None:
        """Wake every open stream (its ``get`` returns None and it sees ``stopping``)."""
        with self._lock:
            subs = list(self._open)
        for sub in subs:
            if hasattr(sub, "put"):  # a broadcaster's place has no thread to wake
                sub.put(None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._open)


def event_stream(
    controller: Any,
    *,
    keepalive: float,
    stopping: threading.Event,
    transform: Callable[[dict[str, Any]], dict[str, Any]] = lambda s: s,
    streams: Streams | None = None,
    subscription: Any = None,
) -> Iterator[str]:
    """The text of an event stream until the client leaves or ``stopping`` is set.

    The controller's subscription (``subscription``, opened through ``streams``, or a new
    one) delivers the current state first, then every change, so no change between
    connecting and the first event can be lost.
    """
    if subscription is None:
        subscription = controller.subscribe()
    try:
        yield RETRY
        while not stopping.is_set():
            state = subscription.get(timeout=keepalive)
            if stopping.is_set():
                break
            if state is None:
                yield KEEP_ALIVE
            elif streams is not None:
                yield streams.event_text(state, transform)
            else:
                yield format_event(transform(state))
    finally:
        if streams is not None:
            streams.close(subscription)
        else:
            subscription.close()
