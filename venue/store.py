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
from typing import Any

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
    """A connection with the schema in place."""
    db = psycopg.connect(dsn, connect_timeout=5)
    with db.transaction():
        db.execute(SCHEMA)
    return db


class Refused(Exception):
    """The message is valid but the venue will not store it; the sentence says why."""


def record(db: psycopg.Connection[Any], m: EntryMessage) -> str:
    """Store one message in ONE transaction: "stored", "repeat" (already held), "early" (an
    entry before it is still to come: try again later). Refused when the table's log id is
    not the one the venue knows (its log was replaced)."""
    with db.transaction():
        row = db.execute("SELECT log_id FROM tables WHERE venue = %s AND table_name = %s "
                         "FOR UPDATE", (m.venue, m.table)).fetchone()
        if row is None:
            db.execute("INSERT INTO tables (venue, table_name, log_id) VALUES (%s, %s, %s)",
                       (m.venue, m.table, m.log_id))
        elif row[0] != m.log_id:
            raise Refused(
                f"table {m.table} sends from a new log (id {m.log_id}, the venue holds log "
                f"{row[0]}): its log was replaced and its game ids start again. Nothing of "
                "it is stored. Give the table a new name in its [venue] table (and the hub), "
                "or put its old log back.")
        (held,), = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE venue = %s AND "
                              "table_name = %s AND game = %s", (m.venue, m.table, m.game))
        if m.seq > held + 1:
            return "early"
        done = db.execute(
            "INSERT INTO events (venue, table_name, game, seq, log_id, kind, text, by, why, "
            "at, game_row) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            (m.venue, m.table, m.game, m.seq, m.log_id, m.kind, m.text, m.by, m.why, m.at,
             json.dumps(game_row(m))))
        if done.rowcount == 0:
            return "repeat"
        derive(db, m.venue, m.table, m.game, game_row(m), m.seq)
        return "stored"


def game_row(m: EntryMessage) -> dict[str, Any]:
    """The game as the message carried it (its status when the entry was sent)."""
    return {"variant": m.variant, "players": list(m.players), "options": m.options,
            "started": m.started, "status": m.status, "finished": m.finished,
            "result": m.result}


def derive(db: psycopg.Connection[Any], venue: str, table: str, game: int,
           row: dict[str, Any], entries: int) -> None:
    """Bring games, results and players up to date with the newest event of ``game``;
    results and players only when the game's status or result changed (the entries of a
    finished game mostly arrive together, all saying "over": one recount, not one each)."""
    before = db.execute("SELECT status, result FROM games WHERE venue = %s AND table_name = %s "
                        "AND game = %s", (venue, table, game)).fetchone()
    db.execute(
        "INSERT INTO games (venue, table_name, game, variant, players, options, started, "
        "finished, status, result, entries) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) "
        "ON CONFLICT (venue, table_name, game) DO UPDATE SET finished = excluded.finished, "
        "status = excluded.status, result = excluded.result, entries = excluded.entries",
        (venue, table, game, row["variant"], json.dumps(row["players"]),
         json.dumps(row["options"]), row["started"], row["finished"], row["status"],
         None if row["result"] is None else json.dumps(row["result"]), entries))
    if before is not None and (before[0], before[1]) == (row["status"], row["result"]):
        return
    db.execute("DELETE FROM results WHERE venue = %s AND table_name = %s AND game = %s",
               (venue, table, game))
    result = row["result"] or {}
    if row["status"] == "over":
        loser, winner = result.get("loser"), result.get("winner")
        chips = result.get("chips") or {}
        for player in row["players"]:
            won = player == winner if winner else bool(loser) and player != loser
            db.execute("INSERT INTO results VALUES (%s, %s, %s, %s, %s, %s, %s)",
                       (venue, table, game, player, int(chips.get(player, 0)), won,
                        player == loser))
    for player in row["players"]:
        db.execute(
            "INSERT INTO players (venue, player, played, won, lost, chips) "
            "SELECT %s, %s, COUNT(*), COUNT(*) FILTER (WHERE won), "
            "COUNT(*) FILTER (WHERE lost), COALESCE(SUM(chips), 0) FROM results "
            "WHERE venue = %s AND player = %s "
            "ON CONFLICT (venue, player) DO UPDATE SET played = excluded.played, "
            "won = excluded.won, lost = excluded.lost, chips = excluded.chips",
            (venue, player, venue, player))


def rebuild(db: psycopg.Connection[Any]) -> int:
    """Throw games, results and players away and make them again from the events (one
    transaction): they are derived, the events are the truth. The number of games."""
    with db.transaction():
        db.execute("DELETE FROM games; DELETE FROM results; DELETE FROM players")
        rows = db.execute(
            "SELECT DISTINCT ON (venue, table_name, game) venue, table_name, game, game_row, "
            "seq FROM events ORDER BY venue, table_name, game, seq DESC").fetchall()
        for venue, table, game, row, seq in rows:
            derive(db, venue, table, game, row, seq)
    return len(rows)


def note_problem(db: psycopg.Connection[Any], venue: str, table: str, sentence: str) -> None:
    """Keep a refusal's sentence for the screen's table status (its own transaction); the
    same sentence again only counts up, so a replaced log's thousand entries make one line."""
    with db.transaction():
        db.execute("INSERT INTO problems (venue, table_name, sentence) VALUES (%s, %s, %s) "
                   "ON CONFLICT (venue, table_name, sentence) DO UPDATE SET "
                   "last_at = now(), count = problems.count + 1", (venue, table, sentence))
