"""The dashboard's HTTP server under hostile or unlucky clients: idle sockets are closed after
the read timeout, connections past the bound get a clear 503 and the page still answers,
event streams are bounded, and a stop ends even a stream waiting for its keep-alive."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

from firmware.server_settings import ServerSettings
from table_server import server as server_module
from table_server.server import Dashboard
from table_server.wsgi_server import REFUSAL


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


def test_past_the_connection_bound_a_client_is_told_so_and_closed(table, monkeypatch):
    d = start(table, monkeypatch, connections=20)
    try:
        socks = idle(d, 20)
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", d.port), timeout=5)
        received = b""
        while chunk := extra.recv(4096):
            received += chunk
        assert received == REFUSAL
        assert b"too many open connections" in received
        for s in socks[:5]:
            s.close()
        time.sleep(0.3)
        assert state_status(d) == 200  # room again once some leave
    finally:
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
