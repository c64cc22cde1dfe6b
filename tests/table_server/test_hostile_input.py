"""Hostile and careless requests, each sent from outside as a client on the pub's network would
send it (raw HTTP on loopback to the real cheroot server), each answered as the docs say, with
nothing played and no traceback in the log."""

from __future__ import annotations

import html
import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.server import Dashboard

from .conftest import make_table

REFEREE = "r" * 20
PIN = "123456"


def serve(table) -> Iterator[tuple[Any, Dashboard]]:
    """``table`` behind the real server on a free loopback port; stopped at the end."""
    settings = ServerSettings(host="127.0.0.1", port=0, referee_token=REFEREE,
                              referee_pin=PIN)
    d = Dashboard(table.controller, settings).start()
    try:
        yield table, d
    finally:
        d.stop()


@pytest.fixture
def served(table) -> Iterator[tuple[Any, Dashboard]]:
    """The test table, served."""
    yield from serve(table)


#: a camera calibrated for Ann and Bob (the config's [zones]): a new game keeps these zones
CALIBRATED = {"Ann": {"x": 10, "y": 10, "w": 300, "h": 220},
              "Bob": {"x": 330, "y": 10, "w": 300, "h": 220}}


@pytest.fixture
def calibrated() -> Iterator[tuple[Any, Dashboard]]:
    """A table whose camera was calibrated for Ann and Bob, served."""
    table = make_table(zones=CALIBRATED)
    try:
        yield from serve(table)
    finally:
        table.house.close()


def no_traceback(caplog: Any, capfd: Any) -> bool:
    """Whether nothing was logged with a traceback, by the table (logging) or by cheroot
    (which writes its own to stderr)."""
    return "Traceback" not in caplog.text and "Traceback" not in capfd.readouterr().err


def send(port: int, head: str, body: bytes = b"", *, source: str = "127.0.0.1"
         ) -> tuple[int, dict[str, str], bytes]:
    """Send one request exactly as written (``head`` without the blank line), from the
    loopback address ``source``, and read the answer until the server closes or the body is
    complete; (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(source, 0)) as sock:
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


class Console:
    """The referee console driven over HTTP as a browser drives it: the session cookie kept,
    the CSRF token read from the page, forms sent urlencoded."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source, self.cookie = port, source, ""

    def request(self, method: str, path: str, form: dict[str, str] | None = None
                ) -> tuple[int, dict[str, str], bytes]:
        body = urlencode(form or {}).encode() if form is not None else b""
        head = f"{method} {path} HTTP/1.1\nHost: 127.0.0.1:{self.port}\nConnection: close"
        if self.cookie:
            head += f"\nCookie: {self.cookie}"
        if form is not None:
            head += ("\nContent-Type: application/x-www-form-urlencoded"
                     f"\nContent-Length: {len(body)}")
        status, headers, answer = send(self.port, head, body, source=self.source)
        if "set-cookie" in headers:
            self.cookie = headers["set-cookie"].split(";", 1)[0]
        return status, headers, answer

    def csrf(self) -> str:
        page = self.request("GET", "/referee")[2].decode()
        return page.split('name="csrf" value="', 1)[1].split('"', 1)[0]

    def log_in(self, pin: str = PIN) -> int:
        return self.log_in_answer(pin)[0]

    def log_in_answer(self, pin: str = PIN) -> tuple[int, dict[str, str], bytes]:
        return self.request("POST", "/referee/login", {"pin": pin, "csrf": self.csrf()})

    def post(self, path: str, **form: str) -> tuple[int, str]:
        """Send a console form; its status and the sentence the console then shows."""
        status, _, _ = self.request("POST", path, {**form, "csrf": self.csrf()})
        page = self.request("GET", "/referee")[2].decode()
        shown = page.split('class="flash', 1)[1].split(">", 1)[1].split("</p>", 1)[0] \
            if 'class="flash' in page else ""
        return status, html.unescape(shown)


NOT_DICE = ("“{}” are not dice: type three numbers from 1 to 6, such as 6 5 4, or one for a "
            "captain roll.")


