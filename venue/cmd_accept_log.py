"""`bidou-venue accept-log --config FILE TABLE`: take a table's replaced log as genuine.

Why: a table whose SD card was replaced starts a new log (game ids from 1 again); the venue
refuses it, since storing it over the old one would mix two tables' games under one id. When
the operator knows the new log is genuine, this keeps the old log's rows under an archived
name (``store.accept_log``), makes the new log the table's, and stores what the table has sent
from it so far: those messages were refused, not lost (the entry stream keeps every message
by limits; a refused one was terminated, not deleted), so they are read again from the
stream, and each is stored once, in order, with the ingester's own ``record_many`` (a repeat
is a no-op, so the ingester storing the newest ones meanwhile doubles nothing). The table
itself is not touched and need not be restarted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

import nats
from nats.js.api import ConsumerConfig, DeliverPolicy

from venue import store
from venue.messages import ENTRY_STREAM, BadMessage, EntryMessage, entry_subject, parse_entry
from venue.settings import VenueConfig, add_config_argument, config_for

#: messages stored a transaction, as the ingester's batches
BATCH = 200
#: seconds to wait for the stream's next message before taking it as read to its end
QUIET = 2.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("table", help="the table whose new log to accept (its configured name)")


async def sent_by(config: VenueConfig, table: str) -> list[EntryMessage]:
    """Every entry message of ``table`` the hub's stream holds, oldest first."""
    nc = await nats.connect(config.hub_url, user=config.admin_user,
                            password=config.admin_password, tls=config.client_tls(),
                            name="venue accept-log", connect_timeout=5,
                            max_reconnect_attempts=2)
    found: list[EntryMessage] = []
    try:
        sub = await nc.jetstream().subscribe(
            entry_subject(config.name, table), stream=ENTRY_STREAM, ordered_consumer=True,
            config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL))
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
        await nc.close()
    return found


def run(args: argparse.Namespace) -> int:
    config = config_for("accept-log", args.config)
    if config is None:
        return 2
    table = args.table
    if table not in config.tables:
        print(f"bidou-venue accept-log: {table!r} is not a table of {args.config} "
              f"({', '.join(sorted(config.tables))}).", file=sys.stderr)
        return 2
    try:
        messages = asyncio.run(sent_by(config, table))
    except Exception as e:  # the hub away, refused credentials: say which and stop
        print(f"bidou-venue accept-log: cannot read the hub's stream at {config.hub_url} "
              f"({e or type(e).__name__}); start the hub (bidou-venue hub) and try again.",
              file=sys.stderr)
        return 1
    with store.connect(config.dsn) as db:
        held = db.execute("SELECT log_id FROM tables WHERE venue = %s AND table_name = %s",
                          (config.name, table)).fetchone()
        # the log the table sends from now: its newest message's (the stream also holds
        # the old log's messages, which must never be taken back as new)
        new_log = messages[-1].log_id if messages else None
        if new_log is None or (held is not None and held[0] == new_log):
            print(f"Table {table} sends from the log the venue holds: nothing to accept.")
            return 1
        try:
            archived = store.accept_log(db, config.name, table, new_log)
        except store.Refused as e:
            print(f"bidou-venue accept-log: {e}", file=sys.stderr)
            return 1
        new = [m for m in messages if m.log_id == new_log]
        stored = 0
        for start in range(0, len(new), BATCH):
            outcomes = store.record_many(db, new[start:start + BATCH])
            stored += sum(o.kind == "stored" for o in outcomes)
    print(f"Table {table}: log {new_log} accepted; the old log's games are kept as table "
          f"{archived}; {stored} entries of the new log stored, the rest come from the "
          "ingester.")
    return 0
