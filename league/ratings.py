"""The league's ratings: openskill's Plackett-Luce model over every rated game, in one fixed
order (the game's finish time, then venue, table and game id), whatever order games arrive in.

A game is rated when it is over (not abandoned) and at least two of its seats hold rostered
players; guests are left out of its ranking, the rostered keep their order. A game in which
a rostered player was already seated at another table at the same time (``store.
double_seats``: the later-started of the two) is not rated, and is flagged.

The ingester marks each newly ranked game in ``rating_marks`` in the transaction that
stores it; ``catch_up`` then computes again, from the earliest marked game on, every rating
after it (the history before it is kept): a pub back after a day offline moves everyone's
ratings as if its games had come on time. ``rebuild`` does it from the first game, and gives
the same numbers (the history's doubles are PostgreSQL's float8: exact).

A mark is a row of its own (its ``mark`` id), never merged with an equal one: a catch-up
deletes the rows it read, by id, and every one of them was committed before it read
anything else, so what made them is in what it rates. Were marks keyed by game, a mark
made again while a catch-up ran would find its row there and add nothing, and the catch-up,
which read the store before that transaction committed, would delete it: the ratings would
stay without what made it (a seating that makes a rated game a double seat), with no mark
left.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from openskill.models import PlackettLuce

from league import store

MODEL = PlackettLuce()
#: the advisory lock that makes one ratings computation at a time, whoever runs it
RATINGS_LOCK = 0x72617465
Key = tuple[str, str, str, int]  # finished, venue, table, game: the order of the ratings


def rate(state: dict[str, tuple[float, float]], places: dict[str, int]
         ) -> dict[str, tuple[float, float]]:
    """The players' (mu, sigma) after a game with these places (1 the best); a player not
    in ``state`` starts at the model's default."""
    ids = sorted(places)  # a fixed order: openskill's result does not depend on it
    teams = [[MODEL.rating(*state[p]) if p in state else MODEL.rating()] for p in ids]
    rated = MODEL.rate(teams, ranks=[places[p] for p in ids])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(ids, rated, strict=True)}


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma (openskill's ordinal)."""
    return mu - 3 * sigma


def mark_dirty(db: psycopg.Connection[Any], keys: Iterable[Key]) -> None:
    """Say the ratings from these games on must be computed again (in the caller's
    transaction: the mark is committed with what made it). One row, the earliest game's:
    a catch-up computes again from the earliest mark, so a later one adds nothing."""
    rows = sorted(set(keys))
    if rows:
        db.execute("INSERT INTO rating_marks (finished, venue, table_name, game) "
                   "VALUES (%s, %s, %s, %s)", rows[0])


def catch_up(db: psycopg.Connection[Any]) -> int:
    """Compute the ratings again from the earliest game marked (one transaction, one
    computation at a time); the number of games rated. Only the marks read here are
    deleted: one made meanwhile is a row of its own, and stays for the next call."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))
        marks = db.execute("SELECT mark, finished, venue, table_name, game FROM rating_marks"
                           ).fetchall()
        if not marks:
            return 0
        rated = _replay_from(db, min(tuple(m[1:]) for m in marks))
        db.execute("DELETE FROM rating_marks WHERE mark = ANY(%s)", ([m[0] for m in marks],))
    return rated


def rebuild(db: psycopg.Connection[Any]) -> int:
    """Every rating computed again from the first game (one transaction); the marks it
    deletes were committed before it reads the games, so it rates what made them."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))
        db.execute("DELETE FROM rating_marks")
        return _replay_from(db, ("", "", "", 0))


def _replay_from(db: psycopg.Connection[Any], start: Key) -> int:
    """Throw away the history from ``start`` on and rate every rated game from there, in
    order, from each player's rating just before it."""
    db.execute("DELETE FROM rating_history WHERE (finished, venue, table_name, game) >= "
               "(%s, %s, %s, %s)", start)
    state: dict[str, tuple[float, float]] = {p: (mu, sigma) for p, mu, sigma in db.execute(
        "SELECT DISTINCT ON (player_id) player_id, mu, sigma FROM rating_history "
        "ORDER BY player_id, finished DESC, venue DESC, table_name DESC, game DESC").fetchall()}
    doubled = {d.second for d in store.double_seats(db)}
    history: list[list[Any]] = []
    touched: set[str] = set()
    for finished, venue, table, game, places in db.execute(
            "SELECT finished, venue, table_name, game, places FROM rankings WHERE rated AND "
            "(finished, venue, table_name, game) >= (%s, %s, %s, %s) "
            "ORDER BY finished, venue, table_name, game", start).fetchall():
        if (venue, table, game) in doubled:
            continue
        ranked = rated_places(places)
        if len(ranked) < 2:
            continue
        last = max(ranked.values())
        for p, (mu, sigma) in rate(state, ranked).items():
            state[p] = (mu, sigma)
            touched.add(p)
            history.append([p, finished, venue, table, game, ranked[p], ranked[p] == last,
                            mu, sigma, ordinal(mu, sigma)])
    if history:
        db.execute(
            "INSERT INTO rating_history SELECT e->>0, e->>1, e->>2, e->>3, (e->>4)::int, "
            "(e->>5)::int, (e->>6)::bool, (e->>7)::float8, (e->>8)::float8, (e->>9)::float8 "
            "FROM json_array_elements(%s::json) AS u(e)", (json.dumps(history),))
    _refresh(db, start)
    return len({tuple(h[1:5]) for h in history})


def rated_places(places: Sequence[Sequence[Any]]) -> dict[str, int]:
    """A ranking's rostered players and their places among themselves (guests left out):
    ``places`` is the ``rankings`` row's list of [seat, player id or null, place]."""
    ranked = {pid: place for _, pid, place in places if pid}
    order = sorted(set(ranked.values()))
    return {pid: order.index(place) + 1 for pid, place in ranked.items()}


def _refresh(db: psycopg.Connection[Any], start: Key) -> None:
    """``ratings`` made again from the history for every player who has a game from
    ``start`` on, or had one there before (their last game may have been unrated)."""
    db.execute(
        "CREATE TEMP TABLE IF NOT EXISTS touched (player_id TEXT PRIMARY KEY) ON COMMIT DROP")
    db.execute("DELETE FROM touched")
    db.execute("INSERT INTO touched SELECT player_id FROM rating_history WHERE "
               "(finished, venue, table_name, game) >= (%s, %s, %s, %s) UNION "
               "SELECT player_id FROM ratings WHERE last_played >= %s ON CONFLICT DO NOTHING",
               (*start, start[0]))
    db.execute("DELETE FROM ratings WHERE player_id IN (SELECT player_id FROM touched)")
    db.execute(
        "INSERT INTO ratings SELECT h.player_id, l.mu, l.sigma, l.ordinal, count(*), "
        "count(*) FILTER (WHERE h.lost), max(h.finished) FROM rating_history h "
        "JOIN touched t USING (player_id) JOIN LATERAL (SELECT mu, sigma, ordinal FROM "
        "rating_history x WHERE x.player_id = h.player_id ORDER BY finished DESC, venue DESC, "
        "table_name DESC, game DESC LIMIT 1) l ON true GROUP BY h.player_id, l.mu, l.sigma, "
        "l.ordinal")
