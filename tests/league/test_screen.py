"""The league's screen (league_screen/): standings, a player's page, pubs, each game's record,
the league's flags and the live wall, each with its JSON, served by the real server over a
real PostgreSQL store and a real nats-server (docs/league.md, "The league's screen")."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nats
import pytest
from screen_data import fill
from venue_harness import free_port, wait_until

from league_screen.app import create_app
from league_screen.data import Reader
from league_screen.live import ClusterLink, Live
from venue.hub import nats_server_binary
from venue_screen.server import ScreenServer


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class Screen:
    def __init__(self, url: str, nats_url: str) -> None:
        self.url, self.nats_url = url, nats_url

    def get(self, path: str) -> tuple[int, Any, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                body = r.read().decode()
                status = r.status
        except urllib.error.HTTPError as e:
            body, status = e.read().decode(), e.code
        try:
            return status, json.loads(body), body
        except ValueError:
            return status, None, body

    def publish(self, subject: str, body: dict[str, Any]) -> None:
        """Publish on the nats-server, from a thread of its own (Playwright's sync API keeps
        an event loop running in the test's thread)."""
        async def go() -> None:
            nc = await nats.connect(self.nats_url)
            await nc.publish(subject, json.dumps(body).encode())
            await nc.flush()
            await nc.close()
        thread = threading.Thread(target=lambda: asyncio.run(go()))
        thread.start()
        thread.join(timeout=30)


@pytest.fixture
def league_screen(dsn: str) -> Iterator[tuple[Screen, dict[str, Any]]]:
    written = fill(dsn, extra_players=250)
    folder = Path(tempfile.mkdtemp(prefix="league-screen-"))
    for _ in range(3):  # a free port can be taken by another process before the server binds it
        port = free_port()
        server = subprocess.Popen([nats_server_binary(), "-p", str(port), "-js", "-sd",
                                   str(folder)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        wait_until(lambda p=port, s=server: _listening(p) or s.poll() is not None, 60,
                   "the nats-server to listen or stop")
        if server.poll() is None:
            break
    live = Live(ClusterLink((f"nats://127.0.0.1:{port}",)))
    live.start()
    screen = ScreenServer(create_app(Reader(dsn), live, name="League test"), "127.0.0.1", 0)
    screen.start()
    try:
        wait_until(lambda: live.connected, 30, "the screen to reach the nats-server")
        yield Screen(f"http://127.0.0.1:{screen.port}", f"nats://127.0.0.1:{port}"), written
    finally:
        screen.stop()
        live.stop()
        server.terminate()
        server.wait(timeout=10)


def test_standings_rank_every_rated_player_by_rating_page_by_page(league_screen) -> None:
    screen, written = league_screen
    status, body, _ = screen.get("/api/standings?limit=3")
    assert status == 200 and body["total"] == 6 - 1 + 250  # p0003 sat only with a guest
    best = max((o, p) for p, o in written["ordinal"].items() if o)
    top = body["standings"][0]
    assert (top["player_id"], top["place"], top["ordinal"]) == (best[1], 1, best[0])
    assert set(top) >= {"name", "games", "lost", "last_played", "home_venue"}
    ordinals = [r["ordinal"] for r in screen.get("/api/standings?limit=1000")[1]["standings"]]
    assert ordinals == sorted(ordinals, reverse=True) and len(ordinals) == 255
    _, page3, _ = screen.get("/api/standings?offset=200&limit=100")
    assert [r["place"] for r in page3["standings"]] == list(range(201, 256))
    status, _, html = screen.get("/?page=3")
    assert status == 200 and "page 3 of 3" in html and "Player 249" in html


def test_a_bad_query_or_unknown_name_gets_a_sentence(league_screen) -> None:
    screen, _ = league_screen
    status, body, _ = screen.get("/api/standings?limit=0")
    assert status == 400 and "limit must be a whole number from 1 to 1000" in body["error"]
    status, body, _ = screen.get("/api/players/nobody")
    assert status == 404 and "no player 'nobody'" in body["error"]
    status, body, _ = screen.get("/api/games/north/t1/99")
    assert status == 404 and "no game 99 of table 't1' at pub 'north'" in body["error"]
    status, body, _ = screen.get("/pubs/atlantis")
    assert status == 404 and "atlantis" in body["error"]


def test_a_players_page_has_their_games_across_pubs_and_rating_over_time(
        league_screen) -> None:
    screen, written = league_screen
    status, body, _ = screen.get("/api/players/p0001")
    assert status == 200 and body["name"] == "Ann Dupont"
    where = {(g["venue"], g["table"], g["game"]) for g in body["games"]}
    assert where == {("north", "t1", 1), ("north", "t1", 2), ("south", "t2", 1)}
    assert [p["ordinal"] for p in body["history"]][-1] == written["ordinal"]["p0001"]
    assert body["rating"]["games"] == 2
    _, _, html = screen.get("/players/p0001")
    assert 'id="rating-plot"' in html and "<polyline" in html and "south" in html
    plot = html[html.index('<svg id="rating-plot"'):html.index("</svg>")]
    first, last = body["history"][0]["finished"], body["history"][-1]["finished"]
    assert f">{first[:10]}" in plot  # its axis says when: the first game's day
    assert f">{last[:10]}</text>" in plot or f">{last[11:16]}</text>" in plot


def test_each_games_record_entry_by_entry_names_who_sat_where(league_screen) -> None:
    screen, written = league_screen
    _, body, _ = screen.get("/api/games/north/t2/1")
    assert body["seating"] == {"Cid": "p0003", "Guy": None}
    assert body["record"][0]["kind"] == "seating"
    assert len(body["record"]) == body["entries"] > 5
    _, _, html = screen.get("/games/north/t2/1")
    assert "Cid Leroy" in html and "guest" in html and html.count("<tr>") > body["entries"]
    _, pub, _ = screen.get("/api/pubs/north")
    assert [t["table"] for t in pub["tables"]] == ["t1", "t2"]
    assert {g["game"] for g in pub["games"] if g["table"] == "t1"} == {1, 2}


def test_the_leagues_page_flags_a_player_at_two_tables_and_shows_the_refusals(
        league_screen) -> None:
    screen, _ = league_screen
    _, flags, _ = screen.get("/api/flags")
    assert [d["player_id"] for d in flags["double_seats"]] == ["p0001"]
    assert flags["double_seats"][0]["second"] == {"venue": "south", "table": "t2", "game": 1}
    _, _, html = screen.get("/")
    assert 'id="double-seats"' in html and "south t2 game 1" in html
    assert 'id="refusals"' in html and "a planted refusal" in html


def test_the_live_wall_shows_tables_public_state_and_never_a_concealed_die(
        league_screen) -> None:
    screen, _ = league_screen
    state = {"game_id": 1, "status": "playing", "variant": "two-hand", "to_act": "Ann",
             "expects": "throw", "pot": 2, "dice": {"Ann": [6, 5, 4]},
             "seats": [{"name": "Ann", "chips": 3, "to_act": True, "dice": [6, 5, 4],
                        "concealed": [6, 5, 4]}, {"name": "Hal", "chips": 4}]}
    screen.publish("bidou.south.t2.state", state)
    screen.publish("bidou.north.t1.state", state | {"game_id": 2})

    def tables() -> list[dict[str, Any]]:
        body = screen.get("/api/live")[1]
        return body["tables"] if len(body["tables"]) == 2 else []

    found = wait_until(tables, 15, "both tables on the live wall")
    text = json.dumps(found)
    assert "[6, 5, 4]" not in text and "dice" not in text and "concealed" not in text
    south = next(t for t in found if t["venue"] == "south")
    assert south["online"] and south["players"]["Ann"]["name"] == "Ann Dupont"
    assert south["players"]["Hal"]["player_id"] is None
    assert south["players"]["Ann"]["elsewhere"]  # north t1's game 2 seats her too
    north = next(t for t in found if t["venue"] == "north")
    assert not north["players"]["Fox"]["elsewhere"]


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DOCS = Path(__file__).resolve().parents[2] / "docs"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def picture_path(name: str) -> str:
    """Where a screenshot goes: test-artifacts/, or docs/ with BIDOU_UPDATE_DOCS_SCREENSHOTS=1
    (so a test run leaves the checkout as it was)."""
    if os.environ.get("BIDOU_UPDATE_DOCS_SCREENSHOTS"):
        return str(DOCS / name)
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / name)


@pytest.mark.browser
@pytest.mark.slow
def test_the_pages_draw_in_chromium_at_1920_and_390_under_the_screens_policy(
        league_screen) -> None:
    """Every page drawn whole, the live wall by its script, no CSP refusal; the screenshots
    in docs/ are these pages (docs/league.md)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent: `sudo apt-get install chromium` to run it")
    from playwright.sync_api import sync_playwright  # lazy: only this test needs it

    screen, _ = league_screen
    state = {"game_id": 1, "status": "playing", "variant": "two-hand", "to_act": "Ann",
             "expects": "throw", "pot": 2,
             "seats": [{"name": "Ann", "chips": 3, "to_act": True}, {"name": "Hal", "chips": 4}]}

    def heard() -> None:  # a table is online for 10 s after its state
        screen.publish("bidou.south.t2.state", state)
        screen.publish("bidou.north.t1.state", state | {"game_id": 2, "seats": [
            {"name": "Ann", "chips": 5, "to_act": True}, {"name": "Fox", "chips": 2}]})

    refused: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for width, height in ((1920, 1080), (390, 844)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.on("console", lambda m: refused.append(m.text)
                        if "Content Security Policy" in m.text else None)
                page.goto(screen.url + "/")
                assert page.locator("#standings tr").count() == 101  # a header and a page
                assert page.locator("#double-seats .flag").count() == 1
                if width == 1920:  # a wall screen: the standings take its width
                    box = page.locator("#standings").bounding_box()
                    assert box is not None and box["width"] > 0.85 * width, box
                page.screenshot(path=picture_path(f"screenshot-league-standings-{width}.png"))
                page.goto(screen.url + "/players/p0001")
                assert page.locator("#rating-plot polyline").count() == 1
                page.screenshot(path=picture_path(f"screenshot-league-player-{width}.png"),
                                full_page=True)
                page.goto(screen.url + "/games/north/t2/1")
                assert page.locator("#record tr").count() > 5
                heard()
                page.goto(screen.url + "/live")
                page.wait_for_selector('.card[data-table="south/t2"]', timeout=20_000)
                page.wait_for_selector('.card[data-table="north/t1"]', timeout=20_000)
                assert "Ann Dupont" in page.inner_text("#featured")
                assert "also seated at another table" in page.inner_text("#featured")
                page.screenshot(path=picture_path(f"screenshot-league-live-{width}.png"))
                page.close()
        finally:
            browser.close()
    assert not refused, refused
