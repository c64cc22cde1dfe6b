"""The league's ingester: its part of the pubs' entries, from ``LEAGUE_ENTRIES`` into
PostgreSQL, as the venue's ingester does it (``venue.ingester.Ingester``, whose writing,
batching, acknowledging after the commit and crash hook it keeps), with the league's checks.

Partitioned by pub: ingester ``k`` of ``[ingest] partitions`` takes the pubs whose name
hashes to ``k`` (``LeagueConfig.pubs_of``) through its own durable consumer ``ingest-k``,
filtered to those pubs' subjects; inside it, each table's entries keep one PostgreSQL
connection, in order. For each message:

1. the venue's check (``parse_entry``, on the venue's subject of it) and that the pub is
   one of this part's: else a line here and a ``problems`` row, and it is dropped;
2. in ONE transaction: the league's checks (``league.checks``: a replaced log, a roster id
   not in the roster, a bad seating, an action by a player not seated: a line and a
   ``problems`` row, nothing of it stored, acknowledged), the venue's ``record_many``, and
   what the league derives (``league.derive``: seatings, rankings, the ratings' marks);
3. acknowledged after the commit. Killed between the two, the message comes again and is a
   repeat.

Beside it, it hears what the league's servers refused of its pubs (a pub publishing on the
league's entry subjects, ``league.refusals``): a line here and a ``problems`` row. And once a
second, the ratings are computed again from the earliest game marked
(``league.ratings.catch_up``, one at a time across every ingester).

``bidou-league ingest --config league.toml [--partition K]``.
"""

from __future__ import annotations

import argparse
import asyncio
from types import SimpleNamespace
from typing import Any

import nats
import psycopg

from league import derive, ratings
from league import store as league_store
from league.checks import check_batch
from league.cluster import LEAGUE_ENTRIES, ensure_streams, venue_subject
from league.pull import NamedPuller, until_done
from league.refusals import Refusals
from league.settings import LeagueConfig, add_config_argument, config_for
from venue import store as venue_store
from venue.ingester import QUEUE, Ingester
from venue.messages import BadMessage, EntryMessage, parse_entry
from venue.part_command import run_until_stopped
from venue.puller import say

PARTITIONS = 4  # PostgreSQL connections per ingester, as the venue's
RATINGS_EVERY = 1.0  # seconds between two ratings catch-ups


