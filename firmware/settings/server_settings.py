"""The dashboard's settings: where it listens and how the referee proves who he is.

They live in firmware beside the rest of the config (``firmware.settings.config`` reads them), so
the config never reaches up into the dashboard, which takes them as given. Decided in one place
from the config's ``[server]`` and ``[referee]`` tables and the environment, so that every
default is a safe one (listen on 127.0.0.1 only; a referee token and PIN that nobody can
guess) and every bad value is refused with a sentence naming the key, the value and what is
allowed, before anything starts listening.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
TOKEN_ENV = "BIDOU_REFEREE_TOKEN"
#: The shortest referee PIN: 6 digits, a million guesses against 5 a minute.
MIN_PIN_LENGTH = 6
MIN_TOKEN_LENGTH = 16
SERVER_KEYS = ("host", "port", "public_url", "keepalive")
REFEREE_KEYS = ("pin", "token")


@dataclass(frozen=True)
class ServerSettings:
    """Everything the dashboard needs to know before it starts; built by parse_server_settings."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    public_url: str | None = None
    referee_token: str = field(default_factory=lambda: secrets.token_urlsafe(24), repr=False)
    referee_pin: str = field(default_factory=lambda: f"{secrets.randbelow(10**6):06d}",
                             repr=False)
    token_generated: bool = False
    pin_generated: bool = False
    secret_key: str = field(default_factory=lambda: secrets.token_hex(32), repr=False)
    #: seconds between keep-alive comments on an idle event stream
    keepalive: float = 15.0
    #: failed PIN/token attempts allowed per client address per minute
    max_failures: int = 5
    #: the pub screen's language ([table] language): "en", "fr" or "es"; phones follow their
    #: browser's (table_server.words.i18n)
    language: str = "en"


def parse_server_settings(
    server: Mapping[str, Any] | None,
    referee: Mapping[str, Any] | None,
    environ: Mapping[str, str],
    *,
    simulate: bool = False,
) -> ServerSettings:
    """Build ServerSettings from the config tables; ConfigError names any value not allowed.

    The referee token comes from ``[referee] token``, else the environment variable
    ``BIDOU_REFEREE_TOKEN``, else it is generated (``token_generated`` tells the run command to
    print it). The PIN comes from ``[referee] pin``; in simulation a missing PIN is generated,
    on a real table it is required.
    """
    server = dict(server or {})
    referee = dict(referee or {})
    _no_unknown("server", server, SERVER_KEYS)
    _no_unknown("referee", referee, REFEREE_KEYS)

    host = check_host(server.get("host", DEFAULT_HOST))
    port = check_port(server.get("port", DEFAULT_PORT))
    public_url = server.get("public_url")
    if public_url is not None and (
        not isinstance(public_url, str)
        or not public_url.startswith(("http://", "https://"))
        or any(c.isspace() for c in public_url)
    ):
        raise ConfigError("server.public_url", public_url,
                          'the address phones use to reach this table, such as '
                          '"http://192.168.1.20:8080"')
    keepalive = server.get("keepalive", 15.0)
    if isinstance(keepalive, bool) or not isinstance(keepalive, int | float) or not (
        0.05 <= keepalive <= 300
    ):
        raise ConfigError("server.keepalive", keepalive, "a number of seconds from 0.05 to 300")

    token_generated = False
    if "token" in referee:
        token = referee["token"]
        key = "referee.token"
    elif environ.get(TOKEN_ENV):
        token = environ[TOKEN_ENV]
        key = TOKEN_ENV
    else:
        token = secrets.token_urlsafe(24)
        token_generated = True
        key = ""
    if not token_generated and (
        not isinstance(token, str)
        or len(token) < MIN_TOKEN_LENGTH
        or not token.isascii()  # an HTTP header carries ASCII: such a token could never log in
        or any(c.isspace() or not c.isprintable() for c in token)
    ):
        raise ConfigError(key, "<hidden>" if isinstance(token, str) else token,
                          f"a secret of at least {MIN_TOKEN_LENGTH} printable ASCII characters "
                          "without spaces (for example from `python3 -c \"import secrets; "
                          "print(secrets.token_urlsafe(24))\"`)")

    pin_generated = False
    if "pin" in referee:
        pin = referee["pin"]
        if isinstance(pin, int) and not isinstance(pin, bool):
            raise ConfigError("referee.pin", pin,
                              'a PIN written in quotes, such as pin = "482913", so that '
                              "leading zeros are kept")
        if not isinstance(pin, str) or not (pin.isascii() and pin.isdigit()) or not (
                MIN_PIN_LENGTH <= len(pin) <= 12):
            raise ConfigError("referee.pin", "<hidden>" if isinstance(pin, str) else pin,
                              f"a string of {MIN_PIN_LENGTH} to 12 digits (a shorter PIN is "
                              "guessed too soon)")
    elif simulate:
        pin = f"{secrets.randbelow(10**6):06d}"
        pin_generated = True
    else:
        raise ConfigError("referee.pin", None,
                          'a referee PIN is required on a real table: add pin = "NNNNNN" '
                          f"({MIN_PIN_LENGTH} to 12 digits) to the [referee] section of the config")

    return ServerSettings(
        host=host,
        port=port,
        public_url=public_url.rstrip("/") if public_url else None,
        referee_token=token,
        referee_pin=pin,
        token_generated=token_generated,
        pin_generated=pin_generated,
        keepalive=float(keepalive),
    )


HOST_ALLOWED = ('an address such as "127.0.0.1" (this machine only) or "0.0.0.0" '
                "(every network interface)")
PORT_ALLOWED = "a whole number from 1 to 65535 (or 0 for any free port)"


def check_host(host: Any, key: str = "server.host") -> str:
    """``host`` if it can be an address to listen on; ConfigError(key, ...) otherwise.

    Shared by ``[server] host`` and ``bidou-table run --host`` so both refuse the same values.
    """
    if not isinstance(host, str) or not host.strip() or any(c.isspace() for c in host):
        raise ConfigError(key, host, HOST_ALLOWED)
    return host


def check_port(port: Any, key: str = "server.port") -> int:
    """``port`` if it is a TCP port (0 = any free one); ConfigError(key, ...) otherwise.

    Shared by ``[server] port`` and ``bidou-table run --port``: a port above 65535 would
    otherwise wrap around silently in the socket layer and the table would listen elsewhere.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(key, port, PORT_ALLOWED)
    return port


def _no_unknown(section: str, table: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for key in table:
        if key not in known:
            raise ConfigError(f"{section}.{key}", table[key],
                              f"the keys of [{section}] are {', '.join(known)}")
