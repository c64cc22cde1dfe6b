"""Server-Sent Events as they go on the wire: the one framer every event stream of ours uses.

The table's dashboard (its state stream, written by one thread for every screen, and the Dice
page's progress) and the venue screen all send the same few things: how long a browser waits
before reconnecting, one message per event (its id, its name, its data as one JSON line), and
a comment when nothing happens, which keeps proxies from closing the stream and is how a
vanished client is noticed (the write fails). They are made here, so every stream says them
the same way (https://html.spec.whatwg.org/multipage/server-sent-events.html).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import Response

#: The first thing each stream sends: how long a browser waits before reconnecting (ms).
RETRY = "retry: 2000\n\n"
#: Sent when nothing happens for the keep-alive time (keeps proxies from closing the stream).
KEEP_ALIVE = ": keep-alive\n\n"
#: An event stream's headers: never cached, never buffered by a proxy (nginx's header).
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def message(data: Any, event: str, id: int | str | None = None) -> str:
    """One SSE message: ``id`` (left out when None), ``event``, and ``data`` as one line of
    compact JSON (JSON escapes every line break, so the data is always one ``data:`` line)."""
    lines = [] if id is None else [f"id: {id}"]
    lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def response(body: Iterable[str]) -> Response:
    """The answer that opens an event stream, with ``body`` its text (a generator wrapped in
    ``flask.stream_with_context`` when it needs the request, or nothing when the stream's
    socket is handed to another writer)."""
    return Response(body, mimetype="text/event-stream", headers=HEADERS)
