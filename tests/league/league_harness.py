"""A league of real processes on loopback for the league's tests and benchmark: its three
nats-servers, its ingester, and pubs, each a real hub (the venue's nats-server as a leaf node
of the league, through relays a test can cut), the venue's own ingester into the pub's own
database, and the pub's uplink. The tables are simulated publishers: games played by the
engine's random play, each entry sent as a table's forwarder sends it (at once when it shows
no dice, else at its game's end), with a seating entry first. Also the comparisons every
league test ends with: each pub's games in the league equal its venue store, and the ratings
equal a rebuild."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import nats
import psycopg
from venue_harness import Venue, _listening, free_port, wait_until

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.gamelog.concealment import entry_is_public
from firmware.gamelog.log import Entry, GameRow
from firmware.gamelog.seating_entry import seating_text
from league import ratings
from league import store as league_store
from league.cluster import start_server
from league.pubhub import LeagueLink, start_pub_hub
from league.settings import LeagueConfig, load_league_config
from venue.messages import EntryMessage, entry_message, entry_subject
from venue.relay import Relay

PYTHON = sys.executable
NAMES = ("Ann", "Bob", "Cy", "Dee")
VARIANTS = ("montevideo", "multi-hand")
DAY0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
#: the roster the tests' league holds
ROSTER = [f"p{i:03d}" for i in range(12)]


def stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def game_messages(venue: str, table: str, log_id: str, game: int, rng: random.Random,
                  roster: list[str], start: datetime, *, step: float = 2.0,
                  guests: float = 0.2) -> list[tuple[float, EntryMessage]]:
    """One finished game of a simulated table: (seconds after ``start`` when it may leave,
    message), in log order, a seating entry first (each seat a roster id, or a guest)."""
    variant = rng.choice(VARIANTS)
    players = NAMES[:rng.choice((3, 4))]
    ids = rng.sample(roster, len(players))
    seats = {p: (None if rng.random() < guests else i) for p, i in zip(players, ids, strict=True)}
    g = new_game(variant, players, {})
    texts = [("seating", seating_text(players, seats))]
    while not g.over and len(texts) < 3000:
        action = random_action(g, rng)
        g.apply(action)
        texts.append(("action", str(action)))
    end = start + timedelta(seconds=step * len(texts))
    started = stamp(start)
    out: list[tuple[float, EntryMessage]] = []
    waiting: list[tuple[int, str, str]] = []

    def message(seq: int, kind: str, text: str, status: str) -> EntryMessage:
        over = status == "over"
        row = GameRow(game, variant, players, {}, started, stamp(end) if over else None, status,
                      g.state() if over else None)
        at = stamp(start + timedelta(seconds=step * seq))
        return entry_message(venue, table, log_id, Entry(game, seq, kind, text, "table", "",
                                                         at), row)

    for seq, (kind, text) in enumerate(texts, start=1):
        waiting.append((seq, kind, text))
        while waiting and entry_is_public(Entry(game, waiting[0][0], waiting[0][1],
                                                waiting[0][2], "table", "", ""), "playing"):
            s, k, t = waiting.pop(0)
            out.append((step * seq, message(s, k, t, "playing")))
    out += [(step * len(texts), message(s, k, t, "over")) for s, k, t in waiting]
    return out


def day_of_games(venue: str, tables: list[str], logs: dict[str, str], games: int, seed: int,
                 roster: list[str], day: datetime = DAY0, first: int = 1
                 ) -> list[EntryMessage]:
    """``games`` finished games per table (ids from ``first``), one after another from
    ``day``, every table's entries in log order (tables interleaved by time)."""
    timed: list[tuple[datetime, int, EntryMessage]] = []
    for n, table in enumerate(tables):
        rng = random.Random(f"{seed}-{venue}-{table}")
        t = day + timedelta(seconds=17 * n)
        for game in range(first, first + games):
            msgs = game_messages(venue, table, logs[table], game, rng, roster, t)
            timed += [(t + timedelta(seconds=d), i, m) for i, (d, m) in enumerate(msgs)]
            t += timedelta(seconds=msgs[-1][0] + 30)
    timed.sort(key=lambda x: (x[0], x[2].table, x[1]))
    return [m for _, _, m in timed]


