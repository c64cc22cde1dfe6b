"""What the league derives from stored entries, in the transaction that stores them: each
game's seating (``seatings``), each finished game's places (``rankings``), and the marks
that make the ratings be computed again from that game on (``rating_marks``).
``rebuild_all`` makes all of it (and the venue's games, results, players) again from
``events``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import psycopg

from firmware.gamelog.rows import Entry
from firmware.gamelog.seating_entry import KIND, parse_seating
from league import ratings
from league.ranking import places
from venue import derived as venue_derived
from venue.messages import EntryMessage

GameKey = tuple[str, str, int]


def after_store(db: psycopg.Connection[Any], stored: Sequence[EntryMessage]) -> None:
    """Bring seatings, rankings and the ratings' marks up to date with these newly stored
    entries (the caller's transaction)."""
    seated = sorted({(m.venue, m.table, m.game) for m in stored if m.kind == KIND})
    mark_overlaps(db, seated)  # the seatings these replace: a player seated there no more
    for m in stored:
        if m.kind == KIND:
            write_seating(db, (m.venue, m.table, m.game), parse_seating(m.text, m.players))
    finished = sorted({(m.venue, m.table, m.game) for m in stored
                       if m.status in ("over", "abandoned")})
    rank_games(db, finished)
    mark_overlaps(db, seated)


def write_seating(db: psycopg.Connection[Any], game: GameKey,
                  seating: dict[str, str | None]) -> None:
    """The game's seating, replacing an earlier one (the last before the first action
    counts)."""
    db.execute("DELETE FROM seatings WHERE venue = %s AND table_name = %s AND game = %s", game)
    db.execute("INSERT INTO seatings SELECT %s, %s, %s, e->>0, e->>1 FROM "
               "json_array_elements(%s::json) AS u(e)",
               (*game, json.dumps(sorted(seating.items()))))


def rank_games(db: psycopg.Connection[Any], keys: Sequence[GameKey]) -> None:
    """The ranking of each of these games that its stored entries finish (over: places
    from a replay; abandoned: kept unrated), and a ratings mark from the earliest one that
    seats a rostered player, rated or not: its end, now stored, may end another game's
    double seat (a later game of one of its players counts as one while this one looks
    open), and that game comes after this one's end in the ratings' order."""
    if not keys:
        return
    cols = [list(c) for c in zip(*keys, strict=True)]
    rows = db.execute(
        "SELECT g.venue, g.table_name, g.game, g.variant, g.players, g.options, g.started, "
        "g.finished, g.status FROM games g JOIN unnest(%s::text[], %s::text[], %s::int[]) "
        "AS k(v, t, g) ON g.venue = k.v AND g.table_name = k.t AND g.game = k.g", cols
    ).fetchall()
    entries: dict[GameKey, list[Entry]] = {}
    for v, t, g, seq, kind, text, by, why, at in db.execute(
            "SELECT e.venue, e.table_name, e.game, e.seq, e.kind, e.text, e.by, e.why, e.at "
            "FROM events e JOIN unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, g) ON "
            "e.venue = k.v AND e.table_name = k.t AND e.game = k.g ORDER BY e.seq", cols
    ).fetchall():
        entries.setdefault((v, t, g), []).append(Entry(g, seq, kind, text, by, why, at))
    seats: dict[GameKey, dict[str, str | None]] = {}
    for v, t, g, seat, pid in db.execute(
            "SELECT s.venue, s.table_name, s.game, s.seat, s.player_id FROM seatings s JOIN "
            "unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, g) ON s.venue = k.v AND "
            "s.table_name = k.t AND s.game = k.g", cols).fetchall():
        seats.setdefault((v, t, g), {})[seat] = pid
    ranked, ended = [], []
    for v, t, g, variant, players, options, started, finished, status in rows:
        if any(seats.get((v, t, g), {}).values()):
            ended.append((finished or started, v, t, g))
        if status == "abandoned" or not finished:
            got = None
        else:
            got = places(variant, tuple(players), options, entries.get((v, t, g), []))
            if got is None:
                continue  # its last entries are still to come
        seat = seats.get((v, t, g), {})
        listed = [[p, seat.get(p), got[p] if got else 0] for p in players]
        rated = got is not None and sum(1 for p in players if seat.get(p)) >= 2
        ranked.append([v, t, g, started, finished or started, variant, listed, rated])
    ratings.mark_dirty(db, ended)  # every rated game seats two rostered players: in it
    if not ranked:
        return
    db.execute(
        "INSERT INTO rankings SELECT e->>0, e->>1, (e->>2)::int, e->>3, e->>4, e->>5, "
        "e->6, (e->>7)::bool FROM json_array_elements(%s::json) AS u(e) "
        "ON CONFLICT (venue, table_name, game) DO UPDATE SET finished = excluded.finished, "
        "places = excluded.places, rated = excluded.rated", (json.dumps(ranked),))


def mark_overlaps(db: psycopg.Connection[Any], keys: Sequence[GameKey]) -> None:
    """A seating, made or replaced, may make another game a double seat of one of its
    players (or stop being one): mark from the earliest rated game of those players."""
    if not keys:
        return
    db.execute(  # the earliest only, as ratings.mark_dirty
        "INSERT INTO rating_marks (finished, venue, table_name, game) SELECT r.finished, "
        "r.venue, r.table_name, r.game FROM seatings s JOIN unnest(%s::text[], %s::text[], "
        "%s::int[]) AS k(v, t, g) ON s.venue = k.v AND s.table_name = k.t AND s.game = k.g "
        "JOIN seatings o ON o.player_id = s.player_id JOIN rankings r ON r.venue = o.venue "
        "AND r.table_name = o.table_name AND r.game = o.game WHERE s.player_id IS NOT NULL "
        "AND r.rated ORDER BY r.finished, r.venue, r.table_name, r.game LIMIT 1",
        [list(c) for c in zip(*keys, strict=True)])


def rebuild_all(db: psycopg.Connection[Any], *, chunk: int = 500) -> int:
    """Games, results, players, seatings, rankings and ratings made again from ``events``
    (the venue's ``rebuild`` first); the number of games ranked."""
    venue_derived.rebuild(db)
    with db.transaction():
        db.execute("DELETE FROM seatings; DELETE FROM rankings; DELETE FROM rating_marks")
        for v, t, g, text, players in db.execute(
                "SELECT DISTINCT ON (venue, table_name, game) venue, table_name, game, text, "
                "game_row->'players' FROM events WHERE kind = %s "
                "ORDER BY venue, table_name, game, seq DESC", (KIND,)).fetchall():
            write_seating(db, (v, t, g), parse_seating(text, tuple(players)))
        keys = [tuple(r) for r in db.execute(
            "SELECT venue, table_name, game FROM games WHERE status <> 'playing' "
            "ORDER BY venue, table_name, game").fetchall()]
        for start in range(0, len(keys), chunk):
            rank_games(db, keys[start:start + chunk])
        (count,) = db.execute("SELECT count(*) FROM rankings").fetchone()
    ratings.rebuild(db)
    return int(count)
