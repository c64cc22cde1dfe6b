"""The store's batch path (``store.record_many``, the ingester's ``write``): a partition's
waiting messages are written together in a handful of statements, and each still gets the
outcome it would have had alone. Real PostgreSQL; the messages are built here."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.gamelog.log import Entry, GameRow
from venue import derived as venue_derived
from venue import store, table_logs
from venue.ingester import Ingester
from venue.messages import EntryMessage, entry_message
from venue.settings import build_venue_config


def msg(table: str, game: int, seq: int, *, log_id: str = "LOG", venue: str = "pub",
        status: str = "playing", players: tuple[str, ...] = ("Ann", "Bob"),
        loser: str = "Bob", text: str | None = None) -> EntryMessage:
    result = ({"chips": {p: (0 if p == loser else 5) for p in players}, "loser": loser}
              if status == "over" else None)
    row = GameRow(game, "two-hand", players, {}, "t0", "t9" if result else None, status, result)
    entry = Entry(game, seq, "action", text or f"{table} g{game} s{seq}", "web", "", f"t{seq}")
    return entry_message(venue, table, log_id, entry, row)


def rows(db: psycopg.Connection[Any], venue: str = "pub") -> list[tuple[str, int, int]]:
    """(table, game, seq) in the order the store took them (``arrival``)."""
    return [tuple(r) for r in db.execute(  # type: ignore[misc]
        "SELECT table_name, game, seq FROM events WHERE venue = %s ORDER BY arrival",
        (venue,))]


def enroll(db: psycopg.Connection[Any], *tables: str, venue: str = "pub",
           log_id: str = "LOG") -> None:
    """The tables' logs enrolled at the venue, as ``bidou-venue accept-log`` does."""
    for table in tables:
        table_logs.enroll(db, venue, table, log_id)


def derived(db: psycopg.Connection[Any]) -> list[list[tuple[Any, ...]]]:
    return [db.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
            for t in ("games", "results", "players")]


def test_a_batch_gives_a_repeat_an_early_entry_and_a_replaced_log_each_its_own_outcome(
        dsn: str) -> None:
    with store.connect(dsn) as db:
        enroll(db, "t1")
        with db.transaction():
            assert [o.kind for o in store.record_many(db, [msg("t1", 1, 1), msg("t1", 1, 2)])
                    ] == ["stored", "stored"]
        batch = [msg("t1", 1, 3),                  # the next one: stored
                 msg("t1", 1, 2),                  # held already: a repeat
                 msg("t1", 1, 4, log_id="NEW"),    # another log under t1's name: refused
                 msg("t1", 1, 5),                  # its predecessor was refused: held
                 msg("t2", 1, 1),                  # a log the venue has not enrolled
                 msg("t1", 2, 1),                  # t1's next game: stored
                 msg("t1", 1, 3)]                  # twice in one batch: the second a repeat
        with db.transaction():
            outcomes = store.record_many(db, batch)
        assert [o.kind for o in outcomes] == ["stored", "repeat", "refused", "held", "refused",
                                              "stored", "repeat"]
        assert "its log was replaced" in outcomes[2].sentence
        assert "NEW" in outcomes[2].sentence and not outcomes[0].sentence
        assert "entry 4 has not come" in outcomes[3].sentence
        assert "has not enrolled" in outcomes[4].sentence
        assert sorted(rows(db)) == [("t1", 1, 1), ("t1", 1, 2), ("t1", 1, 3), ("t1", 2, 1)]
        # the held entry comes again, after its predecessor: both stored, in order
        with db.transaction():
            again = store.record_many(db, [msg("t1", 1, 5), msg("t1", 1, 4)])
        assert [o.kind for o in again] == ["stored", "stored"]
        assert [s for t, g, s in rows(db) if (t, g) == ("t1", 1)] == [1, 2, 3, 4, 5]
        games = db.execute("SELECT table_name, game, entries FROM games ORDER BY 1, 2").fetchall()
        assert [tuple(g) for g in games] == [("t1", 1, 5), ("t1", 2, 1)]
        assert db.execute("SELECT log_id FROM tables WHERE table_name = 't2'").fetchone() is None
        assert db.execute("SELECT count(*) FROM held").fetchone() == (0,)


def test_entries_out_of_order_in_one_batch_are_stored_in_seq_order(dsn: str) -> None:
    with store.connect(dsn) as db, db.transaction():
        enroll(db, "t1")
        outcomes = store.record_many(db, [msg("t1", 1, 3), msg("t1", 1, 1), msg("t1", 1, 2)])
        assert [o.kind for o in outcomes] == ["stored"] * 3
        assert rows(db) == [("t1", 1, 1), ("t1", 1, 2), ("t1", 1, 3)]


def test_a_batch_derives_games_results_and_players_as_a_rebuild_does(dsn: str) -> None:
    """Two tables each finish a game with the same players in one batch; a third game is
    still played. The derived tables equal those rebuilt from the events alone."""
    players = ("Ann", "Bob", "Cy")
    batch = [msg("t1", 1, 1, players=players), msg("t2", 1, 1, players=players),
             msg("t1", 1, 2, status="over", players=players, loser="Bob"),
             msg("t2", 1, 2, status="over", players=players, loser="Ann"),
             msg("t1", 2, 1, players=players)]
    with store.connect(dsn) as db:
        enroll(db, "t1", "t2")
        with db.transaction():
            assert [o.kind for o in store.record_many(db, batch)] == ["stored"] * 5
        games, results, people = derived(db)
        by_player = {r[1]: r[2:] for r in people}
        assert by_player == {"Ann": (2, 1, 1, 5), "Bob": (2, 1, 1, 5), "Cy": (2, 2, 0, 10)}
        assert len(results) == 6 and [g[8] for g in games] == ["over", "playing", "over"]
        assert venue_derived.rebuild(db) == 3
        assert derived(db) == [games, results, people]


