"""The referee console in headless Chromium: each form refused comes back with its sentence beside
it and what the referee typed still in it; a multi-hand game of 5 started from the new-game form on
the simulated table, its seats' captain rolls pressed on their phones, each die read from the
simulated camera and shown to its roller. Screenshots under test-artifacts/; with
BIDOU_UPDATE_DOCS_SCREENSHOTS=1 copied into docs/."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from table_server.words.present import prompt

pytestmark = [pytest.mark.browser]

DOCS = Path(__file__).resolve().parents[2] / "docs"
WAIT_MS = 10_000
PIN = "482913"  # served_table's
FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")


@pytest.fixture
def served(served_table):
    return served_table(seed=5)


def console(browser, d, width: int, height: int):
    page = browser.new_context(viewport={"width": width, "height": height},
                               is_mobile=width < 500).new_page()
    page.goto(d.referee_url)
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Referee console')", timeout=WAIT_MS)
    return page


def keep_docs(paths: list[Path]) -> None:
    if os.environ.get("BIDOU_UPDATE_DOCS_SCREENSHOTS"):
        for path in paths:
            shutil.copy(path, DOCS / f"screenshot-{path.name}")


#: each form: what the referee fills in (selector -> value), the sentence it gets back
FORMS = [
    ("enter-dice", {"input[name=values]": "6 5 9"},
     "“6 5 9” are not dice: type three numbers from 1 to 6, such as 6 5 4, or one for a "
     "captain roll."),
    ("reread", {}, "Ann has no exposed dice waiting to be read; a throw with values pending "
                   "is read again when the rules show it."),
    ("zones", {"input[name='Bob.x']": "0", "input[name='Bob.y']": "0"},
     "Ann's zone and Bob's overlap, so a die there would belong to both seats; move one of "
     "them. Nothing was changed."),
    ("fix-dice", {"input[name=position]": "first", "input[name=values]": "6 5 4",
                  "input[name=why]": "the camera misread it"},
     "The action number is the number at the start of a line of the log below (1, 2, "
     "3...), not “first”."),
    ("undo", {"input[name=why]": "pressed twice"}, "There is no action to undo in this game."),
    ("void-hand", {"input[name=why]": "dice off the table"},
     "Nothing has been played in this hand yet; there is nothing to void."),
    ("new-game", {"input[name=players]": "Ann Bob Cy Dee Eve", "input[name=why]": "five came"},
     "The new game cannot start: two-hand is played by exactly 2 players and 5 are named "
     "(Ann, Bob, Cy, Dee, Eve); name 2, or choose multi-hand or montevideo for 3 to 8 "
     "players."),
]


def test_every_console_form_refused_keeps_what_was_typed_beside_its_sentence(
        browser, served, shot) -> None:
    t, d = served
    page = console(browser, d, 1280, 900)
    assert page.locator("#ref-prompt").inner_text() == "Ann's turn: roll for captain."  # a sentence
    for form_id, typed, sentence in FORMS:
        form = page.locator(f"form#{form_id}")
        for selector, value in typed.items():
            form.locator(selector).fill(value)
        with page.expect_navigation(timeout=WAIT_MS):
            form.locator("button[type=submit]").click()
        form = page.locator(f"form#{form_id}")
        assert form.locator(".flash.error").inner_text() == sentence
        for selector, value in typed.items():
            assert form.locator(selector).input_value() == value, (form_id, selector)
        assert page.url.endswith(f"#{form_id}")
    assert t.state()["game_id"] == 1 and t.state()["actions"] == 0  # nothing was played
    taken = []
    for width, height in ((1920, 1080), (390, 844)):
        page = console(browser, d, width, height)
        form = page.locator("form#fix-dice")
        form.locator("input[name=position]").fill("first")
        form.locator("input[name=values]").fill("6 5 4")
        form.locator("input[name=why]").fill("the camera misread it")
        with page.expect_navigation(timeout=WAIT_MS):
            form.locator("button[type=submit]").click()
        form.locator(".flash.error").wait_for(timeout=WAIT_MS)
        box = form.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        check = page.locator("label.check")
        square, words = check.locator("input").bounding_box(), check.locator("span").bounding_box()
        assert square and words and abs((square["y"] + square["height"] / 2)
                                        - (words["y"] + words["height"] / 2)) < 6  # one line
        taken.append(shot(page, f"referee-form-error-{width}.png"))
    keep_docs(taken)


def test_a_five_player_multi_hand_started_from_the_form_rolls_on_five_phones(
        browser, served, shot) -> None:
    t, d = served
    page = console(browser, d, 1280, 900)
    form = page.locator("form#new-game")
    form.locator("input[name=players]").fill(" ".join(FIVE))
    form.locator("select[name=variant]").select_option("multi-hand")
    form.locator("input[name=why]").fill("five came")
    with page.expect_navigation(timeout=WAIT_MS):
        form.locator("button[type=submit]").click()
    assert page.locator(".flash.ok").first.inner_text() == "Game 2 started."
    assert t.state()["players"] == list(FIVE) and t.state()["variant"] == "multi-hand"
    assert list(t.controller.zones()) == list(FIVE)
    assert page.locator("fieldset.zone").count() == 5
    table = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    table.goto(d.url)
    table.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    urls = d.seat_urls()
    for seat in FIVE:  # the captain roll, in seat order, each pressed on the seat's phone
        phone = browser.new_context(viewport={"width": 390, "height": 844},
                                    is_mobile=True).new_page()
        phone.goto(urls[seat])
        phone.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)
        with phone.expect_response(lambda r: r.url.endswith("/api/press"),
                                   timeout=WAIT_MS) as answer:
            phone.click("#btn-THROW")
        assert answer.value.status == 200, answer.value.text()
        read = t.controller.reads.last[seat].values
        assert read == t.sim.camera.dice()[seat]  # thrown in its zone, read from the frame
        phone.locator("#my-captain-roll").wait_for(timeout=WAIT_MS)  # shown to the roller
        assert phone.locator("#my-captain-roll").inner_text() == f"Your captain roll: {read[0]}"
        if seat == "Cy":
            shot(phone, "seat-captain-roll-390.png")
        phone.context.close()
    assert [a.verb for a in t.controller.game.history] == ["roll"] * 5
    now = prompt(t.controller.public_state())  # the console's prompt is kept live
    # quoted as JSON: a prompt says "Ann's turn", and its quote must not end the selector's
    page.locator(f"#ref-prompt:text-is({json.dumps(now)})").wait_for(timeout=WAIT_MS)
    shot(table, "table-five-players-1920.png")
    shot(page, "referee-five-players-1280.png")
