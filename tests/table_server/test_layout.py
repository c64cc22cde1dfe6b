"""The table view's layout in headless Chromium: at phone, tablet and TV sizes, with 2, 4 and
8 seats, no two seat cards overlap, none covers the centre pile or the pot, and every card
stays inside the screen's width. The tables are played to a showdown first (dice, names and
marks make the cards their tallest). Screenshots are kept under test-artifacts/. At the same
sizes, in English, French and Spanish, whose turn ("▶ to throw") is one line inside its card."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.server import Dashboard

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = [(360, 740), (768, 1024), (1280, 720), (1920, 1080)]
TABLES = {2: ("two-hand", ("Ann", "Bob")),
          4: ("multi-hand", ("Ann", "Bob", "Cy", "Dee")),
          8: ("multi-hand", ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"))}
WAIT_MS = 10_000


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two element boxes share any area (touching edges do not count)."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_overlap_sees_boxes_that_share_area() -> None:
    box = {"x": 0, "y": 0, "width": 10, "height": 10}
    assert overlap(box, {"x": 9, "y": 9, "width": 5, "height": 5})
    assert not overlap(box, {"x": 10, "y": 0, "width": 5, "height": 5})


def play_to_a_showdown(t: Any, seed: int) -> None:
    """Random legal moves until some seat's dice are shown (at most 400 moves)."""
    rng = random.Random(seed)
    for _ in range(400):
        if any(s["exposed"] for s in t.state()["seats"]):
            return
        t.play_one(rng)
    raise AssertionError("no showdown in 400 random moves")


def boxes(page: Any) -> dict[str, dict[str, float]]:
    """The element boxes of every seat card, the centre pile and the pot."""
    found = {}
    for card in page.locator(".seat").all():
        found["seat " + card.get_attribute("data-seat")] = card.bounding_box()
    for pile in page.locator(".centre .spot").all():
        found["pile " + pile.get_attribute("data-pile")] = pile.bounding_box()
    return found


@pytest.mark.parametrize("seats", sorted(TABLES))
def test_no_seat_card_covers_another_or_the_piles_at_any_size(browser, table_factory, shot,
                                                               seats: int) -> None:
    variant, players = TABLES[seats]
    t = table_factory(variant=variant, players=players, seed=seats)
    play_to_a_showdown(t, seats)
    d = Dashboard(t.controller, ServerSettings(port=0, referee_token="r" * 20,
                                               referee_pin="482913")).start()
    try:
        for width, height in VIEWPORTS:
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(d.url)
            page.locator(".seat").nth(seats - 1).wait_for(timeout=WAIT_MS)
            page.locator(".seat .die").first.wait_for(timeout=WAIT_MS)
            shot(page, f"layout-{seats}-seats-{width}x{height}.png")
            found = boxes(page)
            assert len(found) >= seats + 1
            clashes = [f"{a} and {b}" for (a, ba), (b, bb) in combinations(found.items(), 2)
                       if overlap(ba, bb)]
            assert not clashes, f"at {width}x{height} with {seats} seats: {clashes}"
            outside = [name for name, box in found.items()
                       if box["x"] < 0 or box["x"] + box["width"] > width]
            assert not outside, f"at {width}x{height} off the screen's width: {outside}"
            page.context.close()
    finally:
        d.stop()


#: Each "▶ to ..." on the page: its lines (distinct tops of its words' boxes) and whether it
#: stays inside its card (nothing cut off at its end, its box within the card's).
TURN = """() => [...document.querySelectorAll(".seat .turn")].map((p) => {
  const words = document.createRange();
  words.selectNodeContents(p);
  const tops = new Set([...words.getClientRects()].map((r) => Math.round(r.top)));
  const box = p.getBoundingClientRect(), card = p.closest(".seat").getBoundingClientRect();
  return { text: p.textContent, lines: tops.size,
           inside: p.scrollWidth <= p.clientWidth + 1 && box.left >= card.left - 0.5
                   && box.right <= card.right + 0.5 };
})"""


@pytest.mark.parametrize("language", ["en", "fr", "es"])
@pytest.mark.parametrize("seats", [2, 8])
def test_whose_turn_is_said_on_one_line_inside_its_card_at_any_size(
        browser, table_factory, language: str, seats: int) -> None:
    variant, players = TABLES[seats]
    t = table_factory(variant=variant, players=players, seed=seats)
    d = Dashboard(t.controller, ServerSettings(port=0, referee_token="r" * 20,
                                               referee_pin="482913")).start()
    pages = []
    try:
        for width, height in VIEWPORTS:
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(f"{d.url}?lang={language}")  # the table's language switch
            pages.append((f"{width}x{height}", page))
        rng, seen = random.Random(seats), set()
        for _ in range(400):  # until the captain's roll, a throw and a bet have been said
            state = t.controller.public_state()
            if state["expects"] not in seen:
                seen.add(state["expects"])
                for size, page in pages:
                    page.locator(f'body[data-version="{state["version"]}"]').wait_for(
                        timeout=WAIT_MS)
                    turns = page.evaluate(TURN)
                    assert len(turns) == 1, f"{size}, {language}: {turns}"
                    assert turns[0]["lines"] == 1 and turns[0]["inside"], \
                        f"at {size} with {seats} seats in {language}: {turns[0]}"
            if {"roll", "throw", "bet"} <= seen:
                break
            t.play_one(rng)
        assert {"roll", "throw", "bet"} <= seen, seen
    finally:
        for _, page in pages:
            page.context.close()
        d.stop()
