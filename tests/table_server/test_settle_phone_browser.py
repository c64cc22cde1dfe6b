"""The settle box on the phones, in headless Chromium at a phone's 390x844 (docs/rules/pending.md,
D-S4): each phone says what to do to its own player; the other player reads who said what, in
the order the owner gave it ("Bob says 1-4-5: agree?"), with the choosers in that order; a word
refused (a die left blank) is said inside the box, beside its button and on the screen; a word
given shows its button done, not lit like "Agree". The table is the simulated one, its camera
unsure of half the dice."""

from __future__ import annotations

import random

import pytest

from .conftest import ARTIFACTS
from .test_referee_waiting import until_dice_wait

pytestmark = [pytest.mark.browser]

WAIT_MS = 10_000
PHONE = {"width": 390, "height": 844}

LUMINANCE = """(node) => {
  // the button's background as drawn: its own colour over the page's, by its alpha
  const rgba = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const [r, g, b, a = 1] = rgba(getComputedStyle(node).backgroundColor);
  const [pr, pg, pb] = rgba(getComputedStyle(document.body).backgroundColor);
  const mix = [r * a + pr * (1 - a), g * a + pg * (1 - a), b * a + pb * (1 - a)];
  const lin = mix.map((v) => {
    v /= 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}"""


def seen(page, name: str) -> None:
    """What the phone's screen shows (not the whole page), under test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def phone(browser, url: str):
    page = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    page.goto(url)
    page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    return page


def test_the_phones_say_who_said_what_in_their_order_show_errors_in_the_box_and_done_as_done(
        browser, served_table) -> None:
    t, d = served_table(seed=31, unsure=0.5)
    until_dice_wait(t, "Bob")
    owner, other = "Bob", "Ann"
    urls = d.seat_urls()
    owner_page, other_page = phone(browser, urls[owner]), phone(browser, urls[other])
    row = other_page.locator(f'.settlerow[data-settle="{owner}"]')
    row.wait_for(timeout=WAIT_MS)
    # each phone says what to do, to its own player (never "Your turn: ... Bob's dice" to Bob)
    assert owner_page.locator("#seat-status").inner_text() == (
        "The camera is not sure of your dice: say their values below.")
    assert other_page.locator("#seat-status").inner_text() == (
        f"The camera is not sure of {owner}'s dice: check them below.")

    # a die left blank: the refusal is in the box, beside "Say these", on the screen
    other_page.evaluate("""() => {
        const pick = document.querySelector('.settlerow select[data-die="1"]');
        pick.value = ""; pick.dispatchEvent(new Event("change"));
    }""")
    say_these = row.locator("button:has-text('Say these')")
    say_these.click()
    error = row.locator(f'[data-settle-error="{owner}"]')
    error.filter(has_text="Choose each die's value, 1 to 6, first.").wait_for(timeout=WAIT_MS)
    button_box, error_box = say_these.bounding_box(), error.bounding_box()
    assert error_box["y"] >= 0 and error_box["y"] + error_box["height"] <= PHONE["height"]
    assert 0 <= error_box["y"] - (button_box["y"] + button_box["height"]) < 48  # right below
    assert other_page.locator("#refusal").inner_text() == ""  # not below the screen
    seen(other_page, "settle-phone-blank-die.png")

    # the owner says the dice in an order of their own (lowest first)
    values = sorted(t.sim.camera.dice()[owner])
    random.Random(1).shuffle(values)
    said = "-".join(map(str, values))
    mine = owner_page.locator(f'.settlerow[data-settle="{owner}"]')
    for i, v in enumerate(values):
        mine.locator(f'select[data-die="{i}"]').select_option(str(v))
    mine.locator("button:has-text('These are my dice')").click()
    done = mine.locator("button:has-text('Said')")
    done.wait_for(timeout=WAIT_MS)
    assert done.is_disabled() and "done" in done.get_attribute("class").split()
    mine.locator(f"p.settlesaid:has-text('You said {said}.')").wait_for(timeout=WAIT_MS)

    # the other phone: who said what, in that order, the choosers likewise, "Agree" lit
    row.locator(f"p.settlesaid:has-text('{owner} says {said}: agree?')").wait_for(
        timeout=WAIT_MS)
    assert [row.locator(f'select[data-die="{i}"]').input_value() for i in range(3)] == [
        str(v) for v in values]
    agree = row.locator("button:has-text('Agree')")
    seen(owner_page, "settle-phone-said.png")
    seen(other_page, "settle-phone-agree.png")
    assert "lit" in agree.get_attribute("class").split()
    lit, dim = agree.evaluate(LUMINANCE), done.evaluate(LUMINANCE)
    assert lit > 3 * dim + 0.05, (lit, dim)  # "Said" reads as done, far from a lit button
    assert row.locator(f'[data-settle-error="{owner}"]').inner_text() == ""  # the owner's word came

    with other_page.expect_response(lambda r: r.url.endswith("/api/settle")) as answer:
        agree.click()
    assert answer.value.status == 200
    last = t.controller.log.entries(t.state()["game_id"])[-1]
    assert last.text.endswith("by players")
