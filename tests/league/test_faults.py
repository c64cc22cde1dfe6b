"""The league's promises under faults, with real processes on loopback: three nats-servers,
pubs' hubs as leaf nodes, the venue's and the league's ingesters, PostgreSQL. After each
fault, every pub's games in the league equal its venue store, once each, gap-free, and the
ratings equal a rebuild from the store (``League.check``)."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from league_harness import League, Pub, wait_until

ROSTER = [f"p{i:03d}" for i in range(12)]

pytestmark = pytest.mark.slow


@pytest.fixture
def league(folder: Path, new_db: Callable[[], str]) -> Iterator[tuple[League, list[Pub]]]:
    lg = League(folder / "league", new_db())
    pubs = [Pub(folder / p, new_db(), lg, p) for p in ("pub1", "pub2")]
    try:
        lg.start()
        lg.add_roster(ROSTER)
        for p in pubs:
            p.start()
        yield lg, pubs
    finally:
        for p in pubs:
            p.stop_all()
        lg.stop_all()


def test_a_league_server_killed_during_play_loses_and_doubles_nothing(
        league: tuple[League, list[Pub]]) -> None:
    lg, pubs = league
    one, two = (p.day(6, seed=n, roster=ROSTER) for n, p in enumerate(pubs))
    pubs[0].play(one[: len(one) // 2])
    pubs[1].play(two[: len(two) // 2])
    lg.kill(lg.servers[1])  # SIGKILL, while the rest of the day is on its way
    pubs[0].play(one[len(one) // 2:])
    pubs[1].play(two[len(two) // 2:])
    time.sleep(3)
    lg.start_server(1)
    lg.check(pubs)
