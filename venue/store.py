"""The venue's store in PostgreSQL: the events as the tables sent them, and what follows.

``events`` holds every entry once, keyed (venue, table, game, seq): a repeat is a no-op
(``ON CONFLICT DO NOTHING``). ``games``, ``results`` and ``players`` are derived from the
events alone (``venue.derived``, which rebuilds them too); each message changes them in the
same transaction as its event, so they never disagree. ``tables`` keeps each table's
enrolled log id (``venue.table_logs``: by the venue config or ``bidou-venue accept-log``,
never by a message; another log is refused), ``held`` the entries that came before one they
follow (stored, in order, the moment it comes), and ``problems`` the venue's sentences about
what it refused or waits for. The venue name is in every key, so a league can hold many
venues in the same tables."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import psycopg

from venue.derived import columns, derive_many
from venue.messages import EntryMessage
from venue.table_logs import Refused, check_log_ids

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
CREATE TABLE IF NOT EXISTS held (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL,
    message TEXT NOT NULL, held_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (venue, table_name, game, seq)
);
CREATE TABLE IF NOT EXISTS problems (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, sentence TEXT NOT NULL,
    first_at TIMESTAMPTZ NOT NULL DEFAULT now(), last_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    count INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (venue, table_name, sentence)
);
"""


#: the advisory lock that makes the schema one connection at a time: two ``CREATE TABLE IF
#: NOT EXISTS`` at once can both try to create a table (a unique violation in pg_type), as
#: the ingester and ``accept-log`` (or a test enrolling a log) starting together did
SCHEMA_LOCK = 0x62696475


def connect(dsn: str) -> psycopg.Connection[Any]:
    """A connection with the schema in place, made by its owner (roles: ``venue.pgroles``)."""
    db = psycopg.connect(dsn, connect_timeout=5)
    # a role that may not create (make venue's ingester and screen) finds the owner's tables
    with contextlib.suppress(psycopg.errors.InsufficientPrivilege), db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        db.execute(SCHEMA)
    return db


#: entries a table may have waiting in ``held`` for missing ones: ten times what its
#: forwarder has in flight at once (``venue.forwarder.IN_FLIGHT``), the most a lost publish
#: can leave waiting; past it a table's entries are refused, not kept without end
HELD_MAX = 10_000


class Outcome(NamedTuple):
    """What became of one message of a batch: ``kind`` is "stored", "repeat" (already in
    the store), "held" (an entry before it is still to come: kept in ``held`` and stored the
    moment that one comes; ``sentence`` says what is missing) or "refused" (``sentence``
    says why; nothing of it is stored)."""

    kind: str
    sentence: str = ""


def record(db: psycopg.Connection[Any], m: EntryMessage,
           released: list[EntryMessage] | None = None) -> str:
    """Store one message in ONE transaction: "stored", "repeat" or "held"; Refused when the
    table's log id is not the one the venue enrolled. ``record_many`` of one message: the
    same code the ingester runs, one entry at a time (the property test drives it)."""
    (outcome,) = record_many(db, [m], released)
    if outcome.kind == "refused":
        raise Refused(outcome.sentence)
    return outcome.kind


