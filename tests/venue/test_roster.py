"""The pub's copy of the league's roster (venue/roster_keeper.py, venue/roster_copy.py) and the
seating entry from a real table to the venue's store, with real processes: the hub, the
ingester, the roster keeper and a simulated table (docs/league.md, "Players and seats").

The league stands behind the pub's hub as its leaf remote; here a responder on the hub
answers ``league.roster.get`` in its place (the leaf link itself is the league's tests'), so
a league cut is that responder stopped."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from typing import Any

import nats
import psycopg
from venue_harness import TOKEN, Venue, wait_until

from firmware.gamelog.seating_entry import parse_seating
from venue import roster
from venue.roster import Player

PLAYERS = [Player("p0001", "Ann Dupont", "pub"), Player("p0002", "Bob Martin", "pub"),
           Player("p0003", "Cid Leroy", "other")]


class StandInLeague:
    """Answers ``league.roster.get`` on the pub's hub as the league would, in a thread."""

    def __init__(self, venue: Venue, players: list[Player]) -> None:
        self.venue, self.players = venue, players
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()

    async def _run(self) -> None:
        nc = await nats.connect(self.venue.url, user=self.venue.admin[0],
                                password=self.venue.admin[1])

        async def asked(msg: Any) -> None:
            await msg.respond(roster.answer(self.players, "2026-12-05T04:00:00+00:00"))

        await nc.subscribe(roster.ROSTER_GET, cb=asked)
        await nc.publish(roster.ROSTER_CHANGED, b"")
        while not self.stop_event.is_set():
            await asyncio.sleep(0.1)
        await nc.close()

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=10)


def start_keeper(venue: Venue) -> None:
    log = open(venue.folder / "roster.log", "ab")  # noqa: SIM115 -- the child's
    venue.procs["roster"] = subprocess.Popen(
        [sys.executable, "-m", "venue.cli", "roster", "--config", str(venue.config)],
        stdout=log, stderr=subprocess.STDOUT)
    log.close()


def referee(venue: Venue, table: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{venue.ports[table]}/api/referee/seating",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def stored_roster(venue: Venue) -> list[tuple[str, str, str]]:
    with psycopg.connect(venue.dsn) as db:
        return [tuple(r) for r in db.execute("SELECT id, name, home FROM roster ORDER BY id")]


def test_a_table_gets_the_roster_through_its_hub_and_keeps_it_through_a_league_cut(
        venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    league = StandInLeague(venue, PLAYERS[:2])
    start_keeper(venue)
    wait_until(lambda: len(stored_roster(venue)) == 2, 30, "the keeper to store the roster")
    league.players = PLAYERS  # a player added: the league says so, the keeper fetches
    league.stop()
    league = StandInLeague(venue, PLAYERS)
    wait_until(lambda: len(stored_roster(venue)) == 3, 30, "the keeper to fetch the change")
    league.stop()  # the league cut from here on
    venue.stop("roster")
    start_keeper(venue)  # restarted during the cut: serves the store's copy
    venue.start_table("t1", pace=20.0, seed=5)

    def table_roster() -> list[dict[str, str]]:
        status, body = referee(venue, "t1")
        return body["roster"] if status == 200 and len(body["roster"]) == 3 else []

    got = wait_until(table_roster, 60, "the table's copy of the roster")
    assert [p["id"] for p in got] == ["p0001", "p0002", "p0003"]
    assert (venue.folder / "t1.db.roster.json").exists()  # kept beside its log
    assert "cannot fetch the league's roster" in venue.log_text("roster")

    status, body = referee(venue, "t1", {"seats": {"Ann": "p9999"}})
    assert status == 409 and "p9999 is not in the league's roster" in body["error"]
    status, body = referee(venue, "t1", {"seats": {"Ann": "p0001", "Bob": "p0003"}})
    assert status == 200, body

    def seating_stored() -> list[tuple[int, int, str]]:
        return [r for r in venue.rows("t1") if r[2].startswith("{")]

    (game, seq, text), = wait_until(seating_stored, 60, "the seating entry in the store")
    assert seq == 1
    assert parse_seating(text, ("Ann", "Bob", "Cy")) == {"Ann": "p0001", "Bob": "p0003",
                                                         "Cy": None}
    venue.stop("t1")
    venue.check_table("t1")  # every entry of its log stored once, in order
