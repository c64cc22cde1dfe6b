"""The pieces the variants share, used on their own: each keeps its rule without the game
around it.

``CaptainRoll`` and ``ThrowingTurns`` (engine/phases.py), ``HeadsUpBetting`` (T5-T8, reused by
M8), ``OpenThrow`` (T10), ``MultiBetting`` (M5) and ``BettingRound`` (V3, V6) are built by the
games, which check the turn before asking them; a piece asked directly still refuses an
action out of turn or after its end, and offers nothing then (docs/architecture.md, engine).
"""

from __future__ import annotations

import pytest

from engine import Action, NotYourTurn, RuleViolation
from engine.multi_hand_betting import MultiBetting
from engine.open_throw import OpenThrow, open_throw_due
from engine.phases import CaptainRoll, ThrowingTurns, opener
from engine.poker_betting import BettingRound
from engine.ranking import best, worst
from engine.side_pots import build_pots
from engine.two_hand_betting import HeadsUpBetting


def test_T2_a_captain_roll_refuses_rolls_once_its_captain_is_known() -> None:
    roll = CaptainRoll(["Ann", "Bob"], rule="T2")
    roll.record("Ann", 5)
    roll.record("Bob", 3)
    assert (roll.captain, roll.next_roller) == ("Ann", None)
    with pytest.raises(RuleViolation, match=r"^the captain is already decided; nobody rolls "
                                            r"now \(T2\)$"):
        roll.check("Bob", 6)


def test_D_S3_a_captain_roll_with_a_pending_die_names_nobody_until_it_is_settled() -> None:
    roll = CaptainRoll(["Ann", "Bob"], rule="T2")
    assert roll.record("Ann", None) is None
    assert roll.record("Bob", 3) is None
    assert (roll.complete, roll.unsettled, roll.next_roller) == (True, ["Ann"], None)
    roll.settle("Ann", (5,))
    assert roll.decide() is None and roll.captain == "Ann"


def test_T3_throwing_turns_refuse_a_throw_or_stand_out_of_turn_and_offer_nothing_at_the_end(
) -> None:
    turns = ThrowingTurns(["Ann", "Bob"], rule="T3")
    with pytest.raises(RuleViolation, match=r"^it is Ann's turn to throw, not Bob's \(T3\)$"):
        turns.check_throw("Bob", (6, 5, 4))
    with pytest.raises(RuleViolation, match=r"^it is Ann's turn to throw, not Bob's \(T3\)$"):
        turns.check_stand("Bob")
    for p in ("Ann", "Bob"):
        turns.throw(p, (6, 5, 4))
        turns.stand(p)
    assert turns.done and turns.allowed() == []
    with pytest.raises(RuleViolation, match=r"^every player has thrown; the betting is open"):
        turns.check_throw("Ann", (6, 5, 4))
    with pytest.raises(RuleViolation, match=r"^every player has thrown; there is nothing to "
                                            r"stand on \(T3\)$"):
        turns.check_stand("Ann")


def test_M4_the_opener_of_nobody_is_an_error() -> None:
    assert opener(["Ann", "Bob", "Cid"], "Bob", {"Ann": 1, "Bob": 2, "Cid": 1}) == "Cid"
    with pytest.raises(ValueError):
        opener(["Ann", "Bob"], "Ann", {})


def heads_up(**chips: int) -> HeadsUpBetting:
    holdings = {"Ann": 0, "Bob": 0, "centre": 9} | chips
    return HeadsUpBetting(("Ann", "Bob"), "Ann", "Ann", {"Ann": (6, 5, 4), "Bob": (3, 2, 2)},
                          holdings)