async def publish(url: str, user: str, password: str, messages: list[EntryMessage]) -> None:
    """Publish as a table's forwarder does (JetStream, the venue's message id), all at
    once, each acknowledged by the hub."""
    nc = await nats.connect(url, user=user, password=password, connect_timeout=5)
    try:
        js = nc.jetstream()
        for start in range(0, len(messages), 500):
            await asyncio.gather(*(js.publish(entry_subject(m.venue, m.table), m.to_bytes(),
                                              headers={"Nats-Msg-Id": m.id}, timeout=30)
                                   for m in messages[start:start + 500]))
    finally:
        await nc.close()


class Pub(Venue):
    """A pub: the venue's harness, its hub a leaf node of the league through three relays
    (``cut``/``restore``), its uplink and simulated tables."""

    def __init__(self, folder: Path, dsn: str, league: League, name: str,
                 tables: tuple[str, ...] = ("t1", "t2")) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder, dsn, tables, venue=name)
        self.league = league
        self.relays = [Relay(p) for p in league.config.leaf_ports]
        self.logs = {t: f"{name}-{t}-{os.urandom(3).hex()}" for t in tables}
        self.tables = list(tables)
        self.played = 0  # games each table has played so far

    def start_hub(self) -> None:
        link = LeagueLink(tuple(f"nats-leaf://127.0.0.1:{r.port}" for r in self.relays),
                          self.name, self.league.config.pubs[self.name])
        self.procs["hub"] = start_pub_hub(self.venue_config(), link, str(self.folder / "hub"))
        wait_until(lambda: _listening(self.hub_port), 90, "the pub's hub to listen")

    def start_uplink(self) -> None:
        log = open(self.folder / "uplink.log", "ab")  # noqa: SIM115 -- the child's
        self.procs["uplink"] = subprocess.Popen(
            [PYTHON, "-m", "league.cli", "uplink", "--config", str(self.config)],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()

    def start(self) -> None:
        for t, log_id in self.logs.items():
            self.enroll(t, log_id)
        self.start_hub()
        self.start_ingester()
        wait_until(lambda: "consuming" in self.log_text("ingester"), 180,
                   f"{self.name}'s venue ingester to make the hub's streams")
        self.start_uplink()

    def play(self, messages: list[EntryMessage]) -> None:
        asyncio.run(publish(self.url, self.admin[0], self.admin[1], messages))

    def day(self, games: int, seed: int, roster: list[str],
            day: datetime = DAY0) -> list[EntryMessage]:
        """The next ``games`` games of each table (their ids follow the last day's)."""
        first = self.played + 1
        self.played += games
        return day_of_games(self.name, self.tables, self.logs, games, seed, roster, day, first)

    def cut(self) -> None:
        for r in self.relays:
            r.cut()

    def restore(self) -> None:
        for r in self.relays:
            r.restore()

    def stop_all(self) -> None:
        super().stop_all()
        for r in self.relays:
            r.close()

    def venue_rows(self) -> list[tuple[Any, ...]]:
        return _rows(self.dsn, self.name)


def _rows(dsn: str, venue: str) -> list[tuple[Any, ...]]:
    """A pub's entries as a store holds them: (table, game, seq, kind, text), and its games
    (table, game, status, result) after them."""
    with psycopg.connect(dsn) as db:
        events = db.execute("SELECT table_name, game, seq, kind, text FROM events WHERE "
                            "venue = %s ORDER BY table_name, game, seq", (venue,)).fetchall()
        games = db.execute("SELECT table_name, game, status, result FROM games WHERE venue = "
                           "%s ORDER BY table_name, game", (venue,)).fetchall()
    return [tuple(r) for r in events] + [tuple(r) for r in games]


class League:
    """The league under test: config, three servers, ingester, its database, its pubs."""

    def __init__(self, folder: Path, dsn: str, pubs: tuple[str, ...] = ("pub1", "pub2"),
                 partitions: int = 1) -> None:
        """``partitions`` ingesters, pub ``i`` taken by ingester ``i % partitions``."""
        self.folder = folder
        self.partitions = partitions
        self.dsn = dsn
        ports = [free_port() for _ in range(9)]
        self.path = folder / "league.toml"
        lines = ["[league]", 'name = "league"', "[cluster]", 'host = "127.0.0.1"',
                 f"client_ports = {ports[0:3]}", f"cluster_ports = {ports[3:6]}",
                 f"leaf_ports = {ports[6:9]}", f'store_dir = "{folder / "cluster"}"',
                 f'admin_password = "adm-{os.urandom(4).hex()}"',
                 f'route_password = "rt-{os.urandom(4).hex()}"', "[database]",
                 f'dsn = "{dsn}"', "[ingest]", f"partitions = {partitions}"]
        lines += [f'[pubs.{p}]\npassword = "leaf-{p}-{os.urandom(4).hex()}"\n'
                  f"partition = {i % partitions}" for i, p in enumerate(pubs)]
        folder.mkdir(parents=True, exist_ok=True)
        self.path.write_text("\n".join(lines) + "\n")
        self.config: LeagueConfig = load_league_config(str(self.path))
        self.servers: dict[int, subprocess.Popen[bytes]] = {}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        with league_store.connect(dsn):
            pass

    def start_server(self, i: int) -> None:
        self.servers[i] = start_server(self.config, i, str(self.folder / "cluster" / f"s{i}"))

    def start(self) -> None:
        for i in range(3):
            self.start_server(i)
        for p in self.config.client_ports:
            wait_until(lambda p=p: _listening(p), 90, "a league server to listen")
        for k in range(self.partitions):
            self.start_ingester(partition=k)

    @staticmethod
    def ingester(partition: int) -> str:
        """The name of ingester ``partition``'s process and log."""
        return "ingester" if partition == 0 else f"ingester-{partition}"

    def start_ingester(self, env: dict[str, str] | None = None, partition: int = 0,
                       wait: bool = True) -> None:
        """Ingester ``partition``, waiting (``wait``) until it consumes."""
        name = self.ingester(partition)
        log = open(self.folder / f"{name}.log", "ab")  # noqa: SIM115 -- the child's
        self.procs[name] = subprocess.Popen(
            [PYTHON, "-m", "league.cli", "ingest", "--config", str(self.path), "--partition",
             str(partition)],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        log.close()
        if wait:
            try:
                wait_until(lambda: "consuming" in self.log_text(name), 180,
                           "the league's ingester")
            except AssertionError as e:
                raise AssertionError(f"{e}\n{self.logs_told(name)}") from None

    def logs_told(self, name: str) -> str:
        """What the ingester ``name`` and each league server last said (a failed start)."""
        told = [f"--- {name}.log (end):", self.log_text(name)[-3000:]]
        for i in range(3):
            path = self.folder / "cluster" / f"s{i}" / "nats.log"
            text = path.read_text(errors="replace") if path.exists() else "(none)"
            told += [f"--- server {i} (end):", "\n".join(text.splitlines()[-15:])]
        return "\n".join(told)

    def kill(self, proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGKILL) -> None:
        if proc is not None and proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)

    def stop_all(self) -> None:
        for p in self.procs.values():
            self.kill(p, signal.SIGTERM)
        for p in self.servers.values():
            self.kill(p, signal.SIGTERM)

    def log_text(self, name: str = "ingester") -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def add_roster(self, ids: list[str]) -> None:
        with psycopg.connect(self.dsn) as db:
            db.execute("INSERT INTO roster (player_id, name, home_venue) SELECT i, 'Player ' "
                       "|| i, 'pub1' FROM unnest(%s::text[]) AS u(i) ON CONFLICT DO NOTHING",
                       (ids,))

    def rows(self, venue: str) -> list[tuple[Any, ...]]:
        return _rows(self.dsn, venue)

    def ratings_now(self) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.dsn) as db:
            return [tuple(r) for r in db.execute(
                "SELECT player_id, mu, sigma, ordinal, games, lost, last_played FROM ratings "
                "ORDER BY player_id").fetchall()]

    def settled(self) -> bool:
        """Nothing waits to be rated."""
        with psycopg.connect(self.dsn) as db:
            return db.execute("SELECT count(*) FROM rating_marks").fetchone()[0] == 0

    def check(self, pubs: list[Pub]) -> None:
        """Every pub's games in the league equal its venue store, and the ratings equal a
        rebuild from the store (the promise each fault test ends with)."""
        for pub in pubs:
            wait_until(lambda pub=pub: self.rows(pub.name) == pub.venue_rows()
                       and pub.venue_rows(), 120, f"{pub.name}'s games in the league")
        wait_until(self.settled, 60, "the ratings to catch up")
        before = self.ratings_now()
        with league_store.connect(self.dsn) as db:
            ratings.rebuild(db)
        assert before and self.ratings_now() == before, "the ratings differ from a rebuild"
        with psycopg.connect(self.dsn) as db:  # nothing stored twice, every game gap-free
            assert db.execute("SELECT count(*) FROM (SELECT venue, table_name, game FROM "
                              "events GROUP BY 1, 2, 3 HAVING max(seq) <> count(*)) g"
                              ).fetchone()[0] == 0

