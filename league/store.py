"""The league's store in PostgreSQL: every pub's entries in the venue's own tables, and the
league's own: the roster, who sat where, each finished game's ranking and the ratings.

The entries are the venue's (``venue.store``: ``events``, ``tables``, ``games``,
``results``, ``players``, ``held``, ``problems``), written by the same ``record_many``: the
venue's name is in every key, so one set of tables holds every pub, in the one entry format.
The league adds:

- ``roster``: a rostered player's id, display name and home pub;
- ``seatings``: each game's seating entry (kind ``seating``, docs/league.md) read into one
  row per seat: the game's player name and the roster id seated there (NULL: a guest);
- ``rankings``: each finished game's places, computed once when its last entry is stored
  (the order players got rid of their chips, the loser last; two-hand: winner, loser);
- ``ratings`` and ``rating_history``: openskill's Plackett-Luce rating after every rated
  game, in the fixed order (finish time, venue, table, game); ``rating_marks`` says from
  which game on they must be computed again (a pub that comes back late): a row per mark,
  never merged with another, so that a catch-up takes only the marks it saw;
- refusals go into the venue's ``problems`` table (venue, table, sentence, count).

``games``, ``results``, ``players``, ``seatings``, ``rankings``, ``ratings`` and
``rating_history`` are derived from ``events`` and ``roster``; ``league.ratings.rebuild``
makes the ratings again from ``rankings`` and gives the same numbers.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, NamedTuple

import psycopg

from venue import store as venue_store

SCHEMA = """
CREATE TABLE IF NOT EXISTS roster (
    player_id TEXT PRIMARY KEY, name TEXT NOT NULL, home_venue TEXT NOT NULL,
    added TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS seatings (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, game INTEGER NOT NULL, seat TEXT NOT NULL,
    player_id TEXT, PRIMARY KEY (venue, table_name, game, seat)
);
CREATE INDEX IF NOT EXISTS seatings_player ON seatings (player_id);
CREATE TABLE IF NOT EXISTS rankings (
    venue TEXT NOT NULL, table_name TEXT NOT NULL, game INTEGER NOT NULL,
    started TEXT NOT NULL, finished TEXT NOT NULL, variant TEXT NOT NULL,
    places JSONB NOT NULL, rated BOOLEAN NOT NULL,
    PRIMARY KEY (venue, table_name, game)
);
CREATE INDEX IF NOT EXISTS rankings_order ON rankings (finished, venue, table_name, game);
CREATE TABLE IF NOT EXISTS ratings (
    player_id TEXT PRIMARY KEY, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
    ordinal DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, lost INTEGER NOT NULL,
    last_played TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ratings_order ON ratings (ordinal DESC, player_id);
CREATE TABLE IF NOT EXISTS rating_history (
    player_id TEXT NOT NULL, finished TEXT NOT NULL, venue TEXT NOT NULL,
    table_name TEXT NOT NULL, game INTEGER NOT NULL, place INTEGER NOT NULL,
    lost BOOLEAN NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
    ordinal DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, finished, venue, table_name, game)
);
CREATE INDEX IF NOT EXISTS rating_history_order ON rating_history (finished, venue, table_name,
                                                                   game);
CREATE TABLE IF NOT EXISTS rating_marks (
    mark BIGSERIAL PRIMARY KEY, finished TEXT NOT NULL, venue TEXT NOT NULL,
    table_name TEXT NOT NULL, game INTEGER NOT NULL
);
DO $$ BEGIN
    IF to_regclass('ratings_dirty') IS NOT NULL THEN  -- marks keyed by game: taken over
        INSERT INTO rating_marks (finished, venue, table_name, game)
            SELECT finished, venue, table_name, game FROM ratings_dirty;
        DROP TABLE ratings_dirty;
    END IF;
END $$;
"""

#: the advisory lock the league's schema is made under (the venue's is another)
SCHEMA_LOCK = 0x6C656167


def connect(dsn: str) -> psycopg.Connection[Any]:
    """A connection with the venue's and the league's schema in place."""
    db = venue_store.connect(dsn)
    with contextlib.suppress(psycopg.errors.InsufficientPrivilege), db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        db.execute(SCHEMA)
    return db


class RosterRow(NamedTuple):
    player_id: str
    name: str
    home_venue: str


class Standing(NamedTuple):
    """One rated player in the standings: ``ordinal`` (mu - 3 sigma) is the rating shown."""

    player_id: str
    name: str
    home_venue: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    lost: int
    last_played: str


class PlayerGame(NamedTuple):
    """One game a rostered player sat in, wherever; the rating after it when it was rated."""

    venue: str
    table: str
    game: int
    seat: str
    status: str
    started: str
    finished: str | None
    place: int | None
    lost: bool | None
    ordinal: float | None


class RatingPoint(NamedTuple):
    finished: str
    venue: str
    table: str
    game: int
    ordinal: float
    mu: float
    sigma: float


class GameSummary(NamedTuple):
    venue: str
    table: str
    game: int
    variant: str
    players: list[str]
    status: str
    started: str
    finished: str | None
    result: dict[str, Any] | None
    entries: int
    seating: dict[str, str | None]


class EntryRow(NamedTuple):
    seq: int
    kind: str
    text: str
    by: str
    why: str
    at: str


class VenueRow(NamedTuple):
    venue: str
    tables: int
    games: int
    finished: int
    last_entry: str | None


class Problem(NamedTuple):
    venue: str
    table: str
    sentence: str
    count: int
    first_at: str
    last_at: str


class DoubleSeat(NamedTuple):
    """A rostered player seated in two games at once (their times overlap): flagged, and
    the later game is not rated for anyone."""

    player_id: str
    first: tuple[str, str, int]
    second: tuple[str, str, int]


def roster(db: psycopg.Connection[Any]) -> list[RosterRow]:
    """Every rostered player, by id."""
    return [RosterRow(*r) for r in db.execute(
        "SELECT player_id, name, home_venue FROM roster ORDER BY player_id").fetchall()]


def standings(db: psycopg.Connection[Any], offset: int = 0, limit: int | None = None
              ) -> tuple[int, list[Standing]]:
    """How many players are rated, and ``limit`` of them (None: all) from ``offset``, best
    first (ordinal, then id: a fixed order for equal ratings). The page is cut from
    ``ratings`` alone, along its index, and only its rows are joined to the roster: joined
    first, a page past 9,900 read 10,000 names (38 ms against 7 with 10,000 players)."""
    (total,) = db.execute("SELECT count(*) FROM ratings").fetchone()
    rows = db.execute(
        "SELECT r.player_id, COALESCE(p.name, r.player_id), COALESCE(p.home_venue, ''), "
        "r.ordinal, r.mu, r.sigma, r.games, r.lost, r.last_played FROM (SELECT * FROM "
        "ratings ORDER BY ordinal DESC, player_id OFFSET %s LIMIT %s) r LEFT JOIN roster p "
        "USING (player_id) ORDER BY r.ordinal DESC, r.player_id", (offset, limit)).fetchall()
    return int(total), [Standing(*r) for r in rows]


def player_games(db: psycopg.Connection[Any], player_id: str) -> list[PlayerGame]:
    """Every game the player sat in, newest first, with the rating after each rated one."""
    return [PlayerGame(*r) for r in db.execute(
        "SELECT s.venue, s.table_name, s.game, s.seat, g.status, g.started, g.finished, "
        "h.place, h.lost, h.ordinal FROM seatings s JOIN games g USING (venue, table_name, "
        "game) LEFT JOIN rating_history h ON h.player_id = s.player_id AND h.venue = s.venue "
        "AND h.table_name = s.table_name AND h.game = s.game WHERE s.player_id = %s "
        "ORDER BY g.started DESC, s.venue, s.table_name, s.game DESC",
        (player_id,)).fetchall()]


def rating_history(db: psycopg.Connection[Any], player_id: str) -> list[RatingPoint]:
    """The player's rating after each rated game, in the order the ratings were computed."""
    return [RatingPoint(*r) for r in db.execute(
        "SELECT finished, venue, table_name, game, ordinal, mu, sigma FROM rating_history "
        "WHERE player_id = %s ORDER BY finished, venue, table_name, game",
        (player_id,)).fetchall()]


def venues(db: psycopg.Connection[Any]) -> list[VenueRow]:
    """Every pub the league holds entries of."""
    return [VenueRow(*r) for r in db.execute(
        "SELECT t.venue, count(DISTINCT t.table_name), COALESCE(sum(g.n), 0)::int, "
        "COALESCE(sum(g.f), 0)::int, max(g.last) FROM tables t LEFT JOIN (SELECT venue, "
        "table_name, count(*) AS n, count(*) FILTER (WHERE status <> 'playing') AS f, "
        "max(COALESCE(finished, started)) AS last FROM games GROUP BY venue, table_name) g "
        "USING (venue, table_name) GROUP BY t.venue ORDER BY t.venue").fetchall()]


def games(db: psycopg.Connection[Any], venue: str | None = None, table: str | None = None,
          limit: int = 200) -> list[GameSummary]:
    """Games, newest first, of one pub (and table) or of all."""
    rows = db.execute(
        "SELECT g.venue, g.table_name, g.game, g.variant, g.players, g.status, g.started, "
        "g.finished, g.result, g.entries, COALESCE((SELECT jsonb_object_agg(s.seat, "
        "s.player_id) FROM seatings s WHERE s.venue = g.venue AND s.table_name = "
        "g.table_name AND s.game = g.game), '{}'::jsonb) FROM games g WHERE "
        "(%s::text IS NULL OR g.venue = %s) AND (%s::text IS NULL OR g.table_name = %s) "
        "ORDER BY COALESCE(g.finished, g.started) DESC, g.venue, g.table_name, g.game DESC "
        "LIMIT %s", (venue, venue, table, table, limit)).fetchall()
    return [GameSummary(*r) for r in rows]


def game_entries(db: psycopg.Connection[Any], venue: str, table: str, game: int
                 ) -> list[EntryRow]:
    """A game's record, entry by entry, as the table logged it."""
    return [EntryRow(*r) for r in db.execute(
        "SELECT seq, kind, text, by, why, at FROM events WHERE venue = %s AND table_name = %s "
        "AND game = %s ORDER BY seq", (venue, table, game)).fetchall()]


def seating(db: psycopg.Connection[Any], venue: str, table: str, game: int
            ) -> dict[str, str | None]:
    """Seat (the game's player name) -> roster id, None for a guest; {} without a seating."""
    return dict(db.execute(
        "SELECT seat, player_id FROM seatings WHERE venue = %s AND table_name = %s AND "
        "game = %s", (venue, table, game)).fetchall())


def problems(db: psycopg.Connection[Any], venue: str | None = None) -> list[Problem]:
    """What the league refused or waits for, newest first (the venue's ``problems``)."""
    return [Problem(*r) for r in db.execute(
        "SELECT venue, table_name, sentence, count, first_at::text, last_at::text FROM "
        "problems WHERE %s::text IS NULL OR venue = %s ORDER BY last_at DESC",
        (venue, venue)).fetchall()]


def double_seats(db: psycopg.Connection[Any]) -> list[DoubleSeat]:
    """Rostered players seated in two games whose times overlap (started before the other
    finished), each pair once, the earlier-started game first."""
    rows = db.execute(
        "SELECT a.player_id, a.venue, a.table_name, a.game, b.venue, b.table_name, b.game "
        "FROM seatings a JOIN games ga USING (venue, table_name, game) "
        "JOIN seatings b ON b.player_id = a.player_id AND (b.venue, b.table_name, b.game) <> "
        "(a.venue, a.table_name, a.game) JOIN games gb ON gb.venue = b.venue AND "
        "gb.table_name = b.table_name AND gb.game = b.game "
        "WHERE a.player_id IS NOT NULL AND (ga.started, a.venue, a.table_name, a.game) < "
        "(gb.started, b.venue, b.table_name, b.game) AND gb.started < "
        "COALESCE(ga.finished, 'infinity') ORDER BY a.player_id, ga.started").fetchall()
    return [DoubleSeat(p, (v1, t1, g1), (v2, t2, g2)) for p, v1, t1, g1, v2, t2, g2 in rows]


def as_json(value: Any) -> str:
    """The store's rows as the JSON API gives them (NamedTuples as objects)."""
    if isinstance(value, list):
        return json.dumps([v._asdict() if hasattr(v, "_asdict") else v for v in value])
    return json.dumps(value._asdict() if hasattr(value, "_asdict") else value)
