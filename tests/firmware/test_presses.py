"""What each panel press means, against the real engine (pure: no threads, camera or log)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, new_game
from engine.autoplay import play_random, random_action
from firmware.table.commands import Refusal
from firmware.table.presses import Decision, decide


def play(variant, players, *texts):
    game = new_game(variant, players)
    for t in texts:
        game.apply(Action.parse(t))
    return game


def two_hand(*texts):
    return play("two-hand", ["Ann", "Bob"], *texts)


THROWN = ("Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1",
          "Bob stand")
THREE = ("Ann roll 5", "Bob roll 3", "Cid roll 1", "Ann throw 6 5 4", "Ann stand",
         "Bob throw 3 3 1", "Bob stand", "Cid throw 1 1 1", "Cid stand")


def test_T2_throw_during_captain_roll_reads_one_die():
    assert decide(two_hand(), "Ann", "THROW", False, 0) == Decision(read="roll")


def test_T2_captain_roll_out_of_seat_order_is_refused_with_the_engine_rule():
    d = decide(two_hand(), "Bob", "THROW", False, 0)
    assert d.refusal is not None and d.refusal.rule == "T2"
    assert d.refusal.sentence.endswith(".")


def test_T3_throw_reads_three_dice_for_the_seat_to_throw():
    assert decide(two_hand("Ann roll 5", "Bob roll 3"), "Ann", "THROW", False, 0) == \
        Decision(read="throw")


def test_T3_throw_out_of_turn_names_whose_turn_it_is():
    d = decide(two_hand("Ann roll 5", "Bob roll 3"), "Bob", "THROW", False, 0)
    assert d.refusal == Refusal("It is Ann's turn to throw, not yours.", "T3")


def test_T3_long_throw_is_stand_after_a_throw():
    game = two_hand("Ann roll 5", "Bob roll 3", "Ann throw 6 5 4")
    assert decide(game, "Ann", "THROW", True, 0) == Decision(action=Action("Ann", "stand"))


def test_T3_stand_before_any_throw_is_refused():
    d = decide(two_hand("Ann roll 5", "Bob roll 3"), "Ann", "THROW", True, 0)
    assert d.refusal is not None and d.refusal.rule == "T3"


def test_bet_press_offers_one_chip_more():
    assert decide(two_hand(*THROWN), "Ann", "BET", False, 0) == Decision(stake=1)


def test_T5_second_bet_press_in_two_hand_is_refused_one_chip():
    d = decide(two_hand(*THROWN), "Ann", "BET", False, 1)
    assert d.refusal == Refusal("You may bet at most 1 chip now; press CALL to commit 1 or "
                                "PASS to cancel.", "T5")


def test_call_commits_the_offered_stake_as_a_bet():
    assert decide(two_hand(*THROWN), "Ann", "CALL", False, 1) == \
        Decision(action=Action("Ann", "bet", (1,)))


def test_call_with_no_bet_and_no_stake_says_what_to_press():
    d = decide(two_hand(*THROWN), "Ann", "CALL", False, 0)
    assert d.refusal == Refusal("There is no bet to call; press BET to offer chips, then CALL "
                                "to bet them, or PASS to pass.")


def test_pass_cancels_the_offered_stake_first():
    assert decide(two_hand(*THROWN), "Ann", "PASS", False, 1) == Decision(stake=0)


def test_T5_pass_before_betting_is_a_pass():
    assert decide(two_hand(*THROWN), "Ann", "PASS", False, 0) == \
        Decision(action=Action("Ann", "pass"))


def test_T5_facing_a_bet_call_calls_and_offered_stake_raises():
    game = two_hand(*THROWN, "Ann bet 1")
    assert decide(game, "Bob", "CALL", False, 0) == Decision(action=Action("Bob", "call"))
    assert decide(game, "Bob", "CALL", False, 1) == \
        Decision(action=Action("Bob", "raise", (1,)))


def test_T8_facing_a_bet_pass_drops():
    game = two_hand(*THROWN, "Ann bet 1")
    assert decide(game, "Bob", "PASS", False, 0) == Decision(action=Action("Bob", "drop"))


def test_bet_out_of_turn_is_refused_and_names_the_seat_to_act():
    d = decide(two_hand(*THROWN), "Bob", "BET", False, 0)
    assert d.refusal == Refusal("It is Ann's turn to bet, not yours.")


def test_bet_while_throwing_is_refused():
    d = decide(two_hand("Ann roll 5", "Bob roll 3"), "Ann", "BET", False, 0)
    assert d.refusal == Refusal("You cannot bet now: it is time to throw.")


def test_M5_multi_hand_bet_offers_up_to_three_chips():
    game = play("multi-hand", ["Ann", "Bob", "Cid"], *THREE)
    assert decide(game, "Ann", "BET", False, 2) == Decision(stake=3)
    d = decide(game, "Ann", "BET", False, 3)
    assert d.refusal is not None and d.refusal.rule == "M5"
    assert decide(game, "Ann", "CALL", False, 3) == Decision(action=Action("Ann", "bet", (3,)))


def test_V6_long_bet_bets_the_pot_in_montevideo():
    game = play("montevideo", ["Ann", "Bob", "Cid"], *THREE)
    assert decide(game, "Ann", "BET", True, 0) == Decision(action=Action("Ann", "betpot"))


def test_V6_long_bet_outside_montevideo_explains():
    d = decide(two_hand(*THROWN), "Ann", "BET", True, 0)
    assert d.refusal == Refusal("Holding BET bets or calls the pot, which only Montevideo has; "
                                "press BET briefly to offer a chip.", "V6")


def test_unknown_button_and_unknown_seat_are_refused():
    game = two_hand()
    assert decide(game, "Ann", "ROLL", False, 0).refusal == Refusal(
        "'ROLL' is not a panel button; the buttons are THROW, BET, CALL, PASS.")
    assert decide(game, "Zed", "THROW", False, 0).refusal == Refusal(
        "'Zed' is not a seat at this table; the seats are Ann, Bob.")


@pytest.mark.parametrize("button", ["THROW", "BET", "CALL", "PASS"])
def test_every_press_after_the_game_is_over_is_refused(button):
    game = two_hand()
    play_random(game, random.Random(1))
    assert decide(game, "Ann", button, False, 0).refusal == Refusal(
        "The game is over; the referee starts a new game.")


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(["two-hand", "multi-hand", "montevideo"]),
       seed=st.integers(0, 10_000), steps=st.integers(0, 80),
       button=st.sampled_from(["THROW", "BET", "CALL", "PASS"]), long=st.booleans(),
       offered=st.integers(0, 4))
def test_any_press_in_any_state_is_exactly_one_decision_the_engine_accepts(
        variant, seed, steps, button, long, offered):
    players = ["Ann", "Bob"] if variant == "two-hand" else ["Ann", "Bob", "Cid", "Dee"]
    game, rng = new_game(variant, players), random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(random_action(game, rng))
    for seat in players:
        d = decide(game, seat, button, long, offered)
        assert sum(x is not None for x in (d.read, d.action, d.stake, d.refusal)) == 1
        if d.action is not None:
            game.verify(d.action)  # raises if the mapping produced an illegal action
        if d.refusal is not None:
            assert d.refusal.sentence[0].isupper() and d.refusal.sentence.endswith(".")
