"""The seat page's button labels (``firmware.words.press_labels``) against the real engine: a label
says what the next press does, and a press is lit exactly when the panel mapping accepts it."""

from __future__ import annotations

import random

import pytest

from engine import Action, new_game
from engine.autoplay import random_action
from firmware.table.presses import decide
from firmware.words import press_labels
from firmware.words.press_labels import BUTTONS


def labels(game, seat, offered):
    """The labels in English, as the API gives them."""
    return {k: None if v is None else str(v)
            for k, v in press_labels.labels(game, seat, offered).items()}


def play(variant, players, *texts):
    game = new_game(variant, players)
    for t in texts:
        game.apply(Action.parse(t))
    return game


THROWN = ("Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1",
          "Bob stand")


def test_captain_roll_and_throwing_say_roll_throw_and_stand() -> None:
    game = play("two-hand", ["Ann", "Bob"])
    assert labels(game, "Ann", 0)["THROW"] == "ROLL"
    assert labels(game, "Bob", 0)["THROW"] is None  # not Bob's turn: dark
    game = play("two-hand", ["Ann", "Bob"], "Ann roll 5", "Bob roll 3", "Ann throw 6 5 4")
    shown = labels(game, "Ann", 0)
    assert (shown["THROW"], shown["STAND"]) == ("THROW", "STAND")


def test_an_offer_turns_into_bet_then_raise_and_call_names_its_chips() -> None:
    game = play("two-hand", ["Ann", "Bob"], *THROWN)
    opener = game.to_act
    other = "Bob" if opener == "Ann" else "Ann"
    first = labels(game, opener, 0)
    assert first["BET"] == "+1 → BET 1" and first["CALL"] is None and first["PASS"] == "PASS"
    offered = labels(game, opener, 1)
    assert (offered["CALL"], offered["PASS"]) == ("BET 1", "CANCEL")
    game.apply(Action(opener, "bet", (1,)))
    facing = labels(game, other, 0)
    assert facing["CALL"] == "CALL 1"
    assert facing["PASS"] == "DROP: you take 1 chip"  # the engine's penalty, in chips
    assert facing["POT"] is None  # only Montevideo bets the pot


def test_montevideo_has_bet_the_pot() -> None:
    game = play("montevideo", ["Ann", "Bob", "Cid"], "Ann roll 5", "Bob roll 3", "Cid roll 1",
                "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1", "Bob stand",
                "Cid throw 1 1 1", "Cid stand")
    assert labels(game, game.to_act, 0)["POT"] == "BET THE POT"


@pytest.mark.parametrize("variant, players", [("two-hand", ["Ann", "Bob"]),
                                              ("multi-hand", ["Ann", "Bob", "Cid"]),
                                              ("montevideo", ["Ann", "Bob", "Cid"])])
def test_a_button_is_lit_exactly_when_its_press_is_accepted(variant, players) -> None:
    rng = random.Random(11)
    game = new_game(variant, players)
    for _ in range(150):
        if game.over:
            break
        for seat in players:
            for offered in (0, 1):
                shown = labels(game, seat, offered)
                for name, button, long in BUTTONS:
                    accepted = decide(game, seat, button, long, offered).refusal is None
                    assert (shown[name] is not None) == accepted, (seat, name, offered)
        game.apply(random_action(game, rng))
