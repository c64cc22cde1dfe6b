"""`make venue` as a pub's install, tried from outside on the real ``bidou-venue up``: PostgreSQL
runs as ``bidou-pg`` with its own group (never root's), asks a password (scram) on TCP, the screen
reads through a read-only role and the ingester writes through a role of its own (neither may run
``COPY ... TO PROGRAM``), the generated files holding secrets are 0600; and a venue part killed is
started again after a short pause, said in the output, while the tables play on. Each ends with
every table's rows in the store equal to its log."""

from __future__ import annotations

import os
import pwd
import queue
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from test_make_venue import alive, children_of
from venue_harness import expected_rows, wait_until

from venue import store
from venue.pgroles import INGESTER_DERIVES, INGESTER_HOLDS, INGESTER_RECORDS

pytestmark = pytest.mark.slow


class Up:
    """``bidou-venue up --tables 2`` in a folder of its own, its output read as it comes."""

    def __init__(self) -> None:
        top = Path(tempfile.mkdtemp(prefix="bidou-up-"))
        top.chmod(0o711)  # passable for PostgreSQL's own user
        self.folder = top / "venue-data"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "venue.cli", "up", "--tables", "2", "--folder",
             str(self.folder), "--pace", "0.05"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._out: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for("Logs and data", 240)
        config = tomllib.loads((self.folder / "venue.toml").read_text())
        self.dsn = config["database"]["dsn"]
        self.screen_dsn = config["screen"].get("dsn", self.dsn)
        self.screen = next(x for x in self.lines if x.startswith("Venue screen: ")).split()[-1]

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._out.put(line)
        self._out.put(None)

    def wait_for(self, start: str, timeout: float) -> str:
        """The first line (from now) that starts with ``start``."""
        for line in self.lines:
            if line.startswith(start):
                return line
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._out.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line {start!r} in {timeout} s: "
                                     f"{''.join(self.lines)}") from None
            assert line is not None, f"bidou-venue up ended: {''.join(self.lines)}"
            self.lines.append(line)
            if line.startswith(start):
                return line

    def part(self, word: bytes) -> int:
        """The pid of the venue part whose command line holds ``word``."""
        for pid in children_of(self.proc.pid):
            try:
                if word in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
            except OSError:
                continue
        raise AssertionError(f"no part {word!r} under bidou-venue up")

    def rows(self, table: str) -> list[tuple[int, int, str]]:
        with psycopg.connect(self.screen_dsn) as db:
            return [tuple(r) for r in db.execute(  # type: ignore[misc]
                "SELECT game, seq, text FROM events WHERE venue = 'pub' AND table_name = %s "
                "ORDER BY game, seq", (table,))]

    def finished(self, table: str) -> int:
        with psycopg.connect(self.screen_dsn) as db:
            row = db.execute("SELECT COUNT(*) FROM games WHERE venue = 'pub' AND table_name "
                             "= %s AND status = 'over'", (table,)).fetchone()
        return int(row[0]) if row else 0

    def check_tables(self) -> None:
        """Every table's rows in the store equal its log (all it may send), at one moment
        while it plays: polled until they do, bounded."""
        for table in ("t1", "t2"):
            wait_until(lambda t=table: self.rows(t) == expected_rows(self.folder / f"{t}.db")
                       and self.rows(t), 90, f"the store to hold table {table}'s log")

    def stop(self) -> None:
        kids = children_of(self.proc.pid)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(90)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        for pid in kids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.folder.parent, ignore_errors=True)


@pytest.fixture(scope="module")
def up(pg_cluster: object) -> Iterator[Up]:  # pg_cluster: PostgreSQL and NATS are installed
    """One `bidou-venue up` for this module's tests: what the first checks (its roles, its
    files, its store) holds whatever parts the second kills and sees started again."""
    venue = Up()
    try:
        yield venue
    finally:
        venue.stop()


def refused(dsn: str, sql: str) -> str:
    """The error PostgreSQL answers ``sql`` with, run as ``dsn``'s role ("" if it ran)."""
    try:
        with psycopg.connect(dsn, autocommit=True) as db:
            db.execute(sql)
    except psycopg.Error as e:
        return type(e).__name__
    return ""


