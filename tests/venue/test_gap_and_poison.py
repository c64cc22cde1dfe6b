"""With real processes: one table's gap or one poison message hurts only that table. A gap's entries
are held by the store (and acknowledged), so they hold no slot of the hub's; the table's problem
says what is missing; the missing entry stores them all, in order. A message that can never be
stored is a problem row at once and is deleted from the hub, never delivered again, and rolls back
nothing else. After each, the real table's rows equal its log."""

from __future__ import annotations

import asyncio
import json

import nats
import psycopg
import pytest
from venue_harness import Venue, planted, wait_until

from venue.messages import ENTRY_STREAM

pytestmark = pytest.mark.slow

T1 = "bidou.pub.t1.entry"


def problem_of(venue: Venue, table: str) -> str:
    _, tables = venue.get("/api/tables")
    return {t["name"]: t for t in tables}.get(table, {}).get("problem") or ""


def test_a_gap_in_one_tables_sequence_holds_back_no_other_table(venue: Venue) -> None:
    """4100 valid entries of t1's game 2, seq 2..4101 (no seq 1): more than the consumer's
    4000 unacknowledged slots. t2, a real table, is stored all the same; t1's problem on the
    screen's API names entry 1; seq 1, sent last, stores all 4101 in order."""
    venue.start_hub()
    venue.start_ingester()
    venue.start_screen()
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30, "the ingester")
    venue.enroll("t1", "LOGX")
    refused = venue.publish_all("t1", [(T1, planted("t1", 2, seq)) for seq in range(2, 4102)])
    assert refused == [None] * 4100
    venue.start_table("t2", seed=31)
    wait_until(lambda: venue.rows("t2"), 30, "t2's first entries, past t1's gap")
    wait_until(lambda: "entry 1 has not come" in problem_of(venue, "t1"), 30,
               "the screen to show t1's gap")
    assert "the 4100 entries after it wait" in problem_of(venue, "t1")
    assert "table t1 game 2: entry 1 has not come" in venue.log_text("ingester")
    assert venue.rows("t1") == []
    assert venue.publish_all("t1", [(T1, planted("t1", 2, 1))]) == [None]
    want = [(2, seq, "Ann bet 1") for seq in range(1, 4102)]
    wait_until(lambda: venue.rows("t1") == want, 60, "t1's game 2 stored whole once seq 1 came")
    assert venue.arrival_in_order("t1")
    wait_until(lambda: "entry 1 has not come" not in problem_of(venue, "t1"), 30,
               "t1's gap problem to go once filled")
    with psycopg.connect(venue.dsn) as db:
        assert db.execute("SELECT count(*) FROM held").fetchone() == (0,)
    t2_holds_its_log(venue)


def t2_holds_its_log(venue: Venue) -> None:
    """The real table t2, once it finished a game and stopped: its rows equal its log."""
    wait_until(lambda: venue.finished_games("t2") >= 1, 240, "t2 to finish a game")
    venue.stop("t2")
    wait_until(lambda: venue.caught_up("t2"), 90, "the venue to hold t2's log")
    venue.check_table("t2")


def over(table: str, game: int, **changes: object) -> bytes:
    """A forged last entry of a finished game, its result or players changed."""
    data = json.loads(planted(table, game, 1, status="over",
                              result={"chips": {"Ann": 9, "Bob": 0}, "loser": "Bob"}))
    data.update(changes)
    return json.dumps(data).encode()


async def consumer_state(venue: Venue) -> tuple[int, int, int]:
    """(max_deliver, ack pending, redelivered) of the ingester's consumer."""
    nc = await nats.connect(venue.url, user=venue.admin[0], password=venue.admin[1])
    try:
        info = await nc.jetstream().consumer_info(ENTRY_STREAM, "ingester")
        return info.config.max_deliver, info.num_ack_pending, info.num_redelivered
    finally:
        await nc.close()


async def held_by_hub(venue: Venue, subject: str) -> int:
    nc = await nats.connect(venue.url, user=venue.admin[0], password=venue.admin[1])
    try:
        info = await nc.jetstream().stream_info(ENTRY_STREAM, subjects_filter=subject)
        return sum((info.state.subjects or {}).values())
    finally:
        await nc.close()


def test_a_message_that_can_never_be_stored_is_a_problem_at_once_and_not_retried(
        venue: Venue) -> None:
    """A forged finished game whose chips are "lots" (ValueError in the store) and one whose
    players are [1, {"x": 2}] (TypeError), among good entries of the same table, in one
    burst: each bad one is a problem row within seconds and deleted from the hub; the good
    ones are stored; nothing is delivered again; a real table plays on."""
    venue.start_hub()
    venue.start_ingester()
    venue.start_screen()
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30, "the ingester")
    venue.enroll("t1", "LOGX")
    venue.start_table("t2", seed=41)
    burst = [(T1, planted("t1", 1, 1)),
             (T1, over("t1", 2, result={"chips": {"Ann": "lots"}, "loser": "Bob"})),
             (T1, over("t1", 3, players=[1, {"x": 2}])),
             (T1, planted("t1", 1, 2, text="Bob bet 1"))]
    assert venue.publish_all("t1", burst, headers=True) == [None] * 4
    wait_until(lambda: len(venue.problems()) >= 2, 15, "two problem rows")
    sentences = " ".join(s for t, s in venue.problems() if t == "t1")
    assert "result chips = {'Ann': 'lots'}" in sentences
    assert "players = [1, {'x': 2}]" in sentences
    wait_until(lambda: venue.rows("t1") == [(1, 1, "Ann bet 1"), (1, 2, "Bob bet 1")], 15,
               "t1's good entries of the same burst")
    wait_until(lambda: asyncio.run(held_by_hub(venue, T1)) == 2, 15,
               "the two bad messages deleted from the hub")
    max_deliver, pending, redelivered = asyncio.run(consumer_state(venue))
    assert max_deliver == 20 and redelivered == 0, (max_deliver, redelivered)
    assert "could not be finished" not in venue.log_text("ingester")
    assert "players = [1, {'x': 2}]" in problem_of(venue, "t1") or "lots" in problem_of(
        venue, "t1")
    t2_holds_its_log(venue)


def test_a_message_the_hub_stops_delivering_is_read_again_and_stored_once(
        dsn: str, venue: Venue) -> None:
    """Bounded redelivery: the ingester's write waits on a lock held here (as for a
    PostgreSQL that does not answer), the hub delivers t1's entries twice
    (``BIDOU_VENUE_MAX_DELIVER=2``), gives up and says so; the ingester reads each again by
    its stream sequence. Once the lock goes, every entry is stored exactly once."""
    venue.start_hub()
    venue.enroll("t1", "LOGX")
    venue.start_ingester(env={"BIDOU_VENUE_MAX_DELIVER": "2"})
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30, "the ingester")
    with psycopg.connect(dsn) as lock:
        lock.execute("SELECT * FROM tables FOR UPDATE")
        assert venue.publish_all("t1", [(T1, planted("t1", 1, s)) for s in (1, 2, 3)]) == [
            None] * 3
        wait_until(lambda: "stopped delivering" in venue.log_text("ingester"), 40,
                   "the hub's advisory, read by the ingester")
        assert venue.rows("t1") == []
        lock.rollback()
    want = [(1, s, "Ann bet 1") for s in (1, 2, 3)]
    wait_until(lambda: venue.rows("t1") == want, 30, "t1's entries, once each")
    _, pending, _ = asyncio.run(consumer_state(venue))
    assert venue.rows("t1") == want and venue.arrival_in_order("t1")
