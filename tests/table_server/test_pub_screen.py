"""The table view read from the bar, in headless Chromium on the real page: at 1920x1080 and
1280x720, with 2 to 8 seats played to a showdown, a seat's name, its chips and whose turn it is are
at least 40 px on a 1080-line screen (the same share of the height on a 720-line one), the seat
cards cover most of the felt, and at 1920x1080 the felt fits the screen; the standing says who is
closest to losing; the game-over screen stays until the next game. The sizes and coverage measured
are printed (pytest -s) and kept with the screenshots under test-artifacts/."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.server import Dashboard

from .conftest import REFEREE_TOKEN
from .test_layout import play_to_a_showdown

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 10_000
#: Seats at a table and the variant they play (two-hand takes exactly two).
TABLES = {2: ("two-hand", ("Ann", "Bob")),
          3: ("multi-hand", ("Ann", "Bob", "Cy")),
          5: ("montevideo", ("Ann", "Bob", "Cy", "Dee", "Eve")),
          8: ("multi-hand", ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"))}
SIZES = ((1920, 1080), (1280, 720))
#: The least font size of a name, chips and the turn on a 1080-line screen.
LEAST_PX_AT_1080 = 40.0
#: The least share of the felt (inside its border) the seat cards cover.
LEAST_COVERAGE = 0.5

MEASURE = """() => {
  const px = (sel) => [...document.querySelectorAll(sel)]
    .map((n) => parseFloat(getComputedStyle(n).fontSize));
  const felt = document.getElementById("felt");
  const box = felt.getBoundingClientRect();
  const area = [...document.querySelectorAll(".seat")]
    .map((n) => n.getBoundingClientRect()).reduce((a, r) => a + r.width * r.height, 0);
  return { names: px(".seat h2"), chips: px(".seat .chips .count"), turn: px(".seat .turn"),
           coverage: area / (felt.clientWidth * felt.clientHeight), feltBottom: box.bottom,
           standing: document.getElementById("standing").textContent,
           standingShown: !document.getElementById("standing").hidden };
}"""


def dashboard(t: Any) -> Any:
    return Dashboard(t.controller, ServerSettings(port=0, referee_token=REFEREE_TOKEN,
                                                  referee_pin="482913")).start()


@pytest.mark.parametrize("seats", sorted(TABLES))
def test_names_chips_and_turn_are_readable_from_the_bar_and_the_seats_fill_the_felt(
        browser, table_factory, shot, seats: int) -> None:
    variant, players = TABLES[seats]
    t = table_factory(variant=variant, players=players, seed=seats)
    play_to_a_showdown(t, seats)
    d = dashboard(t)
    try:
        for width, height in SIZES:
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.goto(d.url)
            page.locator(".seat .die").first.wait_for(timeout=WAIT_MS)
            shot(page, f"readable-{seats}-seats-{width}x{height}.png")
            m = page.evaluate(MEASURE)
            least = LEAST_PX_AT_1080 * height / 1080
            print(f"{seats} seats at {width}x{height}: name {min(m['names']):.1f} px, chips "
                  f"{min(m['chips']):.1f} px, turn {min(m['turn'] or [0]):.1f} px, coverage "
                  f"{m['coverage']:.0%}; {m['standing']!r}")
            assert len(m["names"]) == len(m["chips"]) == seats
            assert m["turn"], "nobody is shown to act after the showdown"
            small = {what: min(m[what]) for what in ("names", "chips", "turn")
                     if min(m[what]) < least - 0.05}
            assert not small, f"{width}x{height}, {seats} seats, under {least:.1f} px: {small}"
            assert m["coverage"] >= LEAST_COVERAGE, (
                f"at {width}x{height} the {seats} seats cover {m['coverage']:.0%} of the felt")
            if (width, height) == (1920, 1080):
                assert m["feltBottom"] <= height + 0.5, f"the felt runs off the TV: {m}"
            assert m["standingShown"] and ("closest to losing" in m["standing"]
                                           or "level" in m["standing"]), m["standing"]
            page.context.close()
    finally:
        d.stop()


def play_to_the_end(t: Any, seed: int, most: int = 5000) -> None:
    rng = random.Random(seed)
    for _ in range(most):
        if t.state()["over"]:
            return
        t.play_one(rng)
    raise AssertionError(f"no game over in {most} random moves")


def test_the_game_over_screen_stays_until_the_next_game(browser, table_factory, shot) -> None:
    t = table_factory(variant="multi-hand", players=("Ann", "Bob", "Cy"), seed=11)
    d = dashboard(t)
    try:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(d.url)
        play_to_the_end(t, 11)
        over = t.state()
        screen = page.locator("#gameover")
        screen.wait_for(state="visible", timeout=WAIT_MS)
        shot(page, "game-over-1920x1080.png")
        assert over["loser"] in page.locator("#gameover-result").inner_text()
        assert page.locator("#gameover-chips li").count() == 3
        assert page.locator("#standing").is_hidden()  # the result says it now
        page.reload()  # a screen switched on after the end shows it too, from the first paint
        assert page.locator("#gameover").is_visible()
        # a refused press changes nothing: the screen stays
        assert t.act("Ann", "throw").status_code != 200
        page.wait_for_timeout(500)
        assert screen.is_visible()
        answer = t.client.post("/api/referee/correct", headers=t.auth("referee"), json={
            "kind": "new-game", "variant": "multi-hand", "players": ["Ann", "Bob", "Cy"],
            "options": {}, "why": "next game"})
        assert answer.status_code == 200, answer.get_json()
        screen.wait_for(state="hidden", timeout=WAIT_MS)
        page.context.close()
    finally:
        d.stop()
