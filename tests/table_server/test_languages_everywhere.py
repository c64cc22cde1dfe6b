"""Every page and state a person sees, in French and in Spanish, in headless Chromium, with no
English word left and no number written the English way (``page_language``: dates, times,
ordinals, decimal points, a plural that does not agree with its count, a French "de" not
elided before a vowel).

A two-hand match is played to its end on the simulated table, its camera unsure of 40% of the
dice, through the API; at each moment a person meets for the first time (the captain roll, a
throw, a settle, chips moving, a showdown, a lost round, the open throw, the game over) the pub
screen, both phones and the referee console are opened in each language and read, the phone's
how to play with its own throw marked too. Then how to play, the history and a game's chart,
and the error pages. A second test reads the Dice page (a known throw taken, a die added,
saved and opened), the console's login and its link for another device, on a table taught its
dice. The browser itself is English and each page is switched to the language by its switch,
as a French player's phone set to English would be. Left out: the game's log on the console
(the record's own notation, as exported), what is set as code, and what is marked English
(``lang="en"``). The moments are read on pages opened then, not followed live, so the match
costs a few seconds of the browser's time.
"""
from __future__ import annotations

import json
import random

import pytest

from .page_language import problems, shown_text
from .teach_table import PIN, served_taught

WAIT_MS = 15_000
LANGUAGES = ("fr", "es")
#: Left out of every page: what is set as code (a command for whoever installs the table, a
#: config key) and what is marked as English (``lang="en"``: the camera's own technical note
#: after a sentence in the page's language).
NAMED = ("code", "[lang=en]")
#: Left out of the console too: the game's log, in the record's own notation (the same text as
#: the exported record).
CONSOLE = (*NAMED, "#log", "#log-earlier")
#: The browser's own language: the pages are switched to French or Spanish by the page's
#: switch, so what follows the browser's language rather than the page's (a date) shows.
BROWSER = "en-US"

pytestmark = [pytest.mark.browser]


def moment_of(state: dict, seen: set[str]) -> str | None:
    """The moment the table is at, if a person meets it here for the first time."""
    events = json.dumps(state["events"])
    now = {
        "the game over": state["over"],
        "a settle": bool(state["settling"]),
        "the open throw": "Open throw:" in events,
        "a lost round": any((state.get("rounds_lost") or {}).values()),
        "a showdown": bool(state.get("showdown")),
        "chips moved": any(e.get("kind") == "move" for e in state.get("settled") or []),
        "the captain roll": state["actions"] == 0,
        "a throw": any(s["throws"] for s in state["seats"]),
    }
    return next((moment for moment, here in now.items() if here and moment not in seen), None)


class Screens:
    """The pages of one language: the pub screen, each seat's phone and the console, each
    opened afresh for a moment and left blank after (so none follows the match meanwhile)."""

    def __init__(self, browser, url: str, seats: dict[str, str], language: str) -> None:
        self.language, self.url, self.seats = language, url.rstrip("/"), seats
        self.context = browser.new_context(viewport={"width": 1280, "height": 900},
                                           locale=BROWSER)
        self.page = self.context.new_page()
        self.page.goto(f"{self.url}/?lang={language}")  # the switch's cookie: every page
        self.page.goto(f"{self.url}/referee")
        self.page.fill("input[name=pin]", PIN)
        self.page.click("button[type=submit]")
        self.page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)

    def read(self, url: str, version: int | None, leave: tuple[str, ...] = NAMED) -> str:
        self.page.goto(url)
        self.page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        if version is not None:
            self.page.wait_for_selector(f"body[data-version='{version}']", timeout=WAIT_MS)
        else:
            self.page.wait_for_timeout(300)  # the console's live part, drawn from its state
        return shown_text(self.page, leave)

    def moment(self, state: dict, howto: str | None) -> dict[str, str]:
        """Every screen's words at this moment; ``howto``: a seat whose phone opens how to
        play (its own throw marked there)."""
        version = state["version"]
        said = {"the pub screen": self.read(f"{self.url}/", version)}
        for seat, url in self.seats.items():
            said[f"{seat}'s phone"] = self.read(url, version)
            if seat == howto:
                self.page.click("#howto-open")
                self.page.wait_for_selector("#howto-table table", timeout=WAIT_MS)
                self.page.wait_for_selector("#howto-mine:not([hidden])", timeout=WAIT_MS)
                said[f"{seat}'s how to play"] = shown_text(self.page, NAMED)
        said["the console"] = self.read(f"{self.url}/referee", None, CONSOLE)
        self.page.goto("about:blank")
        return said


