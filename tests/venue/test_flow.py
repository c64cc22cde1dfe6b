"""Tables forward their logs to the hub, the ingester keeps them in PostgreSQL: the promises
of docs/venue.md with every part a real process."""

from __future__ import annotations

import urllib.request

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


def test_the_screen_answers_the_contract_and_streams_live(venue: Venue) -> None:
    """GET /api/tables and /api/tables/NAME/games as docs/venue.md writes them; the wall, a
    table page, finished games, a game record and a player page load; SSE carries live events."""
    venue.start_hub()
    venue.start_ingester()
    venue.start_screen()
    venue.start_table("t1", seed=5)
    wait_until(lambda: venue.finished_games("t1") >= 1, 240, "table t1 to finish a game")
    wait_until(lambda: venue.caught_up("t1"), 60, "the venue to hold t1's log")
    status, tables = venue.get("/api/tables")
    assert status == 200
    by_name = {t["name"]: t for t in tables}
    assert set(by_name) == {"t1", "t2"}
    t1, t2 = by_name["t1"], by_name["t2"]
    assert t1["online"] is True and t1["last_seen"] and t1["entries"] >= 1
    assert t1["state"]["seats"][0]["name"] == "Ann"
    assert t2["online"] is False and t2["entries"] == 0 and t2["last_seen"] is None
    status, games = venue.get("/api/tables/t1/games")
    assert status == 200
    finished = [g for g in games if g["status"] == "over"]
    assert finished and {"id", "status", "entries"} <= set(finished[0])
    want = {g for g, _, _ in venue.rows("t1")}
    assert {g["id"] for g in games} == want  # the table's own game ids
    game = finished[0]["id"]
    for path in ("/", "/tables/t1", "/games", f"/games/t1/{game}", "/players",
                 "/players/Ann"):
        status, page = venue.get(path)
        assert status == 200, f"{path}: {status} {page}"
    status, body = venue.get("/api/tables/nope/games")
    assert status == 404 and "t1, t2" in body["error"]
    with urllib.request.urlopen(venue.screen + "api/events", timeout=10) as stream:
        seen = b""
        while b"event: " not in seen:
            seen += stream.readline()
    assert b"event: state" in seen or b"event: entry" in seen
    assert t1["to_come"] is not None and t1["to_come"] >= 0
    # a table that stops is shown silent since its last state; what it sent stays counted
    venue.stop("t1")
    wait_until(lambda: venue.caught_up("t1"), 30, "t1's last entries at the venue")

    def silent() -> dict | None:
        t = next(t for t in venue.get("/api/tables")[1] if t["name"] == "t1")
        return t if not t["online"] else None

    gone = wait_until(silent, 30, "t1 shown silent")
    assert gone["last_seen"] and gone["entries"] == len(venue.rows("t1"))
    # what the screen showed live from the hub is what the store holds, once caught up
    game, seq, text = venue.rows("t1")[-1]
    newest = {"game": game, "seq": seq, "text": text, "stored": True}
    assert {k: gone["last_entry"][k] for k in newest} == newest
    # a restarted screen starts again from PostgreSQL
    venue.stop("screen")
    venue.start_screen()
    again = wait_until(lambda: next(t for t in venue.get("/api/tables")[1]
                                    if t["name"] == "t1")["last_entry"], 30,
                       "the restarted screen's newest t1 entry")
    assert {k: again[k] for k in newest} == newest
