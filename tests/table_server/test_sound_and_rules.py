"""Sound and rules help in headless Chromium: the table view plays the showdown and game-over sounds
only once the visible switch is turned on, and none once it is off again; a player's phone plays
"your turn" and vibrates when the seat's turn comes; the "How to play" overlay shows the rules of
the variant being played and Table 1, all 56 throws in the engine's order, with the player's own
throw marked on the phone; Table 1 is loaded when the overlay opens, so the pages themselves carry
no list of dice (test_leak.py reads them).

What the page plays is read from HTMLMediaElement.play, replaced before the page loads by one
that notes the file and plays nothing; navigator.vibrate likewise notes its pattern."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from engine.ranking import TABLE
from firmware.settings.server_settings import ServerSettings
from table_server.server import Dashboard

from .conftest import REFEREE_TOKEN
from .test_pub_screen import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 10_000
LISTEN = """
window.playCalls = [];
window.vibrations = [];
HTMLMediaElement.prototype.play = function () {
  window.playCalls.push(this.src.split("/").pop());
  return Promise.resolve();
};
Object.defineProperty(navigator, "vibrate", {
  value: (pattern) => { window.vibrations.push(pattern); return true; }, configurable: true });
"""


def dashboard(t: Any) -> Any:
    return Dashboard(t.controller, ServerSettings(port=0, referee_token=REFEREE_TOKEN,
                                                  referee_pin="482913")).start()


def shown(t: Any) -> str:
    return " ".join(f"{s['name']}:{s['exposed']}" for s in t.state()["seats"] if s["exposed"])


def next_showdown(t: Any, rng: random.Random, most: int = 600) -> None:
    """Random legal moves until dice other than those shown now are shown."""
    before = shown(t)
    for _ in range(most):
        t.play_one(rng)
        now = shown(t)
        if now and now != before:
            return
        if not now:
            before = ""
    raise AssertionError(f"no new showdown in {most} moves")


def until(page: Any, expression: str, seconds: float = WAIT_MS / 1000) -> None:
    """Wait until ``expression`` is true in the page (read by page.evaluate, every 0.1 s: the
    page's Content-Security-Policy refuses the string evaluation wait_for_function uses)."""
    end = time.monotonic() + seconds
    while not page.evaluate(f"() => Boolean({expression})"):
        assert time.monotonic() < end, f"not true after {seconds} s: {expression}"
        page.wait_for_timeout(100)


def played(page: Any) -> list[str]:
    return page.evaluate("window.playCalls")


def test_the_table_view_plays_showdown_sounds_only_while_its_switch_is_on(
        browser, table_factory) -> None:
    t = table_factory(variant="two-hand", players=("Ann", "Bob"), seed=21)
    rng = random.Random(21)
    d = dashboard(t)
    try:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.add_init_script(LISTEN)
        page.goto(d.url)
        switch = page.locator("#sound-switch")
        assert switch.is_visible() and switch.get_attribute("aria-pressed") == "false"
        assert "tap to turn on" in switch.inner_text()
        next_showdown(t, rng)
        page.locator(".seat .die").first.wait_for(timeout=WAIT_MS)
        until(page, "window.bidouSounds.some((s) => s.name === 'showdown')")
        assert played(page) == []  # off: the page would have played it, and did not

        switch.click()
        assert switch.get_attribute("aria-pressed") == "true" and switch.inner_text() == "Sound on"
        next_showdown(t, rng)
        until(page, "window.playCalls.includes('showdown.wav')")

        switch.click()
        assert switch.get_attribute("aria-pressed") == "false"
        heard = len(page.evaluate("window.bidouSounds"))
        next_showdown(t, rng)
        until(page, f"window.bidouSounds.length > {heard}")
        assert played(page) == ["showdown.wav"]  # the one played while the switch was on
        page.reload()
        assert page.locator("#sound-switch").get_attribute("aria-pressed") == "false"  # kept
        page.context.close()
    finally:
        d.stop()


def test_the_game_over_sound_plays_once_when_the_game_ends(browser, table_factory) -> None:
    t = table_factory(variant="multi-hand", players=("Ann", "Bob", "Cy"), seed=5)
    d = dashboard(t)
    try:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.add_init_script(LISTEN)
        page.goto(d.url)
        page.locator("#sound-switch").click()
        play_to_the_end(t, 5)
        page.locator("#gameover").wait_for(state="visible", timeout=WAIT_MS)
        until(page, "window.playCalls.includes('gameover.wav')")
        assert played(page).count("gameover.wav") == 1
        page.context.close()
    finally:
        d.stop()


def test_a_phone_sounds_and_vibrates_when_its_turn_comes(browser, table_factory) -> None:
    t = table_factory(variant="two-hand", players=("Ann", "Bob"), seed=8)
    rng = random.Random(8)
    d = dashboard(t)
    try:
        waiting = next(s["name"] for s in t.state()["seats"] if not s["to_act"])
        page = browser.new_context(viewport={"width": 390, "height": 844},
                                   is_mobile=True).new_page()
        page.add_init_script(LISTEN)
        page.goto(d.seat_urls()[waiting])
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        page.locator("#sound-switch").click()
        assert played(page) == [] and page.evaluate("window.vibrations") == []
        for _ in range(50):
            if t.state()["to_act"] == waiting:
                break
            t.play_one(rng)
        assert t.state()["to_act"] == waiting
        until(page, "window.playCalls.includes('turn.wav')")
        assert page.evaluate("window.vibrations")  # and the phone vibrated
        page.context.close()
    finally:
        d.stop()


def table_one_rows(page: Any) -> list[str]:
    """Table 1's rows as the overlay shows them (loaded from the server when it opens)."""
    rows = page.locator("#howto table.tableone:visible tbody tr")
    rows.first.wait_for(timeout=WAIT_MS)
    return rows.evaluate_all(
        "(rows) => rows.map((r) => r.dataset.throw)")


def test_how_to_play_shows_the_variant_and_table_one_with_the_phones_own_throw_marked(
        browser, table_factory, shot) -> None:
    t = table_factory(variant="multi-hand", players=("Ann", "Bob", "Cy"), seed=3)
    rng = random.Random(3)
    d = dashboard(t)
    try:
        table = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        table.goto(d.url)
        assert table.locator("#howto").is_hidden()
        table.locator("#howto-open").click()
        overlay = table.locator("#howto")
        overlay.wait_for(state="visible", timeout=WAIT_MS)
        assert table.locator('[data-rules="multi-hand"]').is_visible()
        assert table.locator('[data-rules="two-hand"]').is_hidden()
        assert table.locator('[data-rules="montevideo"]').is_hidden()
        engine_order = ["-".join(map(str, throw)) for throw in TABLE]
        assert table_one_rows(table) == engine_order  # all 56, in the engine's order
        assert table.locator("#howto tr.mine").count() == 0  # the pub's screen has no own throw
        shot(table, "howto-table-1920x1080.png")
        table.locator("#howto-close").click()
        overlay.wait_for(state="hidden", timeout=WAIT_MS)

        # a phone: the seat's own throw marked once it has thrown
        for _ in range(200):
            mine = t.client.get("/api/seat/Ann", headers=t.auth("Ann")).get_json()
            if mine.get("dice") and len(mine["dice"]) == 3:
                break
            t.play_one(rng)
        dice = "-".join(map(str, sorted(mine["dice"], reverse=True)))
        phone = browser.new_context(viewport={"width": 390, "height": 844},
                                    is_mobile=True).new_page()
        phone.goto(d.seat_urls()["Ann"])
        phone.locator("#my-dice .die").first.wait_for(timeout=WAIT_MS)
        phone.locator("#howto-open").click()
        phone.locator("#howto").wait_for(state="visible", timeout=WAIT_MS)
        assert table_one_rows(phone) == engine_order
        marked = phone.locator("#howto table.tableone:visible tr.mine")
        assert marked.count() == 1 and marked.get_attribute("data-throw") == dice
        assert dice in phone.locator("#howto-mine").inner_text()
        shot(phone, "howto-phone-390x844.png")  # the rules first, the line naming the throw
        phone.locator("#howto-mine").click()  # and a tap on it shows the row
        assert marked.is_visible() and marked.bounding_box()["y"] < 844
        phone.context.close()
        table.context.close()
    finally:
        d.stop()


def test_the_how_to_play_page_lists_table_one_in_the_engines_order_in_each_language(
        table) -> None:
    engine_order = ["-".join(map(str, throw)) for throw in TABLE]
    for language, title in (("en", "How to play Bidou"), ("fr", "Comment jouer au Bidou"),
                            ("es", "Cómo se juega al Bidou")):
        page = table.client.get(f"/how-to-play?lang={language}").get_data(as_text=True)
        assert title in page
        rows = re.findall(r'<tr data-throw="([1-6]-[1-6]-[1-6])"', page)
        assert rows[:56] == engine_order  # the default ranking's table comes first
    # the overlay's Table 1, and no list of throws in the table view's own page
    part = table.client.get("/how-to-play/table-1").get_data(as_text=True)
    assert re.findall(r'<tr data-throw="([1-6]-[1-6]-[1-6])"', part)[:56] == engine_order
    assert "data-throw" not in table.client.get("/").get_data(as_text=True)