def record_many(db: psycopg.Connection[Any], messages: Sequence[EntryMessage],
                released: list[EntryMessage] | None = None) -> list[Outcome]:
    """Store the messages a partition has waiting in ONE transaction (a savepoint when the
    caller has one open), in a handful of statements whatever their number: one log-id check
    for all their tables, one highest-seq read for all their games, one multi-row insert,
    one derive per batch. One statement per message cost seven round trips each, and the
    ingester fell behind twenty tables (docs/venue.md, Figures).

    Each message gets the outcome it would have had alone: a message of a log the venue has
    not enrolled for its table is refused; a game's entries are taken in seq order from the
    highest seq stored, so an entry already stored is a repeat, and one whose predecessor is
    neither stored nor here is held (``held``, acknowledged: it holds back nothing of the
    hub's) until its predecessor comes, when it is stored with it, in order. Those entries,
    stored from ``held``, are appended to ``released`` in the order stored. So every game
    stays gap-free and in order, and each entry is stored once (the key's ``ON CONFLICT DO
    NOTHING`` stays the last word)."""
    outcomes: list[Outcome | None] = [None] * len(messages)
    with db.transaction():
        accepted, refused = check_log_ids(db, messages)
        for i, sentence in refused.items():
            outcomes[i] = Outcome("refused", sentence)
        games: dict[tuple[str, str, int], list[int]] = {}
        for i in accepted:
            m = messages[i]
            games.setdefault((m.venue, m.table, m.game), []).append(i)
        stored_top, waiting = _highest_seqs(db, list(games))
        planned: list[int] = []
        early: list[int] = []
        planned_top: dict[tuple[str, str, int], int] = {}
        for key, indexes in games.items():
            top = stored_top[key]
            for i in sorted(indexes, key=lambda i: messages[i].seq):  # stable: first wins
                seq = messages[i].seq
                if seq <= top:
                    outcomes[i] = Outcome("repeat")
                elif seq == top + 1:
                    planned.append(i)
                    top = seq
                else:
                    early.append(i)
            planned_top[key] = top
        inserted = _insert_events(db, [messages[i] for i in planned])
        newest: dict[tuple[str, str, int], EntryMessage] = {}
        for i in planned:
            m = messages[i]
            if (m.venue, m.table, m.game, m.seq) in inserted:
                outcomes[i] = Outcome("stored")
                newest[(m.venue, m.table, m.game)] = m  # planned in seq order: the last wins
            else:  # stored already after all (another writer): a repeat, never a double
                outcomes[i] = Outcome("repeat")
        _hold(db, messages, early, outcomes, planned_top)
        drained, gapped = _release_held(db, {k: stored_top[k] for k in newest
                                             if k in waiting})
        for m in drained:
            newest[(m.venue, m.table, m.game)] = m  # released in seq order: the last wins
        if released is not None:
            released.extend(drained)
        gapped |= {(messages[i].venue, messages[i].table, messages[i].game) for i in early}
        _note_gaps(db, sorted(gapped))
        derive_many(db, [(*key, game_row(m), m.seq) for key, m in newest.items()])
    return [o if o is not None else Outcome("repeat") for o in outcomes]


def gap_sentence(table: str, game: int, missing: int, waiting: int | None = None) -> str:
    """What the screen (with how many wait) and the ingester's log say of entries held for
    a missing one."""
    count = ("entries" if waiting is None else
             f"{waiting} {'entry' if waiting == 1 else 'entries'}")
    return (f"table {table} game {game}: entry {missing} has not come, and the {count} "
            "after it wait for it (held by the "
            "venue, stored in order the moment it comes; nothing else waits). If it never "
            "comes, that table's forwarder lost it: see its referee console's Venue section.")


def _hold(db: psycopg.Connection[Any], messages: Sequence[EntryMessage], early: list[int],
          outcomes: list[Outcome | None], tops: dict[tuple[str, str, int], int]) -> None:
    """Keep the early messages in ``held`` (a repeat of a held one is a no-op); a table past
    ``HELD_MAX`` held entries has the rest refused with a sentence."""
    if not early:
        return
    tables = sorted({(messages[i].venue, messages[i].table) for i in early})
    counts = {(v, t): n for v, t, n in db.execute(
        "SELECT venue, table_name, count(*) FROM held WHERE (venue, table_name) IN "
        "(SELECT * FROM unnest(%s::text[], %s::text[])) GROUP BY venue, table_name",
        columns(tables)).fetchall()}
    keep = []
    for i in early:
        m = messages[i]
        if counts.get((m.venue, m.table), 0) >= HELD_MAX:
            outcomes[i] = Outcome("refused", (
                f"table {m.table} has {HELD_MAX} entries waiting for missing ones (held by "
                f"the venue); game {m.game} entry {m.seq} is refused, not kept. Its "
                "forwarder is sending entries that do not follow each other: check what "
                "publishes on its subject."))
            continue
        counts[(m.venue, m.table)] = counts.get((m.venue, m.table), 0) + 1
        keep.append(m)
        top = tops[(m.venue, m.table, m.game)]
        outcomes[i] = Outcome("held", gap_sentence(m.table, m.game, top + 1))
    if keep:
        db.execute("INSERT INTO held (venue, table_name, game, seq, message) SELECT e->>0, "
                   "e->>1, (e->>2)::int, (e->>3)::int, e->>4 FROM json_array_elements(%s::json)"
                   " AS u(e) ON CONFLICT DO NOTHING",
                   (json.dumps([[m.venue, m.table, m.game, m.seq, m.to_bytes().decode()]
                                for m in keep]),))


