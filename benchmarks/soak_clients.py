"""The soak benchmark's clients, in their own processes so that they do not share the table's
interpreter lock (``bench_soak.py`` starts them; not a benchmark on its own).

``viewers PORT STREAMS``: STREAMS event-stream clients on one selector, timing each event's
arrival. ``idle PORT IDLE``: IDLE idle connections; one the server closes (its read timeout) is
opened again, so IDLE stay open all along. They are apart from the viewers because reopening a
thousand connections at once blocks that process for a while, and the viewers' clock must not
stop with it. ``flood PORT TOKENS_JSON``: threads pressing as fast as they can with seat
tokens (refused or rate-limited presses), and one thread timing ``GET /api/state``.
Both run until a line arrives on stdin, then print one JSON object of what they saw.
"""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import sys
import threading
import time


def ready(stop: threading.Event | None = None) -> threading.Event:
    """Tell the bench this client is ready; the event returned is set when a line arrives on
    stdin (the bench's "stop")."""
    stop = stop or threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    print("ready", flush=True)
    return stop


def viewers(port: int, streams: int) -> dict:
    sel = selectors.DefaultSelector()
    arrivals: dict[int, list[float]] = {}
    refused = 0

    def open_stream() -> None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ, ["stream", b"", set()])

    for _ in range(streams):
        open_stream()
    stop = ready()
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            kind, buffer, seen = key.data
            try:
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
            except OSError:
                data = b""
            now = time.perf_counter()
            if not data:
                sel.unregister(key.fileobj)
                key.fileobj.close()
                if b" 503 " in buffer[:64]:
                    refused += 1
                continue
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            key.data[1] = buffer
            for line in lines:
                if line.startswith(b"id: "):
                    version = int(line[4:])
                    if version not in seen:
                        seen.add(version)
                        arrivals.setdefault(version, []).append(now)
    open_streams = sum(1 for k in sel.get_map().values() if k.data[0] == "stream")
    return {"arrivals": arrivals, "streams_refused": refused, "streams_open": open_streams}


def idle(port: int, count: int) -> dict:
    sel = selectors.DefaultSelector()
    reopened = 0

    def open_idle() -> None:
        # from another loopback address, as another device on the pub's network: one
        # address holds half the connection bound at most (web/room.py), and the
        # viewers, the flood and the poller come from 127.0.0.1
        sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                        source_address=("127.0.0.2", 0))
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ)

    for _ in range(count):
        open_idle()
    stop = ready()
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            sel.unregister(key.fileobj)
            key.fileobj.close()  # closed by the server (or sent something): open another
            reopened += 1
            open_idle()
    return {"idle_reopened": reopened, "idle_open": len(sel.get_map())}


def flood(port: int, tokens: dict[str, str]) -> dict:
    stop = threading.Event()
    statuses: dict[int, int] = {}
    state_ms: list[float] = []
    lock = threading.Lock()

    def presser(seat: str, token: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body = json.dumps({"seat": seat, "button": "CALL", "long": True})
        while not stop.is_set():
            try:
                conn.request("POST", "/api/press", body, {"Content-Type": "application/json",
                                                           "Authorization": f"Bearer {token}"})
                response = conn.getresponse()
                response.read()
            except OSError:
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            with lock:
                statuses[response.status] = statuses.get(response.status, 0) + 1

    def poller() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while not stop.is_set():
            t0 = time.perf_counter()
            conn.request("GET", "/api/state")
            conn.getresponse().read()
            state_ms.append(1000 * (time.perf_counter() - t0))
            stop.wait(0.02)

    threads = [threading.Thread(target=presser, args=item, daemon=True)
               for item in tokens.items()]
    threads.append(threading.Thread(target=poller, daemon=True))
    for t in threads:
        t.start()
    ready(stop).wait()
    for t in threads:
        t.join(10)
    return {"statuses": statuses, "state_ms": state_ms}


if __name__ == "__main__":
    role, port = sys.argv[1], int(sys.argv[2])
    if role == "viewers":
        result = viewers(port, int(sys.argv[3]))
    elif role == "idle":
        result = idle(port, int(sys.argv[3]))
    else:
        result = flood(port, json.loads(sys.argv[3]))
    print(json.dumps(result), flush=True)
