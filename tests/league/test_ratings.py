"""Ratings never depend on arrival order: games ranked in any order, the ratings computed
again after any of them (``catch_up``), end equal to one computation in the fixed order
(finish time, venue, table, game) and to a rebuild. Guests and abandoned games are not
rated; a player seated at two tables at once is flagged and the later game not rated. And a
finished game's places: who got rid of their chips first, the loser last."""

from __future__ import annotations

import json
import random
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.gamelog.log import Entry
from league import ratings
from league import store as league_store
from league.ranking import places

GAMES = [  # finished, venue, table, game, [[seat, player id or None, place], ...]
    ("2026-12-01T10:00", "pub1", "t1", 1, [["Ann", "a", 1], ["Bob", "b", 2], ["Cy", "c", 3]]),
    ("2026-12-01T10:00", "pub2", "t1", 1, [["Ann", "d", 1], ["Bob", "e", 2]]),
    ("2026-12-01T10:05", "pub1", "t2", 4, [["Ann", "b", 1], ["Bob", None, 2], ["Cy", "a", 3]]),
    ("2026-12-01T11:00", "pub1", "t1", 2, [["Ann", "c", 1], ["Bob", "a", 1], ["Cy", "b", 3]]),
    ("2026-12-01T11:30", "pub2", "t2", 1, [["Ann", "e", 1], ["Bob", "a", 2], ["Cy", "d", 3]]),
    ("2026-12-02T09:00", "pub2", "t1", 2, [["Ann", "b", 1], ["Bob", "d", 2]]),
    ("2026-12-02T09:10", "pub1", "t1", 3, [["Ann", "a", 1], ["Bob", None, 2]]),  # one rostered
]


def rank(db: psycopg.Connection[Any], game: tuple[Any, ...]) -> None:
    finished, venue, table, gid, listed = game
    with db.transaction():
        rated = sum(1 for _, pid, _ in listed if pid) >= 2
        db.execute("INSERT INTO rankings VALUES (%s, %s, %s, %s, %s, 'multi-hand', %s, %s)",
                   (venue, table, gid, finished, finished, json.dumps(listed), rated))
        if rated:
            ratings.mark_dirty(db, [(finished, venue, table, gid)])


def standings(db: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.execute("SELECT * FROM ratings ORDER BY player_id")]


@pytest.fixture(scope="module")
def rating_db(pg_cluster: object) -> Any:
    import uuid  # lazy: a name for this module's database

    name = f"r_{uuid.uuid4().hex[:10]}"
    base = pg_cluster.dsn  # type: ignore[attr-defined]
    with psycopg.connect(base, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    with league_store.connect(base.replace("dbname=bidou_venue", f"dbname={name}")) as db:
        yield db


def expected(db: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    db.execute("DELETE FROM rankings; DELETE FROM rating_marks")
    for g in GAMES:
        rank(db, g)
    ratings.rebuild(db)
    return standings(db)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(len(GAMES))), catch_up_after=st.sets(st.integers(0, 6)))
def test_any_arrival_order_gives_the_ratings_of_the_fixed_order(
        rating_db: psycopg.Connection[Any], order: list[int], catch_up_after: set[int]) -> None:
    db = rating_db
    want = expected(db)
    db.execute("DELETE FROM rankings; DELETE FROM rating_marks; DELETE FROM rating_history; "
               "DELETE FROM ratings")
    for n, i in enumerate(order):
        rank(db, GAMES[i])
        if n in catch_up_after:
            ratings.catch_up(db)
    ratings.catch_up(db)
    assert standings(db) == want
    ratings.rebuild(db)
    assert standings(db) == want


def test_guests_and_single_rostered_games_are_not_rated_and_ranks_follow_places(
        rating_db: psycopg.Connection[Any]) -> None:
    db = rating_db
    table = {r[0]: r for r in (expected(db))}
    assert set(table) == {"a", "b", "c", "d", "e"}  # the guests (None) never
    assert table["a"][4] == 4  # not pub1 t1 3: one rostered player only
    history = league_store.rating_history(db, "b")
    assert [h.game for h in history] == [1, 4, 2, 2]
    first = league_store.rating_history(db, "a")[0]
    assert first.mu > 25 > league_store.rating_history(db, "c")[0].mu  # 1st up, last down


def test_a_player_seated_at_two_tables_at_once_is_flagged_and_the_later_game_not_rated(
        rating_db: psycopg.Connection[Any]) -> None:
    db = rating_db
    expected(db)
    before = {r[0]: r[4] for r in standings(db)}
    db.execute("DELETE FROM games; DELETE FROM seatings")
    for venue, table, game, start, end in (
            ("pub1", "t1", 1, "2026-12-01T09:50", "2026-12-01T10:00"),
            ("pub2", "t1", 1, "2026-12-01T09:55", "2026-12-01T10:00")):
        db.execute("INSERT INTO games VALUES (%s, %s, %s, 'multi-hand', '[]', '{}', %s, %s, "
                   "'over', NULL, 1)", (venue, table, game, start, end))
        db.execute("INSERT INTO seatings VALUES (%s, %s, %s, 'Ann', 'a')", (venue, table, game))
    (double,) = league_store.double_seats(db)
    assert double.player_id == "a" and double.second == ("pub2", "t1", 1)
    ratings.rebuild(db)
    after = {r[0]: r[4] for r in standings(db)}
    assert after["d"] == before["d"] - 1 and after["a"] == before["a"]
    db.execute("DELETE FROM games; DELETE FROM seatings")


@pytest.mark.parametrize("variant,seats", [("montevideo", 4), ("multi-hand", 3),
                                            ("two-hand", 2)])
def test_a_finished_games_places_put_the_loser_last_and_wait_for_its_end(
        variant: str, seats: int) -> None:
    rng = random.Random(7)
    players = ("Ann", "Bob", "Cy", "Dee")[:seats]
    g = new_game(variant, players, {})
    entries = [Entry(1, 1, "seating", " ".join(f"{p}=guest" for p in players), "r", "", "t")]
    while not g.over:
        action = random_action(g, rng)
        g.apply(action)
        entries.append(Entry(1, len(entries) + 1, "action", str(action), "t", "", "t"))
    got = places(variant, players, {}, entries)
    state = g.state()
    assert got is not None and set(got) == set(players)
    if state["loser"]:
        assert got[state["loser"]] == max(got.values())
    if state["winner"]:
        assert got[state["winner"]] == 1
    assert places(variant, players, {}, entries[:-1]) is None  # not over yet
