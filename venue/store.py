"""The venue's store in PostgreSQL: the events as the tables sent them, and what follows.

``events`` holds every entry once, keyed (venue, table, game, seq): a repeat is a no-op
(``ON CONFLICT DO NOTHING``). ``games``, ``results`` and ``players`` are derived from the
events alone and rebuilt by ``rebuild``; each message changes them in the same transaction
as its event, so they never disagree. ``tables`` keeps each table's enrolled log id
(``enroll``: by the venue config or ``bidou-venue accept-log``, never by a message; another
log is refused), ``held`` the entries that came before one they follow (stored, in order,
the moment it comes), and ``problems`` the venue's sentences about what it refused or waits
for. The venue name is in every key, so a league can hold many venues in the same tables.
"""

from __future__ import annotations

import contextlib
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


class Refused(Exception):
    """The message is valid but the venue will not store it; the sentence says why."""


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
        accepted = _check_log_ids(db, messages, outcomes)
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
        _columns(tables)).fetchall()}
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
        _columns(list(before))).fetchall()
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
               "k.g AND h.seq <= k.top", _columns([(*k, top) for k, top in tops.items()]))
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
    cols = _columns(keys)
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


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows as one list per column: the arrays an ``unnest(...)`` statement takes."""
    return [list(c) for c in zip(*rows, strict=True)]


def _not_enrolled(m: EntryMessage) -> str:
    return (f"table {m.table} sends from log {m.log_id}, which the venue has not enrolled: "
            f"a table's log is enrolled at the venue, never taken from a message. Nothing of "
            f"it is stored; it waits in the hub. If log {m.log_id} is table {m.table}'s (its "
            f"referee console's Venue section names its log): bidou-venue accept-log "
            f"--config FILE {m.table} --log {m.log_id}; else check who has its password.")


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


def _replaced(m: EntryMessage, held: str) -> str:
    return (f"table {m.table} sends from a new log (id {m.log_id}, the venue holds log "
            f"{held}): its log was replaced and its game ids start again. Nothing of it is "
            f"stored. If the new log is genuine (a new SD card): bidou-venue accept-log "
            f"--config FILE {m.table}; else put its old log back.")


def _check_log_ids(db: psycopg.Connection[Any], messages: Sequence[EntryMessage],
                   outcomes: list[Outcome | None]) -> list[int]:
    """The indexes of the messages whose table's log id is the one the venue enrolled; the
    others' outcomes are set to refused (a table with no enrolled log too: a message never
    enrolls its own log). One read, locking the tables' rows, for every table of the
    batch."""
    keys = sorted({(m.venue, m.table) for m in messages})
    ids = {(v, t): log_id for v, t, log_id in db.execute(
        "SELECT venue, table_name, log_id FROM tables WHERE (venue, table_name) IN "
        "(SELECT * FROM unnest(%s::text[], %s::text[])) FOR UPDATE",
        ([v for v, _ in keys], [t for _, t in keys])).fetchall()}
    accepted = []
    for i, m in enumerate(messages):
        held = ids.get((m.venue, m.table))
        if held == m.log_id:
            accepted.append(i)
        else:
            outcomes[i] = Outcome("refused", _not_enrolled(m) if held is None
                                  else _replaced(m, held))
    return accepted


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
        _columns(keys)).fetchall()
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
