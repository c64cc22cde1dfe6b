"""The screen served by cheroot, as the table's dashboard is (table_server.wsgi_server):
a real threaded server with bounded threads and a read timeout, in a daemon thread."""

from __future__ import annotations

import threading

from cheroot import wsgi
from flask import Flask

THREADS = 24  # more than the event streams allowed (app.MAX_STREAMS), so pages still load


class ScreenServer:
    """``app`` on ``host:port`` (0 = any free port); ``url`` once started."""

    def __init__(self, app: Flask, host: str, port: int) -> None:
        self.server = wsgi.Server((host, port), app, numthreads=THREADS, timeout=10,
                                  server_name="bidou-venue")
        self.host = host
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.server.prepare()  # binds: a port in use raises OSError here, before printing
        self._thread = threading.Thread(target=self.server.serve, name="venue-screen",
                                        daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        port = self.server.bind_addr[1]
        return f"http://{self.host}:{port}/"

    def stop(self) -> None:
        self.server.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
