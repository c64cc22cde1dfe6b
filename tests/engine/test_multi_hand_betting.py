"""Multi-hand betting (source "Betting limits", "Betting procedure", situation 9; RULINGS M5)
and the choices docs/rules/multi-hand.md makes about it (D-M1, D-M2, D-M4, D-M5)."""

from __future__ import annotations

import pytest

from engine import Allowed
from engine.multi_hand import MultiHandGame

P3 = ["Ann", "Bob", "Cid"]
P4 = ["Ann", "Bob", "Cid", "Dan"]


@pytest.fixture
def betting(at_betting):
    """``betting(players=P3, **options)``: Ann captain; everybody threw once (Ann 6-5-4,
    Bob 3-2-2, Cid 2-1-1, Dan 5-5-2), so Ann opens the betting."""

    def make(players: list[str] = P3, **options: object):
        dice = dict(zip(players, ["6 5 4", "3 2 2", "2 1 1", "5 5 2"], strict=False))
        return at_betting(dice, **options)

    return make


def test_M5_before_any_bet_a_player_may_pass_or_bet_one_to_three_chips(betting, refused) -> None:
    """S-M9: a bet is at most three chips, a raise two."""
    g = betting()
    assert g.allowed() == [Allowed("Ann", "bet", 1, 3), Allowed("Ann", "pass")]
    assert refused(g, "Ann bet 4") == "a bet is 1 to 3 chips in multi-hand Bidou (M5)"
    assert refused(g, "Ann call") == (
        "nobody has bet yet, so there is nothing to call; Ann may bet 1 to 3 chips or pass (M5)")
    assert refused(g, "Ann raise 1").startswith("nobody has bet yet, so there is nothing to raise")


def test_D_M2_a_drop_before_any_bet_is_refused_pass_instead(refused, betting) -> None:
    assert refused(betting(), "Ann drop") == (
        "nobody has bet yet, so there is nothing to drop; Ann may bet 1 to 3 chips or pass (D-M2)")


def test_M5_betting_runs_clockwise_from_the_opener(betting, play) -> None:
    """S-M3: play starts with the captain, clockwise."""
    g = betting(P4)
    seen = []
    for _ in range(3):
        seen.append(g.to_act)
        play(g, f"{g.to_act} pass")
    assert seen == ["Ann", "Bob", "Cid"]
    assert g.to_act == "Dan"


def test_M5_after_a_bet_a_player_calls_raises_by_one_or_two_or_drops(
        betting, play, refused) -> None:
    """S-M9: a bet is at most three chips, a raise two."""
    g = betting()
    play(g, "Ann bet 2")
    assert g.allowed() == [Allowed("Bob", "call"), Allowed("Bob", "raise", 1, 2),
                           Allowed("Bob", "drop"), Allowed("Bob", "pass")]
    assert refused(g, "Bob raise 3") == "a raise is 1 or 2 chips in multi-hand Bidou (M5)"
    assert refused(g, "Bob bet 1") == (
        "there is already a bet of 2 chips; Bob may call, raise 1 to 2 chips, drop or pass (M5)")
    play(g, "Bob raise 2")
    assert g.views()[1].stake == 4 and g.state()["pot"] == 6


def test_M5_bets_are_the_bettors_own_chips_put_into_a_common_pot(betting, play) -> None:
    """S-M10: bets are the bettor's own chips, in a common pot."""
    g = betting()
    effects = play(g, "Ann bet 3", "Bob call")
    assert g.state()["chips"] == {"Ann": 3, "Bob": 3, "Cid": 6}
    assert g.state()["pot"] == 6
    moves = [(e.source, e.dest, e.chips, e.text) for e in effects if e.kind == "move"]
    assert moves == [("Ann", "pot", 3, "Ann bets 3 chips"), ("Bob", "pot", 3, "Bob calls 3 chips")]


def test_M5_players_who_passed_before_the_first_bet_act_again_when_it_comes_to_them(
        betting, play) -> None:
    g = betting()
    play(g, "Ann pass", "Bob bet 1", "Cid call")
    assert g.to_act == "Ann"
    assert [a.verb for a in g.allowed()] == ["call", "raise", "drop", "pass"]


