"""`bidou-venue accept-log --config FILE TABLE [--log ID]`: enroll a table's log at the venue.

Why: a table's log is enrolled by the venue, never claimed by a message (anyone holding a
table's password could otherwise make their own log the table's first). A table's first log
waits until enrolled, here (or by ``[tables.NAME] log_id`` in the venue config). A table
whose SD card was replaced starts a new log (game ids from 1 again); the venue refuses it,
since storing it over the old one would mix two tables' games under one id. When the
operator knows the log is genuine (its table's referee console names it), this enrolls it: a
replaced log's old rows are kept under an archived name (``table_logs.accept_log``), the new log
becomes the table's, and what the table has sent from it so far is stored: those messages
were refused, not lost (the entry stream keeps every message by limits; a refused one was
terminated, not deleted), so they are read again from the stream, and each is stored once,
in order, with the ingester's own ``record_many`` (a repeat is a no-op, so the ingester
storing the newest ones meanwhile doubles nothing). The stream is read again AFTER the new
log id is committed: a message the ingester refused between a first read and the acceptance
is then still found, and one it gets after the acceptance it stores itself. The table itself
is not touched and need not be restarted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections import Counter
from typing import Any, TextIO

import nats
import psycopg
from nats.js.api import ConsumerConfig, DeliverPolicy

from venue import store, table_logs
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
    parser.add_argument("--log", default=None, metavar="ID",
                        help="the log to enroll, as the table's referee console names it "
                             "(default: the one log the table has sent from, or its newest)")


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
    """Store ``messages`` (one log's, in stream order) and return those stored, in the order
    stored. One that came before its predecessor in the stream (a retried publish) is held
    by the store and stored with its predecessor, in order (``store.record_many``)."""
    stored: list[EntryMessage] = []
    for start in range(0, len(messages), BATCH):
        batch = messages[start:start + BATCH]
        released: list[EntryMessage] = []
        for m, outcome in zip(batch, store.record_many(db, batch, released), strict=True):
            if outcome.kind == "stored":
                stored.append(m)
        stored += released
    return stored


def _choose(table: str, sent: list[EntryMessage], held: str | None, named: str | None
            ) -> tuple[str | None, str]:
    """The log to enroll and, when none can be chosen, why. Named: that one. Otherwise a
    table's first log only when it sent from exactly one; a replaced log: its newest."""
    if named is not None:
        return named, ""
    if not sent:
        return None, f"Table {table} has sent nothing to the hub: nothing to accept."
    if held is not None:
        return sent[-1].log_id, ""
    logs = Counter(m.log_id for m in sent)
    if len(logs) == 1:
        return sent[-1].log_id, ""
    seen = ", ".join(f"{log} ({n} entries)" for log, n in logs.items())
    return None, (f"Table {table} has sent from {len(logs)} logs ({seen}); name the genuine "
                  "one, as its referee console's Venue section shows it: --log ID.")


async def accept(config: VenueConfig, table: str,
                 named: str | None = None) -> tuple[int, str, TextIO]:
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
        with store.connect(config.dsn) as db:
            # one transaction, committed at its end: the row's read would otherwise open
            # one that the enrolment's own block only made a savepoint of, committed when
            # the connection closes, after the read below, and the ingester would refuse
            # (and nobody read again) what came between
            with db.transaction():
                row = db.execute("SELECT log_id FROM tables WHERE venue = %s AND "
                                 "table_name = %s", (config.name, table)).fetchone()
                # unnamed, the log the table sends from now: its newest message's (the
                # stream also holds the old log's messages, never to be taken back as new)
                new_log, why = _choose(table, sent, row[0] if row else None, named)
                if new_log is None:
                    return 1, why, sys.stdout
                archived = None
                if row is None:
                    table_logs.enroll(db, config.name, table, new_log)
                else:
                    try:
                        archived = table_logs.accept_log(db, config.name, table, new_log)
                    except table_logs.Refused as e:
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
    kept = (f"the old log's games are kept as table {archived}" if archived
            else "it is the table's first log at the venue")
    return 0, (f"Table {table}: log {new_log} accepted; {kept}; {len(stored)} entries of it "
               "stored from the hub's stream, the rest come from the ingester."), sys.stdout


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
    status, line, out = asyncio.run(accept(config, table, args.log))
    print(line, file=out)
    return status