def found_in(said: dict[str, str], language: str) -> dict[str, list[str]]:
    return {where: left for where, text in said.items() if (left := problems(text, language))}


def random_move(t, rng: random.Random) -> None:
    """One random legal move of the seat to act, through the API with its own token; values
    pending are settled from the phones, as the players would."""
    if t.state()["settling"]:
        answers = t.settle_from_phones(t.state()["settling"][0]["seat"])
        assert all(a.status_code == 200 for a in answers), [a.get_json() for a in answers]
        return
    options = t.controller.game.allowed()
    stands = [a for a in options if a.verb == "stand"]
    choice = stands[0] if stands and rng.random() < 0.4 else rng.choice(
        [a for a in options if a.verb != "stand"] or options)
    response = t.act(choice.player, choice.verb, choice.min_chips)
    assert response.status_code == 200, response.get_json()


def test_every_moment_of_a_match_is_said_in_french_and_spanish_with_no_english(
        browser, served_table) -> None:
    t, d = served_table(seed=4, unsure=0.4)
    screens = [Screens(browser, d.url, d.seat_urls(), language) for language in LANGUAGES]
    rng = random.Random(4)
    seen: set[str] = set()
    left: dict[str, dict[str, list[str]]] = {}
    for _ in range(3000):
        state = t.state()
        moment = moment_of(state, seen)
        if moment is not None:
            seen.add(moment)
            mine = [s["seat"] for s in t.state()["settling"]]
            howto = next((s for s in d.seat_urls() if s not in mine and t.client.get(
                f"/api/seat/{s}", headers=t.auth(s)).get_json().get("dice")), None)
            for screen in screens:
                said = screen.moment(state, howto if moment == "a throw" else None)
                for where, words in found_in(said, screen.language).items():
                    left[f"{screen.language}, {moment}, {where}"] = words
        if state["over"]:
            break
        random_move(t, rng)
    assert {"the captain roll", "a throw", "a settle", "a showdown", "a lost round",
            "the game over"} <= seen, seen
    game = t.state()["game_id"]
    for screen in screens:
        said = {}
        for path in ("/how-to-play", "/history", f"/history/{game}", "/seat/Nobody",
                     "/history/999", "/no-such-page"):
            screen.page.goto(screen.url + path)
            said[path] = shown_text(screen.page, NAMED)
        for where, words in found_in(said, screen.language).items():
            left[f"{screen.language}, {where}"] = words
    assert not left, "\n".join(f"{where}: {words}" for where, words in left.items())


@pytest.fixture
def taught(tmp_path):
    with served_taught(tmp_path) as (house, _, d):
        yield house, d


def test_the_dice_page_and_the_console_s_links_are_said_in_french_and_spanish(
        browser, taught) -> None:
    """The Dice page through a known throw (taken, a die added, saved, opened), the console's
    login page and its link for another device at both ends."""
    house, d = taught
    url = d.url.rstrip("/")
    left = {}
    for language in LANGUAGES:
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   locale=BROWSER).new_page()
        page.goto(f"{url}/referee?lang={language}")
        said = {"the login page": shown_text(page, NAMED)}
        page.fill("input[name=pin]", PIN)
        page.click("button[type=submit]")
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        page.click("form[action$='/referee/pass'] button")  # "Log in another device"
        page.wait_for_selector("#pass-link", timeout=WAIT_MS)
        said["the link for another device"] = shown_text(page, CONSOLE)
        other = browser.new_context(locale=language).new_page()  # a phone of that language
        other.goto(page.get_attribute("#pass-link", "href"))
        said["the link opened on the other device"] = shown_text(other, CONSOLE)
        other.context.close()
        page.goto(f"{url}/referee/dice")
        page.wait_for_selector("#take-button", timeout=WAIT_MS)
        said["/referee/dice"] = shown_text(page, NAMED)
        page.click("#take-button")
        page.wait_for_selector("#picture-img", timeout=WAIT_MS)
        page.click("#add-die")  # its button's words change, and the summary says the dice
        box = page.locator("#picture-img").bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#chooser:not([hidden])", timeout=WAIT_MS)
        said["a known throw's draft"] = shown_text(page, NAMED)
        page.click("#chooser button[data-value='5']")
        page.click("#save-button")
        page.wait_for_selector(".flash", timeout=WAIT_MS)
        said["the Dice page after saving"] = shown_text(page, NAMED)
        page.click(".knownthrow")
        page.wait_for_selector("#delete-button", timeout=WAIT_MS)
        said["a known throw"] = shown_text(page, NAMED)
        left.update({f"{language}, {where}": words
                     for where, words in found_in(said, language).items()})
    assert not left, "\n".join(f"{where}: {words}" for where, words in left.items())