def test_M6_9_a_pass_after_betting_has_begun_is_a_drop(betting, play) -> None:
    """S-M25: situation 9: a pass after a bet is a drop."""
    g = betting()
    effects = play(g, "Ann bet 1", "Bob pass")
    assert ("Bob passes after the betting has begun, so he drops", "M6/9") in [
        (e.text, e.rule) for e in effects]
    assert not g.views()[1].in_hand
    play(g, "Cid call")
    assert g.state()["expects"] == "throw", "Ann and Cid went to the showdown without Bob"


def test_M5_betpot_belongs_to_montevideo_and_is_refused(refused, betting) -> None:
    assert refused(betting(), "Ann betpot") == (
        "betpot belongs to Montevideo; in multi-hand Bidou Ann may bet 1 to 3 chips or pass (M5)")


def test_M5_throwing_again_once_the_betting_is_open_is_refused(refused, betting) -> None:
    assert refused(betting(), "Ann throw 2 1 1") == (
        "every player has thrown and the betting is open; Ann may bet 1 to 3 chips or pass (M5)")


def test_M5_a_bet_out_of_turn_is_refused_naming_whose_turn_it_is(refused, betting) -> None:
    assert refused(betting(), "Cid bet 1") == "it is Ann's turn to bet, not Cid's (M5)"


def test_D_M1_a_player_bets_and_raises_only_with_chips_he_holds(play, refused, once) -> None:
    """S-M10: bets are the bettor's own chips, in a common pot."""
    g = MultiHandGame.from_position(tuple(P3), {"Ann": 2, "Bob": 2, "Cid": 6}, "Ann")
    play(g, *once("Ann", "6 5 4"), *once("Bob", "3 2 2"), *once("Cid", "2 1 1"))
    assert g.allowed()[0] == Allowed("Ann", "bet", 1, 2)
    assert refused(g, "Ann bet 3") == (
        "Ann holds 2 chips and cannot bet 3: bets are the bettor's own chips (D-M1)")
    play(g, "Ann bet 1")
    assert Allowed("Bob", "raise", 1, 1) in g.allowed()
    assert refused(g, "Bob raise 2") == (
        "Bob cannot raise by 2 chips: calling and raising takes 3 chips and he holds 2; he may "
        "call, raise 1 chip, drop or pass (D-M1)")


def test_D_M1_a_player_short_of_the_bet_may_call_with_all_he_has_and_is_all_in(play, once) -> None:
    g = MultiHandGame.from_position(tuple(P3), {"Ann": 6, "Bob": 2, "Cid": 6}, "Ann")
    play(g, *once("Ann", "6 5 4"), *once("Bob", "3 2 2"), *once("Cid", "2 1 1"))
    play(g, "Ann bet 3")
    assert [a.verb for a in g.allowed()] == ["call", "drop", "pass"], "no raise: he is short"
    effects = play(g, "Bob call")
    assert effects[0].text == "Bob calls with his last 2 chips: he is all in"
    assert g.views()[1].stake == 2 and g.views()[1].chips == 0 and g.views()[1].in_hand
    assert g.to_act == "Cid"


def test_D_M4_after_a_drop_the_stakes_stand_and_the_next_player_calls_the_highest(
        betting, play) -> None:
    """S-M15: situation 3: the next player in turn calls or raises."""
    g = betting(P4)
    play(g, "Ann bet 1", "Bob call", "Cid call", "Dan raise 2", "Ann drop")
    assert g.to_act == "Bob"
    assert [v.stake for v in g.views()] == [1, 1, 1, 3]
    play(g, "Bob call")
    assert g.views()[1].stake == 3


def test_D_M5_the_turn_after_a_drop_goes_to_the_next_player_who_must_still_answer(
        betting, play) -> None:
    """S-M15: situation 3: the next player in turn calls or raises."""
    g = betting(P4)
    play(g, "Ann bet 1", "Bob raise 1", "Cid drop")
    assert g.to_act == "Dan"
    play(g, "Dan call", "Ann drop")
    assert g.to_act is not None and g.expects == "throw", "Bob and Dan matched: showdown"
