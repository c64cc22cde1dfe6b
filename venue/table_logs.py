"""Which log is each table's: the one the venue enrolled, and the logs it archived.

A table's entries are keyed by its game ids, which start again with a new log: so the venue
takes a table's entries only from the log it enrolled for it (``tables``: by the venue
config, or ``bidou-venue accept-log``), never from a message's word. A log the venue does not
hold is refused with a sentence saying what to do; accepting a new one archives the old
one's rows under another name (``t1~1``), kept and shown as that table's games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from venue.messages import EntryMessage


class Refused(Exception):
    """The message is valid but the venue will not store it; the sentence says why."""


def check_log_ids(db: psycopg.Connection[Any], messages: Sequence[EntryMessage]
                  ) -> tuple[list[int], dict[int, str]]:
    """The indexes of the messages whose table's log id is the one the venue enrolled, and
    why each other one is refused, by its index (a table with no enrolled log too: a message
    never enrolls its own log). One read, locking the tables' rows, for every table of the
    batch."""
    keys = sorted({(m.venue, m.table) for m in messages})
    ids = {(v, t): log_id for v, t, log_id in db.execute(
        "SELECT venue, table_name, log_id FROM tables WHERE (venue, table_name) IN "
        "(SELECT * FROM unnest(%s::text[], %s::text[])) FOR UPDATE",
        ([v for v, _ in keys], [t for _, t in keys])).fetchall()}
    accepted: list[int] = []
    refused: dict[int, str] = {}
    for i, m in enumerate(messages):
        held = ids.get((m.venue, m.table))
        if held == m.log_id:
            accepted.append(i)
        else:
            refused[i] = _not_enrolled(m) if held is None else _replaced(m, held)
    return accepted, refused


def _not_enrolled(m: EntryMessage) -> str:
    return (f"table {m.table} sends from log {m.log_id}, which the venue has not enrolled: "
            f"a table's log is enrolled at the venue, never taken from a message. Nothing of "
            f"it is stored; it waits in the hub. If log {m.log_id} is table {m.table}'s (its "
            f"referee console's Venue section names its log): bidou-venue accept-log "
            f"--config FILE {m.table} --log={m.log_id}; else check who has its password.")


def _replaced(m: EntryMessage, held: str) -> str:
    return (f"table {m.table} sends from a new log (id {m.log_id}, the venue holds log "
            f"{held}): its log was replaced and its game ids start again. Nothing of it is "
            f"stored. If the new log is genuine (a new SD card): bidou-venue accept-log "
            f"--config FILE {m.table}; else put its old log back.")


def enroll(db: psycopg.Connection[Any], venue: str, table: str, log_id: str) -> str:
    """Make ``log_id`` the table's log if the venue has none for it yet (its own
    transaction); the log the venue holds for the table afterwards (another one already
    enrolled stays: replacing it is ``accept_log``'s)."""
    with db.transaction():
        db.execute("INSERT INTO tables (venue, table_name, log_id) VALUES (%s, %s, %s) "
                   "ON CONFLICT DO NOTHING", (venue, table, log_id))
        (held,) = db.execute("SELECT log_id FROM tables WHERE venue = %s AND table_name = %s",
                             (venue, table)).fetchone()
    return str(held)


#: an archived log's table name is the table's with this and a number: a character no
#: configured table name may hold (firmware.settings.venue_settings.NAME), so it never meets one
ARCHIVED = "~"


def archived_of(name: str) -> str | None:
    """The table whose archived log ``name`` is (``t1~1`` -> ``t1``); None for a table's own
    name."""
    return name.split(ARCHIVED, 1)[0] if ARCHIVED in name else None


def accept_log(db: psycopg.Connection[Any], venue: str, table: str, new_log: str) -> str:
    """Make ``new_log`` the table's log, in one transaction: every row of the log the venue
    held (events, games, results, problems) moves to an archived name (``t1~1``, then
    ``t1~2``...), kept and shown as that table's games; players' records, by player, keep
    them. The archived name, or Refused with a sentence when there is nothing to accept."""
    with db.transaction():
        row = db.execute("SELECT log_id FROM tables WHERE venue = %s AND table_name = %s "
                         "FOR UPDATE", (venue, table)).fetchone()
        if row is None:
            raise Refused(f"the venue holds no log of table {table} yet: enroll its first "
                          "log instead (store.enroll), nothing to archive.")
        if row[0] == new_log:
            raise Refused(f"log {new_log} is table {table}'s already: nothing to accept.")
        (archives,) = db.execute(  # not LIKE: a name may hold "_", which LIKE takes as any
            "SELECT count(*) FROM tables WHERE venue = %s AND starts_with(table_name, %s)",
            (venue, f"{table}{ARCHIVED}")).fetchone()
        archived = f"{table}{ARCHIVED}{archives + 1}"
        for name in ("events", "games", "results", "problems", "held"):
            db.execute(f"UPDATE {name} SET table_name = %s "  # noqa: S608 -- our own names
                       "WHERE venue = %s AND table_name = %s", (archived, venue, table))
        db.execute("INSERT INTO tables (venue, table_name, log_id) VALUES (%s, %s, %s)",
                   (venue, archived, row[0]))
        db.execute("UPDATE tables SET log_id = %s, first_seen = now() "
                   "WHERE venue = %s AND table_name = %s", (new_log, venue, table))
    return archived
