"""The dashboard's HTTP server under hostile or unlucky clients: idle sockets are closed after
the read timeout; past the connection bound the connection silent longest makes room, an
address at its share closes its own, and only when every connection is being served does a
newcomer get the clear 503; event streams are bounded, and a stop ends even a stream waiting
for its keep-alive."""

from __future__ import annotations

import contextlib
import http.client
import json
import select
import socket
import time

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server import server as server_module
from table_server.server import Dashboard
from web.wsgi_server import REFUSAL


def start(table, monkeypatch, *, connections: int = 2000, timeout: float = 10.0,
          keepalive: float = 0.2) -> Dashboard:
    monkeypatch.setattr(server_module, "MAX_CONNECTIONS", connections)
    monkeypatch.setattr(server_module, "READ_TIMEOUT", timeout)
    settings = ServerSettings(host="127.0.0.1", port=0, referee_token="r" * 20,
                              referee_pin="123456", keepalive=keepalive)
    return Dashboard(table.controller, settings).start()


def state_status(d: Dashboard) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", d.port, timeout=5)
    conn.request("GET", "/api/state")
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def idle(d: Dashboard, n: int) -> list[socket.socket]:
    """``n`` clients that connect and never send a byte."""
    return [socket.create_connection(("127.0.0.1", d.port), timeout=5) for _ in range(n)]


def test_idle_connections_are_closed_after_the_read_timeout(table, monkeypatch):
    d = start(table, monkeypatch, timeout=0.5)
    try:
        socks = idle(d, 30)
        time.sleep(1.5)
        for s in socks:
            said = b""
            while chunk := s.recv(4096):  # the server closes it (after a 408, or silently)
                said += chunk
            assert said == b"" or said.startswith(b"HTTP/1.1 408 Request Timeout"), said
            s.close()
        assert state_status(d) == 200
    finally:
        d.stop()


def closed(socks: list[socket.socket], expected: int, wait: float = 5.0) -> set[int]:
    """The indexes of ``socks`` the server has closed, waiting (at most ``wait`` s) until
    ``expected`` of them are (a closed socket turns readable with nothing to read)."""
    deadline = time.monotonic() + wait
    found: set[int] = set()
    while True:
        ready, _, _ = select.select([s for i, s in enumerate(socks) if i not in found],
                                    [], [], 0.2)
        for s in ready:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                found.add(socks.index(s))
        if len(found) >= expected or time.monotonic() > deadline:
            time.sleep(0.2)  # and no more than expected: a second look
            ready, _, _ = select.select([s for i, s in enumerate(socks) if i not in found],
                                        [], [], 0)
            return found | {socks.index(s) for s in ready}


def idle_from(d: Dashboard, source: str, n: int) -> list[socket.socket]:
    """``n`` clients from the loopback address ``source`` that never send a byte, each
    accepted by the server before the next connects (so their ages are in this order)."""
    socks = []
    for _ in range(n):
        socks.append(socket.create_connection(("127.0.0.1", d.port), timeout=5,
                                              source_address=(source, 0)))
        deadline = time.monotonic() + 5
        while d._server._connections.held_by(source) < min(len(socks), d.bound.per_address):
            assert time.monotonic() < deadline, "the server did not accept the client"
            time.sleep(0.005)
    return socks


def state_from(d: Dashboard, source: str) -> bytes:
    with socket.create_connection(("127.0.0.1", d.port), timeout=5,
                                  source_address=(source, 0)) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return s.recv(64)


def test_past_the_bound_the_connection_silent_longest_makes_room(table, monkeypatch):
    d = start(table, monkeypatch, connections=20)
    socks: list[socket.socket] = []
    try:
        assert (d.bound.connections, d.bound.per_address) == (20, 10)
        socks = idle_from(d, "127.0.0.1", 10) + idle_from(d, "127.0.0.2", 10)
        assert state_from(d, "127.0.0.3").startswith(b"HTTP/1.1 200 OK")
        assert closed(socks, 1) == {0}  # the oldest silent one, and only it
    finally:
        for s in socks:
            s.close()
        d.stop()


def test_an_address_at_its_share_closes_its_own_silent_longest(table, monkeypatch):
    d = start(table, monkeypatch, connections=20)
    socks: list[socket.socket] = []
    try:
        others = idle_from(d, "127.0.0.2", 5)
        flood = idle_from(d, "127.0.0.1", 16)
        socks = others + flood
        assert closed(socks, 6) == {5, 6, 7, 8, 9, 10}  # the flood's first six, not the others
        assert d._server._connections.held_by("127.0.0.1") == 10
    finally:
        for s in socks:
            s.close()
        d.stop()


