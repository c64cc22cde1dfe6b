""""What happened" on the table view, in headless Chromium: each sentence keeps the number it
got when it was said, as newer ones come in above it and the oldest leave the list (no line is
numbered again at each new event), past the table's 30 kept sentences too."""

from __future__ import annotations

import random

import pytest

pytestmark = [pytest.mark.browser]

WAIT_MS = 10_000

LINES = """() => [...document.querySelectorAll('#events li')].map((n) => [n.value, n.innerText])"""


def test_each_line_of_what_happened_keeps_its_number(browser, served_table) -> None:
    t, d = served_table(seed=3)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(d.url)
    page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    rng = random.Random(3)
    numbered: dict[int, str] = {}
    for _ in range(45):
        t.play_one(rng)
        version = t.state()["version"]
        page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}",
                               timeout=WAIT_MS)
        lines = page.evaluate(LINES)
        values = [v for v, _ in lines]
        assert values == list(range(values[0], values[0] - len(values), -1))  # newest first
        for value, text in lines:
            assert numbered.setdefault(value, text) == text, (value, text, numbered[value])
    state = t.state()
    assert max(numbered) == state["first_event"] + len(state["events"]) - 1 > 30
