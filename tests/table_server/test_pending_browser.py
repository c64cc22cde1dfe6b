"""Values pending, end to end (docs/rules/pending.md): the simulated table's camera is unsure
of 30% of the dice, and a two-hand match is played to its end with no referee. Throws count
whatever the camera makes of them; each exposed die the camera still cannot read is settled
from the two seats' phone pages in headless Chromium: the owner says the values, the other
player agrees. A player who says other values is refused with a sentence, and the seat goes
to the referee, whose entry settles it.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from engine import replay
from firmware.words.phrases import english

WAIT_MS = 10_000
DOCS = Path(__file__).resolve().parents[2] / "docs"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def served(served_table):
    return served_table(seed=31, unsure=0.3)


def open_pages(browser, d):
    table_page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table_page.goto(d.url)
    table_page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    seats = {}
    for seat, url in d.seat_urls().items():
        page = browser.new_context(viewport={"width": 412, "height": 915},
                                   is_mobile=True).new_page()
        page.goto(url)
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        seats[seat] = page
    return table_page, seats


def say_on_phone(page, owner: str, values, label: str) -> object:
    """On a seat page: set ``owner``'s dice to ``values`` and click the button ``label``."""
    row = page.locator(f'.settlerow[data-settle="{owner}"]')
    row.wait_for(timeout=WAIT_MS)
    button = row.locator(f'button[data-settle-send="{owner}"]:has-text("{label}")')
    button.wait_for(timeout=WAIT_MS)
    for i, v in enumerate(values):
        row.locator(f'select[data-die="{i}"]').select_option(str(v))
    with page.expect_response(lambda r: r.url.endswith("/api/settle"),
                              timeout=WAIT_MS) as answer:
        button.click()
    return answer.value


def settle_pictures(shot, table_page, phone) -> None:
    """The settle flow as docs/rules/pending.md shows it: the table view at a TV's and a
    phone's width, and the owner's phone, under test-artifacts/; with
    BIDOU_UPDATE_DOCS_SCREENSHOTS=1 copied into docs/."""
    taken = []
    for page, name, sizes in ((table_page, "table", ((1920, 1080), (390, 844))),
                              (phone, "seat", ((390, 844),))):
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            taken.append(shot(page, f"settle-{name}-{width}.png"))
    table_page.set_viewport_size({"width": 1280, "height": 800})
    phone.set_viewport_size({"width": 412, "height": 915})
    if os.environ.get("BIDOU_UPDATE_DOCS_SCREENSHOTS"):
        for path in taken:
            shutil.copy(path, DOCS / f"screenshot-{path.name}")


def random_move(t, rng: random.Random):
    """One random legal move of the seat to act, through the API with its own token."""
    options = t.controller.game.allowed()
    stands = [a for a in options if a.verb == "stand"]
    choice = stands[0] if stands and rng.random() < 0.6 else rng.choice(
        [a for a in options if a.verb != "stand"] or options)
    chips = choice.min_chips if choice.min_chips is not None else None
    response = t.act(choice.player, choice.verb, chips)
    assert response.status_code == 200, response.get_json()


def test_D_S4_a_match_at_30_percent_unsure_ends_with_no_referee_settled_from_two_phones(
        browser, served, shot) -> None:
    t, d = served
    table_page, seats = open_pages(browser, d)
    rng = random.Random(31)
    settled_on_phones = pending_throws = 0
    for _ in range(3000):
        if t.controller.game.over:
            break
        state = t.state()
        if not state["settling"]:
            random_move(t, rng)
            history = t.controller.game.history
            pending_throws += history[-1].pending if history else 0
            continue
        waiting = state["settling"][0]
        owner, (other,) = waiting["seat"], waiting["witnesses"]
        values = list(t.sim.camera.dice()[owner])
        # the felt's centre shows the seat's picture, unsure dice marked; the banner asks
        card = table_page.locator(f'#centre .settle[data-settle="{owner}"]')
        card.wait_for(timeout=WAIT_MS)
        if settled_on_phones == 0:
            assert card.locator("img.settlepic").count() == 1
            assert owner in table_page.locator("#prompt").inner_text()
            shot(table_page, "table-settle.png")
            settle_pictures(shot, table_page, seats[owner])
        assert say_on_phone(seats[owner], owner, values, "These are my dice").status == 200
        answer = say_on_phone(seats[other], owner, values, "Agree")  # prefilled: the owner's
        assert answer.status == 200, answer.text()
        settled_on_phones += 1
        if settled_on_phones == 1:
            shot(seats[other], f"seat-{other}-agreed.png")
    game = t.controller.game
    assert game.over, "the match should be over"
    entries = t.controller.log.entries(t.state()["game_id"])
    assert not any(e.by == "referee" for e in entries)  # nobody stood by the table
    assert pending_throws >= 10 and settled_on_phones >= 3
    assert any(e.text.endswith("by players") for e in entries)
    record = t.controller.record(t.state()["game_id"])
    assert record.format == "bidou-record/2" and replay(record).state() == game.state()


def test_D_S4_a_disagreement_is_refused_with_a_sentence_and_goes_to_the_referee(
        browser, served) -> None:
    t, d = served
    table_page, seats = open_pages(browser, d)
    rng = random.Random(5)
    for _ in range(2000):
        if t.state()["settling"] or t.controller.game.over:
            break
        random_move(t, rng)
    waiting = t.state()["settling"][0]
    owner, (other,) = waiting["seat"], waiting["witnesses"]
    values = list(t.sim.camera.dice()[owner])
    wrong = [values[0] % 6 + 1, *values[1:]]
    assert say_on_phone(seats[owner], owner, values, "These are my dice").status == 200
    answer = say_on_phone(seats[other], owner, wrong, "Agree")
    assert answer.status == 409
    sentence = answer.json()["error"]
    assert sentence.startswith(f"{other} says {owner}'s dice show ")
    assert sentence.endswith(f"the referee settles {owner}'s dice.")
    seats[other].locator(f'[data-settle-error="{owner}"]:has-text({sentence!r})').wait_for(
        timeout=WAIT_MS)  # in the settle box, beside its button
    table_page.locator(f'#prompt:has-text("the referee settles {owner}")').wait_for(
        timeout=WAIT_MS)
    [dispute] = t.controller.referee_state()["disputes"]
    assert (dispute["seat"], english(dispute["sentence"])) == (owner, sentence)
    again = t.client.post("/api/settle", json={"seat": owner, "player": owner,
                                               "values": values}, headers=t.auth(owner))
    assert again.status_code == 409 and "with the referee" in again.get_json()["error"]
    entered = t.client.post("/api/referee/dice", json={"seat": owner, "values": values},
                            headers=t.auth("referee"))
    assert entered.status_code == 200, entered.get_json()
    last = t.controller.log.entries(t.state()["game_id"])[-1]
    assert last.text.endswith("by referee") and last.by == "referee"
    assert t.controller.referee_state()["disputes"] == []
