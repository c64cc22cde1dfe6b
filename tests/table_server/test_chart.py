"""The history chart's labels never print over one another: the pieces that place them (hypothesis:
any spans, any line ends), then the real page in Chromium, where the boxes of every text of the
chart, read from the DOM, are compared pairwise, for a two-hand match (its lost rounds labelled) and
an eight-player multi-hand game (eight names at the lines' ends). The chart is on the page's dark
theme, with hand numbers on the x axis."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.settings.server_settings import ServerSettings
from table_server.pages.chart import lanes, spread
from table_server.server import Dashboard

from .conftest import REFEREE_TOKEN
from .test_layout import overlap


@given(st.lists(st.tuples(st.floats(0, 900), st.floats(1, 300)), max_size=12))
def test_spans_in_one_lane_never_overlap(raw: list[tuple[float, float]]) -> None:
    spans = [(left, left + w) for left, w in raw]
    lane_of = lanes(spans, gap=6.0)
    for (a, la), (b, lb) in combinations(zip(spans, lane_of, strict=True), 2):
        if la == lb:
            assert a[1] + 6.0 <= b[0] or b[1] + 6.0 <= a[0], (a, b)


@given(st.lists(st.floats(0, 300), min_size=1, max_size=8))
def test_names_at_the_lines_ends_are_spread_at_least_a_line_apart(ys: list[float]) -> None:
    out = spread(ys, 18.0, 10.0, 400.0)
    assert sorted(range(len(ys)), key=lambda i: (out[i], ys[i])) == sorted(
        range(len(ys)), key=lambda i: (ys[i], out[i]))  # the order is kept
    for a, b in combinations(out, 2):
        assert abs(a - b) >= 18.0 - 1e-6


def finished(t: Any, seed: int, most: int = 20_000) -> int:
    rng = random.Random(seed)
    for _ in range(most):
        if t.state()["over"]:
            return int(t.state()["game_id"])
        t.play_one(rng)
    raise AssertionError(f"no game over in {most} moves")


CHART_TEXTS = """() => [...document.querySelectorAll('svg.chipchart text')].map((n) => {
  const r = n.getBoundingClientRect();
  return { text: n.textContent, cls: n.getAttribute('class'),
           x: r.x, y: r.y, width: r.width, height: r.height };
})"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), [
    ("two-hand", ("Ann", "Bob")),
    ("multi-hand", ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"))])
def test_no_label_of_the_chart_prints_over_another(browser, table_factory, shot, variant: str,
                                                   players: tuple[str, ...]) -> None:
    t = table_factory(variant=variant, players=players, seed=len(players))
    game_id = finished(t, len(players))
    d = Dashboard(t.controller, ServerSettings(port=0, referee_token=REFEREE_TOKEN,
                                               referee_pin="482913")).start()
    try:
        for width, height in ((1920, 1080), (390, 844)):
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(f"{d.url}history/{game_id}")
            page.locator("svg.chipchart").wait_for(timeout=10_000)
            shot(page, f"chart-{variant}-{width}.png")
            texts = page.evaluate(CHART_TEXTS)
            clashes = [f"{a['text']!r} and {b['text']!r}" for a, b in combinations(texts, 2)
                       if overlap(a, b)]
            assert not clashes, f"{variant} at {width}px: {clashes}"
            names = [x["text"] for x in texts if x["cls"] == "name"]
            assert sorted(names) == sorted(players)  # every name, once, at its line's end
            hands = [int(x["text"]) for x in texts if x["cls"] == "tick hand"]
            assert len(hands) >= 3 and hands == sorted(hands) and hands[0] == 1
            if variant == "two-hand":
                assert sum(1 for x in texts if x["cls"] == "label") >= 2  # the lost rounds
            back = page.locator("svg.chipchart rect.chartback").get_attribute("fill")
            r, g, b = (int(back[i:i + 2], 16) for i in (1, 3, 5))
            assert 0.2126 * r + 0.7152 * g + 0.0722 * b < 60, back  # dark, as the page is
            page.context.close()
    finally:
        d.stop()


KEY = """() => [...document.querySelectorAll('#chart-key li')].map((n) => {
  const r = n.getBoundingClientRect();
  return { text: n.innerText.trim(), left: r.left, right: r.right, top: r.top,
           visible: n.checkVisibility(),
           colour: getComputedStyle(n.querySelector('.swatch')).backgroundColor };
})"""


@pytest.mark.browser
@pytest.mark.slow
def test_on_a_phone_every_line_s_name_is_on_the_screen_in_its_line_s_colour(
        browser, table_factory) -> None:
    """At 390 px the chart scrolls sideways and the names at the lines' ends start past the
    right edge: the key above it names every line, each on the screen, in its colour."""
    players = ("Ann", "Bob", "Cy", "Dee", "Eve")
    t = table_factory(variant="multi-hand", players=players, seed=5)
    game_id = finished(t, 5)
    d = Dashboard(t.controller, ServerSettings(port=0, referee_token=REFEREE_TOKEN,
                                               referee_pin="482913")).start()
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{d.url}history/{game_id}")
        page.locator("svg.chipchart").wait_for(timeout=10_000)
        ends = page.evaluate(CHART_TEXTS)
        assert any(x["x"] + x["width"] > 390 for x in ends if x["cls"] == "name")  # off-screen
        key = page.evaluate(KEY)
        assert [k["text"] for k in key] == list(players)
        for k in key:
            assert k["visible"] and k["left"] >= 0 and k["right"] <= 390, k
        lines = page.evaluate("""() => [...document.querySelectorAll('svg.chipchart text.name')]
            .map((n) => [n.textContent, getComputedStyle(n).fill])""")
        assert {k["text"]: k["colour"] for k in key} == dict(lines)
        wide = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        wide.goto(f"{d.url}history/{game_id}")
        assert not any(k["visible"] for k in wide.evaluate(KEY))  # the lines' ends say them
    finally:
        d.stop()
