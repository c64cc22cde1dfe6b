"""A table killed (SIGKILL) while it learns its dice: ``bidou-table run`` in a child process,
the referee's Learn sent over HTTP, the table killed mid-calibration. Nothing is written
before "Keep", so the previous reader is in force at the next start and the known throws are
as they were; the calibration's own process dies with the table."""

from __future__ import annotations

import http.cookiejar
import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from web.ports import free_port

from .teach_table import PIN, teach, teach_house

ROOT = Path(__file__).resolve().parents[2]



class Console:
    """A browser's worth of HTTP: cookies, and the CSRF token of the page last read."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as answer:
            text = answer.read().decode()
        found = re.search(r'name="csrf" value="([^"]+)"', text)
        self.csrf = found.group(1) if found else self.csrf
        return text

    def post(self, path: str, **form: str) -> int:
        data = urllib.parse.urlencode({"csrf": self.csrf, **form}).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as e:
            return e.code


def start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "firmware.cli.dispatch", "run", "--simulate", "--config",
         str(folder / "pub.toml"), "--db", str(folder / "table.db"), "--port", str(port)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
        except (urllib.error.URLError, ConnectionError):
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:g} s")
        time.sleep(0.1)


def learning_children(table: int) -> list[int]:
    """The calibration processes the table ``table`` started."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == table and b"firmware.teach.learning" in cmdline:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_table_killed_while_learning_keeps_its_reader_and_its_known_throws(tmp_path) -> None:
    house, teacher, _ = teach_house(tmp_path)
    teach(house, teacher, 12)
    house.close()
    files = {p.name: p.read_bytes() for p in (tmp_path / "known-throws").iterdir()}
    config = (tmp_path / "pub.toml").read_text()
    port = free_port()
    table = start(tmp_path, port)
    try:
        console = Console(port)
        wait_until(lambda: console.get("/referee"), 60, "the table did not answer")
        assert console.post("/referee/login", pin=PIN) == 200  # redirected to the console
        console.get("/referee/dice")
        assert console.post("/referee/dice/learn") == 200
        status = wait_until(
            lambda: (s := json.loads(console.get("/referee/dice/status.json")))["progress"][
                "stage"].startswith("reading") and s, 60, "the calibration did not start")
        assert status["progress"]["running"]
        children = learning_children(table.pid)
        assert len(children) == 1
        table.send_signal(signal.SIGKILL)
        table.wait(timeout=10)
        wait_until(lambda: not alive(children[0]), 10, "the calibration outlived its table")
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
    assert (tmp_path / "pub.toml").read_text() == config
    assert {p.name: p.read_bytes() for p in (tmp_path / "known-throws").iterdir()} == files
    assert not list(tmp_path.glob("*.npz")) and not list(tmp_path.glob("*.previous.json"))

    again = start(tmp_path, port)
    try:
        console = Console(port)
        wait_until(lambda: console.get("/referee"), 60, "the table did not start again")
        console.post("/referee/login", pin=PIN)
        status = json.loads(console.get("/referee/dice/status.json"))
        assert status["reader"] == "the pip counter" and not status["progress"]["running"]
        assert "36 dice known</strong>" in console.get("/referee/dice")
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(timeout=30)
