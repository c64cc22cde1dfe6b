"""A whole venue of real processes on loopback for the venue's tests: the hub (nats-server),
a PostgreSQL database, the ingester and simulated tables, each its own process, started and
always stopped by the fixture that made them. Also the one comparison every fault test ends
with: the venue's rows against the table's own SQLite log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nats
import psycopg

from firmware.gamelog.concealment import entry_is_public
from firmware.gamelog.log import Entry, GameRow
from venue import store, table_logs
from venue.hub import start_hub
from venue.messages import entry_message, inbox_prefix
from venue.outbox import log_id_of
from venue.settings import VenueConfig, load_venue_config
from web.ports import free_port

PYTHON = sys.executable
BIN = Path(sys.executable).parent
#: the tables' command: ``bidou-table`` reading the simulated dice with SceneReader
SCENE_TABLE = Path(__file__).with_name("scene_table.py")
TOKEN = "venue-test-referee-token-0123456789"



def new_database(pg_cluster: Any, prefix: str = "t") -> str:
    """The DSN of a fresh database made now in the test cluster ``pg_cluster``."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    base = pg_cluster.dsn
    with psycopg.connect(base, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return base.replace("dbname=bidou_venue", f"dbname={name}")


def wait_until(check: Callable[[], Any], timeout: float, what: str, every: float = 0.2) -> Any:
    """Poll ``check`` until it returns something true; AssertionError naming ``what``."""
    end = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < end:
        with contextlib.suppress(Exception):
            last = check()
            if last:
                return last
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what} (last: {last!r})")


def table_toml(name: str, url: str, password: str, *, venue: str = "pub",
               variant: str = "montevideo", players: tuple[str, ...] = ("Ann", "Bob", "Cy"),
               ca: Path | None = None) -> str:
    """A simulated table's config; its frames small (320 x 240), as the tables' dice are read
    by SceneReader (``SCENE_TABLE``), not from the pixels."""
    return (f'[table]\nvariant = "{variant}"\nplayers = {json.dumps(list(players))}\n'
            '[camera]\nwidth = 320\nheight = 240\n'
            f'[venue]\nurl = "{url}"\nvenue = "{venue}"\ntable = "{name}"\n'
            f'password = "{password}"\n' + (f'ca = "{ca}"\n' if ca else ""))


def expected_rows(db: Path) -> list[tuple[int, int, str]]:
    """What the venue must hold of a table's log: every entry, in log order, up to the first
    one that may not leave yet (dice of a game still played) -- read from the SQLite file."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        status = dict(con.execute("SELECT id, status FROM games"))
        rows = con.execute("SELECT game, seq, kind, text, by, why, at FROM entries ORDER BY "
                           "id").fetchall()
    finally:
        con.close()
    out = []
    for game, seq, kind, text, by, why, at in rows:
        if not entry_is_public(Entry(game, seq, kind, text, by, why, at), status[game]):
            break
        out.append((game, seq, text))
    return out


def finished_results(db: Path) -> dict[int, dict[str, int]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {g: json.loads(r)["chips"] for g, r in con.execute(
            "SELECT id, result FROM games WHERE status = 'over'")}
    finally:
        con.close()


def planted(table: str, game: int = 1, seq: int = 1, *, text: str = "Ann bet 1",
            log_id: str = "LOGX", status: str = "playing", why: str = "", by: str = "web",
            players: tuple[str, ...] = ("Ann", "Bob"), result: dict[str, Any] | None = None,
            venue: str = "pub") -> bytes:
    """A forged entry message, as one holding ``table``'s password could publish."""
    row = GameRow(game, "two-hand", players, {}, "t0", None, status, result)
    return entry_message(venue, table, log_id, Entry(game, seq, "action", text, by, why,
                                                     "t1"), row).to_bytes()


