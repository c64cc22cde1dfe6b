"""No English left on the referee's pages, in headless Chromium: the console, its link for another
device (both ends), the Dice page and a known throw's draft (a die added by tapping), how to play
and the history, each in French and in Spanish, with no English word left but the players' names.
Left out: the log of the game, the game record's own notation (``Ann throw 6 5 4``, the same text as
the exported record), and what is set as code (a command, a folder, a config key), which are
names."""

from __future__ import annotations

import pytest

from firmware.table.commands import Correct

from .teach_table import PIN, served_taught
from .test_languages_browser import english_left

WAIT_MS = 15_000

pytestmark = [pytest.mark.browser]


@pytest.fixture
def served(tmp_path):
    with served_taught(tmp_path) as (house, _, d):
        yield house, d


def shown_text(page) -> str:
    """The page's words, without the game record's log and code (see the module docstring)."""
    return page.evaluate("""() => {
        const body = document.body.cloneNode(true);
        const left = 'script, style, #log, #log-earlier, code';
        for (const node of body.querySelectorAll(left)) node.remove();
        return body.innerText;
    }""")


def test_the_referee_s_pages_have_no_english_left_in_french_or_spanish(browser, served) -> None:
    house, d = served
    house.controller.submit(Correct("new-game", "Ref", "a finished game for the history"))
    url = d.url.rstrip("/")
    for language in ("fr", "es"):
        page = browser.new_context(viewport={"width": 1280, "height": 900},
                                   locale=language).new_page()
        page.goto(f"{url}/referee")
        assert not english_left(shown_text(page)), "the login page"
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        page.wait_for_selector("#dice-link", timeout=WAIT_MS)
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        page.wait_for_timeout(300)  # the live part drawn from the referee's state
        assert page.get_attribute("html", "lang") == language
        seen = {"/referee": english_left(shown_text(page))}
        page.click("form[action$='/referee/pass'] button")  # "Log in another device"
        page.wait_for_selector("#pass-link", timeout=WAIT_MS)
        seen["the link for another device"] = english_left(shown_text(page))
        other = browser.new_context(locale=language).new_page()
        other.goto(page.get_attribute("#pass-link", "href"))
        seen["the link opened on the other device"] = english_left(shown_text(other))
        other.context.close()
        page.goto(f"{url}/referee")
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        page.click("#dice-link")
        page.wait_for_selector("#take-button", timeout=WAIT_MS)
        seen["/referee/dice"] = english_left(shown_text(page))
        page.click("#take-button")
        page.wait_for_selector("#picture-img", timeout=WAIT_MS)
        page.click("#add-die")  # its button's words change, and the summary says the dice
        box = page.locator("#picture-img").bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#chooser:not([hidden])", timeout=WAIT_MS)
        seen["a known throw's draft"] = english_left(shown_text(page))
        for path in ("/how-to-play", "/history", "/history/1"):
            page.goto(url + path)
            seen[path] = english_left(shown_text(page))
        left = {where: words for where, words in seen.items() if words}
        assert not left, f"English left in {language}: {left}"
