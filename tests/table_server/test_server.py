"""Dashboard: a real HTTP server in a daemon thread, its addresses, the event stream over a
socket, and a clean stop that ends open streams."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.access.referee_pin import RefereePin
from table_server.server import Dashboard


@pytest.fixture
def dashboard(table):
    settings = ServerSettings(host="127.0.0.1", port=0, referee_token="r" * 20,
                              referee_pin="1234", keepalive=0.2)
    d = Dashboard(table.controller, settings).start()
    try:
        yield d
    finally:
        d.stop()


def get(d: Dashboard, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", d.port, timeout=5)
    conn.request("GET", path, headers=headers or {})
    return conn.getresponse()


def test_serves_the_table_view_and_state(dashboard) -> None:
    assert dashboard.port != 0
    assert dashboard.url == f"http://127.0.0.1:{dashboard.port}/"
    response = get(dashboard, "/api/state")
    assert response.status == 200
    assert json.loads(response.read())["to_act"] == "Ann"
    assert get(dashboard, "/").status == 200


def test_seat_urls_carry_each_seats_token(dashboard) -> None:
    urls = dashboard.seat_urls()
    assert set(urls) == {"Ann", "Bob"}
    for seat, url in urls.items():
        parts = urlsplit(url)
        assert parts.path == f"/seat/{seat}"
        token = parts.query.removeprefix("token=")
        assert dashboard.context.tokens.seat_of(token) == seat
        response = get(dashboard, f"/api/seat/{seat}", {"Authorization": f"Bearer {token}"})
        assert response.status == 200


def test_startup_lines_print_addresses_and_generated_secrets(table) -> None:
    settings = ServerSettings(port=0, referee_pin="123456", pin_generated=True,
                              referee_token="t" * 20, token_generated=True)
    d = Dashboard(table.controller, settings)
    lines = d.startup_lines(simulate=True)
    assert lines[0] == "Table view:       http://127.0.0.1:0/"
    assert any(line.startswith("Seat Ann:") and "?token=" in line for line in lines)
    kept = RefereePin(settings, table.controller.log).current()  # the log's, not the settings'
    assert kept.isdigit() and len(kept) == 6
    assert (f"Referee PIN:      {kept} (kept in the table's log across restarts; change it on "
            "the referee console, or set [referee] pin in the config)") in lines
    assert any("t" * 20 in line for line in lines)
    assert not any("t" * 20 in line for line in d.startup_lines(simulate=False))


def test_event_stream_over_a_socket_reaches_a_press(dashboard, table) -> None:
    sock = socket.create_connection(("127.0.0.1", dashboard.port), timeout=5)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = b""
    deadline = time.monotonic() + 10
    while b"event: state" not in received:
        assert time.monotonic() < deadline
        received += sock.recv(65536)
    assert b"text/event-stream" in received
    table.act("Ann", "roll")
    received = b""
    while b'"to_act":"Bob"' not in received:
        assert time.monotonic() < deadline, "the press never reached the stream"
        received += sock.recv(65536)
    sock.close()


def test_stop_ends_streams_and_frees_the_port(table) -> None:
    settings = ServerSettings(port=0, referee_token="r" * 20, referee_pin="1234",
                              keepalive=0.2)
    d = Dashboard(table.controller, settings).start()
    port = d.port
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert sock.recv(65536)
    d.stop()
    d.stop()  # idempotent
    deadline = time.monotonic() + 5
    while sock.recv(65536):  # the server closes the stream: recv returns b""
        assert time.monotonic() < deadline
    sock.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_port_in_use_is_an_oserror(dashboard, table) -> None:
    settings = ServerSettings(port=dashboard.port, referee_token="r" * 20, referee_pin="1234")
    with pytest.raises(OSError) as e:
        Dashboard(table.controller, settings).start()
    assert str(e.value).endswith(f"Port {dashboard.port} on 127.0.0.1 is in use by another "
                                 "program; stop it, or choose a free port with --port or "
                                 "[server] port.")


def test_a_vanished_client_is_let_go(dashboard, table) -> None:
    streams = dashboard.context.streams
    before = len(streams)
    sock = socket.create_connection(("127.0.0.1", dashboard.port), timeout=5)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = b""
    while b"event: state" not in received:
        received += sock.recv(65536)
    assert len(streams) == before + 1 and len(dashboard.context.broadcaster) == 1
    sock.close()  # the phone walks away: its socket turns readable with nothing to read
    deadline = time.monotonic() + 10
    while len(streams) > before or len(dashboard.context.broadcaster) > 0:
        assert time.monotonic() < deadline, "the stream of a gone client stayed open"
        time.sleep(0.02)


def test_one_thread_writes_every_stream(dashboard, table) -> None:
    """200 viewers must not wake 200 threads per change: the streams hold no server thread,
    and all get the same change."""
    threads_before = threading.active_count()
    socks = []
    try:
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", dashboard.port), timeout=5)
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            socks.append(sock)
        received = [b""] * len(socks)
        for i, sock in enumerate(socks):
            while b"event: state" not in received[i]:
                received[i] += sock.recv(65536)
        assert threading.active_count() <= threads_before + 1  # cheroot's pool, no more
        table.act("Ann", "roll")
        version = table.state()["version"]
        for i, sock in enumerate(socks):
            while f"id: {version}\n".encode() not in received[i]:
                chunk = sock.recv(65536)
                assert chunk, "a stream ended before the change arrived"
                received[i] += chunk
            assert b"Transfer-Encoding: chunked" in received[i]
    finally:
        for sock in socks:
            sock.close()


def test_links_for_phones_never_say_loopback_when_listening_everywhere() -> None:
    from web.addresses import lan_address, public_base

    assert public_base("http://pub.lan:8080/", "0.0.0.0", 8080) == "http://pub.lan:8080"
    assert public_base(None, "127.0.0.1", 8080) == "http://127.0.0.1:8080"
    assert public_base(None, "0.0.0.0", 8080, "192.168.1.20:8080") == "http://192.168.1.20:8080"
    lan = lan_address()
    expected = f"http://{lan or '127.0.0.1'}:8080"
    assert public_base(None, "0.0.0.0", 8080) == expected
    assert public_base(None, "0.0.0.0", 8080, "127.0.0.1:8080") == expected
    assert public_base(None, "127.0.0.1", 8080, "localhost:8080") == "http://localhost:8080"
