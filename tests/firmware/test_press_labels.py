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


def test_a_two_hand_bet_is_one_tap_and_call_names_its_chips() -> None:
    """Two-hand bets and raises are one chip (T5): BET says the bet it makes at once."""
    game = play("two-hand", ["Ann", "Bob"], *THROWN)
    opener = game.to_act
    other = "Bob" if opener == "Ann" else "Ann"
    first = labels(game, opener, 0)
    assert first["BET"] == "BET 1" and first["CALL"] is None and first["PASS"] == "PASS"
    assert press_labels.at_once(game, opener, 0) == {"action": "bet", "chips": 1}
    assert press_labels.at_once(game, other, 0) is None  # not their turn
    offered = labels(game, opener, 1)  # a chip offered by the panel's BET: CALL commits it
    assert (offered["CALL"], offered["PASS"]) == ("BET 1", "CANCEL")
    assert press_labels.at_once(game, opener, 1) is None
    game.apply(Action(opener, "bet", (1,)))
    facing = labels(game, other, 0)
    assert facing["BET"] == "RAISE 1" and facing["CALL"] == "CALL 1"
    assert press_labels.at_once(game, other, 0) == {"action": "raise", "chips": 1}
    assert facing["PASS"] == "DROP: you take 1 chip"  # the engine's penalty, in chips
    assert facing["POT"] is None  # only Montevideo bets the pot


def test_a_multi_hand_bet_of_several_amounts_is_offered_chip_by_chip() -> None:
    game = play("multi-hand", ["Ann", "Bob", "Cid"], "Ann roll 5", "Bob roll 3", "Cid roll 1",
                "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1", "Bob stand",
                "Cid throw 2 2 1", "Cid stand")
    seat = game.to_act
    (bet,) = [a for a in game.allowed() if a.player == seat and a.verb == "bet"]
    assert bet.min_chips != bet.max_chips  # several amounts: nothing to bet at once
    assert press_labels.at_once(game, seat, 0) is None
    assert labels(game, seat, 0)["BET"] == "+1 → BET 1"


def test_the_phone_says_the_bet_facing_its_player_on_their_turn() -> None:
    game = play("two-hand", ["Ann", "Bob"], *THROWN)
    opener = game.to_act
    other = "Bob" if opener == "Ann" else "Ann"
    hand = len(THROWN) - 2  # the captain rolls began the hand before it
    assert press_labels.facing(game, opener, hand) is None  # nothing to call yet
    game.apply(Action(opener, "bet", (1,)))
    said = press_labels.facing(game, other, hand + 1)
    assert str(said) == f"Facing you: {opener}'s bet of 1 chip."
    assert press_labels.facing(game, opener, hand + 1) is None  # not the opener's turn
    game.apply(Action(other, "raise", (1,)))
    assert str(press_labels.facing(game, opener, hand + 2)) == (
        f"Facing you: {other}'s bet of 2 chips.")


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
