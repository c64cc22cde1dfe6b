"""The production HTTP server of the table's dashboard and of the venue screen: cheroot,
inside the serving process.

Why cheroot (docs/dashboard.md compares it with waitress and gunicorn): it runs in a thread of
our own process (the controller, its lock and the GPIO pins stay in one process); it writes
each chunk of a streaming response to the socket as soon as the app yields it (its
``BufferedWriter.write`` flushes), so an event reaches the screen at once; every socket gets a
read timeout and idle keep-alive connections are closed after it; ``stop()`` ends the accept
loop and joins the worker threads.

What cheroot does not do on its own: hand a socket over, so that one thread writes every
event stream (:mod:`table_server.streams.broadcast` says why). :class:`HandOverGateway` puts a
:class:`HandOver` in each request's environ (``HAND_OVER``); a view that sets its ``take``
gets the socket once cheroot has sent the response's headers, and cheroot then neither reads
from it nor closes it.

Nor does it bound the open connections, make room for a client that sends a request when
the bound is reached, or keep a new client off the worker threads until it sends something:
:class:`web.room.BoundedConnections` does, with a bound sized from the descriptors
the process has (``web.descriptors``).

Nor does it bound a request's head: by default it reads a request line and headers of any
size and number (a 2 MB query string, a 200 KB header and 2000 headers were each answered
200 by cheroot alone). :class:`LimitedRequest` reads at most ``MAX_HEAD_BYTES`` of request line and
headers together and at most ``MAX_HEADERS`` headers, and answers past them with 414 or 431
and a sentence, then closes the connection.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from cheroot import errors, server, wsgi

from web.bodies import MALFORMED
from web.room import REFUSAL, BoundedConnections, TrackedConnection, refusal

__all__ = ["HAND_OVER", "REFUSAL", "BoundedServer", "HandOver", "HandOverGateway"]

#: Bytes of request line and headers together read at most (nginx reads 4 x 8 KiB by
#: default; a browser's request to either app is well under 2 KiB).
MAX_HEAD_BYTES = 16 * 1024
#: Headers read at most (Apache's LimitRequestFields default).
MAX_HEADERS = 100

#: Bodies past this are refused 413 by cheroot before the app sees them (the app's own limit,
#: 64 KiB, answers with its sentence below it); a chunked body is counted as it is read. The
#: dashboard raises it to twice the photo upload's bound (``table_server.console.dice_teach``), so a
#: photo somewhat too large gets the app's sentence; the app checks that bound for that one
#: address, and the page says a photo's size before it is sent.
MAX_BODY_BACKSTOP = 1024 * 1024


#: The environ key of the request's :class:`HandOver` (absent off the real server).
HAND_OVER = "bidou.hand_over"


class HandOver:
    """A view sets ``take(socket, chunked)``: called with the client's socket after the
    headers are sent (``chunked``: the body must be sent in HTTP/1.1 chunks); it then owns the
    socket. ``abandon``, if set, is called when the response ends without ``take`` called."""

    def __init__(self) -> None:
        self.take: Callable[[socket.socket, bool], None] | None = None
        self.abandon: Callable[[], None] | None = None


class HandOverGateway(wsgi.Gateway_10):
    """cheroot's WSGI 1.0 gateway, with the hand-over above."""

    def get_environ(self) -> dict[str, Any]:
        environ = super().get_environ()
        environ[HAND_OVER] = HandOver()
        return environ

    def respond(self) -> None:
        hand_over: HandOver = self.env[HAND_OVER]
        response = self.req.server.wsgi_app(self.env, self.start_response)
        if self.env.get(MALFORMED):  # the rest of the socket is not a request: close after
            self.req.close_connection = True
        taken = False
        try:
            if hand_over.take is None:
                for chunk in filter(None, response):
                    if not isinstance(chunk, bytes):
                        raise ValueError("WSGI Applications must yield bytes")
                    self.write(chunk)
            else:
                self.req.close_connection = True  # the headers say so; cheroot lets go
                self.req.ensure_headers_sent()
                self.req.conn.wfile.flush()
                self.req.conn.linger = True  # cheroot neither shuts it down nor closes it
                chunked = bool(self.req.chunked_write)
                self.req.chunked_write = False  # nor writes the last chunk: the taker does
                taken = True
                hand_over.take(self.req.conn.socket, chunked)
        finally:
            self.req.ensure_headers_sent()
            if hasattr(response, "close"):
                response.close()
            if not taken and hand_over.abandon is not None:
                hand_over.abandon()


