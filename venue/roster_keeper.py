"""`bidou-venue roster --config venue.toml`: the pub's roster keeper.

It keeps the pub's copy of the league's roster (``venue.roster``) and hands it to the tables,
all on the pub's own hub, as the venue's own user:

- from the league: it asks ``league.roster.get`` (answered by the league across the hub's
  leaf link) at start, every ``REFRESH`` seconds, and at once when the league says
  ``league.roster.changed``; each answer replaces the copy in the venue store, in one
  transaction. Cut from the league, the request fails and the copy stays as it was;
- to the tables: every request on ``bidou.<venue>.<table>.roster`` of a configured table is
  answered with the whole copy, from memory (read from the store at start), so a table is
  answered through a cut of the league and of PostgreSQL alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

import nats
import psycopg

from venue import roster
from venue.part_command import part_command
from venue.settings import VenueConfig, add_config_argument, config_for

REFRESH = 60.0
RETRY = 2.0
ASK_TIMEOUT = 5.0
log = logging.getLogger("bidou.roster")


class RosterKeeper:
    """The keeper of one venue's roster copy (see the module docstring)."""

    def __init__(self, config: VenueConfig, dsn: str | None = None) -> None:
        self.config = config
        self.dsn = dsn or config.dsn
        self.players: list[roster.Player] = []
        self.synced: str | None = None  # when the league last answered
        self.problem: str | None = None
        self._db: psycopg.Connection[Any] | None = None

    def _store(self) -> psycopg.Connection[Any]:
        if self._db is None or self._db.closed:
            self._db = psycopg.connect(self.dsn, autocommit=True, connect_timeout=5)
            roster.ensure_schema(self._db)
        return self._db

    def load(self) -> None:
        """The copy as the store holds it (a keeper started during a league cut)."""
        self.players = roster.read(self._store())

    def keep(self, players: list[roster.Player]) -> None:
        """The league's answer as the pub's copy: in memory at once, in the store when it
        answers (PostgreSQL away: kept at the next answer)."""
        self.players = sorted(players)
        self.synced = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            roster.replace_all(self._store(), self.players)
        except psycopg.Error as e:
            self._db = None
            self._say(f"cannot keep the roster copy in PostgreSQL ({e}); the tables are "
                      "answered from memory, and it is written at the next answer")
            return
        self.problem = None

    def _say(self, sentence: str) -> None:
        if sentence != self.problem:
            log.warning("%s", sentence)
        self.problem = sentence

    async def run(self, stop: asyncio.Event) -> None:
        """Serve and follow until ``stop``."""
        c = self.config
        nc = await nats.connect(c.hub_url, user=c.admin_user, password=c.admin_password,
                                tls=c.client_tls(), name="roster keeper",
                                max_reconnect_attempts=-1, reconnect_time_wait=1)
        changed = asyncio.Event()

        async def asked(msg: Any) -> None:
            table = msg.subject.split(".")[2]
            if table in c.tables and msg.reply:
                await msg.respond(roster.answer(self.players, self.synced))

        async def on_changed(_msg: Any) -> None:
            changed.set()

        await nc.subscribe(roster.roster_subject(c.name, "*"), cb=asked)
        await nc.subscribe(roster.ROSTER_CHANGED, cb=on_changed)
        try:
            while not stop.is_set():
                wait = REFRESH
                try:
                    reply = await nc.request(roster.ROSTER_GET, b"", timeout=ASK_TIMEOUT)
                    players, _ = roster.parse_answer(reply.data)
                    await asyncio.to_thread(self.keep, players)
                except Exception as e:  # the league away or junk: the copy serves
                    self._say(f"cannot fetch the league's roster ({e!r}); the pub's copy "
                              f"({len(self.players)} players) serves meanwhile")
                    wait = RETRY
                changed.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(_first(stop, changed), wait)
        finally:
            await nc.close()


async def _first(*events: asyncio.Event) -> None:
    """Return when any of ``events`` is set."""
    waits = [asyncio.create_task(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


async def keep(config: VenueConfig, stop: asyncio.Event) -> None:
    keeper = RosterKeeper(config)
    while not stop.is_set():
        try:
            keeper.load()
            break
        except psycopg.Error as e:
            keeper._say(f"cannot read the roster copy from PostgreSQL ({e}); retrying")
            keeper._db = None
            await asyncio.sleep(RETRY)
    await keeper.run(stop)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


run = part_command(config_for, "roster", lambda config: lambda stop: keep(config, stop),
                   says=lambda config: f"bidou-venue roster: keeping venue {config.name}'s "
                                       "roster copy", logging_to="stderr")