@pytest.mark.parametrize(("path", "form", "sentence"), [
    ("/referee/dice", {"seat": "Ann", "values": "²"}, NOT_DICE.format("²")),
    ("/referee/dice", {"seat": "Ann", "values": "٣"}, NOT_DICE.format("٣")),
    ("/referee/correct", {"kind": "fix-dice", "why": "typo", "position": "¹",
                          "values": "6 5 4"},
     "The action number is the number at the start of a line of the log below (1, 2, 3...), "
     "not “¹”."),
    ("/referee/correct", {"kind": "fix-dice", "why": "typo", "position": "1",
                          "values": "² ³ 1"}, NOT_DICE.format("² ³ 1")),
])
def test_console_numbers_are_the_digits_0_to_9_and_others_get_the_sentence(
        served, caplog, capfd, path, form, sentence):
    t, d = served
    console = Console(d.port)
    assert console.log_in() == 303
    before = t.controller.log.entries(t.controller.live_game_id)
    with caplog.at_level(logging.ERROR):
        status, shown = console.post(path, **form)
    assert (status, shown) == (303, sentence)
    assert t.controller.log.entries(t.controller.live_game_id) == before
    assert no_traceback(caplog, capfd)


def test_a_zone_in_superscript_digits_gets_the_zones_sentence(served, caplog, capfd):
    t, d = served
    console = Console(d.port)
    assert console.log_in() == 303
    zones = {f"{seat}.{k}": str(v) for seat, z in t.controller.zones().items()
             for k, v in z.items()}
    with caplog.at_level(logging.ERROR):
        status, shown = console.post("/referee/zones", **{**zones, "Ann.x": "¹"})
    assert (status, shown) == (303, "Ann's left edge (x) must be a whole number of pixels, 0 or "
                                    "more, not “¹”. Nothing was changed.")
    assert no_traceback(caplog, capfd)
    status, shown = console.post("/referee/zones", **zones)  # the same zones in 0-9
    assert status == 303 and shown.startswith("The table reads the new zones now"), shown


def chunked_act(port: int, token: str, chunks: bytes) -> tuple[int, dict[str, str], bytes]:
    return send(port, f"POST /api/act HTTP/1.1\nHost: 127.0.0.1:{port}\n"
                      f"Authorization: Bearer {token}\nContent-Type: application/json\n"
                      "Transfer-Encoding: chunked", chunks)


def test_a_malformed_chunk_size_is_the_json_400_and_the_connection_closed(served, caplog, capfd):
    t, d = served
    before = len(t.controller.game.history)
    with caplog.at_level(logging.ERROR):
        status, headers, body = chunked_act(d.port, t.token("Ann"),
                                            b'zz\r\n{"seat": "Ann", "action": "roll"}\r\n0\r\n\r\n')
    assert status == 400 and headers["content-type"] == "application/json"
    assert headers.get("connection") == "close"
    error = json.loads(body)["error"]
    assert error.startswith("The request body is not valid chunked transfer coding (Bad "
                            "chunked transfer size: b'zz'); send it with Content-Length"), error
    assert len(t.controller.game.history) == before
    assert no_traceback(caplog, capfd)


def test_a_chunk_declared_past_the_limit_is_the_json_413(served, caplog, capfd):
    t, d = served
    with caplog.at_level(logging.ERROR):
        status, headers, body = chunked_act(d.port, t.token("Ann"),
                                            b"ffffffffffffffff\r\n{}\r\n0\r\n\r\n")
    assert status == 413 and headers.get("connection") == "close"
    assert json.loads(body) == {"error": "The request body is too large: the table takes at "
                                         "most 64 KiB; send less.", "rule": None}
    assert no_traceback(caplog, capfd)
    status, _, _ = send(d.port, f"GET /api/state HTTP/1.1\nHost: 127.0.0.1:{d.port}\n"
                                "Connection: close")
    assert status == 200


