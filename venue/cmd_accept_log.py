"""`bidou-venue accept-log --config FILE TABLE`: take a table's replaced log as genuine.

Why: a table whose SD card was replaced starts a new log (game ids from 1 again); the venue
refuses it, since storing it over the old one would mix two tables' games under one id. When
the operator knows the new log is genuine, this keeps the old log's rows under an archived
name (``store.accept_log``), makes the new log the table's, and stores what the table has sent
from it so far: those messages were refused, not lost (the entry stream keeps every message
by limits; a refused one was terminated, not deleted), so they are read again from the
stream, and each is stored once, in order, with the ingester's own ``record_many`` (a repeat
is a no-op, so the ingester storing the newest ones meanwhile doubles nothing). The stream is
read again AFTER the new log id is committed: a message the ingester refused between a first
read and the acceptance is then still found, and one it gets after the acceptance it stores
itself. The table itself is not touched and need not be restarted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any, TextIO

import nats
import psycopg
from nats.js.api import ConsumerConfig, DeliverPolicy

from venue import store
from venue.ingester import ingested_subject, notices
from venue.messages import ENTRY_STREAM, BadMessage, EntryMessage, entry_subject, parse_entry
from venue.settings import VenueConfig, add_config_argument, config_for

#: messages stored a transaction, and entries told the screens a notice message
BATCH = 200
#: seconds to wait for the stream's next message before taking it as read to its end
QUIET = 2.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The config, as every subcommand, and the table named as configured."""
    add_config_argument(parser)
    parser.add_argument("table", help="the table whose new log to accept (its configured name)")


async def sent_by(nc: Any, venue: str, table: str) -> list[EntryMessage]:
    """Every entry message of ``table`` the hub's stream holds, oldest first (an ordered
    consumer of its own: the ingester's durable consumer is left as it is)."""
    found: list[EntryMessage] = []
    sub = await nc.jetstream().subscribe(
        entry_subject(venue, table), stream=ENTRY_STREAM, ordered_consumer=True,
        config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL))
    try:
        while True:
            try:
                msg = await sub.next_msg(timeout=QUIET)
            except nats.errors.TimeoutError:
                break
            with contextlib.suppress(BadMessage):  # the ingester said what it was, refusing it
                found.append(parse_entry(msg.subject, msg.data))
            if msg.metadata.num_pending == 0:
                break
    finally:
        await sub.unsubscribe()
    return found


def store_in_order(db: psycopg.Connection[Any], messages: list[EntryMessage]) -> list[EntryMessage]:
    """Store ``messages`` (one log's, in stream order) and return those stored. One that came
    before its predecessor in the stream (a retried publish) is "early" in its batch and is
    tried again once the rest is in, until a pass stores nothing more."""
    stored: list[EntryMessage] = []
    todo = messages
    while todo:
        early: list[EntryMessage] = []
        for start in range(0, len(todo), BATCH):
            batch = todo[start:start + BATCH]
            for m, outcome in zip(batch, store.record_many(db, batch), strict=True):
                if outcome.kind == "stored":
                    stored.append(m)
                elif outcome.kind == "early":
                    early.append(m)
        if len(early) == len(todo):
            break  # its predecessor is not in the stream yet: the ingester takes it later
        todo = early
    return stored


async def accept(config: VenueConfig, table: str) -> tuple[int, str, TextIO]:
    """Exit status, the line to print and where (an error to stderr, the rest to stdout)."""
    try:
        nc = await nats.connect(config.hub_url, user=config.admin_user,
                                password=config.admin_password, tls=config.client_tls(),
                                name="venue accept-log", connect_timeout=5,
                                max_reconnect_attempts=2, allow_reconnect=False)
    except Exception as e:  # the hub away, refused credentials: say which and stop
        return 1, (f"bidou-venue accept-log: cannot read the hub's stream at {config.hub_url} "
                   f"({e or type(e).__name__}); start the hub (bidou-venue hub) and try "
                   "again."), sys.stderr
    try:
        sent = await sent_by(nc, config.name, table)
        # the log the table sends from now: its newest message's (the stream also holds the
        # old log's messages, which must never be taken back as new)
        new_log = sent[-1].log_id if sent else None
        with store.connect(config.dsn) as db:
            if new_log is None:
                return 1, f"Table {table} has sent nothing to the hub: nothing to accept.", \
                    sys.stdout
            try:
                archived = store.accept_log(db, config.name, table, new_log)
            except store.Refused as e:
                return 1, f"Table {table}: {e}", sys.stdout
            # read again now that the new log is the table's (see the module's docstring)
            new = [m for m in await sent_by(nc, config.name, table) if m.log_id == new_log]
            stored = store_in_order(db, new)
        for start in range(0, len(stored), BATCH):  # the screens learn the
            # new log id, and show what was stored (in messages well under the hub's 1 MB)
            await nc.publish(ingested_subject(config.name),
                             notices(stored[start:start + BATCH]))
        await nc.flush()
    finally:
        await nc.close()
    return 0, (f"Table {table}: log {new_log} accepted; the old log's games are kept as table "
               f"{archived}; {len(stored)} entries of the new log stored from the hub's "
               "stream, the rest come from the ingester."), sys.stdout


def run(args: argparse.Namespace) -> int:
    """Accept ``args.table``'s newest log; 2 on a bad config or table name, 1 when there is
    nothing to accept or the hub cannot be read."""
    config = config_for("accept-log", args.config)
    if config is None:
        return 2
    table = args.table
    if table not in config.tables:
        print(f"bidou-venue accept-log: {table!r} is not a table of {args.config} "
              f"({', '.join(sorted(config.tables))}).", file=sys.stderr)
        return 2
    status, line, out = asyncio.run(accept(config, table))
    print(line, file=out)
    return status
