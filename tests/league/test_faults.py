"""The league's promises under faults, with real processes on loopback: three nats-servers,
pubs' hubs as leaf nodes, the venue's and the league's ingesters, PostgreSQL. After each
fault, every pub's games in the league equal its venue store, once each, gap-free, and the
ratings equal a rebuild from the store (``League.check``). They share one league (the
``league`` fixture, once for the module): each starts from the whole league the test before it
left. The ingesters' own faults, each on a league of its own, are in test_ingesters.py."""

from __future__ import annotations

import signal
import time
from datetime import timedelta

import psycopg
import pytest
from league_harness import DAY0, ROSTER, League, Pub, wait_until

from venue.ingester import CRASH_ENV


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_pub_cut_from_the_league_for_a_day_comes_back_whole_and_rated_as_if_on_time(
        league: tuple[League, list[Pub]]) -> None:
    lg, pubs = league
    cut, online = pubs
    held, stored = lg.rows(cut.name), len(cut.venue_rows())  # all in: the last test checked
    told = cut.log_text("uplink").count("did not take")
    with psycopg.connect(lg.dsn) as db:
        (rated,) = db.execute("SELECT count(*) FROM rating_history WHERE venue = %s",
                              (cut.name,)).fetchone()
    online.play(online.day(2, seed=3, roster=ROSTER))
    cut.cut()  # every leaf link of pub1's hub: it plays on, its venue stores everything
    day = cut.day(20, seed=4, roster=ROSTER)  # a day: 20 finished games on each table
    cut.play(day)
    online.play(online.day(2, seed=5, roster=ROSTER, day=DAY0 + timedelta(hours=6)))
    wait_until(lambda: len(cut.venue_rows()) > stored + len(day), 120,
               "pub1's venue to store its day")
    assert lg.rows(cut.name) == held, "entries crossed a cut link"
    assert cut.log_text("uplink").count("did not take") > told
    cut.restore()
    lg.check(pubs)
    with psycopg.connect(lg.dsn) as db:  # the day's games were rated in their place
        (late,) = db.execute("SELECT count(*) FROM rating_history WHERE venue = %s",
                             (cut.name,)).fetchone()
    assert late > rated


@pytest.mark.slow
def test_the_league_ingester_killed_between_its_commit_and_its_ack(
        league: tuple[League, list[Pub]]) -> None:
    lg, pubs = league
    killed = lg.log_text().count("killed after")
    lg.kill(lg.procs["ingester"], signal.SIGTERM)
    lg.start_ingester(env={CRASH_ENV: "300"})
    pubs[0].play(pubs[0].day(4, seed=6, roster=ROSTER))
    pubs[1].play(pubs[1].day(4, seed=7, roster=ROSTER))
    wait_until(lambda: lg.procs["ingester"].poll() is not None, 60, "the ingester's crash")
    assert lg.log_text().count("killed after") > killed
    lg.start_ingester()
    lg.check(pubs)


@pytest.mark.slow
def test_postgres_restarted_during_league_ingestion(league: tuple[League, list[Pub]],
                                                    pg_cluster: object) -> None:
    lg, pubs = league
    held, said = len(lg.rows(pubs[0].name)), lg.log_text().count("PostgreSQL")
    pubs[0].play(pubs[0].day(2, seed=8, roster=ROSTER))
    wait_until(lambda: len(lg.rows(pubs[0].name)) > held, 60, "the league ingesting")
    pubs[1].play(pubs[1].day(4, seed=9, roster=ROSTER))
    pg_cluster.stop("fast")  # type: ignore[attr-defined]
    time.sleep(4)  # the league's stream keeps what the pubs send
    pg_cluster.start()  # type: ignore[attr-defined]
    pubs[0].play(pubs[0].day(2, seed=10, roster=ROSTER, day=DAY0 + timedelta(hours=3)))
    lg.check(pubs)
    assert lg.log_text().count("PostgreSQL") > said