def test_T5_heads_up_betting_refuses_out_of_turn_and_after_its_end() -> None:
    with pytest.raises(ValueError, match="the opener and the captain must be among"):
        HeadsUpBetting(("Ann", "Bob"), "Cid", "Ann", {}, {"centre": 9})
    b = heads_up()
    with pytest.raises(NotYourTurn, match=r"^it is Ann's turn to bet, not Bob's \(T5\)$"):
        b.check(Action("Bob", "bet", (1,)))
    with pytest.raises(RuleViolation, match=r"^throw is not a betting action; Ann may bet or "
                                            r"pass \(T5\)$"):
        b.check(Action("Ann", "throw", (6, 5, 4)))
    b.perform(Action("Ann", "pass"))
    b.perform(Action("Bob", "pass"))
    assert b.done and b.allowed() == []
    with pytest.raises(RuleViolation, match=r"^this hand's betting is over \(T5\)$"):
        b.check(Action("Ann", "bet", (1,)))


def test_T6_an_opener_with_no_chip_in_the_centre_or_his_own_may_only_pass() -> None:
    b = heads_up(centre=0, Ann=0, Bob=9)
    assert [a.verb for a in b.allowed()] == ["pass"]
    with pytest.raises(RuleViolation, match=r"^Ann has no chip to bet: the centre is empty and "
                                            r"Ann holds none; Ann may pass \(T6\)$"):
        b.check(Action("Ann", "bet", (1,)))


def test_T10_an_open_throw_refuses_out_of_turn_and_after_its_end() -> None:
    assert open_throw_due(["Ann", "Bob"], {"Ann": 1, "Bob": 0}) is None  # one chip in play
    ot = OpenThrow("Bob", "Ann")
    with pytest.raises(NotYourTurn, match=r"^it is Bob's turn to throw in the open throw, not "
                                          r"Ann's \(T10\)$"):
        ot.check(Action("Ann", "throw", (6, 5, 4)))
    holdings = {"Ann": 8, "Bob": 1}
    for p, dice in (("Bob", (6, 5, 4)), ("Ann", (3, 2, 2))):
        ot.perform(Action(p, "throw", dice), holdings)
        ot.perform(Action(p, "stand"), holdings)
    assert ot.done and ot.allowed() == [] and holdings == {"Ann": 9, "Bob": 0}
    with pytest.raises(RuleViolation, match=r"^the open throw is over \(T10\)$"):
        ot.check(Action("Bob", "throw", (6, 5, 4)))


def test_M5_multi_hand_betting_refuses_out_of_turn_and_offers_nothing_once_closed() -> None:
    b = MultiBetting(["Ann", "Bob", "Cid"], {"Ann": 6, "Bob": 6, "Cid": 6})
    with pytest.raises(NotYourTurn, match=r"^it is Ann's turn to bet, not Bob's \(M5\)$"):
        b.check(Action("Bob", "bet", (1,)))
    for p in ("Ann", "Bob", "Cid"):
        b.act(Action(p, "pass"))
    assert (b.outcome, b.to_act, b.allowed()) == ("passed", None, [])


def test_M5_the_turn_goes_round_the_table_past_the_last_seat() -> None:
    b = MultiBetting(["Ann", "Bob", "Cid"], {"Ann": 6, "Bob": 6, "Cid": 6})
    b.act(Action("Ann", "pass"))
    b.act(Action("Bob", "pass"))
    b.act(Action("Cid", "bet", (1,)))
    assert b.to_act == "Ann"


def test_V3_a_montevideo_betting_round_offers_nothing_out_of_turn_or_once_over() -> None:
    r = BettingRound(("Ann", "Bob", "Cy"), ["Ann", "Bob", "Cy"], {"Ann": 5, "Bob": 5, "Cy": 5},
                     "Ann")
    assert r.options("Bob") == []
    for p in ("Ann", "Bob", "Cy"):
        r.act(Action(p, "pass"))
    assert (r.done, r.to_act, r.allowed()) == (True, None, [])


def test_R3_there_is_no_best_or_worst_of_no_throws() -> None:
    for extreme in (best, worst):
        with pytest.raises(ValueError, match="there is no best or worst of no throws"):
            extreme([])


def test_D_V9_a_first_level_of_nothing_is_still_the_main_pot() -> None:
    # Stakes of 0 are possible only outside a game (every live player antes); the main pot
    # is still there, and every level above it holds chips.
    assert [(p.chips, p.eligible) for p in build_pots({"A": 0, "B": 2}, ["A", "B"])] == [
        (0, ("A", "B")), (2, ("B",))]
