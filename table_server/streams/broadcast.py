"""One thread writes every event stream to its socket.

Why: with a server thread per stream, each change of the table wakes 200 threads, each taking the
interpreter lock in turn to write the same few kilobytes; under a press flood the last viewer gets a
change seconds late (in a soak of 200 viewers, press-to-event p99 1.9 s). One thread with a selector
writes the same bytes to 200 sockets in a few milliseconds. A slow phone holds nobody up: what it
has not read waits in its own buffer, and past ``MAX_PENDING`` bytes it is dropped (its browser
reconnects and gets the current state first). Each stream is given only the newest state: a state is
the whole table, so one a viewer never saw is not missed.

cheroot hands a socket over once the app has answered ``GET /api/events`` with its headers
(:mod:`web.wsgi_server`); from then on this module writes the body: ``retry``, the
current state, every change, and a keep-alive comment when nothing happens for ``keepalive``
seconds (it keeps proxies from closing the stream).
"""

from __future__ import annotations

import contextlib
import logging
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from table_server.streams.held_send import send_holding_lock
from table_server.streams.sse import format_event
from web.sse import KEEP_ALIVE, RETRY

log = logging.getLogger(__name__)

#: Bytes a viewer may leave unread before it is dropped (many states: it is not reading).
MAX_PENDING = 256 * 1024


@dataclass(eq=False)
class _Stream:
    sock: socket.socket
    chunked: bool  # HTTP/1.1 chunked framing (cheroot chose it in the headers it sent)
    release: Callable[[], None]
    pending: bytearray = field(default_factory=bytearray)
    closed: bool = False
    watching: bool = False  # registered for EVENT_WRITE: pending bytes wait for room


