"""Server-Sent Events: one ``state`` event per state change, carrying the public state.

A client first gets the current state (so a page that connects mid-hand is right at once),
then every change: both come from ``controller.subscribe()``. When nothing happens for ``keepalive``
seconds a comment line is sent: it keeps proxies from closing the stream and is how a
vanished client is noticed (the write fails), so its subscription is always closed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any


def format_event(state: dict[str, Any], event: str = "state") -> str:
    """One SSE message: ``id`` is the state's version, ``data`` the state as one JSON line."""
    lines = []
    if "version" in state:
        lines.append(f"id: {state['version']}")
    lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(state, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def event_stream(
    controller: Any,
    *,
    keepalive: float,
    stopping: threading.Event,
    transform: Callable[[dict[str, Any]], dict[str, Any]] = lambda s: s,
) -> Iterator[str]:
    """The text of an event stream until the client leaves or ``stopping`` is set.

    The controller's subscription delivers the current state first, then every change, so
    no change between connecting and the first event can be lost.
    """
    subscription = controller.subscribe()
    try:
        yield "retry: 2000\n\n"
        while not stopping.is_set():
            state = subscription.get(timeout=keepalive)
            if stopping.is_set():
                break
            if state is None:
                yield ": keep-alive\n\n"
            else:
                yield format_event(transform(state))
    finally:
        subscription.close()
