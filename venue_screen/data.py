"""What the screen reads from the venue's PostgreSQL store (``venue.store``'s tables).

One short connection per request: the screen is read by a few walls and phones, and a
connection on loopback costs milliseconds; PostgreSQL restarting costs one failed page
(answered 503 with a sentence), not a stuck pool.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from venue.settings import VenueConfig


def _rows(config: VenueConfig, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """``sql``'s rows, read with the screen's own (read-only) DSN."""
    with psycopg.connect(config.reader_dsn, connect_timeout=3, row_factory=dict_row) as db:
        return list(db.execute(sql, params))


def table_counts(config: VenueConfig) -> dict[str, dict[str, Any]]:
    """Per table: entries held, games, the latest problem sentence."""
    out: dict[str, dict[str, Any]] = {}
    for r in _rows(config, "SELECT table_name, COUNT(*) AS entries, MAX(received) AS "
                   "last FROM events WHERE venue = %s GROUP BY table_name", (config.name,)):
        out.setdefault(r["table_name"], {}).update(entries=r["entries"], last=r["last"])
    for r in _rows(config, "SELECT DISTINCT ON (table_name) table_name, sentence, count, "
                   "last_at FROM problems WHERE venue = %s ORDER BY table_name, last_at DESC",
                   (config.name,)):
        out.setdefault(r["table_name"], {}).update(
            problem=r["sentence"], problem_count=r["count"], problem_at=r["last_at"])
    return out


def games(config: VenueConfig, table: str | None = None, *,
          finished: bool = False) -> list[dict[str, Any]]:
    """Games, newest first (one table's, or every finished one)."""
    sql = ("SELECT table_name, game, variant, players, status, started, finished, result, "
           "entries FROM games WHERE venue = %s")
    params: list[Any] = [config.name]
    if table is not None:
        sql += " AND table_name = %s"
        params.append(table)
    if finished:
        sql += " AND status <> 'playing'"
    return _rows(config, sql + " ORDER BY finished DESC NULLS FIRST, game DESC LIMIT 500",
                 tuple(params))


def game_events(config: VenueConfig, table: str, game: int) -> list[dict[str, Any]]:
    return _rows(config, "SELECT seq, kind, text, by, why, at FROM events WHERE venue = %s "
                 "AND table_name = %s AND game = %s ORDER BY seq", (config.name, table, game))


def players(config: VenueConfig) -> list[dict[str, Any]]:
    return _rows(config, "SELECT player, played, won, lost, chips FROM players WHERE "
                 "venue = %s ORDER BY played DESC, player", (config.name,))


def player_games(config: VenueConfig, player: str) -> list[dict[str, Any]]:
    return _rows(config, "SELECT r.table_name, r.game, r.chips, r.won, r.lost, g.finished, "
                 "g.variant FROM results r JOIN games g USING (venue, table_name, game) WHERE "
                 "r.venue = %s AND r.player = %s ORDER BY g.finished DESC", (config.name, player))