class LimitedRequest(server.HTTPRequest):
    """cheroot's request, reading at most ``MAX_HEAD_BYTES`` of head and ``MAX_HEADERS``
    headers; past either, a one-line answer with a sentence, and the connection closed."""

    def parse_request(self) -> None:
        self.rfile = server.SizeCheckWrapper(self.conn.rfile, MAX_HEAD_BYTES)
        kib = MAX_HEAD_BYTES // 1024
        for read, status, sentence in (
                (self.read_request_line, "414 URI Too Long",
                 f"The request line is longer than {kib} KiB; send a shorter address and "
                 "query string."),
                (self.read_request_headers, "431 Request Header Fields Too Large",
                 f"The request's headers are larger than {kib} KiB together; send fewer or "
                 "shorter headers (or clear this site's cookies).")):
            try:
                if not read():
                    return
            except errors.MaxSizeExceeded:
                self._refuse(status, sentence)
                return
        if len(self.inheaders) > MAX_HEADERS:
            self._refuse("431 Request Header Fields Too Large",
                         f"The request has {len(self.inheaders)} headers; at most "
                         f"{MAX_HEADERS} are read. Send fewer.")
            return
        self.ready = True

    def _refuse(self, status: str, sentence: str) -> None:
        self.close_connection = True
        body = sentence.encode() + b"\n"
        head = (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        try:
            self.conn.wfile.write(head + body)
        except OSError as e:
            if e.args[0] not in errors.socket_errors_to_ignore:
                raise


class LimitedConnection(TrackedConnection):
    """A tracked connection (``web.room``) whose requests are :class:`LimitedRequest`."""

    RequestHandlerClass = LimitedRequest


class BoundedServer(wsgi.Server):
    """cheroot's WSGI server on a socket already listening (``web.listen`` makes it, with
    sentences for every way binding fails), with a bounded connection count of which one
    address holds ``per_address`` at most (``web.room``), and bounded request heads
    (:class:`LimitedRequest`). ``who`` names it in the 503 sent when every connection is
    being served."""

    ConnectionClass = LimitedConnection

    def __init__(self, sock: socket.socket, app: Any, *, threads: int, max_connections: int,
                 timeout: float, max_body: int = MAX_BODY_BACKSTOP,
                 per_address: int | None = None, who: str = "The table") -> None:
        self._listening = sock
        super().__init__(sock.getsockname()[:2], app, numthreads=threads,
                         max=threads, timeout=timeout, shutdown_timeout=5,
                         request_queue_size=128)
        self.max_connections = max_connections
        self.per_address = per_address or max_connections
        self.keep_alive_conn_limit = max_connections
        self.max_request_body_size = max_body
        self.max_request_header_size = MAX_HEAD_BYTES
        self.refusal = refusal(who)
        self.gateway = HandOverGateway

    def bind(self, family: int, type: int, proto: int = 0) -> None:  # noqa: A002 (cheroot's)
        """Serve the socket given, instead of binding one; with TCP_NODELAY, which accepted
        sockets inherit, as cheroot sets on a socket it binds itself. Without it an event or
        an answer written in two pieces waited for the client's delayed ACK: 40 ms a request
        on a keep-alive connection."""
        self.socket = self._listening
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.bind_addr = self.socket.getsockname()[:2]

    def prepare(self) -> None:
        super().prepare()
        self._connections._selector.close()
        self._connections = BoundedConnections(self)

    def process_conn(self, conn: Any) -> None:
        """A connection goes to a worker thread: no longer silent (never closed for room)."""
        if isinstance(self._connections, BoundedConnections):
            self._connections.serving(conn)
        super().process_conn(conn)

    @property
    def port(self) -> int:
        return int(self._listening.getsockname()[1])
