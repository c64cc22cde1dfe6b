"""The referee console puts what waits first and says it plainly: "Enter dice" and "Read its
dice again" have the seat whose dice wait chosen, a refusal says which seat to choose (never a
rule code), and a flag that comes again and again is one line with its count."""

from __future__ import annotations

import html
import random
import re

import pytest

from firmware.camera.seat_reads import SeatReads
from firmware.table.views import folded_flags
from firmware.words.phrases import N_

from .test_referee_forms import form_html

RULE_CODE = re.compile(r"\((?:D-)?[A-Z]{1,2}\d+\)")


def until_dice_wait(t, seat: str, seed: int = 3) -> None:
    """Random legal moves through the API, the phones settling every exposed die of the
    other seats, until ``seat``'s shown dice wait for their values."""
    rng = random.Random(seed)
    for _ in range(3000):
        settling = t.state()["settling"]
        if settling and settling[0]["seat"] == seat:
            return
        if settling:
            assert all(a.status_code == 200 for a in t.settle_from_phones(settling[0]["seat"]))
            continue
        options = t.controller.game.allowed()
        choice = rng.choice(options)
        assert t.act(choice.player, choice.verb, choice.min_chips).status_code == 200
    raise AssertionError(f"{seat}'s dice never waited")


def test_enter_dice_and_read_again_have_the_seat_whose_dice_wait_chosen(table_factory) -> None:
    t = table_factory(seed=31, unsure=0.5)
    until_dice_wait(t, "Bob")
    t.login()
    page = t.client.get("/referee").get_data(as_text=True)
    for form_id in ("enter-dice", "reread"):
        options = re.findall(r"<option ([^>]*)>(\w+)</option>", form_html(page, form_id))
        assert [name for attrs, name in options if "selected" in attrs] == ["Bob"], form_id
    assert t.client.get("/api/referee/state").get_json()["waiting_seat"] == "Bob"


def test_dice_entered_for_a_seat_whose_dice_do_not_wait_are_refused_naming_the_one_to_choose(
        table_factory) -> None:
    t = table_factory(seed=31, unsure=0.5)
    until_dice_wait(t, "Bob")
    t.login()
    actions = t.state()["actions"]
    response = t.client.post("/referee/dice", data={"seat": "Ann", "values": "6 5 4",
                                                    "csrf": t.csrf()})
    assert response.status_code == 303
    form = form_html(t.client.get("/referee").get_data(as_text=True), "enter-dice")
    sentence = ("Bob's shown dice wait for their values before anything else is played: "
                "choose Bob to enter them.")
    assert f'<p class="flash error" role="alert">{sentence}</p>' in form
    assert not RULE_CODE.search(form)
    assert t.state()["actions"] == actions
    french = t.client.post("/referee/dice?lang=fr", data={"seat": "Ann", "values": "6 5 4",
                                                          "csrf": t.csrf()})
    assert french.status_code == 303
    form = html.unescape(form_html(t.client.get("/referee?lang=fr").get_data(as_text=True),
                                   "enter-dice"))
    assert "choisissez Bob" in form and not RULE_CODE.search(form)


def kept_aside(seat: str, n: int):
    return N_("%(p)s's throw %(n)s in round 2 has values pending: the dice kept aside cannot "
              "be checked against it; it counts.", p=seat, n=n)


def test_a_flag_said_again_and_again_is_one_line_with_its_count_saying_the_latest() -> None:
    """Counted over the whole game, not only over the latest 30 flags the list keeps."""
    reads = SeatReads(None)
    again = N_("%(p)s's throw %(n)s shows the same dice in the same places as the throw "
               "before: possibly not thrown.", p="Ann", n=2)
    reads.flag(kept_aside("Ann", 1))
    reads.flag(again)
    for n in range(40):
        reads.flag(kept_aside("AB"[n % 2], n % 3 + 1))
    assert len(reads.flags) == 30
    lines = folded_flags(reads.flag_kinds)
    assert [line["count"] for line in lines] == [41, 1]
    assert lines[0]["said"] == kept_aside("B", 39 % 3 + 1).to_json()  # the latest of its kind
    assert lines[1]["said"] == again.to_json()


def test_the_console_lists_twelve_flags_of_one_kind_as_one_line_without_rule_codes(
        table) -> None:
    for n in range(12):
        table.controller.reads.flag(kept_aside("Ann" if n % 2 else "Bob", n % 3 + 1))
    table.login()
    page = table.client.get("/referee").get_data(as_text=True)
    flags = re.search(r'<ul id="flags".*?</ul>', page, flags=re.S).group(0)
    lines = re.findall(r"<li>(.*?)</li>", flags, flags=re.S)
    assert len(lines) == 1, lines
    assert lines[0].endswith('<span class="times">×12</span>')
    assert "Ann&#39;s throw 3 in round 2" in lines[0] and not RULE_CODE.search(lines[0])
    state = table.client.get("/api/referee/state").get_json()
    assert len(state["flags"]) == 12 and state["flag_lines"][0]["count"] == 12


@pytest.mark.browser
def test_an_open_console_chooses_the_seat_whose_dice_begin_to_wait(browser, served_table
                                                                   ) -> None:
    """The console stays open through a game: when dice begin to wait, "Enter dice" and
    "Read its dice again" choose their seat without a reload."""
    t, d = served_table(seed=31, unsure=0.5)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(d.referee_url)
    page.fill("input[name=pin]", "482913")
    page.click("button[type=submit]")
    page.wait_for_selector("#live[data-state=live]", timeout=10_000)
    assert page.locator("#enter-dice select[name=seat]").input_value() == "Ann"  # none waits
    until_dice_wait(t, "Bob")
    for form_id in ("enter-dice", "reread"):
        page.wait_for_function(
            f"() => document.querySelector('#{form_id} select[name=seat]').value === 'Bob'",
            timeout=10_000)