class LeagueIngester(Ingester):
    """The venue's ingester over the league's stream, one part of the pubs."""

    STREAM = LEAGUE_ENTRIES

    def __init__(self, config: LeagueConfig, partition: int = 0,
                 partitions: int = PARTITIONS) -> None:
        super().__init__(SimpleNamespace(name=config.name, dsn=config.dsn, tables={}, logs={}),
                         partitions)  # type: ignore[arg-type]
        self.league = config
        self.part = partition
        self.pubs = set(config.pubs_of(partition))
        self.rated = 0
        self.ratings_db: psycopg.Connection[Any] | None = None  # its own: a thread of its own

    async def check(self, js: Any, msg: Any, part: int) -> EntryMessage | None:
        subject = venue_subject(msg.subject)
        parts = subject.split(".")
        venue, table = (parts[1], parts[2]) if len(parts) == 4 else ("?", "?")
        try:
            message = parse_entry(subject, msg.data)
            if message.venue in self.pubs:
                return message
            sentence = (f"pub {message.venue!r} is not one of this ingester's pubs "
                        f"({', '.join(sorted(self.pubs))}); its entry is not stored. Add it "
                        "to the league config ([pubs]) and restart the ingesters.")
        except Exception as e:  # noqa: BLE001 -- BadMessage names it; anything else too
            sentence = str(e) if isinstance(e, BadMessage) else (
                f"a message on {msg.subject} could not be read ({type(e).__name__}: "
                f"{str(e)[:160]}); it is not stored.")
            sentence = f"pub {venue}: {sentence}"
        await asyncio.to_thread(self.problem, part, table, sentence, venue)
        await self.drop(js, msg)
        return None

    def _record(self, db: psycopg.Connection[Any], messages: list[EntryMessage],  # type: ignore[override]
                released: list[EntryMessage]) -> list[venue_store.Outcome]:
        """The league's checks, then the venue's write of what passes, then what the league
        derives from what was stored: all in the caller's transaction. A message the
        league refuses is "rejected": noted here, acknowledged, never stored."""
        verdicts = check_batch(db, messages)
        keep = [m for m, v in zip(messages, verdicts, strict=True) if v is None]
        first = len(released)
        done = iter(Ingester._record(db, keep, released) if keep else [])
        outcomes, stored = [], []
        for m, verdict in zip(messages, verdicts, strict=True):
            if verdict is None:
                outcomes.append(next(done))
                if outcomes[-1].kind == "stored":
                    stored.append(m)
            else:
                venue_store.note_problem(db, m.venue, m.table, verdict)
                self.say_once("refused", verdict)
                outcomes.append(venue_store.Outcome("rejected", verdict))
        derive.after_store(db, stored + released[first:])
        return outcomes

    def catch_up(self) -> None:
        """The ratings computed again from the earliest game marked (blocking), on a
        connection of its own (a connection is one thread's)."""
        try:
            if self.ratings_db is None or self.ratings_db.closed or self.ratings_db.broken:
                self.ratings_db = league_store.connect(self.league.dsn)
            self.rated += ratings.catch_up(self.ratings_db)
        except psycopg.OperationalError:
            self.ratings_db = None

    async def run(self, stop: asyncio.Event) -> None:
        c = self.league
        say(f"starting: the league's store ({c.name}) and servers ({', '.join(c.client_urls())})")
        await asyncio.to_thread(lambda: league_store.connect(c.dsn).close())
        nc = await nats.connect(c.client_urls(), user=c.admin_user, password=c.admin_password,
                                name=f"league ingester {self.part}",
                                max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                                connect_timeout=2)
        js = nc.jetstream()
        await until_done("the league's streams", lambda: ensure_streams(js, c))
        refusals = Refusals(c.dsn, self.pubs, set(c.pubs), self.say_once)
        await refusals.subscribe(nc)
        puller = NamedPuller(nc, js, LEAGUE_ENTRIES, f"ingest-{self.part}",
                             [f"league.{p}.*.entry" for p in sorted(self.pubs)] or
                             ["league._none_.*.entry"])
        await until_done(f"the consumer ingest-{self.part}", puller.ensure_consumer)
        queues: list[asyncio.Queue[Any]] = [asyncio.Queue(QUEUE) for _ in self.dbs]
        workers = [asyncio.create_task(self._worker(nc, i, q)) for i, q in enumerate(queues)]

        async def deliver(msg: Any) -> None:
            parts = msg.subject.split(".")
            key = f"{parts[1]}.{parts[2]}" if len(parts) == 4 else "?"
            await queues[self.partition(key)].put(msg)

        async def rate() -> None:
            while True:
                await asyncio.sleep(RATINGS_EVERY)
                await asyncio.to_thread(self.catch_up)

        say(f"consuming {LEAGUE_ENTRIES} (pubs {', '.join(sorted(self.pubs))}) into "
            f"PostgreSQL ({len(self.dbs)} connections)")
        tasks = [asyncio.create_task(puller.run(deliver)), asyncio.create_task(rate()),
                 asyncio.create_task(refusals.run())]
        await stop.wait()
        for t in tasks + workers:
            t.cancel()
        await nc.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--partition", type=int, default=0,
                        help="which part of the pubs this ingester takes (from 0)")


def run(args: argparse.Namespace) -> int:
    config = config_for("ingest", args.config)
    if config is None:
        return 2
    if not 0 <= args.partition < config.partitions:
        print(f"bidou-league ingest: --partition {args.partition} is not one of 0 to "
              f"{config.partitions - 1} ([ingest] partitions = {config.partitions}).")
        return 2

    run_until_stopped(LeagueIngester(config, args.partition).run)
    return 0

