"""Guests cannot lock the referee out, as OWASP's "Slow Down Online Guessing Attacks with Device
Cookies" has it: a browser that logged in before carries a signed device cookie, and its logins are
limited per device, never by the table's pace; an unknown device under a flood of wrong PINs is
slowed, and gets in when its 429 says.

Tried from outside: the real server on loopback, wrong PINs sent from 40 addresses by three
threads while the referee logs in."""

from __future__ import annotations

import http.client
import threading
import time
from urllib.parse import urlencode

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.access.auth import RateLimiter
from table_server.access.devices import RefereeDevices, device_key
from table_server.server import Dashboard

PIN = "123456"
#: addresses the guests guess from, and the threads that send their guesses
GUESSERS, THREADS = 40, 3
#: the table's pace under a flood in this test: 20 PINs per 20 s window (one a second), so
#: the test waits seconds, not minutes; the same rule as the default's 20 per 60 s
WINDOW = 20.0


class Browser:
    """A browser on one loopback address: its cookies kept (every ``Set-Cookie``), the CSRF
    token read from the page, forms sent urlencoded."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None
                ) -> tuple[int, http.client.HTTPResponse, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20,
                                          source_address=(self.source, 0))
        headers = {"Host": f"127.0.0.1:{self.port}", "Connection": "close"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        for line in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            value = rest.split(";", 1)[0]
            if "expires=Thu, 01 Jan 1970" in line or not value:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        return response.status, response, data

    def csrf(self) -> str:
        page = self.request("GET", "/referee")[2].decode()
        return page.split('name="csrf" value="', 1)[1].split('"', 1)[0]

    def log_in(self, pin: str = PIN) -> tuple[int, int]:
        """The login's status, and its ``Retry-After`` (0 when none)."""
        status, response, _ = self.request("POST", "/referee/login",
                                           {"pin": pin, "csrf": self.csrf()})
        return status, int(response.headers.get("Retry-After") or 0)


@pytest.fixture
def served(table):
    settings = ServerSettings(host="127.0.0.1", port=0, referee_token="r" * 20,
                              referee_pin=PIN)
    d = Dashboard(table.controller, settings).start()
    d.context.limiter = RateLimiter(max_failures=5, window=WINDOW, max_pin_attempts=20)
    try:
        yield table, d
    finally:
        d.stop()


def flood(port: int, stop: threading.Event, paced: list[int]) -> list[threading.Thread]:
    """Three threads sending wrong PINs from 40 addresses in turn until ``stop``; ``paced``
    counts the 429s that name the table's pace."""
    turn = iter(range(10**9))
    lock = threading.Lock()

    def guess() -> None:
        browsers: dict[int, Browser] = {}
        while not stop.is_set():
            with lock:
                i = next(turn) % GUESSERS
            b = browsers.setdefault(i, Browser(port, f"127.0.9.{i + 1}"))
            try:
                status, _ = b.log_in("000000")
            except OSError:
                continue
            if status == 429:
                paced.append(1)

    threads = [threading.Thread(target=guess, daemon=True) for _ in range(THREADS)]
    for t in threads:
        t.start()
    return threads


def test_under_a_40_address_flood_a_known_device_logs_in_at_once_and_a_new_one_when_told(
        served) -> None:
    t, d = served
    known = Browser(d.port, "127.0.8.1")
    assert known.log_in() == (303, 0)
    assert "bidou_device" in known.cookies  # the device cookie, signed, kept by the browser
    status, _, _ = known.request("POST", "/referee/logout", {"csrf": known.csrf()})
    assert status == 303 and known.request("GET", "/api/referee/state")[0] == 401
    before = len(t.controller.game.history)
    stop, paced = threading.Event(), []
    threads = flood(d.port, stop, paced)
    try:
        deadline = time.monotonic() + 30
        while len(paced) < 20:  # the table is pacing PINs: the flood is on
            assert time.monotonic() < deadline, "the flood never reached the table's pace"
            time.sleep(0.1)
        began = time.monotonic()
        assert known.log_in() == (303, 0)  # at once, whatever the guests send
        assert time.monotonic() - began < 5.0
        assert known.request("GET", "/api/referee/state")[0] == 200

        new = Browser(d.port, "127.0.10.1")
        status, wait = new.log_in()
        tries = [(status, wait)]
        if status == 429:  # slowed: the 429 says when, and then it gets in
            assert 1 <= wait <= (GUESSERS + 2) * WINDOW / 20, tries
            time.sleep(wait)
            tries.append(new.log_in())
        assert tries[-1] == (303, 0), tries
        assert new.request("GET", "/api/referee/state")[0] == 200
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    assert len(t.controller.game.history) == before  # nothing was played by the guesses


def test_a_paced_address_is_kept_its_turn_whatever_others_send_meanwhile(clock) -> None:
    """The rule behind the 429's promise: a refused address is given the next free turn and
    told its time; back then, its PIN is compared, even with 40 addresses guessing every
    0.05 s meanwhile. Guesses across the table stay at 20 a window."""
    limiter = RateLimiter(max_failures=5, window=60.0, clock=clock, max_pin_attempts=20)
    compared = 0
    for i in range(20):
        assert limiter.attempt_pin(f"10.0.0.{i}") is None
    wait = limiter.attempt_pin("10.9.9.9")
    assert wait is not None and wait.seconds >= 1
    back = clock.now + wait.seconds
    while clock.now < back:
        for i in range(GUESSERS):
            compared += limiter.attempt_pin(f"10.0.1.{i}") is None
        clock.now += 0.05
    assert limiter.attempt_pin("10.9.9.9") is None  # its turn, kept
    assert compared <= wait.seconds / limiter.pace + 1


def test_a_device_cookie_is_signed_and_its_pins_counted_per_device(clock) -> None:
    devices = RefereeDevices(device_key("the table's key"), max_failures=3, clock=clock)
    device, cookie = devices.cookie()
    assert devices.device_of(cookie) == device
    assert devices.cookie(device) == (device, cookie)  # the same device keeps its cookie
    other = RefereeDevices(device_key("another table's key"))
    assert other.device_of(cookie) is None  # not ours
    assert devices.device_of(cookie[:-2] + "xx") is None and devices.device_of("") is None
    for _ in range(3):
        assert devices.attempt(device) is None
    wait = devices.attempt(device)
    assert wait is not None and wait.seconds == 61  # past its own limit: an unknown device
    clock.now += 60
    assert devices.attempt(device) is None
    devices.forgive(device)  # a right PIN is not counted
    _, fresh = devices.cookie()
    assert devices.attempt(devices.device_of(fresh) or "") is None


def test_a_known_device_is_never_paced_but_past_its_own_limit_is_paced_as_any(
        table_factory, clock) -> None:
    t = table_factory(limiter=RateLimiter(max_failures=5, window=60.0, clock=clock,
                                          max_pin_attempts=20))
    t.context.devices = RefereeDevices(device_key("k"), max_failures=5, clock=clock)
    referee = t.app.test_client()
    assert t.login(referee).status_code == 303
    assert referee.get_cookie("bidou_device", path="/referee") is not None
    for i in range(40):  # the table is paced now
        guest = t.app.test_client()
        guest.environ_base["REMOTE_ADDR"] = f"10.0.3.{i}"
        t.login(guest, pin="000000")
    pin = t.context.settings.referee_pin
    for _ in range(3):
        assert t.login(referee, pin=pin).status_code == 303  # at once, every time
    for _ in range(5):
        assert t.login(referee, pin="000000").status_code == 401  # its own five
    assert t.login(referee, pin=pin).status_code == 429  # now paced as an unknown device
