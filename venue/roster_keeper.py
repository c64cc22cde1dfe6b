"""`bidou-venue roster --config venue.toml --league league.toml`: the pub's roster keeper.

It keeps the pub's copy of the league's roster (``venue.roster``) and hands it to the tables:

- from the league: a watch of the league's ``BIDOU_ROSTER`` bucket, each change written to the
  venue store's ``roster`` table at once; after every (re)connection the whole bucket is read
  again, and a player no longer in it is taken off the copy. Cut from the league, it retries
  every ``RETRY`` seconds and the copy stays as it was;
- to the tables: on the pub's hub, as the venue's own user, every request on
  ``bidou.<venue>.<table>.roster`` of a configured table is answered with the whole copy,
  from memory (read from the store at start), so a table is answered through a cut of the
  league and of PostgreSQL alike.

``league.toml`` is the pub's link to the league (``bidou-league add-venue`` prints it):
``[league] url``, ``user``, ``password``, and ``ca`` for a ``tls://`` url.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import ssl
import sys
import time
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import nats
import psycopg

from engine.errors import ConfigError, reject_unknown_keys
from venue import roster
from venue.settings import VenueConfig, add_config_argument, config_for

RETRY = 2.0
log = logging.getLogger("bidou.roster")


@dataclass(frozen=True)
class LeagueLink:
    """Where the pub reaches the league, and as whom."""

    url: str
    user: str
    password: str
    ca: str | None = None

    def tls(self) -> ssl.SSLContext | None:
        if not self.url.startswith("tls://"):
            return None
        return ssl.create_default_context(cafile=self.ca)


def load_league_link(path: str) -> LeagueLink:
    """The ``[league]`` section of ``path``; ConfigError naming the bad key."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ConfigError("--league", path, f"a readable league.toml ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("--league", path, f"TOML ({e})") from None
    for key in data:
        if key != "league":
            raise ConfigError(key, data[key], "no such section; league.toml has [league]")
    section = data.get("league")
    if not isinstance(section, dict):
        raise ConfigError("[league]", section, "a section with url, user and password")
    reject_unknown_keys("league", section, ("url", "user", "password", "ca"))
    for key in ("url", "user", "password"):
        if not isinstance(section.get(key), str) or not section[key]:
            raise ConfigError(f"league.{key}", section.get(key), "a non-empty string")
    if not section["url"].startswith(("nats://", "tls://")):
        raise ConfigError("league.url", section["url"], "nats://HOST:PORT or tls://HOST:PORT")
    return LeagueLink(section["url"], section["user"], section["password"], section.get("ca"))