def test_when_every_connection_is_being_served_a_newcomer_gets_the_503(table, monkeypatch):
    d = start(table, monkeypatch, connections=4)
    busy: list[socket.socket] = []
    try:
        for source in ("127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"):
            s = socket.create_connection(("127.0.0.1", d.port), timeout=5,
                                         source_address=(source, 0))
            s.sendall(b"GET /api/state HTTP/1.1\r\n")  # a request begun: a thread reads it
            busy.append(s)
        rooms, deadline = d._server._connections, time.monotonic() + 10
        while rooms.open_connections() < 4 or rooms.silent_connections() > 0:
            assert time.monotonic() < deadline  # the four are handed to worker threads
            time.sleep(0.01)
        extra = socket.create_connection(("127.0.0.1", d.port), timeout=5,
                                         source_address=("127.0.0.3", 0))
        received = b""
        while chunk := extra.recv(4096):
            received += chunk
        extra.close()
        assert received == REFUSAL
        assert b"too many open connections" in received
        for s in busy:
            s.close()
        busy = []
        deadline = time.monotonic() + 30  # the worker threads see the four leave
        while rooms.open_connections() > 0:
            assert time.monotonic() < deadline, "the four closed connections were never let go"
            time.sleep(0.01)
        assert state_status(d) == 200  # room again once they leave
    finally:
        for s in busy:
            s.close()
        d.stop()


def test_a_thousand_idle_sockets_leave_the_state_answering(table, monkeypatch):
    d = start(table, monkeypatch)
    socks: list[socket.socket] = []
    try:
        socks = idle(d, 1000)
        began = time.monotonic()
        assert state_status(d) == 200
        assert time.monotonic() - began < 2.0
    finally:
        for s in socks:
            s.close()
        d.stop()


def test_event_streams_past_the_limit_get_503(table, monkeypatch):
    d = start(table, monkeypatch)
    d.context.streams.limit = 2
    streams = []
    try:
        for _ in range(2):
            conn = http.client.HTTPConnection("127.0.0.1", d.port, timeout=5)
            conn.request("GET", "/api/events")
            response = conn.getresponse()  # "Connection: close": the response holds the socket
            assert response.status == 200
            streams.append(response)
        conn = http.client.HTTPConnection("127.0.0.1", d.port, timeout=5)
        conn.request("GET", "/api/events")
        refused = conn.getresponse()
        assert refused.status == 503 and refused.headers["Retry-After"] == "30"
        assert json.loads(refused.read())["error"].startswith("2 screens already follow")
        streams[0].close()
        deadline = time.monotonic() + 5
        while len(d.context.streams) > 1:  # the keep-alive write notices the gone client
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        for c in streams:
            c.close()
        d.stop()


@pytest.mark.timeout(30)
def test_stop_ends_a_stream_waiting_for_a_long_keepalive_at_once(table, monkeypatch):
    d = start(table, monkeypatch, keepalive=60.0)
    sock = socket.create_connection(("127.0.0.1", d.port), timeout=10)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = b""
    while b"event: state" not in received:
        received += sock.recv(65536)
    began = time.monotonic()
    d.stop()
    while sock.recv(65536):
        pass
    assert time.monotonic() - began < 3.0
    assert len(d.context.streams) == 0
    sock.close()


def test_the_listening_socket_sends_small_writes_at_once(table, monkeypatch):
    """TCP_NODELAY, inherited by accepted sockets: without it a keep-alive answer written in
    two pieces waited 40 ms for the client's delayed ACK."""
    d = start(table, monkeypatch)
    try:
        assert d._server.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        d.stop()


def head_answer(port: int, request: bytes) -> bytes:
    """The answer to ``request`` sent as written (b"" if the server closed without one)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        with contextlib.suppress(OSError):  # refused part-way: the server stopped reading
            s.sendall(request)
        said = b""
        with contextlib.suppress(OSError):
            while chunk := s.recv(65536):
                said += chunk
        return said


def test_request_heads_past_the_limits_get_a_sentence_and_a_closed_connection(
        table, monkeypatch):
    """The server shared with the venue screen (``web.wsgi_server``) reads at most 16 KiB of
    request line and headers, and 100 headers."""
    d = start(table, monkeypatch)
    head = "Host: 127.0.0.1\r\nConnection: close\r\n"
    try:
        long_line = head_answer(d.port, f"GET /api/state?q={'a' * 20_000} HTTP/1.1\r\n{head}"
                                        "\r\n".encode())
        assert long_line.startswith(b"HTTP/1.1 414 URI Too Long\r\n"), long_line[:100]
        assert b"The request line is longer than 16 KiB" in long_line
        big = head_answer(d.port, f"GET /api/state HTTP/1.1\r\n{head}X-Big: {'a' * 20_000}"
                                  "\r\n\r\n".encode())
        assert big.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"), big[:100]
        assert b"larger than 16 KiB together" in big and b"Connection: close" in big
        many = head_answer(d.port, (f"GET /api/state HTTP/1.1\r\n{head}"
                                    + "".join(f"X-{i}: 1\r\n" for i in range(101))
                                    + "\r\n").encode())
        assert many.startswith(b"HTTP/1.1 431"), many[:100]
        assert b"The request has 103 headers; at most 100 are read" in many
        fine = head_answer(d.port, (f"GET /api/state HTTP/1.1\r\n{head}"
                                    + "".join(f"X-{i}: 1\r\n" for i in range(90))
                                    + "\r\n").encode())
        assert fine.startswith(b"HTTP/1.1 200 OK"), fine[:100]
    finally:
        d.stop()
