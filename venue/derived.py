"""The venue's tables derived from the events: games, results and players.

The events are the truth (``venue.store``); ``games`` (each game as its newest event carried
it), ``results`` (each finished game's chips, winner and loser per player) and ``players``
(each player's games, wins, losses and chips summed over the results) follow from them
alone. ``venue.store.record_many`` brings them up to date in the same transaction as the
events it stores, so they never disagree; :func:`rebuild` makes them again from the events.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import psycopg


def columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows as one list per column: the arrays an ``unnest(...)`` statement takes."""
    return [list(c) for c in zip(*rows, strict=True)]


Derived = tuple[str, str, int, dict[str, Any], int]  # venue, table, game, its row, entries


def derive_many(db: psycopg.Connection[Any], games: Sequence[Derived]) -> None:
    """Bring games, results and players up to date with the newest event of each game (one
    per game), in a few statements for all of them; results and players only for the games
    whose status or result changed (the entries of a finished game mostly arrive together,
    all saying "over": one recount, not one each)."""
    if not games:
        return
    keys = columns([(v, t, g) for v, t, g, *_ in games])
    before = {(v, t, g): (status, result) for v, t, g, status, result in db.execute(
        "SELECT venue, table_name, game, status, result FROM games WHERE "
        "(venue, table_name, game) IN (SELECT * FROM unnest(%s::text[], %s::text[], "
        "%s::int[]))", keys).fetchall()}
    db.execute(  # one JSON parameter, as venue.store's events; a null result stays SQL NULL
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
               columns([(v, t, g) for v, t, g, _ in games]))
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
                   columns(results))
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
