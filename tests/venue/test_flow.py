"""Tables forward their logs to the hub, the ingester keeps them in PostgreSQL: the promises
of issue 36 with every part a real process (docs/venue.md)."""

from __future__ import annotations

import pytest
from venue_harness import Venue, wait_until

pytestmark = pytest.mark.slow


def test_every_entry_a_table_may_send_reaches_postgres_once_in_order(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    venue.start_table("t1", seed=3)
    venue.start_table("t2", seed=4)
    for t in ("t1", "t2"):
        wait_until(lambda t=t: venue.finished_games(t) >= 1, 240, f"table {t} to finish a game")
    for t in ("t1", "t2"):
        wait_until(lambda t=t: venue.caught_up(t), 60, f"the venue to hold table {t}'s log")
    venue.stop("t1")
    venue.stop("t2")
    for t in ("t1", "t2"):
        wait_until(lambda t=t: venue.caught_up(t), 30, f"table {t} caught up after stopping")
        venue.check_table(t)
    assert venue.problems() == []
