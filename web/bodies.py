"""A chunked request body, read up to the limit before the app sees the request.

Werkzeug reads a body without ``Content-Length`` (``Transfer-Encoding: chunked``) with no
limit, or not at all, so a 10 MB chunked body was answered as an empty one (400). Here such a
body is read up to ``limit`` + 1 bytes: within the limit it is handed on as an ordinary body
with its length; past it the request is marked, and the app answers 413 before anything else.

A chunked body that is not chunked transfer coding (a chunk size of ``zz``; a chunk that does
not end in CRLF) is marked too, with what was wrong, and answered 400 with that sentence; a
chunk declared larger than the limit (``ffffffffffffffff``) is a body over the limit, 413.
Left to cheroot, its ``ValueError``/``IOError`` would go up through the app and the client
get an empty 500. The connection is closed after either answer (``wsgi_server``): what
follows the bad chunk on the socket cannot be read as a request.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: The environ key set on a request whose chunked body was over the limit.
TOO_LARGE = "bidou.body_too_large"
#: The environ key set, to the sentence saying what is wrong, on a malformed chunked body.
MALFORMED = "bidou.body_malformed"


class ChunkedBodyLimit:
    """WSGI middleware: see the module docstring."""

    def __init__(self, app: Callable[..., Iterable[bytes]], limit: int,
                 larger: Mapping[str, int] | None = None) -> None:
        self.app, self.limit = app, limit
        self.larger = dict(larger or {})  # path -> its own limit (a photo's upload)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            body = b""
            limit = self.larger.get(environ.get("PATH_INFO", ""), self.limit)
            try:
                body = self._read(environ["wsgi.input"], limit)
            except ValueError as e:  # cheroot: a bad chunk size or a chunk without its CRLF
                environ[MALFORMED] = (
                    f"The request body is not valid chunked transfer coding ({e}); send it "
                    "with Content-Length, or as chunks each of a hexadecimal size, CRLF, "
                    "that many bytes and CRLF, ending with a chunk of size 0.")
            except OSError:  # cheroot: a chunk declared past its own limit
                environ[TOO_LARGE] = True
            if len(body) > limit:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)

    def _read(self, stream: Any, limit: int) -> bytes:
        """The body, up to ``limit`` + 1 bytes (one more than allowed says it is too large)."""
        body = b""
        while len(body) <= limit:
            chunk = stream.read(min(65536, limit + 1 - len(body)))
            if not chunk:
                break
            body += chunk
        return bytes(body)
