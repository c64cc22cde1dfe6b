"""The league's ingesters, each test on a league of its own (real processes on loopback, as in
test_faults.py): ingesters partitioned by pub each take their own pubs' games, and an ingester
started before its cluster has a leader says so and consumes once it has. Apart from
test_faults.py, whose league lives as long as its module: two leagues at once would share the
machine for nothing."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from league_harness import ROSTER, League, Pub, wait_until
from venue_harness import _listening


@pytest.mark.slow
def test_ingesters_partitioned_by_pub_each_take_their_own_and_one_stopped_holds_only_its_pubs(
        league_of_two_ingesters: tuple[League, list[Pub]]) -> None:
    lg, (one, two) = league_of_two_ingesters
    assert "pubs pub1)" in lg.log_text(lg.ingester(0))
    assert "pubs pub2)" in lg.log_text(lg.ingester(1))
    lg.kill(lg.procs[lg.ingester(1)], signal.SIGTERM)  # pub2's ingester stopped
    for n, p in enumerate((one, two)):
        p.play(p.day(3, seed=20 + n, roster=ROSTER))
    wait_until(lambda: lg.rows("pub1") == one.venue_rows() != [], 120,
               "pub1's games through its own ingester")
    wait_until(lambda: len(two.venue_rows()) > 0, 60, "pub2's venue to store its games")
    assert lg.rows("pub2") == [], "pub2's entries were stored without its ingester"
    lg.start_ingester(partition=1)  # its durable consumer goes on where it stopped
    lg.check([one, two])


@pytest.mark.slow
def test_an_ingester_started_before_its_cluster_has_a_leader_says_so_and_consumes_once_it_has(
        folder: Path, new_db: Callable[[], str]) -> None:
    """One server of three has no JetStream leader: the ingester's start waits, says what it
    waits for once a second, and consumes as soon as the other two are up."""
    lg = League(folder / "league", new_db())
    try:
        lg.start_server(0)
        wait_until(lambda: _listening(lg.config.client_ports[0]), 20, "server 1 to listen")
        lg.start_ingester(wait=False)
        wait_until(lambda: "the league's streams: not ready" in lg.log_text(), 60,
                   "the ingester to say its streams are not ready")
        assert "consuming" not in lg.log_text()
        lg.start_server(1)
        lg.start_server(2)
        wait_until(lambda: "consuming" in lg.log_text(), 120, "the ingester to consume")
        assert "ready after" in lg.log_text()
    finally:
        lg.stop_all()
