"""The screen served as the table's dashboard is (``web.wsgi_server``): cheroot in a daemon
thread, with bounded threads, a read timeout, a connection bound sized from the descriptors
the process has, room made for a client that asks by closing the connection silent longest,
and bounded request heads. One device on the pub's network holding a thousand sockets open
must not blank the wall."""

from __future__ import annotations

import threading

from flask import Flask

from web.descriptors import Bound, choose_bound
from web.listen import listening_socket
from web.wsgi_server import BoundedServer

THREADS = 24  # more than the event streams allowed (app.MAX_STREAMS), so pages still load
#: Open connections at most (idle or served), when the open-file limit allows as many.
MAX_CONNECTIONS = 2000
#: Seconds a client may take to send its request, or stay idle between requests.
READ_TIMEOUT = 10.0


class ScreenServer:
    """``app`` on ``host:port`` (0 = any free port); ``url`` once started. ``who`` names the
    screen in what it says, ``hosts`` and ``ports`` the settings that choose its address."""

    def __init__(self, app: Flask, host: str, port: int, *, who: str = "The venue screen",
                 hosts: str = "[screen] host", ports: str = "--port or [screen] port") -> None:
        self.app = app
        self.who, self.hosts, self.ports = who, hosts, ports
        self.host = host
        self.port_asked = port
        self.server: BoundedServer | None = None
        #: the connection bound chosen at start (``web.descriptors``)
        self.bound: Bound | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Listen (OSError with a sentence if it cannot, before anything is printed) and
        serve in a daemon thread."""
        self.bound = choose_bound(MAX_CONNECTIONS, 0)  # event streams are connections here
        sock = listening_socket(self.host, self.port_asked, who=self.who, hosts=self.hosts,
                                ports=self.ports)
        server = BoundedServer(sock, self.app, threads=THREADS, timeout=READ_TIMEOUT,
                               max_connections=self.bound.connections,
                               per_address=self.bound.per_address, who=self.who)
        try:
            server.prepare()
        except BaseException:
            sock.close()
            raise
        self.server = server
        self._thread = threading.Thread(target=server.serve, name="venue-screen", daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return self.server.port if self.server is not None else self.port_asked

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def stop(self) -> None:
        server, self.server = self.server, None
        if server is not None:
            server.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
