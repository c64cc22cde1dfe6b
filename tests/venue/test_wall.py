"""The venue wall made for a TV, against the real hub (nats-server), PostgreSQL and the screen's own
process, in Chromium at 1920x1080 with 2, 6 and 12 tables: the server draws every table in the first
paint (no "Loading the tables"); the cards fill the screen without overlapping or running off it,
each seat's row (name, chips, dice) stays inside its card, and a seat's name is at least 24 px even
with 12 tables of eight; each seat's last shown throw stays on the wall after the showdown; the
venue's internal counts (entries, still to come) are on the owner's status page, not on the wall.

The tables' states are published to the hub as each table's forwarder publishes them
(``venue.forwarder.summary`` of ``firmware.table.views.public_state`` of a game played at random),
so a dozen tables cost no dozen processes."""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from venue_harness import Venue, wait_until

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.table.views import public_state
from venue.forwarder import summary
from venue.messages import state_subject

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")
#: The least font size of a seat's name on the wall at 1920x1080, 12 tables of eight.
LEAST_NAME_PX = 24.0
LEAST_COVERAGE = 0.75  # of the screen, by the cards


def states(table: str, seats: int, seed: int) -> list[dict[str, Any]]:
    """Two states of one table's game, as its forwarder publishes them: at a showdown (some
    dice exposed), then once the next hand is under way (none exposed)."""
    rng = random.Random(seed)
    game = new_game("two-hand" if seats == 2 else "multi-hand", list(NAMES[:seats]))
    out: list[dict[str, Any]] = []
    for version in range(1, 5000):
        game.apply(random_action(game, rng))
        shown = any(v.exposed for v in game.views())
        if shown == (not out):  # first a showdown, then a state with nothing shown
            state = public_state(game, game_id=1, status="playing", version=version,
                                 offered={}, events=[], settled=[], camera={},
                                 hand_actions=0)
            out.append(summary(state) | {"table": table, "venue": "pub", "log_id": "L",
                                         "entries": version, "waiting": 0, "at": time.time()})
            if len(out) == 2:
                return out
    raise AssertionError("no showdown in 5000 random actions")


@pytest.fixture
def venue_of(dsn: str) -> Iterator[Any]:
    made: list[Venue] = []

    def make(count: int) -> Venue:
        folder = Path(tempfile.mkdtemp(prefix="bidou-wall-"))
        made.append(Venue(folder, dsn, tables=tuple(f"t{i}" for i in range(1, count + 1))))
        return made[-1]

    try:
        yield make
    finally:
        for v in made:
            v.stop_all()
            shutil.rmtree(v.folder, ignore_errors=True)


MEASURE = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const cards = [...document.querySelectorAll('.card')];
  return {
    cards: cards.map((c) => ({ name: c.dataset.table, ...box(c),
      seatsInside: [...c.querySelectorAll('.seat, .seat > span')].every((s) => {
        const r = s.getBoundingClientRect(), o = c.getBoundingClientRect();
        return r.bottom <= o.bottom + 0.5 && r.right <= o.right + 0.5; }) })),
    names: [...document.querySelectorAll('.seat .name')]
      .map((n) => parseFloat(getComputedStyle(n).fontSize)),
    scroll: document.documentElement.scrollHeight,
  };
}"""


@pytest.mark.parametrize("count", [2, 6, 12])
def test_the_wall_fills_a_tv_with_every_table_as_a_felt(venue_of, count: int) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent: `sudo apt-get install chromium` to run it")
    from playwright.sync_api import sync_playwright  # lazy: only the browser tests need it

    venue = venue_of(count)
    venue.start_hub()
    venue.start_ingester()
    venue.start_screen()
    seats = {f"t{i}": (2, 3, 5, 8)[i % 4] for i in range(1, count + 1)}
    seats["t1"] = 8  # the largest table is always there
    published = {table: states(table, n, seed=int(table[1:]) * 31 + n)
                 for table, n in seats.items()}
    # the showdowns first, seen by the wall (which takes each table's latest state when it
    # subscribes), then the next hands: the wall keeps the dice it saw shown
    for step, what in enumerate(("the showdowns", "the next hands")):
        for table in seats:
            state = published[table][step]
            assert venue.publish_all(table, [(state_subject("pub", table),
                                              json.dumps(state).encode())]) == [None]
        wait_until(lambda step=step: all(
            t["state"] and t["state"]["version"] == published[t["name"]][step]["version"]
            for t in venue.get("/api/tables")[1]), 20, what)

    with urllib.request.urlopen(venue.screen, timeout=10) as r:  # the first paint, no script
        first = r.read().decode()
    assert "Loading" not in first
    for table in seats:
        assert f'data-table="{table}"' in first
    assert "entries at the venue" not in first and "still to come" not in first.lower()
    status = venue.get("/status")[1]
    assert "Entries at the venue" in status and "Still to come" in status
    for table in seats:
        assert f'data-table="{table}"' in status

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(venue.screen)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"wall-{count}-tables-1920x1080.png"))
            m = page.evaluate(MEASURE)
        finally:
            browser.close()
    cards = m["cards"]
    print(f"{count} tables: names {min(m['names']):.1f}-{max(m['names']):.1f} px, cards cover "
          f"{sum(c['width'] * c['height'] for c in cards) / (1920 * 1080):.0%}")
    assert sorted(c["name"] for c in cards) == sorted(seats)
    assert not [(a["name"], b["name"]) for a, b in combinations(cards, 2)
                if a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
                and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]]
    assert all(c["x"] >= 0 and c["x"] + c["width"] <= 1920.5 and c["y"] + c["height"] <= 1080.5
               for c in cards), cards
    assert m["scroll"] <= 1080, "the wall scrolls: a TV shows no scroll bar's other half"
    assert all(c["seatsInside"] for c in cards), [c["name"] for c in cards
                                                  if not c["seatsInside"]]
    assert sum(c["width"] * c["height"] for c in cards) >= LEAST_COVERAGE * 1920 * 1080
    assert min(m["names"]) >= LEAST_NAME_PX
    # the showdown's dice stay on the wall once the next hand is under way
    showdown = published["t1"][0]
    exposed = {s["name"]: s["exposed"] for s in showdown["seats"] if s["exposed"]}
    assert exposed and not any(s["exposed"] for s in published["t1"][1]["seats"])
    for name, dice in exposed.items():
        shown = "-".join(map(str, sorted(dice, reverse=True)))
        assert f'data-seat="{name}"' in first and f'data-shown="{shown}"' in first
