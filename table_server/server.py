"""``Dashboard``: the Flask app served by cheroot from a daemon thread inside the controller's
process (``web.wsgi_server`` says why cheroot; docs/dashboard.md compares).

Every client socket has a read timeout (an idle one is closed after it), the open connections
are bounded (past the bound a client gets a one-line 503), event streams are bounded too and
all written by one thread (``table_server.streams.broadcast``) as each change is made. ``stop``
first ends the event streams, then stops the server and joins its threads, so the process can exit
cleanly and a test can start another dashboard on the same machine at once.
"""

from __future__ import annotations

import threading
from urllib.parse import quote

from firmware.settings.server_settings import ServerSettings
from firmware.table.controller import TableController
from table_server.access.referee_pin import RefereePin
from table_server.app import create_app
from table_server.console.dice_teach import UPLOAD_BODY
from table_server.context import Context
from table_server.streams.broadcast import Broadcaster
from table_server.words.present import decorate
from web.addresses import public_base
from web.descriptors import Bound, choose_bound
from web.listen import listening_socket
from web.wsgi_server import MAX_BODY_BACKSTOP, BoundedServer

#: Worker threads for requests (event streams hold none: the broadcaster writes them).
THREADS = 16
#: Presses past their rate held at once until the seat may press (``press_gate``).
HELD_REFUSALS = 4
#: Open connections at most (idle or served), when the open-file limit allows as many
#: (``web.descriptors`` sizes the bound); LimitNOFILE in the systemd unit is above it.
MAX_CONNECTIONS = 2000
#: Seconds a client may take to send its request, or stay idle between requests.
READ_TIMEOUT = 10.0


class Dashboard:
    """The dashboard of one table: ``start()``, ``url``, ``seat_urls()``, ``stop()``."""

    def __init__(self, controller: TableController, settings: ServerSettings) -> None:
        self.controller = controller
        self.settings = settings
        self.app = create_app(controller, settings, hold_refusals=HELD_REFUSALS)
        self._server: BoundedServer | None = None
        self._thread: threading.Thread | None = None
        #: the connection bound chosen at start (``web.descriptors``)
        self.bound: Bound | None = None

    @property
    def context(self) -> Context:
        return self.app.extensions["bidou"]

    def start(self) -> Dashboard:
        """Listen (OSError with a sentence if it cannot) and serve in a daemon thread."""
        if self._server is not None:
            return self
        self.bound = choose_bound(MAX_CONNECTIONS, self.context.streams.limit)
        sock = listening_socket(self.settings.host, self.settings.port)
        server = BoundedServer(sock, self.app, threads=THREADS, timeout=READ_TIMEOUT,
                               max_connections=self.bound.connections,
                               per_address=self.bound.per_address,
                               max_body=max(MAX_BODY_BACKSTOP, 2 * UPLOAD_BODY))
        try:
            server.prepare()
        except BaseException:
            sock.close()
            raise
        self.context.broadcaster = Broadcaster(self.controller, transform=decorate,
                                               keepalive=self.settings.keepalive).start()
        self._server = server
        self._thread = threading.Thread(target=server.serve, name="dashboard", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """End the event streams and stop serving; idempotent."""
        self.context.stopping.set()
        self.context.streams.end_all()
        broadcaster, self.context.broadcaster = self.context.broadcaster, None
        if broadcaster is not None:
            broadcaster.stop()
        server, self._server = self._server, None
        if server is not None:
            server.stop()
        if self._thread is not None:
            self._thread.join(5.0)
            self._thread = None

    def __enter__(self) -> Dashboard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The port actually listened on (the configured one, or the one chosen for 0)."""
        if self._server is not None:
            return self._server.port
        return self.settings.port

    @property
    def public_base(self) -> str:
        """Where other devices reach the table: ``public_url``, else the LAN address when
        listening on every interface, else the address listened on."""
        return public_base(self.settings.public_url, self.settings.host, self.port)

    @property
    def url(self) -> str:
        """The table view's address."""
        return self.public_base + "/"

    @property
    def referee_url(self) -> str:
        return self.public_base + "/referee"

    def seat_urls(self) -> dict[str, str]:
        """Each seat's controller page, with its token in the link (keep these private)."""
        base = self.public_base
        return {seat: f"{base}/seat/{quote(seat)}?token={self.context.tokens.token_for(seat)}"
                for seat in self.context.seat_names()}

    def startup_lines(self, *, simulate: bool = False) -> list[str]:
        """What ``bidou-table run`` prints: where to look, and any generated secret."""
        lines = [f"Table view:       {self.url}"]
        for seat, url in self.seat_urls().items():
            lines.append(f"Seat {seat + ':':<12} {url}")
        lines.append(f"Referee console:  {self.referee_url}")
        if self.bound is not None:
            lines.append(self.bound.sentence())
        if self.settings.pin_generated:
            kept = RefereePin(self.settings, self.context.controller.log).current()
            lines.append(f"Referee PIN:      {kept} (kept in the table's log across restarts; "
                         "change it on the referee console, or set [referee] pin in the "
                         "config)")
        if self.settings.token_generated and simulate:
            lines.append(f"Referee token:    {self.settings.referee_token} (generated; set "
                         "BIDOU_REFEREE_TOKEN or [referee] token to choose it)")
        if self.settings.host in ("127.0.0.1", "localhost", "::1"):
            lines.append("Listening on this machine only; set [server] host = \"0.0.0.0\" "
                         "for phones on the pub's network.")
        return lines