class Venue:
    """One venue under test: its config, its processes and its database."""

    def __init__(self, folder: Path, dsn: str, tables: tuple[str, ...] = ("t1", "t2"),
                 venue: str = "pub", hub_tls: dict[str, Path] | None = None,
                 table_quota: int | None = None) -> None:
        """``hub_tls``: ``[hub]``'s tls_cert, tls_key and tls_ca (the hub then speaks TLS);
        ``table_quota``: ``[hub]``'s, entries the hub keeps per table."""
        self.folder = folder
        self.dsn = dsn
        self.name = venue
        self.hub_port = free_port()
        self.passwords = {t: f"pw-{t}-{os.urandom(4).hex()}" for t in tables}
        self.admin = ("venue", f"admin-{os.urandom(4).hex()}")
        self.config = folder / "venue.toml"
        lines = [f'[venue]\nname = "{venue}"', f"[hub]\nport = {self.hub_port}\n"
                 f'store_dir = "{folder / "hub" / "jetstream"}"\n'
                 f'admin_password = "{self.admin[1]}"'
                 + "".join(f'\n{k} = "{v}"' for k, v in (hub_tls or {}).items())
                 + (f"\ntable_quota = {table_quota}" if table_quota else ""),
                 f'[database]\ndsn = "{dsn}"']
        self.scheme = "tls" if hub_tls else "nats"
        lines += [f'[tables.{t}]\npassword = "{p}"' for t, p in self.passwords.items()]
        self.config.write_text("\n".join(lines) + "\n")
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.ports: dict[str, int] = {}
        self._streams: list[Any] = []

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.hub_port}"

    def venue_config(self) -> VenueConfig:
        return load_venue_config(str(self.config))

    # --- processes -------------------------------------------------------------------------
    def start_hub(self) -> None:
        self.procs["hub"] = start_hub(self.venue_config(), str(self.folder / "hub"))
        wait_until(lambda: _listening(self.hub_port), 20, "the hub to listen")

    def start_ingester(self, env: dict[str, str] | None = None, wait: bool = True) -> None:
        """The venue's ingester; ``wait``: until it says it consumes (its streams are made
        then: a state published before would find no stream)."""
        before = self.log_text("ingester").count("consuming")  # a restart appends
        log = open(self.folder / "ingester.log", "ab")  # noqa: SIM115 -- the child's
        self.procs["ingester"] = subprocess.Popen(
            [PYTHON, "-m", "venue.cli", "ingest", "--config", str(self.config)],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        log.close()
        if wait:
            wait_until(lambda: self.log_text("ingester").count("consuming") > before, 120,
                       "the venue's ingester to consume")

    def publish_all(self, user: str, items: list[tuple[str, bytes]],
                    headers: bool = False) -> list[str | None]:
        """Publish each (subject, payload) to JetStream as ``user`` (the venue's own user,
        or a table's, with that table's inbox prefix), at once; per message, None when the
        hub stored it, else the hub's words. ``headers``: with a message id from its
        index."""
        password = self.admin[1] if user == self.admin[0] else self.passwords[user]
        prefix = None if user == self.admin[0] else inbox_prefix(self.name, user)
        return asyncio.run(_publish_all(self.url, user, password, prefix, items, headers))

    def enroll(self, table: str, log_id: str | None = None) -> str:
        """Enroll ``log_id`` (default: the table's own log's, made now if the log is new)
        as the table's log at the venue, as ``bidou-venue accept-log`` does for a first log;
        a table with a log enrolled keeps it. The log id enrolled."""
        if log_id is None:
            log_id = log_id_of(str(self.db(table)))
        with store.connect(self.dsn) as db:
            return table_logs.enroll(db, self.name, table, log_id)

    def start_table(self, name: str, *, pace: float = 0.02, url: str | None = None,
                    password: str | None = None, seed: int = 1, ca: Path | None = None,
                    enroll: bool = True) -> None:
        """Start a simulated table; ``enroll``: its log enrolled at the venue first (a table
        with a log enrolled already keeps it: a replaced log is then refused)."""
        if enroll:
            self.enroll(name)
        cfg = self.folder / f"{name}.toml"
        cfg.write_text(table_toml(name, url or self.url,
                                  password if password is not None else self.passwords[name],
                                  venue=self.name, ca=ca))
        before = self.log_text(name).count("Table view:")  # a restart appends
        log = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 -- the child's
        self.procs[name] = subprocess.Popen(  # --port 0: a port no other test's server took
            [PYTHON, str(SCENE_TABLE), "run", "--config", str(cfg), "--db",
             str(self.db(name)), "--port", "0", "--autoplay", str(pace), "--seed",
             str(seed)], stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "BIDOU_REFEREE_TOKEN": TOKEN})
        log.close()

        def listening() -> int | None:
            """The port the table says it listens on (its "Table view:" line), once it does."""
            text = self.log_text(name)
            if text.count("Table view:") <= before:
                return None
            port = int(text.rsplit("Table view:", 1)[1].split()[0].rstrip("/").rsplit(":", 1)[1])
            return port if _listening(port) else None

        try:
            self.ports[name] = wait_until(listening, 60, f"table {name} to listen")
        except AssertionError as e:
            raise AssertionError(f"{e}; its output: {self.log_text(name)[-1500:]}") from None

    def start_screen(self) -> str:
        """The screen as its own process; its URL, read from its "Venue screen:" line."""
        port = free_port()
        before = self.log_text("screen").count("Venue screen: ")  # a restart appends
        log = open(self.folder / "screen.log", "ab")  # noqa: SIM115 -- the child's
        self.procs["screen"] = subprocess.Popen(
            [PYTHON, "-m", "venue.cli", "screen", "--config", str(self.config), "--port",
             str(port)], stdout=log, stderr=subprocess.STDOUT)
        log.close()
        wait_until(lambda: self.log_text("screen").count("Venue screen: ") > before, 60,
                   "the screen")
        self.screen = self.log_text("screen").rsplit("Venue screen: ", 1)[1].split()[0]
        return self.screen

    def get(self, path: str) -> tuple[int, Any]:
        """GET from the screen: (status, JSON or text)."""
        try:
            with urllib.request.urlopen(self.screen.rstrip("/") + path, timeout=10) as r:
                body, status, kind = r.read(), r.status, r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            body, status, kind = e.read(), e.code, e.headers.get("Content-Type", "")
        return status, json.loads(body) if "json" in kind else body.decode()

    def screen_events(self) -> Callable[[], list[tuple[str, dict[str, Any]]]]:
        """Read the screen's event stream in a thread (until the test ends); the function
        returned gives the (event, data) pairs read so far."""
        seen: list[tuple[str, dict[str, Any]]] = []
        stream = urllib.request.urlopen(self.screen + "api/events", timeout=60)
        self._streams.append(stream)

        def read() -> None:
            kind = ""
            with contextlib.suppress(Exception):
                for raw in stream:
                    line = raw.decode().strip()
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        seen.append((kind, json.loads(line[6:])))

        threading.Thread(target=read, daemon=True).start()
        return lambda: list(seen)

    def db(self, table: str) -> Path:
        return self.folder / f"{table}.db"

    def stop(self, name: str, sig: int = signal.SIGTERM, timeout: float = 30) -> None:
        proc = self.procs.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            if sig == signal.SIGKILL or proc.poll() is None:
                os.kill(proc.pid, sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

    def stop_all(self) -> None:
        for stream in self._streams:
            with contextlib.suppress(Exception):
                stream.close()
        for name in [n for n in self.procs if n not in ("hub",)] + ["hub"]:
            self.stop(name)

    def log_text(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # --- what the venue holds ----------------------------------------------------------------
    def rows(self, table: str) -> list[tuple[int, int, str]]:
        with psycopg.connect(self.dsn) as db:
            return [tuple(r) for r in db.execute(  # type: ignore[misc]
                "SELECT game, seq, text FROM events WHERE venue = %s AND table_name = %s "
                "ORDER BY game, seq", (self.name, table))]

    def arrival_in_order(self, table: str) -> bool:
        """Within each game, the venue stored the entries in seq order (arrival column)."""
        with psycopg.connect(self.dsn) as db:
            rows = db.execute("SELECT game, seq FROM events WHERE venue = %s AND table_name = "
                              "%s ORDER BY arrival", (self.name, table)).fetchall()
        last: dict[int, int] = {}
        for game, seq in rows:
            if seq != last.get(game, 0) + 1:
                return False
            last[game] = seq
        return True

    def results(self, table: str) -> dict[int, dict[str, int]]:
        with psycopg.connect(self.dsn) as db:
            out: dict[int, dict[str, int]] = {}
            for game, player, chips in db.execute(
                    "SELECT game, player, chips FROM results WHERE venue = %s AND "
                    "table_name = %s", (self.name, table)):
                out.setdefault(game, {})[player] = chips
            return out

    def problems(self) -> list[tuple[str, str]]:
        with psycopg.connect(self.dsn) as db:
            return [tuple(r) for r in db.execute(  # type: ignore[misc]
                "SELECT table_name, sentence FROM problems WHERE venue = %s", (self.name,))]

    def finished_games(self, table: str) -> int:
        return len(finished_results(self.db(table))) if self.db(table).exists() else 0

    def caught_up(self, table: str) -> bool:
        want = expected_rows(self.db(table))
        return bool(want) and self.rows(table) == want

    def replace_log(self, table: str, seed: int) -> Path:
        """The table stopped and started again on a new, empty log (a new SD card: its game
        ids start again at 1); the old log's file, kept beside as ``TABLE-old.db``."""
        self.stop(table)
        old = self.folder / f"{table}-old.db"
        self.db(table).rename(old)
        for suffix in ("-wal", "-shm", ".lock"):
            self.folder.joinpath(f"{table}.db{suffix}").unlink(missing_ok=True)
        self.start_table(table, seed=seed)
        return old

    def refused_new_log(self, table: str) -> Path:
        """A running venue (hub, ingester, screen) whose ``table`` played a game on one log,
        then on a new one, which the ingester has refused; the old log's file."""
        self.start_hub()
        self.start_ingester()
        self.start_screen()
        self.start_table(table, seed=71)
        wait_until(lambda: self.finished_games(table) >= 1, 240, f"{table} to finish a game")
        wait_until(lambda: self.caught_up(table), 60, f"the venue to hold {table}'s log")
        old = self.replace_log(table, seed=72)
        wait_until(lambda: self.finished_games(table) >= 1, 240,
                   f"the new {table} to finish a game")
        wait_until(lambda: "its log was replaced" in self.log_text("ingester"), 60,
                   "the ingester's refusal of the new log")
        return old

    def check_table(self, table: str, log: Path | None = None) -> None:
        """The promise after every fault: the venue's (game, seq, text) rows of ``table`` are
        the table's log (``log``, default its own file) exactly (all it may send), stored in
        order, and chips per finished game agree."""
        log = log or self.db(table)
        want = expected_rows(log)
        got = self.rows(table)
        differ = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b),
                      min(len(got), len(want)))
        assert got == want, (f"table {table}: venue holds {len(got)} rows, the log "
                             f"{len(want)}; first difference at row {differ}")
        assert self.arrival_in_order(table), f"table {table}: entries stored out of order"
        finished = finished_results(log)
        venue = self.results(table)
        held = {g for g, _, _ in got}
        for game, chips in finished.items():
            if game in held and max(s for g, s, _ in got if g == game) == max(
                    s for g, s, _ in want if g == game):
                assert venue.get(game) == chips, f"table {table} game {game}: chips differ"

    def referee_state(self, table: str) -> dict[str, Any]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.ports[table]}/api/referee/state",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.loads(r.read())


async def _publish_all(url: str, user: str, password: str, prefix: str | None,
                       items: list[tuple[str, bytes]], headers: bool) -> list[str | None]:
    """One request each (not ``publish_async``: nats-py leaves its future unanswered when
    the hub refuses, raising inside its own callback instead)."""
    options: dict[str, Any] = {"inbox_prefix": prefix} if prefix else {}
    nc = await nats.connect(url, user=user, password=password, connect_timeout=3,
                            max_reconnect_attempts=0, **options)
    out: list[str | None] = []
    try:
        js = nc.jetstream()
        for i, (subject, payload) in enumerate(items):
            try:
                await js.publish(subject, payload, timeout=5, headers={
                    "Nats-Msg-Id": f"planted-{i}"} if headers else None)
                out.append(None)
            except Exception as e:  # the hub's refusal: its words
                out.append(f"{type(e).__name__}: {e}")
    finally:
        await nc.close()
    return out


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0