def referee_json(port: int, path: str, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    body = json.dumps(data).encode()
    status, _, answer = send(port, f"POST {path} HTTP/1.1\nHost: 127.0.0.1:{port}\n"
                                   f"Authorization: Bearer {REFEREE}\n"
                                   "Content-Type: application/json\n"
                                   f"Content-Length: {len(body)}\nConnection: close", body)
    return status, json.loads(answer)


def test_a_new_game_with_more_players_than_camera_zones_is_refused_up_front(
        calibrated, caplog, capfd):
    t, d = calibrated
    entries = t.controller.log.entries(t.controller.live_game_id)
    with caplog.at_level(logging.ERROR):
        status, answer = referee_json(d.port, "/api/referee/correct", {
            "kind": "new-game", "why": "three came", "variant": "multi-hand",
            "players": ["Ann", "Bob", "Cy"]})
    assert status == 409
    assert answer["error"] == (
        "The new game cannot start: the camera has zones for 2 seats (Ann, Bob) and the game "
        "has 3 players. Start a game of at most 2 players, or name every player in the "
        "config's [table] players (bidou-table calibrate then gives each seat its zone) and "
        "restart the table.")
    assert t.state()["players"] == ["Ann", "Bob"]
    assert t.controller.log.entries(t.controller.live_game_id) == entries
    assert no_traceback(caplog, capfd)


def test_a_throw_of_a_seat_without_a_zone_counts_with_values_pending_and_logs_no_traceback(
        calibrated, caplog, capfd):
    t, d = calibrated
    status, _ = referee_json(d.port, "/api/referee/correct", {
        "kind": "new-game", "why": "new names", "variant": "two-hand", "players": ["Cy", "Di"]})
    assert status == 200
    with caplog.at_level(logging.ERROR):
        for seat in ("Cy", "Di"):
            status, answer = referee_json(d.port, "/api/act", {"seat": seat, "action": "roll"})
            assert status == 200, answer
        referee = t.controller.referee_state()
        assert "Cy has no camera zone" in referee["needs_look"][0]["reason"], referee
        assert referee["expects"] == "settle"  # both dice shown, neither read: the table says
    assert no_traceback(caplog, capfd)


def test_wrong_pins_from_twenty_addresses_slow_the_console_but_let_the_referee_in(served):
    _, d = served
    for i in range(20):
        assert Console(d.port, f"127.0.1.{i + 1}").log_in("000000") == 401
    referee = Console(d.port, "127.0.2.1")
    status, headers, body = referee.log_in_answer()
    if status == 429:  # the last wrong PIN was less than the pace ago: wait as told, once
        wait = int(headers["retry-after"])
        assert 1 <= wait <= 3 and b"a PIN is checked every 3 seconds" in body
        time.sleep(wait)
        status, headers, body = referee.log_in_answer()
    assert status == 303, body[:300]
    assert referee.request("GET", "/api/referee/state")[0] == 200


def test_wrong_bearer_tokens_from_an_address_leave_its_pin_login_open(served):
    t, d = served
    for _ in range(5):
        status, _, _ = send(d.port, f"GET /api/seat/Ann HTTP/1.1\nHost: 127.0.0.1:{d.port}\n"
                                    "Authorization: Bearer guess\nConnection: close",
                            source="127.0.3.1")
        assert status == 401
    status, headers, body = send(d.port, f"GET /api/seat/Ann HTTP/1.1\nHost: 127.0.0.1:"
                                         f"{d.port}\nAuthorization: Bearer {t.token('Ann')}\n"
                                         "Connection: close", source="127.0.3.1")
    assert status == 429 and 50 <= int(headers["retry-after"]) <= 61, body  # tokens blocked
    assert Console(d.port, "127.0.3.1").log_in() == 303


def test_the_consoles_429_carries_retry_after(served):
    _, d = served
    console = Console(d.port, "127.0.4.1")
    for _ in range(5):
        assert console.log_in("000000") == 401
    status, headers, body = console.log_in_answer()
    wait = int(headers["retry-after"])
    assert status == 429 and 50 <= wait <= 61  # the minute since the first wrong PIN
    assert f"Too many wrong PINs from this address; wait {wait} seconds and try again."\
        .encode() in body


def test_a_logged_in_console_lets_another_device_in_whatever_pins_are_being_tried(served):
    _, d = served
    console = Console(d.port, "127.0.6.1")
    assert console.log_in() == 303
    for i in range(20):  # the PIN is now paced for the whole table
        Console(d.port, f"127.0.7.{i + 1}").log_in("000000")
    status, _, page = console.request("POST", "/referee/pass", {"csrf": console.csrf()})
    assert status == 200
    link = page.decode().split('id="pass-link" href="', 1)[1].split('"', 1)[0]
    path = "/" + link.split("/", 3)[3]
    phone = Console(d.port, "127.0.6.2")
    status, _, page = phone.request("GET", path)  # a link preview would stop here: spends nothing
    assert status == 200 and b"Open the console on this device" in page
    csrf = page.decode().split('name="csrf" value="', 1)[1].split('"', 1)[0]
    assert phone.request("POST", path, {"csrf": csrf})[0] == 303
    assert phone.request("GET", "/api/referee/state")[0] == 200
    again = Console(d.port, "127.0.6.3")
    status, _, page = again.request("GET", path)
    assert status == 400 and b"This link has been used, has expired" in page
    status, _, page = console.request("POST", "/referee/pass", {"csrf": console.csrf()})
    unused = "/" + page.decode().split('id="pass-link" href="', 1)[1].split('"', 1)[0] \
        .split("/", 3)[3]
    assert console.request("POST", "/referee/logout", {"csrf": console.csrf()})[0] == 303
    assert again.request("GET", unused)[0] == 400  # logout ends the links not yet used
