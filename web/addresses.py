"""The address phones should use to reach this table.

A seat's QR code is useless if it says 127.0.0.1. When the dashboard listens on every
interface (``host = "0.0.0.0"``) and no ``[server] public_url`` is set, the links use this
machine's address on the local network: the one the kernel would send from, found by
"connecting" a UDP socket (which sends nothing and needs no internet).
"""

from __future__ import annotations

import contextlib
import socket

ANY_HOSTS = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def lan_address() -> str | None:
    """This machine's address on the local network, or None when it has none."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))  # any non-local address; no packet is sent
        address = s.getsockname()[0]
        if address and not address.startswith("127."):
            return str(address)
    return None


def public_base(public_url: str | None, listen_host: str, port: int,
                request_host: str | None = None) -> str:
    """``http://HOST:PORT`` for links that phones will open.

    ``public_url`` wins; else the address the request came in on, unless that is a loopback
    address while the dashboard listens on every interface (then the LAN address).
    """
    if public_url:
        return public_url.rstrip("/")
    if request_host is not None:
        name = request_host.rsplit(":", 1)[0].strip("[]")
        if not (name in LOOPBACK and listen_host in ANY_HOSTS):
            return f"http://{request_host}"
    host = listen_host
    if host in ANY_HOSTS:
        host = lan_address() or "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"
