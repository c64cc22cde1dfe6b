"""The faults a venue survives (docs/venue.md), each from outside with real processes: after each,
for every table, the venue's (game, seq, text) rows equal the table's SQLite log exactly (all it may
send: dice wait for their game's end), stored in order, and chips per finished game agree with the
table's own result (``Venue.check_table``)."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from venue_harness import Venue, expected_rows, wait_until

from venue.relay import Relay

pytestmark = pytest.mark.slow


def finish(venue: Venue, tables: tuple[str, ...] = ("t1", "t2")) -> None:
    """Stop the tables (their last entries flushed), let the venue catch up, check each."""
    for t in tables:
        venue.stop(t)
    for t in tables:
        try:
            wait_until(lambda t=t: venue.caught_up(t), 90, f"the venue to hold table {t}'s log")
        except AssertionError as e:
            want, got = expected_rows(venue.db(t)), venue.rows(t)
            raise AssertionError(f"{e}; venue {len(got)} rows, log {len(want)}; missing "
                                 f"{sorted(set(want) - set(got))[:3]}; ingester log: "
                                 f"{venue.log_text('ingester')[-1500:]}") from None
        venue.check_table(t)


def playing(venue: Venue, table: str = "t1", games: int = 1) -> None:
    wait_until(lambda: venue.finished_games(table) >= games, 240,
               f"table {table} to finish {games} game(s)")


@pytest.mark.parametrize("cut", [
    pytest.param(5, id="5s"),
    pytest.param(60, id="60s", marks=pytest.mark.soak),  # a minute: make soak
])
def test_a_cut_of_the_link_loses_and_doubles_nothing(venue: Venue, cut: float) -> None:
    """The link cut ``cut`` seconds at least, and until t1 has finished a game since the cut:
    the table plays on, says it cannot reach the venue, and the venue ends up with its log
    whole once the link is back."""
    venue.start_hub()
    venue.start_ingester()
    relay = Relay(venue.hub_port)
    try:
        venue.start_table("t1", url=f"nats://127.0.0.1:{relay.port}", seed=11)
        venue.start_table("t2", seed=12)
        playing(venue)
        wait_until(lambda: venue.caught_up("t1"), 60, "t1 caught up before the cut")
        before = venue.finished_games("t1")
        relay.cut()
        cut_at = time.monotonic()
        wait_until(lambda: not venue.referee_state("t1")["venue"]["connected"], 20,
                   "t1's referee console to say the venue cannot be reached")
        wait_until(lambda: time.monotonic() - cut_at >= cut
                   and venue.finished_games("t1") > before, cut + 240,
                   "t1 to go on playing through the cut", every=0.5)
        status = venue.referee_state("t1")["venue"]
        assert not status["connected"] and "cannot reach" in status["sentence"]
        relay.restore()
        wait_until(lambda: venue.referee_state("t1")["venue"]["connected"], 30,
                   "t1 reconnected")
        finish(venue)
    finally:
        relay.close()


def test_the_hub_stopped_then_killed_and_restarted(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    venue.start_table("t1", seed=21)
    venue.start_table("t2", seed=22)
    playing(venue)
    hub = venue.procs["hub"]
    os.kill(hub.pid, signal.SIGSTOP)
    time.sleep(8)
    os.kill(hub.pid, signal.SIGKILL)
    hub.wait(10)
    del venue.procs["hub"]
    time.sleep(3)
    venue.start_hub()  # the same store and port: JetStream recovers what it had stored
    playing(venue, games=venue.finished_games("t1") + 1)
    finish(venue)


def test_the_ingester_killed_between_commit_and_ack(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester(env={"BIDOU_VENUE_CRASH_AFTER_COMMIT": "7"})
    venue.start_table("t1", seed=31)
    venue.start_table("t2", seed=32)
    wait_until(lambda: venue.procs["ingester"].poll() is not None, 240,
               "the ingester to kill itself after its 7th commit")
    assert venue.procs["ingester"].returncode == -signal.SIGKILL
    said = re.search(r"killed after (\d+) entries committed, before acknowledging the last "
                     r"(\d+)", venue.log_text("ingester"))
    assert said, venue.log_text("ingester")
    committed, unacked = int(said[1]), int(said[2])
    assert committed >= 7 and unacked >= 1
    held = sum(len(venue.rows(t)) for t in ("t1", "t2"))
    assert held >= committed  # committed, the last never acknowledged: they come again
    venue.procs.pop("ingester")
    venue.start_ingester()
    playing(venue, games=venue.finished_games("t1") + 1)
    finish(venue)


def test_a_table_killed_mid_publish_and_restarted(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    venue.start_table("t1", seed=41)
    venue.start_table("t2", seed=42)

    def publishing() -> bool:  # a finished game's entries are on their way, not all there
        held = len(venue.rows("t1"))
        return 0 < held < len(venue_expected("t1"))

    def venue_expected(t: str) -> list[tuple[int, int, str]]:
        from venue_harness import expected_rows  # lazy: beside the test, read per call

        return expected_rows(venue.db(t))

    wait_until(publishing, 240, "t1 to be publishing a finished game", every=0.01)
    venue.stop("t1", signal.SIGKILL)
    assert 0 < len(venue.rows("t1")) <= len(venue_expected("t1"))
    venue.start_table("t1", seed=43)
    playing(venue, games=venue.finished_games("t1") + 1)
    finish(venue)


def test_postgres_restarted_during_ingestion(venue: Venue, pg_cluster: object) -> None:
    venue.start_hub()
    venue.start_ingester()
    venue.start_table("t1", seed=51)
    venue.start_table("t2", seed=52)
    playing(venue)
    wait_until(lambda: venue.caught_up("t1"), 60, "t1 caught up")
    ingesting = len(venue.rows("t1"))
    # stop it while a finished game's entries are on their way in
    wait_until(lambda: len(venue.rows("t1")) > ingesting, 240, "t1's next game coming in",
               every=0.01)
    pg_cluster.stop("fast")  # type: ignore[attr-defined]
    time.sleep(5)  # the tables play on, the hub keeps what they send
    pg_cluster.start()  # type: ignore[attr-defined]
    assert "PostgreSQL" in venue.log_text("ingester")
    playing(venue, games=venue.finished_games("t1") + 1)
    finish(venue)
