"""The venue's store in PostgreSQL: the events as the tables sent them, and what follows.

``events`` holds every entry once, keyed (venue, table, game, seq): a repeat is a no-op
(``ON CONFLICT DO NOTHING``). ``games``, ``results`` and ``players`` are derived from the
events alone and rebuilt by ``rebuild``; each message changes them in the same transaction
as its event, so they never disagree. ``tables`` keeps the log id each table first sent
(a replaced log is refused) and ``problems`` the venue's sentences about what it refused.
The venue name is in every key, so a league can hold many venues in the same tables.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import psycopg

from venue.messages import EntryMessage

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL,
    log_id TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, by TEXT NOT NULL,
    why TEXT NOT NULL, at TEXT NOT NULL, game_row JSONB NOT NULL,
    received TIMESTAMPTZ NOT NULL DEFAULT now(), arrival BIGSERIAL,
    PRIMARY KEY (venue, table_name, game, seq)
);
CREATE TABLE IF NOT EXISTS tables (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, log_id TEXT NOT NULL,
    first_seen TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (venue, table_name)
);
CREATE TABLE IF NOT EXISTS games (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, game INTEGER NOT NULL,
    variant TEXT NOT NULL, players JSONB NOT NULL, options JSONB NOT NULL,
    started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL, result JSONB,
    entries INTEGER NOT NULL, PRIMARY KEY (venue, table_name, game)
);
CREATE TABLE IF NOT EXISTS results (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, game INTEGER NOT NULL, player TEXT NOT NULL,
    chips INTEGER NOT NULL, won BOOLEAN NOT NULL, lost BOOLEAN NOT NULL,
    PRIMARY KEY (venue, table_name, game, player)
);
CREATE TABLE IF NOT EXISTS players (
    venue TEXT NOT NULL, player TEXT NOT NULL, played INTEGER NOT NULL, won INTEGER NOT NULL,
    lost INTEGER NOT NULL, chips INTEGER NOT NULL, PRIMARY KEY (venue, player)
);
CREATE TABLE IF NOT EXISTS problems (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, sentence TEXT NOT NULL,
    first_at TIMESTAMPTZ NOT NULL DEFAULT now(), last_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    count INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (venue, table_name, sentence)
);
"""


def connect(dsn: str) -> psycopg.Connection[Any]:
    """A connection with the schema in place: made here when the role may (the owner), else
    made by the owner before (``make venue``'s ingester role may not create, ``venue.pgroles``)."""
    db = psycopg.connect(dsn, connect_timeout=5)
    try:
        with db.transaction():
            db.execute(SCHEMA)
    except psycopg.errors.InsufficientPrivilege:
        pass  # rolled back; the tables are the owner's
    return db


class Refused(Exception):
    """The message is valid but the venue will not store it; the sentence says why."""


class Outcome(NamedTuple):
    """What became of one message of a batch: ``kind`` is "stored", "repeat" (already held),
    "early" (an entry before it is still to come: hand it back) or "refused" (``sentence``
    says why; nothing of it is stored)."""

    kind: str
    sentence: str = ""


def record(db: psycopg.Connection[Any], m: EntryMessage) -> str:
    """Store one message in ONE transaction: "stored", "repeat" or "early"; Refused when the
    table's log id is not the one the venue knows. ``record_many`` of one message: the
    same code the ingester runs, one entry at a time (the property test drives it)."""
    (outcome,) = record_many(db, [m])
    if outcome.kind == "refused":
        raise Refused(outcome.sentence)
    return outcome.kind