def _release_held(db: psycopg.Connection[Any], before: dict[tuple[str, str, int], int]
                  ) -> tuple[list[EntryMessage], set[tuple[str, str, int]]]:
    """Store the held entries that now follow what is stored, for the games whose highest
    seq moved (``before``: what it was), in seq order: the messages stored, and the games
    that had entries held (their gap's problem to be said again). Without a gap, one
    statement."""
    if not before:
        return [], set()
    rows = db.execute(
        "SELECT h.venue, h.table_name, h.game, h.seq, h.message FROM held h JOIN "
        "unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, g) ON h.venue = k.v AND "
        "h.table_name = k.t AND h.game = k.g ORDER BY h.venue, h.table_name, h.game, h.seq",
        columns(list(before))).fetchall()
    if not rows:
        return [], set()
    gapped = {(v, t, g) for v, t, g, _, _ in rows}
    tops, _ = _highest_seqs(db, sorted(gapped))
    chain: list[EntryMessage] = []
    for v, t, g, seq, text in rows:
        if seq == tops[(v, t, g)] + 1:
            chain.append(_from_held(text))
            tops[(v, t, g)] = seq
    inserted = _insert_events(db, chain)
    db.execute("DELETE FROM held h USING unnest(%s::text[], %s::text[], %s::int[], %s::int[]) "
               "AS k(v, t, g, top) WHERE h.venue = k.v AND h.table_name = k.t AND h.game = "
               "k.g AND h.seq <= k.top", columns([(*k, top) for k, top in tops.items()]))
    return [m for m in chain if (m.venue, m.table, m.game, m.seq) in inserted], gapped


def _from_held(text: str) -> EntryMessage:
    data = json.loads(text)
    data.pop("format", None)
    return EntryMessage(**data | {"players": tuple(data["players"])})


def _note_gaps(db: psycopg.Connection[Any], keys: list[tuple[str, str, int]]) -> None:
    """The ``problems`` row of each of these games' gap, as it now stands: one sentence per
    game saying which entry is missing and how many wait (replacing the last one), none
    once nothing waits."""
    if not keys:
        return
    cols = columns(keys)
    db.execute("DELETE FROM problems p USING unnest(%s::text[], %s::text[], %s::int[]) AS "
               "k(v, t, g) WHERE p.venue = k.v AND p.table_name = k.t AND starts_with("
               "p.sentence, 'table ' || k.t || ' game ' || k.g || ': entry ')", cols)
    waiting = db.execute(
        "SELECT h.venue, h.table_name, h.game, count(*), COALESCE((SELECT MAX(seq) FROM "
        "events e WHERE e.venue = h.venue AND e.table_name = h.table_name AND e.game = "
        "h.game), 0) FROM held h JOIN unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, "
        "g) ON h.venue = k.v AND h.table_name = k.t AND h.game = k.g GROUP BY h.venue, "
        "h.table_name, h.game", cols).fetchall()
    for v, t, g, n, top in waiting:
        db.execute("INSERT INTO problems (venue, table_name, sentence, count) VALUES "
                   "(%s, %s, %s, %s)", (v, t, gap_sentence(t, g, top + 1, n), n))


def _highest_seqs(db: psycopg.Connection[Any], keys: list[tuple[str, str, int]]
                  ) -> tuple[dict[tuple[str, str, int], int], set[tuple[str, str, int]]]:
    """The highest seq stored of each game (0 for none), in one statement: the events of a
    game are always 1..that, so it says which seqs are stored. Games with entries in
    ``held`` are returned beside, so a batch reads ``held`` only for a game that has some
    (one statement fewer per batch, most of the time)."""
    if not keys:
        return {}, set()
    rows = db.execute(
        "SELECT k.v, k.t, k.g, COALESCE((SELECT MAX(seq) FROM events e WHERE e.venue = k.v "
        "AND e.table_name = k.t AND e.game = k.g), 0), EXISTS (SELECT 1 FROM held h WHERE "
        "h.venue = k.v AND h.table_name = k.t AND h.game = k.g) "
        "FROM unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, g)",
        columns(keys)).fetchall()
    return {(v, t, g): top for v, t, g, top, _ in rows}, {
        (v, t, g) for v, t, g, _, waiting in rows if waiting}


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


