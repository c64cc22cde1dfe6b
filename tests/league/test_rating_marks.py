"""Once nothing waits to be rated, the ratings are those of a rebuild from the store, however
the games' entries and the ratings' catch-ups fall: every change that can change a rating
leaves a mark that no catch-up takes without having seen the change. Games go through what
the league's ingester does in its transaction (``league.checks``, the venue's
``record_many``, ``league.derive``)."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

import psycopg
from league_harness import DAY0, game_messages

from firmware.gamelog.seating_entry import seating_text
from league import derive, ratings
from league import store as league_store
from league.checks import check_batch
from venue import store as venue_store
from venue.messages import EntryMessage

ROSTER = ["a", "b", "c", "d"]


def game(venue: str, game_id: int, start_minutes: float, seats: list[str | None]
         ) -> list[EntryMessage]:
    """A finished game of table t1 at ``venue`` started ``start_minutes`` after DAY0, its
    seats in order given ``seats`` (a roster id, or None: a guest)."""
    timed = game_messages(venue, "t1", f"{venue}-log", game_id, random.Random(game_id),
                          ROSTER, DAY0 + timedelta(minutes=start_minutes))
    messages = [m for _, m in timed]
    players = messages[0].players  # three or four: the seats past ``seats`` are guests
    ids = dict(zip(players, seats, strict=False))
    messages[0] = replace(messages[0], text=seating_text(players, ids))
    return messages


def ingest(db: psycopg.Connection[Any], messages: list[EntryMessage]) -> None:
    """The league ingester's transaction over these messages, every one of them stored."""
    with db.transaction():
        assert check_batch(db, messages) == [None] * len(messages)
        released: list[EntryMessage] = []
        outcomes = venue_store.record_many(db, messages, released)
        assert [o.kind for o in outcomes] == ["stored"] * len(messages)
        derive.after_store(db, messages + released)


def league_db(dsn: str) -> psycopg.Connection[Any]:
    db = league_store.connect(dsn)
    with db.transaction():
        db.execute("INSERT INTO roster (player_id, name, home_venue) SELECT i, i, 'pub1' FROM "
                   "unnest(%s::text[]) AS u(i)", (ROSTER,))
    return db


def settled_equals_rebuild(db: psycopg.Connection[Any]) -> tuple[list[Any], list[Any]]:
    """The ratings once nothing waits (catch-ups until none is left), and a rebuild's."""
    while ratings.catch_up(db):
        pass
    with db.transaction():
        now = db.execute("SELECT * FROM ratings ORDER BY player_id").fetchall()
    ratings.rebuild(db)
    with db.transaction():
        rebuilt = db.execute("SELECT * FROM ratings ORDER BY player_id").fetchall()
    return now, rebuilt


def finish_time(messages: list[EntryMessage]) -> str:
    return next(m.finished for m in messages if m.finished)


def test_a_game_that_ends_unrated_frees_the_later_game_it_had_made_a_double_seat(
        dsn: str) -> None:
    """Player a sits at pub1 (with guests only: that game is not rated) and, once it is
    over, at pub2. pub2's game comes first, while pub1's still looks open: a double seat,
    not rated. pub1's end then shows the two never overlapped, and pub2's game is rated."""
    db = league_db(dsn)
    first = game("pub1", 1, 0, ["a", None, None])
    ends = len([m for m in first if m.status == "playing"])
    later = game("pub2", 2, 120, ["a", "b", "c"])
    assert later[0].started > finish_time(first)  # they do not overlap
    ingest(db, first[:ends])  # pub1's game as it is played: no end yet
    ingest(db, later)
    assert ratings.catch_up(db) == 0  # a double seat while pub1's game looks open
    ingest(db, first[ends:])
    now, rebuilt = settled_equals_rebuild(db)
    assert {r[0] for r in rebuilt} == {"a", "b", "c"}
    assert now == rebuilt, "the ratings differ from a rebuild"


def test_a_seating_stored_while_the_ratings_are_computed_is_rated_in_the_next_catch_up(
        dsn: str) -> None:
    """pub1's game is rated while pub2's seating of the same player, in a game that started
    earlier and overlaps it, is stored: pub1's game is now a double seat. Its mark was there
    already, taken by the running catch-up, which read the seatings before pub2's came:
    the mark must outlive that catch-up."""
    db = league_db(dsn)
    rated = game("pub1", 1, 1, ["a", "b", "c"])
    overlapping = game("pub2", 2, 0, ["a", "d", None])
    assert overlapping[0].started < rated[0].started < finish_time(overlapping)
    ingest(db, rated)
    rater = league_store.connect(dsn)
    writer = league_store.connect(dsn)
    holder = psycopg.connect(dsn)
    holder.execute("LOCK TABLE ratings IN SHARE MODE")  # a catch-up's write of it waits
    looker = psycopg.connect(dsn, autocommit=True)
    errors: list[BaseException] = []

    def run(what: Any) -> None:
        try:
            what()
        except BaseException as e:  # noqa: BLE001 -- said by the test below
            errors.append(e)

    catching = threading.Thread(target=run, args=(lambda: ratings.catch_up(rater),))
    catching.start()
    waiting = ("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s")
    end = time.monotonic() + 30
    while looker.execute(waiting, (rater.info.backend_pid,)).fetchone()[0] != "Lock":
        assert time.monotonic() < end, "the catch-up never reached its write of the ratings"
        time.sleep(0.02)
    storing = threading.Thread(target=run, args=(lambda: ingest(writer, overlapping[:1]),))
    storing.start()  # pub2's seating, while the catch-up has read what it rates
    storing.join(2)  # done, or waiting for the catch-up: either way it is under way
    holder.rollback()
    catching.join(30)
    storing.join(30)
    assert not errors, errors
    now, rebuilt = settled_equals_rebuild(db)
    assert ("pub1", "t1", 1) in {d.second for d in league_store.double_seats(db)}
    assert rebuilt == [] and now == rebuilt, "the ratings differ from a rebuild"
    for c in (rater, writer, holder, looker):
        c.close()


def test_a_seating_replaced_without_a_player_frees_the_game_it_had_made_a_double_seat(
        dsn: str) -> None:
    """pub2's game seats a, and pub1's rated game of a, started after it, is a double seat;
    pub2's table then seats its game again (before its first action) with a guest in a's
    seat: pub1's game is rated again."""
    db = league_db(dsn)
    rated = game("pub1", 1, 1, ["a", "b", "c"])
    seating = game("pub2", 2, 0, ["a", "d", None])[0]
    ingest(db, rated)
    ingest(db, [seating])
    assert ratings.catch_up(db) == 0  # a double seat
    again = replace(seating, seq=2, text=seating_text(seating.players, {}))
    ingest(db, [again])
    assert league_store.double_seats(db) == []
    now, rebuilt = settled_equals_rebuild(db)
    assert {r[0] for r in rebuilt} == {"a", "b", "c"}
    assert now == rebuilt, "the ratings differ from a rebuild"
