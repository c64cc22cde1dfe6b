"""The checks every request to a Flask app of ours meets before its view: the ``Host`` it
names, the size of its body; and the headers every answer carries.

The table's dashboard and the venue screen both call :func:`guard`, so both refuse another
``Host`` (a forged link, DNS rebinding: ``web.hosts``), read a chunked body only up to the
limit (``web.bodies``), refuse a larger body with 413 before anything else is asked, and send
``web.secure_headers`` (CSP, ``X-Frame-Options``...) with every answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from web.bodies import MALFORMED, TOO_LARGE, ChunkedBodyLimit
from web.hosts import AllowedHosts
from web.secure_headers import SECURE_HEADERS

#: ``refuse(status, sentence)``: the app's own answer to a refused request (JSON for its API,
#: its error page for the rest).
Refuse = Callable[[int, str], Any]


def guard(app: Flask, hosts: AllowedHosts, refuse: Refuse, *, who: str, set_name: str,
          max_body: int, private_prefixes: tuple[str, ...] = (),
          larger: Mapping[str, int] | None = None) -> None:
    """Install the checks of the module docstring on ``app``. ``who`` names the app in the
    Host refusal ("This table"), ``set_name`` says what to set to add a name ("set [server]
    public_url"); answers under ``private_prefixes`` are never cached. ``larger`` gives a
    path a bound of its own above ``max_body`` (a photo's upload); a body declared over it
    is read and dropped before the 413, so a browser still sending it reads the sentence
    instead of a broken connection (the server's own backstop bounds what is read)."""
    app.config["MAX_CONTENT_LENGTH"] = max_body
    bounds = dict(larger or {})
    app.wsgi_app = ChunkedBodyLimit(app.wsgi_app, max_body, bounds)  # type: ignore[method-assign]

    @app.before_request
    def _only_our_names() -> Any:
        """Refuse a request naming another Host (a forged link, DNS rebinding)."""
        if hosts.admits(request.host):
            return None
        return refuse(400, f"{who} answers to its own addresses only, and "
                           f"{request.host[:80]!r} is not one of them; open it at its address "
                           f"(such as {', '.join(hosts.names()[:3])}), or {set_name}.")

    @app.before_request
    def _body_within_limit() -> Any:
        """413 for a body over the limit before anything else is asked, whatever its encoding:
        a declared length is compared; a chunked body was read up to the limit on its way
        in (``web.bodies``), and 400 saying what was wrong when it was malformed."""
        too_large = request.environ.get(TOO_LARGE)
        limit = app.config["MAX_CONTENT_LENGTH"]
        if request.path in bounds:
            limit = request.max_content_length = bounds[request.path]
            if (request.content_length or 0) > limit:
                _drain(request.environ["wsgi.input"], request.content_length or 0)
        if too_large or (request.content_length or 0) > limit:
            raise RequestEntityTooLarge()
        malformed = request.environ.get(MALFORMED)
        if malformed:
            return refuse(400, malformed)
        return None

    @app.after_request
    def _secure_headers(response: Any) -> Any:
        for name, value in SECURE_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith(private_prefixes):
            response.headers.setdefault("Cache-Control", "no-store")
        return response


def _drain(stream: Any, length: int) -> None:
    """Read and drop a body that is too large (the server's backstop bounds ``length``)."""
    while length > 0:
        chunk = stream.read(min(length, 1 << 16))
        if not chunk:
            return
        length -= len(chunk)