def record_many(db: psycopg.Connection[Any], messages: Sequence[EntryMessage]) -> list[Outcome]:
    """Store the messages a partition has waiting in ONE transaction (a savepoint when the
    caller has one open), in a handful of statements whatever their number: one log-id check
    for all their tables, one highest-seq read for all their games, one multi-row insert,
    one derive per batch. One statement per message cost seven round trips each, and the
    ingester fell behind twenty tables (docs/venue.md, Figures).

    Each message gets the outcome it would have had alone: a table's first log id is the one
    its first message here brings, a message of another log is refused; a game's entries are
    taken in seq order from the highest seq held, so an entry already held is a repeat and
    one whose predecessor is neither held nor here is early. So every game stays gap-free and
    in order, and each entry is stored once (the key's ``ON CONFLICT DO NOTHING`` stays the
    last word)."""
    outcomes: list[Outcome | None] = [None] * len(messages)
    with db.transaction():
        accepted = _check_log_ids(db, messages, outcomes)
        games: dict[tuple[str, str, int], list[int]] = {}
        for i in accepted:
            m = messages[i]
            games.setdefault((m.venue, m.table, m.game), []).append(i)
        held = _highest_seqs(db, list(games))
        planned: list[int] = []
        for key, indexes in games.items():
            top = held[key]
            for i in sorted(indexes, key=lambda i: messages[i].seq):  # stable: first wins
                seq = messages[i].seq
                if seq <= top:
                    outcomes[i] = Outcome("repeat")
                elif seq == top + 1:
                    planned.append(i)
                    top = seq
                else:
                    outcomes[i] = Outcome("early")
        inserted = _insert_events(db, [messages[i] for i in planned])
        newest: dict[tuple[str, str, int], EntryMessage] = {}
        for i in planned:
            m = messages[i]
            if (m.venue, m.table, m.game, m.seq) in inserted:
                outcomes[i] = Outcome("stored")
                newest[(m.venue, m.table, m.game)] = m  # planned in seq order: the last wins
            else:  # held already after all (another writer): a repeat, never a double
                outcomes[i] = Outcome("repeat")
        derive_many(db, [(*key, game_row(m), m.seq) for key, m in newest.items()])
    return [o if o is not None else Outcome("repeat") for o in outcomes]


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows as one list per column: the arrays an ``unnest(...)`` statement takes."""
    return [list(c) for c in zip(*rows, strict=True)]


def _replaced(m: EntryMessage, held: str) -> str:
    return (f"table {m.table} sends from a new log (id {m.log_id}, the venue holds log "
            f"{held}): its log was replaced and its game ids start again. Nothing of it is "
            f"stored. If the new log is genuine (a new SD card): bidou-venue accept-log "
            f"--config FILE {m.table}; else put its old log back.")


def _check_log_ids(db: psycopg.Connection[Any], messages: Sequence[EntryMessage],
                   outcomes: list[Outcome | None]) -> list[int]:
    """The indexes of the messages whose table's log id is the venue's (a table new to the
    venue takes its first message's); the others' outcomes are set to refused. One read
    (locking the tables' rows) and at most one insert, for every table of the batch."""
    keys = sorted({(m.venue, m.table) for m in messages})
    ids = {(v, t): log_id for v, t, log_id in db.execute(
        "SELECT venue, table_name, log_id FROM tables WHERE (venue, table_name) IN "
        "(SELECT * FROM unnest(%s::text[], %s::text[])) FOR UPDATE",
        ([v for v, _ in keys], [t for _, t in keys])).fetchall()}
    new: list[tuple[str, str, str]] = []
    accepted = []
    for i, m in enumerate(messages):
        held = ids.get((m.venue, m.table))
        if held is None:
            held = ids[(m.venue, m.table)] = m.log_id
            new.append((m.venue, m.table, m.log_id))
        if held == m.log_id:
            accepted.append(i)
        else:
            outcomes[i] = Outcome("refused", _replaced(m, held))
    if new:
        db.execute("INSERT INTO tables (venue, table_name, log_id) "
                   "SELECT * FROM unnest(%s::text[], %s::text[], %s::text[])",
                   _columns(new))
    return accepted


def _highest_seqs(db: psycopg.Connection[Any], keys: list[tuple[str, str, int]]
                  ) -> dict[tuple[str, str, int], int]:
    """The highest seq held of each game (0 for none), in one statement: the events of a
    game are always 1..that, so it says which seqs are held."""
    if not keys:
        return {}
    rows = db.execute(
        "SELECT k.v, k.t, k.g, COALESCE((SELECT MAX(seq) FROM events e WHERE e.venue = k.v "
        "AND e.table_name = k.t AND e.game = k.g), 0) "
        "FROM unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, g)",
        _columns(keys)).fetchall()
    return {(v, t, g): top for v, t, g, top in rows}


def _insert_events(db: psycopg.Connection[Any], messages: list[EntryMessage]
                   ) -> set[tuple[str, str, int, int]]:
    """Insert the events in the given order (their ``arrival`` follows it) in one statement;
    the keys actually inserted. The rows go as ONE JSON parameter (``json.dumps`` in C):
    passed as eleven arrays, psycopg quoted every string of them in Python, and that was
    half of the write threads' time in the profile."""
    if not messages:
        return set()
    batch = json.dumps([[m.venue, m.table, m.game, m.seq, m.log_id, m.kind, m.text, m.by,
                         m.why, m.at, game_row(m)] for m in messages])
    rows = db.execute(
        "INSERT INTO events (venue, table_name, game, seq, log_id, kind, text, by, why, at, "
        "game_row) SELECT e->>0, e->>1, (e->>2)::int, (e->>3)::int, e->>4, e->>5, e->>6, "
        "e->>7, e->>8, e->>9, (e->10)::jsonb FROM json_array_elements(%s::json) "
        "WITH ORDINALITY AS u(e, n) ORDER BY n "
        "ON CONFLICT DO NOTHING RETURNING venue, table_name, game, seq", (batch,)).fetchall()
    return {(v, t, g, s) for v, t, g, s in rows}


def game_row(m: EntryMessage) -> dict[str, Any]:
    """The game as the message carried it (its status when the entry was sent)."""
    return {"variant": m.variant, "players": list(m.players), "options": m.options,
            "started": m.started, "status": m.status, "finished": m.finished,
            "result": m.result}


Derived = tuple[str, str, int, dict[str, Any], int]  # venue, table, game, its row, entries


def derive_many(db: psycopg.Connection[Any], games: Sequence[Derived]) -> None:
    """Bring games, results and players up to date with the newest event of each game (one
    per game), in a few statements for all of them; results and players only for the games
    whose status or result changed (the entries of a finished game mostly arrive together,
    all saying "over": one recount, not one each)."""
    if not games:
        return
    keys = _columns([(v, t, g) for v, t, g, *_ in games])
    before = {(v, t, g): (status, result) for v, t, g, status, result in db.execute(
        "SELECT venue, table_name, game, status, result FROM games WHERE "
        "(venue, table_name, game) IN (SELECT * FROM unnest(%s::text[], %s::text[], "
        "%s::int[]))", keys).fetchall()}
    db.execute(  # one JSON parameter, as _insert_events; a null result stays SQL NULL
        "INSERT INTO games (venue, table_name, game, variant, players, options, started, "
        "finished, status, result, entries) SELECT e->>0, e->>1, (e->>2)::int, e->>3, "
        "(e->4)::jsonb, (e->5)::jsonb, e->>6, e->>7, e->>8, "
        "NULLIF((e->9)::jsonb, 'null'::jsonb), (e->>10)::int "
        "FROM json_array_elements(%s::json) AS u(e) "
        "ON CONFLICT (venue, table_name, game) DO UPDATE SET finished = excluded.finished, "
        "status = excluded.status, result = excluded.result, entries = excluded.entries",
        (json.dumps([[v, t, g, r["variant"], r["players"], r["options"], r["started"],
                      r["finished"], r["status"], r["result"], n] for v, t, g, r, n in games]),))
    changed = [(v, t, g, row) for v, t, g, row, _ in games
               if before.get((v, t, g)) != (row["status"], row["result"])]
    if changed:
        _recount(db, changed)


def _recount(db: psycopg.Connection[Any], games: list[tuple[str, str, int, dict[str, Any]]]
             ) -> None:
    """The results of these games made again from their rows, then the players of them
    summed again over all their results (in name order, so two partitions recounting the
    same players lock their rows in the same order and never deadlock)."""
    db.execute("DELETE FROM results WHERE (venue, table_name, game) IN "
               "(SELECT * FROM unnest(%s::text[], %s::text[], %s::int[]))",
               _columns([(v, t, g) for v, t, g, _ in games]))
    results = []
    for venue, table, game, row in games:
        if row["status"] != "over":
            continue
        result = row["result"] or {}
        loser, winner = result.get("loser"), result.get("winner")
        chips = result.get("chips") or {}
        for player in row["players"]:
            won = player == winner if winner else bool(loser) and player != loser
            results.append((venue, table, game, player, int(chips.get(player, 0)), won,
                            player == loser))
    if results:
        db.execute("INSERT INTO results SELECT * FROM unnest(%s::text[], %s::text[], "
                   "%s::int[], %s::text[], %s::int[], %s::bool[], %s::bool[])",
                   _columns(results))
    players = sorted({(v, p) for v, _, _, row in games for p in row["players"]})
    db.execute(
        "INSERT INTO players (venue, player, played, won, lost, chips) "
        "SELECT k.v, k.p, COUNT(r.player), COUNT(*) FILTER (WHERE r.won), "
        "COUNT(*) FILTER (WHERE r.lost), COALESCE(SUM(r.chips), 0) "
        "FROM unnest(%s::text[], %s::text[]) AS k(v, p) "
        "LEFT JOIN results r ON r.venue = k.v AND r.player = k.p "
        "GROUP BY k.v, k.p ORDER BY k.v, k.p "
        "ON CONFLICT (venue, player) DO UPDATE SET played = excluded.played, "
        "won = excluded.won, lost = excluded.lost, chips = excluded.chips",
        [[v for v, _ in players], [p for _, p in players]])


REBUILD_CHUNK = 500  # games derived per statement group by ``rebuild``


def rebuild(db: psycopg.Connection[Any]) -> int:
    """Throw games, results and players away and make them again from the events (one
    transaction): they are derived, the events are the truth. The number of games."""
    with db.transaction():
        db.execute("DELETE FROM games; DELETE FROM results; DELETE FROM players")
        rows = db.execute(
            "SELECT DISTINCT ON (venue, table_name, game) venue, table_name, game, game_row, "
            "seq FROM events ORDER BY venue, table_name, game, seq DESC").fetchall()
        for start in range(0, len(rows), REBUILD_CHUNK):
            derive_many(db, [tuple(r) for r in rows[start:start + REBUILD_CHUNK]])
    return len(rows)


def note_problem(db: psycopg.Connection[Any], venue: str, table: str, sentence: str,
                 times: int = 1) -> None:
    """Keep a refusal's sentence for the screen's table status (its own transaction); the
    same sentence again only counts up (by ``times``: a batch's refusals of one kind are one
    statement), so a replaced log's thousand entries make one line."""
    with db.transaction():
        db.execute("INSERT INTO problems (venue, table_name, sentence, count) "
                   "VALUES (%s, %s, %s, %s) ON CONFLICT (venue, table_name, sentence) DO "
                   "UPDATE SET last_at = now(), count = problems.count + excluded.count",
                   (venue, table, sentence, times))


#: an archived log's table name is the table's with this and a number: a character no
#: configured table name may hold (firmware.venue_settings.NAME), so it never meets one
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
            raise Refused(f"the venue holds no log of table {table}: a table's first log is "
                          "taken as it comes, nothing to accept.")
        if row[0] == new_log:
            raise Refused(f"log {new_log} is table {table}'s already: nothing to accept.")
        (archives,) = db.execute(  # not LIKE: a name may hold "_", which LIKE takes as any
            "SELECT count(*) FROM tables WHERE venue = %s AND starts_with(table_name, %s)",
            (venue, f"{table}{ARCHIVED}")).fetchone()
        archived = f"{table}{ARCHIVED}{archives + 1}"
        for name in ("events", "games", "results", "problems"):
            db.execute(f"UPDATE {name} SET table_name = %s "  # noqa: S608 -- our own names
                       "WHERE venue = %s AND table_name = %s", (archived, venue, table))
        db.execute("INSERT INTO tables (venue, table_name, log_id) VALUES (%s, %s, %s)",
                   (venue, archived, row[0]))
        db.execute("UPDATE tables SET log_id = %s, first_seen = now() "
                   "WHERE venue = %s AND table_name = %s", (new_log, venue, table))
    return archived