class RosterKeeper:
    """The keeper of one venue's roster copy (see the module docstring)."""

    def __init__(self, config: VenueConfig, league: LeagueLink) -> None:
        self.config = config
        self.league = league
        self.players: dict[str, roster.Player] = {}
        self.synced: str | None = None  # when the league last answered
        self.problem: str | None = None
        self._db: psycopg.Connection[Any] | None = None

    # --- the store --------------------------------------------------------------------
    def _store(self) -> psycopg.Connection[Any]:
        if self._db is None or self._db.closed:
            self._db = psycopg.connect(self.config.dsn, autocommit=True, connect_timeout=5)
            roster.ensure_schema(self._db)
        return self._db

    def _write(self, change: roster.Player | str) -> None:
        """A player kept or (an id) taken off; PostgreSQL away: retried until it answers
        (the copy in memory, which the tables read, is already up to date)."""
        while True:
            try:
                db = self._store()
                if isinstance(change, str):
                    roster.remove(db, change)
                else:
                    roster.put(db, change)
                return
            except psycopg.Error as e:
                self._say(f"cannot write the roster copy to PostgreSQL ({e}); retrying")
                self._db = None
                time.sleep(RETRY)

    def load(self) -> None:
        """The copy as the store holds it (a keeper started during a league cut)."""
        self.players = {p.id: p for p in roster.read(self._store())}

    def _say(self, sentence: str) -> None:
        if sentence != self.problem:
            log.warning("%s", sentence)
        self.problem = sentence

    # --- the tables' side ---------------------------------------------------------------
    async def serve(self) -> Any:
        """Answer the tables' requests on the pub's hub; the connection."""
        c = self.config
        nc = await nats.connect(c.hub_url, user=c.admin_user, password=c.admin_password,
                                tls=c.client_tls(), name="roster keeper",
                                max_reconnect_attempts=-1, reconnect_time_wait=1)

        async def asked(msg: Any) -> None:
            table = msg.subject.split(".")[2]
            if table in c.tables and msg.reply:
                await msg.respond(roster.answer(sorted(self.players.values()), self.synced))

        await nc.subscribe(roster.roster_subject(c.name, "*"), cb=asked)
        return nc

    # --- the league's side --------------------------------------------------------------
    async def follow(self, stop: asyncio.Event) -> None:
        """Watch the league's bucket until ``stop``, reconnecting after any failure."""
        while not stop.is_set():
            try:
                await self._follow_once(stop)
            except Exception as e:  # the league away, the bucket missing: keep the copy
                self._say(f"cannot read the league's roster at {self.league.url} ({e!r}); "
                          f"the pub's copy ({len(self.players)} players) serves meanwhile")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), RETRY)

    async def _follow_once(self, stop: asyncio.Event) -> None:
        link = self.league
        nc = await nats.connect(link.url, user=link.user, password=link.password,
                                tls=link.tls(), name=f"roster keeper {self.config.name}",
                                connect_timeout=2, max_reconnect_attempts=0)
        try:
            kv = await nc.jetstream().key_value(roster.BUCKET)
            watcher = await kv.watchall()
            seen: set[str] = set()
            initial = True
            while not stop.is_set() and nc.is_connected:
                try:
                    entry = await watcher.updates(timeout=1)
                except nats.errors.TimeoutError:
                    continue
                if entry is None:  # the bucket read whole: drop what it no longer holds
                    if initial:
                        for gone in set(self.players) - seen:
                            await asyncio.to_thread(self._write, gone)
                            self.players.pop(gone, None)
                        initial = False
                    self._synced()
                    continue
                seen.add(entry.key)
                if entry.operation in ("DEL", "PURGE") or entry.value is None:
                    self.players.pop(entry.key, None)
                    await asyncio.to_thread(self._write, entry.key)
                else:
                    try:
                        player = roster.parse_player(entry.value)
                    except ValueError as e:
                        self._say(f"the league's roster key {entry.key} is refused: {e}")
                        continue
                    self.players[player.id] = player
                    await asyncio.to_thread(self._write, player)
                if not initial:
                    self._synced()
        finally:
            with contextlib.suppress(Exception):
                await nc.close()

    def _synced(self) -> None:
        self.synced = datetime.now(UTC).isoformat(timespec="seconds")
        self.problem = None


async def keep(config: VenueConfig, league: LeagueLink, stop: asyncio.Event) -> None:
    keeper = RosterKeeper(config, league)
    while True:
        try:
            keeper.load()
            break
        except psycopg.Error as e:
            keeper._say(f"cannot read the roster copy from PostgreSQL ({e}); retrying")
            keeper._db = None
            await asyncio.sleep(RETRY)
    hub = await keeper.serve()
    try:
        await keeper.follow(stop)
    finally:
        await hub.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--league", required=True, metavar="FILE",
                        help="the pub's league.toml (bidou-league add-venue prints it)")


def run(args: argparse.Namespace) -> int:
    config = config_for("roster", args.config)
    if config is None:
        return 2
    try:
        league = load_league_link(args.league)
    except ConfigError as e:
        print(f"bidou-venue roster: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"bidou-venue roster: keeping venue {config.name}'s roster copy from {league.url}",
          flush=True)
    try:
        loop.run_until_complete(keep(config, league, stop))
    finally:
        loop.close()
    return 0
