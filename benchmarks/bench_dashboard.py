"""Dashboard: press-to-event latency with 50 event-stream clients, and /api/state requests/s.

A real Dashboard (cheroot, one broadcaster thread for the streams) serves the real controller on a
simulated table, on 127.0.0.1. Fifty clients hold ``GET /api/events`` open on raw sockets, each in
its own thread, noting when every state version reaches it. Presses are sent as a phone sends them
(``POST /api/press`` with the seat token); latency is from sending the press to the new state
arriving at each client. The public state's size at the game's start is printed first (every
stream is sent the state on each change). Then ``GET /api/state`` is requested as fast as one
and four keep-alive clients can, with the 50 streams still open.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import statistics
import threading
import time

from firmware.camera.simulation import players_settle, random_presses
from firmware.settings.config import build_config
from firmware.settings.server_settings import ServerSettings
from firmware.table.house import build_house
from table_server.server import Dashboard

CLIENTS = 50
PRESSES = 60


def _p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


class StreamClient(threading.Thread):
    """One event-stream client: records when each version first arrives."""

    def __init__(self, port: int, seen: threading.Condition) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.seen = seen
        self.arrivals: dict[int, float] = {}
        self.latest = -1
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    def run(self) -> None:
        buffer = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                now = time.perf_counter()
                buffer += data
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        version = int(line[4:])
                        self.arrivals.setdefault(version, now)
                        with self.seen:
                            self.latest = max(self.latest, version)
                            self.seen.notify_all()
        except OSError:
            return

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def _wait_all(clients: list[StreamClient], seen: threading.Condition, version: int,
              timeout: float = 10.0) -> bool:
    with seen:
        return seen.wait_for(lambda: all(c.latest >= version for c in clients), timeout)


def _post(conn: http.client.HTTPConnection, path: str, body: dict, token: str) -> int:
    conn.request("POST", path, json.dumps(body),
                 {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    response.read()
    return response.status


def _state_rate(port: int, threads: int, seconds: float = 2.0) -> float:
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.perf_counter() < stop:
            conn.request("GET", "/api/state")
            response = conn.getresponse()
            response.read()
            counts[i] += 1
        conn.close()

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - start)


def main() -> None:
    config = build_config({"table": {"variant": "multi-hand", "players": ["Ann", "Bob", "Cid"]}},
                          environ={})
    house = build_house(config, seed=5, panels=False)
    controller, sim = house.controller, house.dice
    assert sim is not None
    settings = ServerSettings(port=0, referee_token="bench-referee-token-0000",
                              referee_pin="1234", keepalive=5.0)
    dashboard = Dashboard(controller, settings).start()
    seen = threading.Condition()
    clients = [StreamClient(dashboard.port, seen) for _ in range(CLIENTS)]
    for c in clients:
        c.start()
    try:
        if not _wait_all(clients, seen, controller.public_state()["version"]):
            print("  not every client got the first state within 10 s; no figures")
            return
        tokens = dashboard.context.tokens
        conn = http.client.HTTPConnection("127.0.0.1", dashboard.port, timeout=30)
        conn.request("GET", "/api/state")
        size = len(conn.getresponse().read())
        print(f"public state at the game's start (GET /api/state, 3 players): {size} bytes")
        rng = random.Random(5)
        latencies: dict[str, list[float]] = {"THROW (camera read)": [], "other buttons": []}
        sent = 0
        while sent < PRESSES and not controller.game.over:
            players_settle(controller, sim)  # exposed dice the camera could not read (D-S4)
            if controller.game.over:
                break
            seat, moves = random_presses(controller.game, rng)
            for button, long in moves:
                t0 = time.perf_counter()
                status = _post(conn, "/api/press", {"seat": seat, "button": button,
                                                    "long": long}, tokens.token_for(seat))
                version = controller.public_state()["version"]
                sent += 1
                if status != 200 or not _wait_all(clients, seen, version):
                    continue
                kind = "THROW (camera read)" if button == "THROW" and not long else \
                    "other buttons"
                latencies[kind] += [c.arrivals[min(v for v in c.arrivals if v >= version)] - t0
                                    for c in clients]
        conn.request("GET", "/api/state")
        size = len(conn.getresponse().read())
        print(f"public state after {sent} presses (its last 30 events in it): {size} bytes")
        conn.close()
        print(f"press-to-event latency, {CLIENTS} event-stream clients "
              "(POST /api/press sent -> state arrives at each client)")
        for kind, xs in latencies.items():
            if xs:
                median, p99 = 1000 * statistics.median(xs), 1000 * _p99(xs)
                print(f"  {kind:<20} samples={len(xs):5d}  median {median:6.1f} ms  "
                      f"p99 {p99:6.1f} ms")
        for threads in (1, 4):
            rate = _state_rate(dashboard.port, threads)
            print(f"GET /api/state with {CLIENTS} streams open, {threads} keep-alive "
                  f"client{'s' if threads > 1 else ''}: {rate:7.0f} requests/s")
    finally:
        for c in clients:
            c.close()
        dashboard.stop()
        house.close()


if __name__ == "__main__":
    main()
