"""A chunked request body, read up to the limit before the app sees the request.

Werkzeug reads a body without ``Content-Length`` (``Transfer-Encoding: chunked``) with no
limit, or not at all, so a 10 MB chunked body was answered as an empty one (400). Here such a
body is read up to ``limit`` + 1 bytes: within the limit it is handed on as an ordinary body
with its length; past it the request is marked, and the app answers 413 before anything else.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

#: The environ key set on a request whose chunked body was over the limit.
TOO_LARGE = "bidou.body_too_large"


class ChunkedBodyLimit:
    """WSGI middleware: see the module docstring."""

    def __init__(self, app: Callable[..., Iterable[bytes]], limit: int) -> None:
        self.app, self.limit = app, limit

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            stream = environ["wsgi.input"]
            body = b""
            while len(body) <= self.limit:
                chunk = stream.read(min(65536, self.limit + 1 - len(body)))
                if not chunk:
                    break
                body += chunk
            if len(body) > self.limit:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)
