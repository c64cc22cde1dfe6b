"""Phones in headless Chromium: a double tap is one press, a refusal lives only on its
player's phone until their situation changes, and the pages speak French and Spanish with no
English left but names. Screenshots of the seat page in French and Spanish at 390x844 go to
test-artifacts/, and with BIDOU_UPDATE_DOCS_SCREENSHOTS=1 to docs/ (``screenshot-seat-fr.png``,
``screenshot-seat-es.png``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from firmware.words.phrases import english

from .page_language import english_left

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 10_000
PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser]

def token_of(url: str) -> str:
    return parse_qs(urlparse(url).query)["token"][0]


@pytest.fixture
def served(served_table):
    return served_table(seed=4)


def phone(browser, url: str, locale: str = "en-GB"):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, locale=locale)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    return ctx, page


def test_a_double_tap_on_roll_is_one_press_and_shows_nothing(browser, served) -> None:
    t, d = served
    c = t.controller
    first = c.public_state()["to_act"]
    _, page = phone(browser, d.seat_urls()[first])
    page.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)
    answers = []
    page.on("response", lambda r: answers.append(r) if r.url.endswith("/api/press") else None)
    page.dblclick("#btn-THROW")
    page.wait_for_timeout(1500)
    assert [a.status for a in answers] == [200, 200]  # the second tap: the same answer
    assert c.public_state()["actions"] == 1  # one roll, not a roll and a refusal
    assert page.inner_text("#refusal") == ""
    assert not any("turn" in english(e) for e in c.public_state()["events"])


def test_a_refusal_stays_on_its_phone_until_its_turn_comes(browser, served) -> None:
    t, d = served
    c = t.controller
    first = c.public_state()["to_act"]
    other = next(s for s in c.public_state()["players"] if s != first)
    table = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    table.goto(d.url)
    table.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    ctx, page = phone(browser, d.seat_urls()[other])
    # the other player presses out of turn (a panel, or a tap racing the light)
    token = token_of(d.seat_urls()[other])
    answer = ctx.request.post(d.url + "api/press", data={"seat": other, "button": "THROW"},
                              headers={"Authorization": f"Bearer {token}"})
    assert answer.status == 409
    page.reload()
    page.wait_for_selector("#refusal:has-text('not yours')", timeout=WAIT_MS)
    assert "not yours" not in table.inner_text("body")  # never on the pub's screen
    # the first player rolls: the other's turn comes, and the refusal is gone
    _, mine = phone(browser, d.seat_urls()[first])
    mine.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)
    mine.click("#btn-THROW")
    page.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)
    page.locator("#refusal").filter(has_text="not yours").wait_for(state="detached",
                                                                   timeout=WAIT_MS)
    assert page.inner_text("#refusal") == ""


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_pages_speak_the_phones_language_with_no_english_left(browser, served, shot,
                                                                   language) -> None:
    t, d = served
    c = t.controller
    first = c.public_state()["to_act"]
    ctx, page = phone(browser, d.seat_urls()[first], locale=language)
    page.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)
    assert page.get_attribute("html", "lang") == language
    # the table view and a few turns, so the events, prompt and badges have words
    table = ctx.new_page()  # the pub's screen speaks [table] language: here, its switch
    table.goto(f"{d.url}?lang={language}")
    table.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    page.click("#btn-THROW")
    table.wait_for_selector("#events li", timeout=WAIT_MS)
    page.wait_for_timeout(500)
    for shown in (page, table):
        left = english_left(shown.inner_text("body"))
        assert not left, f"English left on {shown.url} in {language}: {left}"
    english = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    english.goto(d.url)
    english.wait_for_selector("#events li", timeout=WAIT_MS)
    assert english_left(english.inner_text("body"))  # the word list finds English
    for path in ("history", "referee", "seat/Nobody"):
        other = ctx.new_page()
        other.goto(d.url + path)
        left = english_left(other.inner_text("body"))
        assert not left, f"English left on /{path} in {language}: {left}"
    taken = shot(page, f"seat-{language}.png")
    if os.environ.get("BIDOU_UPDATE_DOCS_SCREENSHOTS"):
        shutil.copy(taken, ROOT / "docs" / f"screenshot-seat-{language}.png")


def test_the_language_switch_is_remembered(browser, served) -> None:
    _, d = served
    ctx, page = phone(browser, d.seat_urls()["Ann"], locale="en-GB")
    assert page.inner_text(".mydice h2") == "Your dice"
    page.click("#langs a[data-lang=es]")
    page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    assert page.inner_text(".mydice h2") == "Tus dados"
    again = ctx.new_page()
    again.goto(d.url + "history")
    assert again.inner_text("h1") == "Partidas terminadas"  # the cookie: every page
