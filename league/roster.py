"""The league's roster: its players, kept in the league store, and handed to every pub.

The truth is the league store's ``roster`` table (``league.store``: player id, display name,
home pub), written by ``bidou-league add-player``. ``bidou-league roster`` answers every
pub's ``league.roster.get`` with the whole roster (``venue.roster.answer``'s JSON), and
``add-player`` says ``league.roster.changed`` after each change, so a pub's roster keeper
(``venue.roster_keeper``) fetches it at once; a pub cut meanwhile fetches it when its link
comes back (it asks every minute). The subjects cross to the pubs by the league's accounts
(``league.cluster``).
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

from league import store
from league.settings import LeagueConfig, add_config_argument, config_for
from venue.part_command import part_command
from venue.roster import ROSTER_CHANGED, ROSTER_GET, Player, answer, player_problem

log = logging.getLogger("bidou.league.roster")


def add_player(db: psycopg.Connection[Any], player: Player) -> bool:
    """Put ``player`` in the roster (or change its name and home), in one transaction;
    whether it is new. ValueError with a sentence for a player that cannot be."""
    problem = player_problem(player.as_json())
    if problem:
        raise ValueError(problem)
    with db.transaction():
        row = db.execute(
            "INSERT INTO roster (player_id, name, home_venue) VALUES (%s, %s, %s) ON CONFLICT "
            "(player_id) DO UPDATE SET name = excluded.name, home_venue = excluded.home_venue "
            "RETURNING (xmax = 0)", player).fetchone()
    return bool(row[0])


def players(db: psycopg.Connection[Any]) -> list[Player]:
    return [Player(r.player_id, r.name, r.home_venue) for r in store.roster(db)]


async def say_changed(config: LeagueConfig) -> None:
    """``league.roster.changed`` on the cluster (each pub's keeper then fetches)."""
    nc = await nats.connect(config.client_urls(), user=config.admin_user,
                            password=config.admin_password, connect_timeout=3,
                            max_reconnect_attempts=1)
    try:
        await nc.publish(ROSTER_CHANGED, b"")
        await nc.flush()
    finally:
        await nc.close()


class RosterService:
    """Answers ``league.roster.get`` from the store (one connection, made again after a
    failure; PostgreSQL away: no answer, and the pubs keep their copies)."""

    def __init__(self, config: LeagueConfig, dsn: str | None = None) -> None:
        self.config = config
        self.dsn = dsn or config.dsn
        self._db: psycopg.Connection[Any] | None = None

    def body(self) -> bytes:
        if self._db is None or self._db.closed:
            self._db = store.connect(self.dsn)
            self._db.autocommit = True
        try:
            return answer(players(self._db), datetime.now(UTC).isoformat(timespec="seconds"))
        except psycopg.Error:
            self._db = None
            raise

    async def run(self, stop: asyncio.Event) -> None:
        c = self.config
        nc = await nats.connect(c.client_urls(), user=c.admin_user, password=c.admin_password,
                                name="league roster", max_reconnect_attempts=-1,
                                reconnect_time_wait=1)

        async def asked(msg: Any) -> None:
            if not msg.reply:
                return
            try:
                body = await asyncio.to_thread(self.body)
            except psycopg.Error as e:
                log.warning("cannot read the roster to answer a pub (%s); the pub keeps its "
                            "copy", str(e).strip()[:200])
                return
            await msg.respond(body)

        await nc.subscribe(ROSTER_GET, queue="roster", cb=asked)
        try:
            await stop.wait()
        finally:
            with contextlib.suppress(Exception):
                await nc.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


#: ``bidou-league roster``: answer the pubs' roster requests until stopped
run = part_command(config_for, "roster", lambda config: RosterService(config).run,
                   says=lambda config: "bidou-league roster: answering the pubs' "
                                       "league.roster.get", logging_to="stdout")