def test_make_venues_postgresql_own_group_scram_roles_and_private_files(up: Up) -> None:
    postmaster = int((up.folder / "pg" / "data" / "postmaster.pid").read_text().split()[0])
    status = dict(line.split(":", 1) for line in
                  Path(f"/proc/{postmaster}/status").read_text().splitlines() if ":" in line)
    gids = [int(g) for g in status["Gid"].split()] + [int(g) for g in status["Groups"].split()]
    if os.geteuid() == 0:  # run as root, PostgreSQL runs as bidou-pg with its own group
        entry = pwd.getpwnam("bidou-pg")
        assert int(status["Uid"].split()[0]) == entry.pw_uid
        assert set(gids) == {entry.pw_gid} and entry.pw_gid != 0, status["Gid"]
    else:  # run as a user, it runs as that user
        assert int(status["Uid"].split()[0]) == os.geteuid()
    hba = (up.folder / "pg" / "data" / "pg_hba.conf").read_text()
    rules = [line.split() for line in hba.splitlines() if line.strip() and line[0] != "#"]
    assert rules and all(rule[-1] == "scram-sha-256" for rule in rules), rules
    no_password = "host=127.0.0.1 " + " ".join(
        p for p in up.dsn.split() if p.startswith(("port=", "dbname="))) + " user=bidou"
    assert refused(no_password, "SELECT 1") == "OperationalError"
    for dsn in (up.screen_dsn, up.dsn):  # neither role may run a program as PostgreSQL
        assert refused(dsn, "COPY (SELECT 1) TO PROGRAM 'id'") == "InsufficientPrivilege"
        assert refused(dsn, "CREATE TABLE mine (x int)") == "InsufficientPrivilege"
        assert refused(dsn, "ALTER TABLE events ADD COLUMN x int") == "InsufficientPrivilege"
    assert refused(up.screen_dsn, "SELECT COUNT(*) FROM events") == ""
    assert refused(up.screen_dsn, "DELETE FROM problems") == "InsufficientPrivilege"
    assert refused(up.screen_dsn, "INSERT INTO tables VALUES ('pub', 'x', 'y')") \
        == "InsufficientPrivilege"
    assert refused(up.dsn, "SELECT COUNT(*) FROM events") == ""
    for secret in ("venue.toml", "t1.toml", "t2.toml", "hub/nats.conf"):
        mode = stat.S_IMODE((up.folder / secret).stat().st_mode)
        assert mode == 0o600, f"{secret} is {oct(mode)}"
    up.check_tables()


def test_a_part_killed_under_up_comes_back_and_the_tables_keep_playing(up: Up) -> None:
    tables = {name: up.part(b"--config\x00" + str(up.folder / f"{name}.toml").encode())
              for name in ("t1", "t2")}
    for word, part in ((b"venue.cli\x00ingest", "ingester"), (b"venue.cli\x00screen", "screen"),
                       (b"nats.conf", "hub")):
        pid = up.part(word)
        played = up.finished("t1")
        os.kill(pid, signal.SIGKILL)
        said = up.wait_for(f"bidou-venue up: the {part} stopped", 30)
        assert "(exit -9)" in said and "starting it again in" in said, said
        up.wait_for(f"bidou-venue up: the {part} is running again", 60)
        assert up.proc.poll() is None  # the venue goes on
        assert up.part(word) != pid
        assert all(alive(p) for p in tables.values())  # the tables never stopped
        wait_until(lambda p=played: up.finished("t1") > p, 120, "t1 to finish another game")
    with urllib.request.urlopen(up.screen + "api/tables", timeout=10) as r:
        assert r.status == 200
    up.check_tables()


def test_every_table_of_the_store_has_the_ingesters_grant_decided() -> None:
    """A new table in the store's schema must be named in ``venue.pgroles``: the ingester's
    role writes only what is listed there."""
    made = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", store.SCHEMA))
    assert made == set(INGESTER_RECORDS) | set(INGESTER_DERIVES) | set(INGESTER_HOLDS), made