def ingester(dsn: str) -> Ingester:
    with store.connect(dsn) as db:
        enroll(db, "t1", "t2")
    return Ingester(build_venue_config({
        "venue": {"name": "pub"}, "hub": {"admin_password": "x"}, "database": {"dsn": dsn},
        "tables": {"t1": {"password": "a"}, "t2": {"password": "b"}}}), partitions=1)


def test_the_ingester_notes_a_batchs_refusals_once_with_their_count(dsn: str) -> None:
    ing = ingester(dsn)
    assert ing.write(0, [msg("t1", 1, 1)]) == ["stored"]
    out = ing.write(0, [msg("t1", 1, 2, log_id="NEW"), msg("t1", 1, 2),
                        msg("t1", 1, 3, log_id="NEW"), msg("t1", 1, 3)])
    assert out == ["refused", "stored", "refused", "stored"]
    with psycopg.connect(dsn) as db:
        problems = db.execute("SELECT table_name, count FROM problems").fetchall()
        assert [tuple(p) for p in problems] == [("t1", 2)]
        assert [s for _, _, s in rows(db)] == [1, 2, 3]


def test_a_value_postgresql_will_not_store_loses_nothing_else_of_its_batch(dsn: str) -> None:
    """A NUL in a text is a DataError for the whole statement; the batch is written again
    one message at a time, and only that message is refused."""
    ing = ingester(dsn)
    out = ing.write(0, [msg("t1", 1, 1), msg("t2", 1, 1, text="bad\x00text"),
                        msg("t1", 1, 2), msg("t2", 1, 2)])
    assert out == ["stored", "poison", "stored", "held"]
    with psycopg.connect(dsn) as db:
        assert sorted(rows(db)) == [("t1", 1, 1), ("t1", 1, 2)]
        sentences = [s for s, in db.execute("SELECT sentence FROM problems WHERE table_name = "
                                            "'t2' ORDER BY sentence")]
        assert len(sentences) == 2 and "cannot store (UntranslatableCharacter" in sentences[1]
        assert "entry 1 has not come" in sentences[0]


def test_any_error_while_storing_one_message_rolls_back_nothing_else(dsn: str) -> None:
    """A message whose values fail the store's own reading of them (a chips count "lots":
    ValueError; players not names: TypeError) is poison at once, noted, and the rest of its
    batch is stored. Built here past ``parse_entry``, which refuses both too: this is the
    store's own guard."""
    ing = ingester(dsn)
    good = msg("t1", 1, 1)
    lots = EntryMessage(**{**msg("t2", 1, 1, status="over").__dict__,
                           "result": {"chips": {"Ann": "lots"}, "loser": "Bob"}})
    odd = EntryMessage(**{**msg("t2", 2, 1, status="over").__dict__,
                          "players": (1, {"x": 2})})
    out = ing.write(0, [good, lots, odd, msg("t1", 1, 2)])
    assert out == ["stored", "poison", "poison", "stored"]
    with psycopg.connect(dsn) as db:
        assert sorted(rows(db)) == [("t1", 1, 1), ("t1", 1, 2)]
        kinds = sorted(s.split("(")[1].split(":")[0] for s, in db.execute(
            "SELECT sentence FROM problems WHERE table_name = 't2'"))
        assert kinds == ["TypeError", "ValueError"]


batches = st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=3).flatmap(
    lambda games: st.tuples(
        st.just(games),
        st.lists(st.tuples(st.sampled_from(["t1", "t2"]), st.integers(0, sum(games) - 1)),
                 max_size=2 * sum(games)),
        st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=12)))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches)
def test_batches_of_any_cut_store_every_entry_exactly_once_in_order(dsn: str,
                                                                    case: tuple) -> None:
    """Two tables' games delivered in drawn batches: some entries first and out of order,
    then all of them again (at least once); early ones are held by the store and stored
    with their predecessor, each exactly once."""
    games, first, sizes = case
    venue = f"v{uuid.uuid4().hex[:8]}"
    every = {t: [msg(t, g, s, venue=venue) for g, n in enumerate(games, start=1)
                 for s in range(1, n + 1)] for t in ("t1", "t2")}
    queue = [every[t][i] for t, i in first] + every["t1"] + every["t2"]
    stored = 0
    with store.connect(dsn) as db:
        enroll(db, "t1", "t2", venue=venue)
        turn = 0
        while queue:
            size = sizes[turn % len(sizes)]
            turn += 1
            batch, queue = queue[:size], queue[size:]
            released: list[EntryMessage] = []
            with db.transaction():
                outcomes = store.record_many(db, batch, released)
            assert len(outcomes) == len(batch)
            stored += sum(o.kind == "stored" for o in outcomes) + len(released)
            assert all(o.kind in ("stored", "repeat", "held") for o in outcomes)
        held = rows(db, venue)
        assert db.execute("SELECT count(*) FROM held WHERE venue = %s", (venue,)).fetchone() == (
            0,)
    for t in ("t1", "t2"):
        mine = [(g, s) for tt, g, s in held if tt == t]
        assert sorted(mine) == [(m.game, m.seq) for m in every[t]]  # each exactly once
        for game in range(1, len(games) + 1):  # stored in order within each game
            assert [s for g, s in mine if g == game] == list(range(1, games[game - 1] + 1))
    assert stored == 2 * sum(games)
