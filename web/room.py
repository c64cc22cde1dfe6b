"""Room for a client that sends a request, however many sockets others hold open silent.

cheroot's connection manager accepts every client and waits for its request in a selector;
:class:`BoundedConnections` adds what a pub needs to it (a device on the network holding
a thousand sockets open must not leave the pub's screen, phones or venue screen without an
answer):

- a bound on the connections open at once, sized from the descriptors the process has
  (``web.descriptors``), so ``accept`` never fails for want of a descriptor;
- when the bound is reached, the connection silent longest (one that never sent a request,
  or an idle keep-alive one) is closed to make room for the newcomer; a connection being
  served is never closed, and only when every one is being served does a newcomer get the
  one-line 503;
- a per-address share: an address holding its share closes its own silent-longest
  connection to open another, so a flood from one address never takes the slots, or the
  idle keep-alive connections, of the others;
- a new client waits in the selector (like an idle keep-alive one) and gets a worker thread
  only once its request starts arriving: otherwise a thread waited up to the read timeout
  for each idle client, and a thousand of them held every thread.

Silent connections are kept oldest first (each time a connection goes back to the selector
it is stamped and queued again; queue entries whose stamp is no longer the connection's are
skipped), so choosing one to close costs no scan of every connection.
"""

from __future__ import annotations

import contextlib
import errno
import selectors
import socket
import threading
import time
from collections import deque
from typing import Any

from cheroot import connections, server


def refusal(who: str) -> bytes:
    """The one-line 503 sent, then the socket closed, to a client when every open connection
    is being served; ``who`` names the server ("The table", "The venue screen")."""
    text = (f"{who} has too many open connections; close some pages and try again in a "
            f"moment.\n").encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Retry-After: 5\r\nConnection: close\r\nContent-Length: "
            + str(len(text)).encode() + b"\r\n\r\n" + text)


#: The table's refusal (``refusal("The table")``).
REFUSAL = refusal("The table")

_Entry = tuple[int, "TrackedConnection"]


class TrackedConnection(server.HTTPConnection):
    """cheroot's connection, counted per address by the manager until it is closed."""

    #: the stamp of its latest wait in the selector; 0 while served, or once closed
    idle_stamp = 0
    counted = False

    def close(self) -> None:
        super().close()
        manager = getattr(self.server, "_connections", None)
        if isinstance(manager, BoundedConnections):
            manager.forget(self)


class BoundedConnections(connections.ConnectionManager):
    """cheroot's connection manager with the bound, the eviction and the per-address share
    of the module docstring (``server.max_connections``, ``server.per_address``)."""

    def __init__(self, bounded_server: Any) -> None:
        super().__init__(bounded_server)
        self._room = threading.Lock()
        self._open: dict[str, int] = {}  # address -> connections open (silent or served)
        self._total = 0
        self._stamp = 0
        self._silent: deque[_Entry] = deque()  # oldest first, stale entries skipped
        self._silent_of: dict[str, deque[_Entry]] = {}
        #: connections closed to make room, and newcomers refused (for tests and benchmarks)
        self.evicted = 0
        self.refused = 0

    # --- cheroot's hooks ------------------------------------------------------------------
    def put(self, conn: Any) -> None:
        """A connection waits for its (next) request: queued as silent, then watched."""
        conn.last_used = time.time()
        if conn.rfile.has_data():
            self.server.process_conn(conn)
            return
        with self._room:
            if not conn.counted:  # closed meanwhile (made room for another)
                return
            self._stamp += 1
            conn.idle_stamp = self._stamp
            entry = (self._stamp, conn)
            self._silent.append(entry)
            self._silent_of.setdefault(conn.remote_addr or "", deque()).append(entry)
            if len(self._silent) > 4 * self._total + 64:
                self._compact()
            self._selector.register(conn.socket.fileno(), selectors.EVENT_READ, data=conn)

    def _from_server_socket(self, server_socket: socket.socket) -> Any:
        """Accept a client and give it room (closing a silent one if need be), or refuse it;
        it then waits in the selector. Always None: no client goes to a thread unasked."""
        try:
            conn = super()._from_server_socket(server_socket)
        except OSError as e:
            if e.errno not in (errno.EMFILE, errno.ENFILE):
                raise
            # The bound leaves descriptors spare, so this is something else's doing: free
            # one, and accept on the next turn (the client waits in the backlog meanwhile).
            if not self._close_silent(None):
                time.sleep(0.01)
            return None
        if conn is None:
            return None
        address = conn.remote_addr or ""
        with self._room:
            mine, total = self._open.get(address, 0), self._total
        if mine >= self.server.per_address:
            room = self._close_silent(address)
        elif total >= self.server.max_connections:
            room = self._close_silent(None)
        else:
            room = True
        if not room:
            self._refuse(conn)
            return None
        with self._room:
            conn.counted = True
            self._open[address] = self._open.get(address, 0) + 1
            self._total += 1
        self.put(conn)
        return None

    # --- the server's -------------------------------------------------------------------
    def serving(self, conn: Any) -> None:
        """``conn`` goes to a worker thread: not silent, so never closed to make room."""
        with self._room:
            conn.idle_stamp = 0

    def forget(self, conn: Any) -> None:
        """``conn`` was closed (or handed over): it holds no slot any more."""
        with self._room:
            conn.idle_stamp = 0
            if not conn.counted:
                return
            conn.counted = False
            address = conn.remote_addr or ""
            self._total -= 1
            left = self._open.get(address, 1) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)
                self._silent_of.pop(address, None)

    def open_connections(self) -> int:
        """Connections open now: silent in the selector, or being served by a thread."""
        with self._room:
            return self._total

    def silent_connections(self) -> int:
        """Connections waiting in the selector now (never asked, or idle keep-alive)."""
        with self._room:
            return sum(1 for stamp, conn in self._silent if conn.idle_stamp == stamp)

    def held_by(self, address: str) -> int:
        """Connections ``address`` holds open now."""
        with self._room:
            return self._open.get(address, 0)

    def _close_silent(self, address: str | None) -> bool:
        """Close the connection silent longest (of ``address``, or of anyone); True if there
        was one. Runs on the selector's thread, which alone hands silent ones to threads."""
        with self._room:
            queue = self._silent if address is None else self._silent_of.get(address, deque())
            victim = None
            while queue:
                stamp, conn = queue.popleft()
                if conn.idle_stamp == stamp:
                    conn.idle_stamp, victim = 0, conn
                    break
        if victim is None:
            return False
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(victim.socket.fileno())
        with contextlib.suppress(OSError):
            victim.close()
        self.evicted += 1
        return True

    def _refuse(self, conn: Any) -> None:
        """Every open connection is being served: the newcomer gets the one-line 503."""
        self.refused += 1
        with contextlib.suppress(OSError):
            conn.socket.settimeout(1.0)
            conn.socket.sendall(getattr(self.server, "refusal", REFUSAL))
        with contextlib.suppress(OSError):
            conn.close()

    def _compact(self) -> None:
        """Drop the queue entries of connections served or closed since (lock held)."""
        self._silent = deque(e for e in self._silent if e[1].idle_stamp == e[0])
        for address, queue in list(self._silent_of.items()):
            self._silent_of[address] = deque(e for e in queue if e[1].idle_stamp == e[0])
