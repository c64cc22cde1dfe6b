"""Property: whatever the hub's at-least-once delivery does -- repeats, redeliveries after a
crash between commit and ack, entries arriving before the ones they follow -- every entry
reaches the venue's PostgreSQL exactly once, and in order within its game. Real PostgreSQL,
the ingester's own ``store.record``; only the delivery order is drawn by hypothesis."""

from __future__ import annotations

import uuid

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.gamelog.log import Entry, GameRow
from venue import derived, store, table_logs
from venue.messages import EntryMessage, entry_message


def entries(games: list[int]) -> list[EntryMessage]:
    out = []
    for game, count in enumerate(games, start=1):
        row = GameRow(game, "two-hand", ("Ann", "Bob"), {}, "t0", "t1", "over",
                      {"chips": {"Ann": 9, "Bob": 0}, "loser": "Bob", "winner": "Ann"})
        for seq in range(1, count + 1):
            e = Entry(game, seq, "action", f"Ann bet {seq}", "web", "", f"t{seq}")
            out.append(entry_message("pub", "t1", "LOG", e, row))
    return out


schedules = st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=3).flatmap(
    lambda games: st.tuples(st.just(games), st.lists(
        st.integers(min_value=0, max_value=sum(games) - 1), max_size=3 * sum(games))))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schedules)
def test_an_entry_reaches_the_venue_exactly_once_in_order(dsn: str, case: tuple) -> None:
    games, early = case
    messages = entries(games)
    venue = f"v{uuid.uuid4().hex[:8]}"  # each example its own venue in the same tables
    messages = [EntryMessage(**{**m.__dict__, "venue": venue}) for m in messages]
    # the hub delivers the drawn messages first (any order, repeats), then every message
    # at least once more (at-least-once); early ones are held by the store (acknowledged)
    # and stored the moment their predecessor comes
    queue = [messages[i] for i in early] + list(messages)
    with store.connect(dsn) as db:
        table_logs.enroll(db, venue, "t1", "LOG")
        outcomes = []
        while queue:
            m = queue.pop(0)
            released: list[EntryMessage] = []
            outcome = store.record(db, m, released)
            outcomes.append(outcome)
            outcomes += ["stored"] * len(released)  # held ones, stored after it
        rows = db.execute("SELECT game, seq, text FROM events WHERE venue = %s ORDER BY "
                          "arrival", (venue,)).fetchall()
        derived = db.execute("SELECT game, entries FROM games WHERE venue = %s ORDER BY game",
                             (venue,)).fetchall()
    assert sorted(tuple(r) for r in rows) == [(m.game, m.seq, m.text) for m in messages]
    for game in range(1, len(games) + 1):  # stored in order within each game
        assert [r[1] for r in rows if r[0] == game] == list(range(1, games[game - 1] + 1))
    assert outcomes.count("stored") == len(messages)
    assert [tuple(r) for r in derived] == list(enumerate(games, start=1))


def test_rebuild_makes_the_derived_tables_again_from_the_events(dsn: str) -> None:
    messages = entries([3, 2])
    with store.connect(dsn) as db:
        table_logs.enroll(db, "pub", "t1", "LOG")
        for m in messages:
            assert store.record(db, m) == "stored"
        snapshot = [db.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
                    for t in ("games", "results", "players")]
        db.execute("UPDATE games SET entries = 0")
        db.commit()
        assert derived.rebuild(db) == 2
        again = [db.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
                 for t in ("games", "results", "players")]
    assert again == snapshot
    assert snapshot[2] and snapshot[2][0][1:] == ("Ann", 2, 2, 0, 18)


def test_a_replaced_log_is_refused_with_a_sentence(dsn: str) -> None:
    first = entries([1])[0]
    other = EntryMessage(**{**first.__dict__, "log_id": "NEWLOG"})
    with store.connect(dsn) as db:
        table_logs.enroll(db, "pub", "t1", "LOG")
        assert store.record(db, first) == "stored"
        try:
            store.record(db, other)
        except store.Refused as e:
            assert "its log was replaced" in str(e)
        else:
            raise AssertionError("a second log under the same table name was taken")
        assert db.execute("SELECT COUNT(*) FROM events").fetchone() == (1,)
    assert isinstance(db, psycopg.Connection)
