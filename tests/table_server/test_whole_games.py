"""Whole games played in headless Chromium by pressing the seat pages alone: a two-hand match
and a three-seat multi-hand game, start to game over. Each press is chosen among the buttons
the seat page has lit, by their labels (seeded); after each one the table view, every seat page
and the event stream must show the state ``/api/state`` gives: the same version, prompt,
chips, whose turn, and (on the seat pages) lit buttons whose presses are all accepted."""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from firmware.settings.server_settings import ServerSettings
from firmware.words.phrases import english
from table_server.access.auth import PressLimiter
from table_server.server import Dashboard

from .conftest import HandPace

#: a whole game through chromium takes a minute or two of a quiet machine, and up to five
#: minutes when the machine is shared (make test runs six test processes, and CI may share
#: the cores): the hang guard is set above that
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

WAIT_MS = 15_000
DOCS = Path(__file__).resolve().parents[2] / "docs"
#: The sizes of the docs' pictures of the table view: a pub's TV and a phone.
PICTURE_SIZES = ((1920, 1080), (390, 844))


def pictures(shot: Any, table_page: Any, seat_page: Any, name: str) -> None:
    """Screenshots of the table view at a TV's and a phone's width and of one seat page,
    kept under test-artifacts/; with BIDOU_UPDATE_DOCS_SCREENSHOTS=1 copied into docs/."""
    taken = []
    for width, height in PICTURE_SIZES:
        table_page.set_viewport_size({"width": width, "height": height})
        taken.append(shot(table_page, f"{name}-table-{width}.png"))
    table_page.set_viewport_size({"width": 1280, "height": 720})
    taken.append(shot(seat_page, f"{name}-seat.png"))
    if os.environ.get("BIDOU_UPDATE_DOCS_SCREENSHOTS"):
        for path in taken:
            shutil.copy(path, DOCS / f"screenshot-{path.name}")


class EventStream:
    """``/api/events`` read over a real socket, as a browser reads it."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=15)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200

    def state_at(self, version: int) -> dict[str, Any]:
        """The state the stream sends for ``version`` (older ones are read past)."""
        while True:
            line = self.response.readline().decode()
            assert line, "the event stream ended"
            if line.startswith("data: "):
                state = json.loads(line[6:])
                if state["version"] >= version:
                    return state

    def close(self) -> None:
        self.conn.close()


def choose(rng: random.Random, lit: dict[str, str]) -> str:
    """A button to press among the lit ones, by what their labels say they do."""
    if "STAND" in lit and "THROW" in lit:
        return "STAND" if rng.random() < 0.5 else "THROW"
    if "THROW" in lit:
        return "THROW"
    if "CALL" in lit and lit["CALL"].startswith(("BET", "RAISE")):
        return "CALL"  # commit the chips offered
    r = rng.random()
    if "BET" in lit and r < 0.35:
        return "BET"
    if "CALL" in lit and r < 0.85:
        return "CALL"
    return "PASS" if "PASS" in lit else next(iter(lit))


def lit_buttons(page: Any) -> dict[str, str]:
    """The seat page's lit buttons, ``{id without "btn-": label}``."""
    return {b.get_attribute("id")[4:]: b.inner_text() for b in page.locator(".btn.lit").all()}


def check_agree(table_page: Any, seats: dict[str, Any], stream: EventStream,
                state: dict[str, Any]) -> None:
    """The table view, each seat page and the stream all show ``state``."""
    version = state["version"]
    streamed = stream.state_at(version)
    assert streamed["version"] == version
    for key in ("prompt", "to_act", "chips", "over", "loser", "winner", "settled"):
        assert streamed[key] == state[key], key
    table_page.locator(f'body[data-version="{version}"]').wait_for(timeout=WAIT_MS)
    assert table_page.locator("#prompt").inner_text() == english(state["prompt"])
    for seat in state["seats"]:
        card = table_page.locator(f'.seat[data-seat="{seat["name"]}"]')
        assert card.locator(".chips .count").get_attribute("data-chips") == str(seat["chips"])
        assert ("to-act" in (card.get_attribute("class") or "")) == bool(
            seat["to_act"] and not state["over"])
    for name, page in seats.items():
        page.locator(f'body[data-version="{version}"]').wait_for(timeout=WAIT_MS)
        mine = next(s for s in state["seats"] if s["name"] == name)
        assert page.locator("#my-chips").inner_text() == str(mine["chips"])
        if state["over"] or state["to_act"] != name:
            assert page.locator(".btn.lit").count() == 0


def play_whole_game(browser: Any, table_factory: Any, shot: Any, *, variant: str,
                    players: tuple[str, ...], seed: int) -> int:
    t = table_factory(variant=variant, players=players, seed=seed)
    d = Dashboard(t.controller, ServerSettings(port=0, referee_token="r" * 20,
                                               referee_pin="482913", keepalive=1.0)).start()
    # A seat may act many times running (throw, declare, bet): the game presses as fast as the
    # pages answer, faster than the 5 a second a hand is held to, so its presses are spaced as
    # a hand's would be (the press limit itself: test_press_gate, test_load).
    d.context.presses = PressLimiter(clock=HandPace())
    stream = EventStream(d.public_base)
    try:
        table_page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        table_page.goto(d.url)
        seats = {}
        for name, url in d.seat_urls().items():
            page = browser.new_context(viewport={"width": 390, "height": 844},
                                       is_mobile=True).new_page()
            page.goto(url)
            seats[name] = page
        rng = random.Random(seed)
        presses = 0
        pictured = False
        state = t.state()
        check_agree(table_page, seats, stream, state)
        while not state["over"]:
            if state["showdown"] and not pictured and len(players) == 2:
                pictures(shot, table_page, seats[state["to_act"]], f"{variant}-showdown")
                pictured = True
            page = seats[state["to_act"]]
            lit = lit_buttons(page)
            assert lit, f"{state['to_act']} is to act but no button is lit"
            button = choose(rng, lit)
            with page.expect_response(  # a press, or BET's one-tap bet (an act)
                    lambda r: r.url.endswith(("/api/press", "/api/act")),
                    timeout=WAIT_MS) as answer:
                page.click(f"#btn-{button}")
            assert answer.value.status == 200, (button, lit[button], answer.value.text())
            presses += 1
            state = t.state()
            check_agree(table_page, seats, stream, state)
        assert state["loser"] in players
        loser = table_page.locator(f'.seat.loser[data-seat="{state["loser"]}"]')
        assert loser.count() == 1
        pictures(shot, table_page, seats[state["loser"]], f"{variant}-game-over")
        return presses
    finally:
        stream.close()
        d.stop()


def test_a_two_hand_match_played_from_the_seat_pages_alone(browser, table_factory, shot):
    presses = play_whole_game(browser, table_factory, shot, variant="two-hand",
                              players=("Ann", "Bob"), seed=6)
    assert presses > 50  # a match of at least two rounds


def test_a_three_seat_multi_hand_game_played_from_the_seat_pages_alone(browser, table_factory,
                                                                        shot):
    presses = play_whole_game(browser, table_factory, shot, variant="multi-hand",
                              players=("Ann", "Bob", "Cy"), seed=4)
    assert presses > 20
