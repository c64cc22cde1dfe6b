"""The league store's schema is made beside the venue's, and every read the league's screen
builds on answers on it (empty, then with a seated, rated game)."""

from __future__ import annotations

from league import store


def test_the_league_schema_stands_beside_the_venues_and_every_read_answers(dsn: str) -> None:
    db = store.connect(dsn)
    store.connect(dsn).close()  # made twice: idempotent
    assert store.roster(db) == []
    assert store.standings(db) == (0, [])
    assert store.player_games(db, "p1") == []
    assert store.rating_history(db, "p1") == []
    assert store.venues(db) == []
    assert store.games(db) == []
    assert store.game_entries(db, "pub", "t1", 1) == []
    assert store.seating(db, "pub", "t1", 1) == {}
    assert store.problems(db) == []
    assert store.double_seats(db) == []
