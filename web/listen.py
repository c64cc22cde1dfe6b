"""A listening socket for the dashboard or the venue screen, with a sentence for every way
binding fails: the address taken, not this machine's, an unknown name, a privileged port.

Made before the server (``web.wsgi_server.BoundedServer`` serves the socket given), so a
start that cannot listen says so before printing any address.
"""

from __future__ import annotations

import errno
import socket


def listening_socket(host: str, port: int, *, who: str = "The dashboard",
                     hosts: str = "--host or [server] host",
                     ports: str = "--port or [server] port") -> socket.socket:
    """A TCP socket listening on ``host``:``port``; OSError with a sentence that says what to
    change when it cannot be (address taken, not this machine's, unknown name, privileged).
    ``who`` names the server in it, ``hosts`` and ``ports`` the settings that choose them."""
    change = f"with {hosts}"
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        infos = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise OSError(errno.EADDRNOTAVAIL,
                      f"{who} cannot listen on {host!r}: it is not an address or a "
                      'name this machine knows; use "127.0.0.1" (this machine only) or '
                      f'"0.0.0.0" (every network interface) {change}.') from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise OSError(errno.EADDRINUSE,
                          f"Port {port} on {host} is in use by another program; stop it, or "
                          f"choose a free port with {ports}.") from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise OSError(errno.EADDRNOTAVAIL,
                          f"{host} is not an address of this machine, so {who.lower()} cannot "
                          'listen on it; use "127.0.0.1" (this machine only) or "0.0.0.0" '
                          f"(every network interface) {change}.") from None
        if e.errno == errno.EACCES:
            raise OSError(errno.EACCES,
                          f"Port {port} is reserved for the system administrator (ports below "
                          f"1024 need root); choose a port from 1024 up with {ports}.") from None
        raise OSError(e.errno, f"{who} cannot listen on {host} port {port}: "
                               f"{e.strerror}; check {hosts} and {ports}.") from None
    return sock
