"""The venue screen is served as the table's dashboard is: one device holding 1100 idle sockets does
not blank the wall; another ``Host`` is refused; every answer carries the security headers; an
oversized request line, header or header count is refused. Each tried from outside against the real
``bidou-venue screen`` process of one venue (started once for the module), with two tables playing
into it meanwhile, whose rows equal their logs at the end."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import socket
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from test_faults import finish, playing
from venue_harness import Venue, new_database

pytestmark = pytest.mark.slow

#: sockets one device opens and never writes on
IDLE = 1100
#: Debian's chromium, driven by Playwright, as the dashboard's browser tests drive it
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def start(venue: Venue) -> tuple[str, int]:
    venue.start_hub()
    venue.start_ingester()
    venue.start_table("t1", seed=71)
    venue.start_table("t2", seed=72)
    screen = urlsplit(venue.start_screen())
    return screen.hostname or "127.0.0.1", int(screen.port or 80)


@pytest.fixture(scope="module")
def served(pg_cluster: object) -> Iterator[tuple[Venue, str, int]]:
    """The venue every test here tries: hub, ingester, tables t1 and t2 playing, and the
    screen, each its own process: (venue, the screen's host, its port)."""
    folder = Path(tempfile.mkdtemp(prefix="bidou-venue-"))
    venue = Venue(folder, new_database(pg_cluster))
    try:
        yield (venue, *start(venue))
    finally:
        venue.stop_all()
        shutil.rmtree(folder, ignore_errors=True)


def raw(host: str, port: int, request: bytes) -> bytes:
    """Send ``request`` as written and read the answer's head; b"" when the server closed or
    reset the connection without one (a refusal too: never a 200)."""
    with socket.create_connection((host, port), timeout=10) as s:
        with contextlib.suppress(OSError):  # refused part-way: the server stopped reading
            s.sendall(request)
        said = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in said and (chunk := s.recv(65536)):
                said += chunk
        return said


def status(answer: bytes) -> int:
    return int(answer.split()[1]) if answer.startswith(b"HTTP/1.1 ") else 0


def test_1100_idle_sockets_leave_the_tables_answering(served) -> None:
    venue, host, port = served
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < IDLE + 200:
        pytest.skip(f"this test needs {IDLE + 200} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, IDLE + 200), hard))
    socks: list[socket.socket] = []
    try:
        socks = [socket.create_connection((host, port), timeout=10) for _ in range(IDLE)]
        time.sleep(1.0)  # every one accepted and waiting
        for _ in range(3):
            began = time.monotonic()
            answer, tables = venue.get("/api/tables")
            assert answer == 200, tables
            assert [t["name"] for t in tables][:2] == ["t1", "t2"]
            assert time.monotonic() - began < 10.0
    finally:
        for s in socks:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_another_host_is_refused_and_every_answer_carries_the_security_headers(
        served) -> None:
    venue, host, port = served
    for path in ("/", "/api/tables"):
        refused = raw(host, port, f"GET {path} HTTP/1.1\r\nHost: evil.example\r\n"
                                  "Connection: close\r\n\r\n".encode())
        assert status(refused) == 400, refused
    with urllib.request.urlopen(venue.screen, timeout=10) as r:
        page = r.read().decode()
        headers = r.headers
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in page  # the policy runs no inline script: the wall starts itself
    code, body = venue.get("/api/tables")
    assert code == 200
    request = urllib.request.Request(venue.screen + "api/tables",
                                     headers={"Host": "evil.example:8090"})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("a request naming evil.example was answered")
    except urllib.error.HTTPError as e:
        assert e.code == 400
        assert "answers to its own addresses only" in e.read().decode()


def test_an_oversized_request_line_header_or_header_count_is_refused(served) -> None:
    venue, host, port = served
    head = f"Host: 127.0.0.1:{port}\r\nConnection: close\r\n"
    tries = {
        "a 2 MB query string": f"GET /api/tables?q={'a' * 2_000_000} HTTP/1.1\r\n{head}\r\n",
        "a 200 KB header": f"GET /api/tables HTTP/1.1\r\n{head}X-Big: {'a' * 200_000}\r\n\r\n",
        "2000 headers": f"GET /api/tables HTTP/1.1\r\n{head}"
                        + "".join(f"X-{i}: 1\r\n" for i in range(2000)) + "\r\n",
        "120 small headers": f"GET /api/tables HTTP/1.1\r\n{head}"
                             + "".join(f"X-{i}: 1\r\n" for i in range(120)) + "\r\n",
    }
    for what, request in tries.items():
        answer = raw(host, port, request.encode())
        assert status(answer) in (0, 414, 431), f"{what}: {answer[:200]!r}"
        if answer:
            assert b"Connection: close" in answer, f"{what}: {answer[:200]!r}"
    fine = raw(host, port, f"GET /api/tables HTTP/1.1\r\n{head}\r\n".encode())
    assert status(fine) == 200, fine


@pytest.mark.browser
def test_the_wall_draws_every_table_in_chromium_under_its_content_security_policy(
        served) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent: `sudo apt-get install chromium` to run it")
    from playwright.sync_api import sync_playwright  # lazy: only this test needs it

    venue = served[0]
    refused: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: refused.append(m.text)
                    if "Content Security Policy" in m.text else None)
            page.goto(venue.screen)
            for name in ("t1", "t2"):
                page.wait_for_selector(f'.card[data-table="{name}"]', timeout=20_000)
            page.goto(venue.screen + "tables/t1")
            page.wait_for_selector('.card[data-table="t1"]', timeout=20_000)
            assert page.locator(".card").count() == 1  # the table's page: its card alone
        finally:
            browser.close()
    assert not refused, refused


def test_meanwhile_the_tables_played_into_the_venue_and_its_rows_are_their_logs(served) -> None:
    """After all of the above: each table has finished a game, and once they stop, the
    venue's rows equal their logs (``Venue.check_table``)."""
    venue = served[0]
    playing(venue, "t1")
    playing(venue, "t2")
    finish(venue)
