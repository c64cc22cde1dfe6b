"""The pub's screen is never scrolled: in headless Chromium, at 1280x720, 1920x1080 and
3840x2160, with 2 to 8 seats, in every state a table goes through (concealed throws, bets, a
showdown, shown dice being settled, a hand or round beginning with an announcement, an open
throw, game over), the page is no taller and no wider than the screen, and no seat card, the
felt, its centre or the game-over screen holds more than it shows. While dice are settled the
camera's picture of them is at least 120 px a die at 1920x1080, and the banner, not the felt,
says what the table waits for. A lost link to the table dims the screen under a sentence in
large type, and the screen is whole again when the table is back.

One table per seat count is played forward (``quick_play``: games end in tens of moves) from
state to state; each state is measured at the three sizes
in one page. The heights and the picture's size are printed (pytest -s)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.server import Dashboard

from .conftest import REFEREE_TOKEN, Table, make_table
from .quick_play import STATES, play_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 10_000
SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")
#: The variant each seat count plays (two-hand takes exactly two).
VARIANTS = {2: "two-hand", 3: "multi-hand", 4: "montevideo", 5: "multi-hand",
            6: "montevideo", 7: "multi-hand", 8: "multi-hand"}
#: The least size of a die in the settle's picture at 1920x1080.
LEAST_DIE_PX = 120.0


#: An open throw comes within a short game in two-hand only (at 8 chips, T10).
CASES = [(seats, state) for seats in VARIANTS for state in STATES
         if state != "open throw" or seats == 2]

MEASURE = """() => {
  const root = document.documentElement;
  const felt = document.getElementById("felt");
  // a few pixels' leeway (0.3 % of the height): a line's glyphs may reach past its box
  const slack = Math.max(1, 0.003 * innerHeight);
  const spills = (n) => n.scrollHeight > n.clientHeight + slack
    || n.scrollWidth > n.clientWidth + slack;
  const spilled = [...document.querySelectorAll("#felt, #felt .seat, #centre, #gameover")]
    .filter((n) => !n.hidden && spills(n)).map((n) => `${n.dataset.seat || n.id}: `
      + `${n.scrollWidth}x${n.scrollHeight} in ${n.clientWidth}x${n.clientHeight}`);
  const pictures = [...document.querySelectorAll("#centre .settlepic")].map((img) => {
    const box = img.getBoundingClientRect();
    const tiles = Math.round(img.naturalWidth / img.naturalHeight);
    return { height: box.height, perDie: Math.min(box.height, box.width / tiles), tiles };
  });
  return { height: root.scrollHeight, width: root.scrollWidth, screen: innerHeight,
           screenWidth: innerWidth, feltBottom: felt.getBoundingClientRect().bottom, spilled,
           pictures, prompt: document.getElementById("prompt").textContent,
           asksInFelt: document.querySelectorAll("#felt .settleask").length };
}"""


class Walker:
    """One served table of ``seats`` players, played forward from state to state."""

    def __init__(self, seats: int) -> None:
        self.players = NAMES[:seats]
        self.variant = VARIANTS[seats]
        self.table: Table = make_table(variant=self.variant, players=self.players, seed=seats,
                                       unsure=0.4)
        self.rng = random.Random(seats)
        self.dashboard = Dashboard(self.table.controller, ServerSettings(
            port=0, referee_token=REFEREE_TOKEN, referee_pin="482913")).start()

    def reach(self, state: str) -> dict[str, Any]:
        """Play until the public state is ``state`` (quick_play.play_until)."""
        return play_until(self.table, self.rng, STATES[state], repr(state))

    def close(self) -> None:
        self.dashboard.stop()
        self.table.house.close()


@pytest.fixture(scope="module")
def walkers() -> Iterator[dict[int, Walker]]:
    made: dict[int, Walker] = {}
    try:
        yield made
    finally:
        for walker in made.values():
            walker.close()


@pytest.mark.parametrize(("seats", "state"), CASES)
def test_the_pub_screen_fits_the_screen_in_every_state(browser, walkers, shot, seats: int,
                                                       state: str) -> None:
    walker = walkers.get(seats) or walkers.setdefault(seats, Walker(seats))
    public = walker.reach(state)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(walker.dashboard.url)
    page.wait_for_selector(f'body[data-version="{public["version"]}"]', timeout=WAIT_MS)
    for picture in page.locator("#centre img.settlepic").all():
        picture.evaluate("(img) => img.decode()")  # its size is its tiles' (one a die)
    name = state.replace(" ", "-")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        m = page.evaluate(MEASURE)
        per_die = [round(p["perDie"], 1) for p in m["pictures"]]
        print(f"{seats} seats, {state}, {width}x{height}: page {m['height']} px of "
              f"{m['screen']}, felt to {m['feltBottom']:.0f}; dice in the picture {per_die} px")
        if m["height"] > m["screen"] or m["spilled"]:
            shot(page, f"fits-{seats}-{name}-{width}x{height}.png")
        assert m["height"] <= m["screen"] and m["width"] <= m["screenWidth"], (
            f"{seats} seats, {state}: the page is {m['width']}x{m['height']} on a "
            f"{width}x{height} screen")
        assert m["feltBottom"] <= height + 0.5
        assert not m["spilled"], f"{seats} seats, {state}, {width}x{height}: {m['spilled']} " \
                                 "hold more than they show"
        if state == "settle":
            assert len(m["pictures"]) == len(public["settling"]), "a seat's picture is missing"
            assert m["asksInFelt"] == 0 and public["settling"][0]["seat"] in m["prompt"], (
                f"the banner should say what the table waits for, not {m['prompt']!r}")
            if (width, height) == (1920, 1080):
                assert min(per_die) >= LEAST_DIE_PX, f"dice of {per_die} px at 1920x1080"
    page.context.close()


def test_a_lost_link_dims_the_pub_screen_and_says_so_until_the_table_is_back(
        browser, table, shot) -> None:
    settings = ServerSettings(port=0, referee_token=REFEREE_TOKEN, referee_pin="482913",
                              keepalive=1.0)
    first = Dashboard(table.controller, settings).start()
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(first.url + "?lang=fr")
    page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    notice = page.locator("#linklost")
    assert notice.is_hidden()
    felt = page.locator("#felt").bounding_box()
    port = first.port
    first.stop()
    notice.wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("#felt").bounding_box() == felt  # dimmed where it was, not moved
    shot(page, "lost-link-1920x1080.png")
    big = page.evaluate("""() => ({
      size: parseFloat(getComputedStyle(document.querySelector('.linklost-title')).fontSize),
      dimmed: getComputedStyle(document.querySelector('.room')).filter })""")
    assert notice.inner_text().startswith("Connexion à la table perdue")
    assert big["size"] >= 80, f"the sentence is {big['size']} px at 1080 lines"
    assert "grayscale" in big["dimmed"]
    again = Dashboard(table.controller, ServerSettings(
        port=port, referee_token=REFEREE_TOKEN, referee_pin="482913", keepalive=1.0)).start()
    try:
        notice.wait_for(state="hidden", timeout=WAIT_MS)
        assert page.locator("body.link-lost").count() == 0
    finally:
        again.stop()
        page.context.close()
