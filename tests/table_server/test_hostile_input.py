"""Hostile and careless requests of issue 37, part 2, each sent from outside as the issue
gives it (raw HTTP on loopback to the real cheroot server), each now answered as the docs say,
with nothing played and no traceback in the log."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from firmware.server_settings import ServerSettings
from table_server.server import Dashboard

REFEREE = "r" * 20
PIN = "123456"


@pytest.fixture
def served(table) -> Iterator[tuple[Any, Dashboard]]:
    """The test table behind the real server on a free loopback port; stopped at the end."""
    settings = ServerSettings(host="127.0.0.1", port=0, referee_token=REFEREE,
                              referee_pin=PIN)
    d = Dashboard(table.controller, settings).start()
    try:
        yield table, d
    finally:
        d.stop()


def send(port: int, head: str, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Send one request exactly as written (``head`` without the blank line) and read the
    answer until the server closes or the body is complete; (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode("utf-8") + b"\r\n\r\n" + body)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        top, _, rest = data.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip()
                   for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "-1"))
        while length < 0 or len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
    return int(lines[0].split()[1]), headers, rest


def test_the_host_check_matches_addresses_as_addresses_and_names_exactly(served):
    t, d = served
    p = d.port
    status, _, body = send(p, f"GET /api/state HTTP/1.1\nHost: 127.attacker.example:{p}\n"
                              "Connection: close")
    assert status == 400
    assert b"This table answers to its own addresses only" in body
    status, headers, _ = send(p, f"GET /referee HTTP/1.1\nHost: 127.attacker.example:{p}\n"
                                 "Connection: close")
    assert status == 400 and "set-cookie" not in headers
    before = len(t.controller.game.history)
    act = b'{"seat": "Ann", "action": "roll"}'
    status, _, body = send(p, f"POST /api/act HTTP/1.1\nHost: 127.0.0.1.evil.com\n"
                              f"Authorization: Bearer {t.token('Ann')}\n"
                              "Content-Type: application/json\n"
                              f"Content-Length: {len(act)}\nConnection: close", act)
    assert status == 400 and b"127.0.0.1.evil.com" in body
    assert len(t.controller.game.history) == before  # nothing was played
    for good in (f"127.0.0.1:{p}", f"127.0.0.5:{p}", f"[::1]:{p}", f"[0:0::1]:{p}",
                 "localhost", "LOCALHOST."):
        status, _, _ = send(p, f"GET /api/state HTTP/1.1\nHost: {good}\nConnection: close")
        assert status == 200, good
