"""Results belong to their moment: the last hand's result ("Bob takes 4 chips ...") is on the
felt's centre and the phones while that hand's dice are, and gone at the next hand's first
action, an open throw's included (docs/dashboard.md, `settled`); each phone says the round's
result and the game's to its own player, in the player's language; and the banner offers only
what a seat's buttons can do (no "pass" where PASS drops)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from firmware.words.phrases import english
from table_server.words.present import prompt_phrase

from .quick_play import STATES, play_until

WAIT_MS = 10_000


def _last_hand_result(s: dict[str, Any]) -> bool:
    """A hand just ended by a settlement, its dice still shown."""
    return not s["over"] and not s["settling"] and s["hand_actions"] == 0 \
        and bool(s["showdown"]) and bool(s["settled"])


@pytest.mark.parametrize("variant, players", [("two-hand", ("Ann", "Bob")),
                                              ("multi-hand", ("Ann", "Bob", "Cy"))])
def test_the_last_hands_result_is_cleared_at_the_next_hands_first_action(
        table_factory, variant: str, players: tuple[str, ...]) -> None:
    t = table_factory(variant=variant, players=players, seed=3, unsure=0.2)
    rng = random.Random(3)
    for _ in range(3):  # three hands in a row
        ended = play_until(t, rng, _last_hand_result, "hand ended by a showdown")
        first = play_until(t, rng, lambda s, at=ended["actions"]: s["actions"] > at,
                           "next action")
        if first["hand_actions"] == 1 and not first["settled"]:
            assert first["showdown"] is None, english(first["showdown"])
            continue
        # that first action settled chips itself (an open throw's end): its own result
        assert first["settled"] != ended["settled"]


def test_an_open_throw_never_shows_the_last_hands_result(table_factory) -> None:
    t = table_factory(seed=2, unsure=0.4)
    rng = random.Random(2)
    shown = play_until(t, rng, lambda s: STATES["open throw"](s) and s["hand_actions"] == 1,
                       "open throw's first throw")
    assert shown["settled"] == [] and shown["showdown"] is None


def test_the_banner_offers_only_what_the_buttons_do() -> None:
    """Where drop and pass are both open, PASS drops (D-T2): the banner says drop only."""
    state = {"to_act": "Bob", "expects": "bet",
             "allowed": {"Bob": ["call", "raise", "drop", "pass"], "Ann": []}}
    assert str(prompt_phrase(state)) == "Bob's turn: call, raise or drop."
    state["allowed"]["Bob"] = ["bet", "pass"]
    assert str(prompt_phrase(state)) == "Bob's turn: bet or pass."


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("language, lost, won, match_lost", [
    ("fr", "Vous avez perdu la manche 1.", "Vous avez gagné la manche 1.",
     "Vous avez perdu la partie."),
    ("es", "Perdiste la ronda 1.", "Ganaste la ronda 1.", "Perdiste la partida.")])
def test_each_phone_says_the_round_and_the_match_to_its_player_in_their_language(
        browser, served_table, language: str, lost: str, won: str, match_lost: str) -> None:
    t, d = served_table(seed=2, unsure=0.4)
    rng = random.Random(2)
    start = play_until(t, rng, STATES["hand or round start"], "round 2")
    [loser] = [e["player"] for e in start["opening"] if e["kind"] == "round"]
    pages = {}
    for seat, url in d.seat_urls().items():
        page = browser.new_context(viewport={"width": 390, "height": 844},
                                   is_mobile=True).new_page()
        page.goto(f"{url}&lang={language}")
        page.locator("#my-result").wait_for(timeout=WAIT_MS)
        pages[seat] = page
    for seat, page in pages.items():
        assert page.locator("#my-result").inner_text() == (lost if seat == loser else won)
    play_until(t, rng, lambda s: s["hand_actions"] > 0 and s["hand"] >= 1
               and not any(e["kind"] == "round" for e in s["opening"]), "round 2's first hand")
    for page in pages.values():
        page.locator("#my-result").wait_for(state="hidden", timeout=WAIT_MS)
    over = play_until(t, rng, STATES["game over"], "game over")
    for seat, page in pages.items():
        shown = page.locator("#my-result")
        shown.wait_for(timeout=WAIT_MS)
        if seat == over["loser"]:
            assert shown.inner_text() == match_lost


@pytest.mark.browser
@pytest.mark.slow
def test_M7_the_phone_of_a_player_out_of_chips_says_they_are_out_and_have_won(
        browser, served_table) -> None:
    t, d = served_table(variant="multi-hand", players=("Ann", "Bob", "Cy"), seed=3,
                        unsure=0.4)
    start = play_until(t, random.Random(3), lambda s: any(
        e["kind"] == "note" and e["rule"] == "M7" for e in s["opening"]), "a player out")
    [out] = [e["player"] for e in start["opening"] if e["rule"] == "M7"]
    page = browser.new_context(viewport={"width": 390, "height": 844},
                               is_mobile=True).new_page()
    page.goto(d.seat_urls()[out] + "&lang=fr")
    line = page.locator("#my-result")
    line.wait_for(timeout=WAIT_MS)
    assert line.inner_text() == ("Vous n'avez plus de jetons : vous sortez du jeu, et vous "
                                 "avez gagné.")
