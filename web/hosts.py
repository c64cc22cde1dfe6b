"""The names the table answers to: a request naming another ``Host`` is refused.

The seat links and QR codes are built from the configured address, never from the request's
``Host`` (which anyone can write: a link to ``http://evil.example/seat/Ann?token=...`` would
hand a seat's token to another site). Refusing other names also closes DNS rebinding: a page
on another site whose name is made to point at the table still sends its own name as Host.

Allowed: the names in the config (``[server] public_url``'s and ``host``), this machine's
names and addresses, and localhost. The machine's addresses are looked up again (at most every
``REFRESH`` seconds) when an unknown name comes, since a Pi on DHCP may change address.

Addresses are matched as addresses (``ipaddress``: any loopback address, ``::1`` however it is
written) and names exactly, never by a prefix: ``127.attacker.example`` and
``127.0.0.1.evil.com`` are names that anyone can point at the table.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from web.addresses import ANY_HOSTS, LOOPBACK, lan_address

#: Seconds between two looks at the machine's addresses.
REFRESH = 30.0


def host_name(host_header: str) -> str:
    """The name of a ``Host`` header, without port or IPv6 brackets, lower case."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def canonical(name: str) -> str:
    """An address written one way (``0:0::1``, ``::FFFF:10.0.0.1``) as every other way is
    written (``::1``, ``::ffff:10.0.0.1``); a name as it is, lower case."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name.lower()


def is_loopback_address(name: str) -> bool:
    """Whether ``name`` is an address (not a name) of this machine's loopback interface."""
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def machine_names() -> set[str]:
    """This machine's host names and the addresses they and its network interface have."""
    names = {socket.gethostname().lower()}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn().lower())
    names |= {f"{n.split('.')[0]}.local" for n in list(names) if n}
    for name in list(names):
        with contextlib.suppress(OSError, UnicodeError):
            for info in socket.getaddrinfo(name, None):
                names.add(str(info[4][0]).lower())
    lan = lan_address()
    if lan:
        names.add(lan)
    return names


class AllowedHosts:
    """Whether a ``Host`` header names this table (see the module docstring)."""

    def __init__(self, *, public_url: str | None, listen_host: str,
                 lookup: Callable[[], set[str]] = machine_names,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._configured = {canonical(n) for n in (*LOOPBACK, "localhost")}
        if public_url:
            self._configured.add(canonical(urlsplit(public_url).hostname or ""))
        if listen_host not in ANY_HOSTS:
            self._configured.add(canonical(listen_host))
        self._configured.discard("")  # a public_url without a host name names nothing
        self._lookup, self._clock = lookup, clock
        self._lock = threading.Lock()
        self._machine: set[str] = set()
        self._looked = float("-inf")

    def admits(self, host_header: str | None) -> bool:
        """Whether a request with this ``Host`` may be answered."""
        if not host_header:
            return False
        name = canonical(host_name(host_header))
        if name in self._configured or is_loopback_address(name):
            return True
        with self._lock:
            if name in self._machine:
                return True
            if self._clock() - self._looked < REFRESH:
                return False
            self._looked = self._clock()
            self._machine = {canonical(n) for n in self._lookup()}
            return name in self._machine

    def names(self) -> list[str]:
        """The configured names, for the refusal's sentence."""
        return sorted(n for n in self._configured if n)