class Broadcaster:
    """The open event streams of one dashboard and the thread that writes them.

    ``controller.subscribe(wake)`` gives the states; ``transform`` makes a state public
    (``table_server.words.present.decorate``). :meth:`add` takes a socket whose headers are sent;
    :meth:`stop` ends every stream (the last chunk, then close) and joins the thread.
    """

    def __init__(self, controller: Any, *, transform: Callable[[dict[str, Any]], dict[str, Any]],
                 keepalive: float, max_pending: int = MAX_PENDING) -> None:
        self.controller = controller
        self.transform = transform
        self.keepalive = keepalive
        self.max_pending = max_pending
        self._lock = threading.Lock()
        self._arriving: list[_Stream] = []
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._open = 0

    # --- any thread ---------------------------------------------------------------------

    def start(self) -> Broadcaster:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="event-streams", daemon=True)
            self._thread.start()
        return self

    def add(self, sock: socket.socket, *, chunked: bool, release: Callable[[], None]) -> None:
        """Write the event stream to ``sock`` from now on; ``release()`` once it is closed."""
        stream = _Stream(sock, chunked, release)
        with self._lock:
            if self._stopping.is_set() or self._thread is None:
                stream.closed = True
            else:
                self._arriving.append(stream)
        if stream.closed:
            _close(stream)
            return
        self._wake()

    def stop(self) -> None:
        """End every stream and join the thread; idempotent."""
        self._stopping.set()
        self._wake()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(5.0)
        with self._lock:
            arriving, self._arriving = self._arriving, []
        for stream in arriving:
            _close(stream)

    def __len__(self) -> int:
        """Streams being written now (tests check that a gone viewer is let go)."""
        with self._lock:
            return self._open + len(self._arriving)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # full: a wake is already waiting
            self._wake_w.send(b"\0")

    # --- the broadcaster's thread -------------------------------------------------------

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._wake_r, selectors.EVENT_READ, None)
        subscription = self.controller.subscribe(self._wake)
        streams: set[_Stream] = set()
        event: str | None = None
        last_sent = time.monotonic()
        try:
            while not self._stopping.is_set():
                try:
                    event, last_sent = self._turn(selector, subscription, streams, event,
                                                  last_sent)
                except Exception:  # a bug here must not end every screen's stream for good
                    log.exception("event streams: dropped every stream after an error")
                    for stream in list(streams):
                        self._drop(selector, streams, stream)
                    self._stopping.wait(0.1)
        finally:
            subscription.close()
            for stream in list(streams):
                if stream.chunked and not stream.pending:
                    with contextlib.suppress(OSError):
                        stream.sock.send(b"0\r\n\r\n")  # the body ends here
                self._drop(selector, streams, stream)
            with self._lock:
                self._open = 0
            selector.close()

    def _turn(self, selector: selectors.BaseSelector, subscription: Any,
              streams: set[_Stream], event: str | None,
              last_sent: float) -> tuple[str | None, float]:
        """One wait and what follows: gone and writable viewers, the newest state to every
        stream, new streams, a keep-alive when due. Gives the current event and when
        something was last sent."""
        timeout = max(0.0, last_sent + self.keepalive - time.monotonic())
        for key, mask in selector.select(timeout):
            stream = key.data
            if stream is None:
                with contextlib.suppress(OSError):
                    while self._wake_r.recv(4096):
                        pass
            elif mask & selectors.EVENT_READ and not _still_there(stream):
                self._drop(selector, streams, stream)
            elif mask & selectors.EVENT_WRITE:
                self._write(selector, streams, stream, b"")
        state = subscription.latest()
        if state is not None:
            event = format_event(self.transform(state))
            self._to_all(selector, streams, event)
            last_sent = time.monotonic()
        with self._lock:
            arriving, self._arriving = self._arriving, []
            self._open += len(arriving)
        for stream in arriving:
            try:
                stream.sock.setblocking(False)
                selector.register(stream.sock, selectors.EVENT_READ, stream)
            except (OSError, ValueError):  # gone before its first byte
                with self._lock:
                    self._open -= 1
                _close(stream)
                continue
            streams.add(stream)
            self._write(selector, streams, stream,
                        _frame(RETRY + (event or ""), stream.chunked))
        if time.monotonic() - last_sent >= self.keepalive:
            self._to_all(selector, streams, KEEP_ALIVE)
            last_sent = time.monotonic()
        subscription.written()
        return event, last_sent

    def _to_all(self, selector: selectors.BaseSelector, streams: set[_Stream],
                text: str) -> None:
        framed = {True: _frame(text, True), False: _frame(text, False)}
        for stream in list(streams):
            self._write(selector, streams, stream, framed[stream.chunked])

    def _write(self, selector: selectors.BaseSelector, streams: set[_Stream], stream: _Stream,
               data: bytes) -> None:
        """Send what ``stream`` has pending plus ``data``, as much as its socket takes now.

        Usually nothing is pending and the socket takes it all: one send of the bytes every
        stream shares, nothing copied, kept or re-registered (this runs 200 times a change)."""
        if stream.closed:
            return
        out: bytes | bytearray = data
        if stream.pending:  # the new bytes go behind the ones waiting
            stream.pending += data
            out = stream.pending
        if len(out) > self.max_pending:
            self._drop(selector, streams, stream)
            return
        try:
            sent = send_holding_lock(stream.sock, out) if out else 0
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._drop(selector, streams, stream)
            return
        if out is stream.pending:
            del stream.pending[:sent]
        elif sent < len(out):
            stream.pending += out[sent:]
        if stream.watching != bool(stream.pending):
            stream.watching = bool(stream.pending)
            events = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.watching else 0)
            selector.modify(stream.sock, events, stream)

    def _drop(self, selector: selectors.BaseSelector, streams: set[_Stream],
              stream: _Stream) -> None:
        if stream in streams:
            streams.discard(stream)
            with self._lock:
                self._open -= 1
        with contextlib.suppress(KeyError, ValueError, OSError):
            selector.unregister(stream.sock)
        _close(stream)


def _frame(text: str, chunked: bool) -> bytes:
    body = text.encode("utf-8")
    return b"%x\r\n%s\r\n" % (len(body), body) if chunked else body


def _still_there(stream: _Stream) -> bool:
    """Whether a viewer whose socket is readable is still there (a viewer sends nothing: a
    readable socket is one the viewer closed, or bytes to ignore)."""
    try:
        return bool(stream.sock.recv(4096))
    except (BlockingIOError, InterruptedError):
        return True
    except OSError:
        return False


def _close(stream: _Stream) -> None:
    if stream.closed and stream.sock.fileno() < 0:
        return
    stream.closed = True
    with contextlib.suppress(OSError):
        stream.sock.close()
    stream.release()
