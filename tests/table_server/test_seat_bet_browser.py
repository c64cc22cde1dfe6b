"""A two-hand bet on the phone, in headless Chromium at 390x844: the rules allow one chip only
(T5), so BET says "BET 1" and one tap bets it (no "+1 → BET 1" then "BET 1"); the other phone
then says the bet facing its player, and its BET says "RAISE 1"."""

from __future__ import annotations

import random

import pytest

pytestmark = [pytest.mark.browser]

WAIT_MS = 10_000


def test_a_two_hand_bet_takes_one_tap_and_the_other_phone_says_the_bet_it_faces(
        browser, served_table) -> None:
    t, d = served_table(seed=11)
    rng = random.Random(11)
    while t.controller.game.expects != "bet":
        t.play_one(rng)
    better = t.controller.game.to_act
    other = next(p for p in t.controller.game.players if p != better)
    pages = {}
    for seat, url in d.seat_urls().items():
        page = browser.new_context(viewport={"width": 390, "height": 844},
                                   is_mobile=True).new_page()
        page.goto(url)
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        pages[seat] = page
    bet = pages[better].locator("#btn-BET")
    bet.filter(has_text="BET 1").wait_for(timeout=WAIT_MS)
    with pages[better].expect_response(lambda r: r.url.endswith("/api/act")) as answer:
        bet.click()
    assert answer.value.status == 200
    assert [str(a) for a in t.controller.game.history[-1:]] == [f"{better} bet 1"]
    assert t.state()["seats"][0]["offered"] == 0 == t.state()["seats"][1]["offered"]
    facing = pages[other].locator("#seat-facing")
    facing.filter(has_text=f"Facing you: {better}'s bet of 1 chip.").wait_for(timeout=WAIT_MS)
    assert facing.is_visible()
    pages[other].locator("#btn-BET", has_text="RAISE 1").wait_for(timeout=WAIT_MS)
    pages[other].locator("#btn-CALL", has_text="CALL 1").wait_for(timeout=WAIT_MS)
    assert pages[better].locator("#seat-facing").is_hidden()
