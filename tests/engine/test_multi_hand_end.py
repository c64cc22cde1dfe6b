"""Captaincy from hand to hand (M9), players going out and the end of the game (M7), and the
end game of two players (source situation 8, RULINGS M8), with the choices D-M10 ... D-M14."""

from __future__ import annotations

import pytest

from engine import Action, Allowed, RuleViolation, new_game
from engine.multi_hand import MultiHandGame
from engine.stages import OpenThrowing

P3 = ("Ann", "Bob", "Cid")
WORST, LOW, MID, HIGH = "3 2 2", "4 3 1", "6 5 4", "2 1 1"


# --- M9: the next captain -------------------------------------------------------------------
def test_M9_the_best_throw_at_a_showdown_captains_the_next_hand(at_betting, play) -> None:
    """S-M4: the winner of a hand captains the next."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann bet 1", "Bob call", "Cid call")
    assert (g.state()["captain"], g.to_act, g.expects) == ("Cid", "Cid", "throw")


def test_M9_the_last_player_left_after_drops_captains_the_next_hand(at_betting, play) -> None:
    """S-M4: the winner of a hand captains the next."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann pass", "Bob bet 1", "Cid drop", "Ann drop")
    assert g.state()["captain"] == "Bob"


def test_M9_when_all_pass_the_player_left_of_the_captain_is_next_captain(at_betting, play) -> None:
    """S-M5: all pass: the captain's left captains next."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann pass", "Bob pass", "Cid pass")
    assert g.state()["chips"] == {"Ann": 6, "Bob": 6, "Cid": 6}
    assert (g.state()["captain"], g.to_act) == ("Bob", "Bob")


def test_D_M11_the_opener_becomes_captain_so_all_passing_moves_to_his_left(play, once) -> None:
    """S-M5: all pass: the captain's left captains next."""
    g = new_game("multi-hand", list(P3))
    play(g, "Ann roll 6", "Bob roll 1", "Cid roll 1", "Ann throw 1 2 3", "Ann throw 1 2 3",
         "Ann stand", *once("Bob", LOW), *once("Cid", MID))
    assert g.state()["captain"] == "Bob"
    play(g, "Bob pass", "Cid pass", "Ann pass")
    assert g.state()["captain"] == "Cid"


def test_D_M10_a_shared_best_throw_gives_the_captaincy_to_the_first_clockwise(
        at_betting, play) -> None:
    g = at_betting({"Ann": LOW, "Bob": HIGH, "Cid": HIGH})
    play(g, "Ann bet 1", "Bob call", "Cid call")
    assert g.state()["captain"] == "Bob"


def test_D_M10_a_next_captain_who_is_out_passes_it_to_the_next_player_with_chips(
        at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": HIGH, "Cid": WORST}, chips={"Ann": 6, "Bob": 1, "Cid": 6})
    effects = play(g, "Ann bet 1", "Bob call", "Cid call")
    assert g.state()["chips"] == {"Ann": 5, "Bob": 0, "Cid": 8}
    assert ("D-M10", "Cid") in [(e.rule, e.player) for e in effects]
    assert g.state()["captain"] == "Cid"


def test_source_all_players_keep_their_dice_hidden_until_betting_has_closed(
        at_betting, play) -> None:
    """S-M6: dice stay hidden until the betting closes."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann bet 1", "Bob raise 1")
    assert [v.exposed for v in g.views()] == [None, None, None]
    assert g.concealed_dice("Bob") == (3, 2, 2)
    play(g, "Cid drop", "Ann drop")
    assert [v.exposed for v in g.views()] == [None, None, None], "no showdown, nothing shown"


def test_D_M16_shown_dice_stay_on_show_until_the_first_throw_of_the_next_hand(
        at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann bet 1", "Bob call", "Cid call")
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (3, 2, 2), (2, 1, 1)]
    assert g.concealed_dice("Cid") is None, "nothing is under the cups before the next throw"
    play(g, "Cid throw 5 5 5")
    assert [v.exposed for v in g.views()] == [None, None, None]
    assert g.concealed_dice("Cid") == (5, 5, 5)


# --- M7: out, and the last holder loses ------------------------------------------------------
def test_M7_a_player_with_no_chips_is_out_and_has_won(at_betting, play) -> None:
    """S-B1: a player's objective is to get rid of his chips."""
    g = at_betting({"Ann": MID, "Bob": HIGH, "Cid": WORST}, chips={"Ann": 6, "Bob": 1, "Cid": 6})
    effects = play(g, "Ann bet 1", "Bob call", "Cid call")
    assert "Bob has no chips left: he is out, and has won" in [e.text for e in effects]
    assert [v.out for v in g.views()] == [False, True, False]
    assert g.to_act == "Cid" and [v.in_hand for v in g.views()] == [True, False, True]


def test_M7_players_out_no_longer_throw(play, refused, once) -> None:
    g = MultiHandGame.from_position(("Ann", "Bob", "Cid", "Dan"),
                                    {"Ann": 6, "Bob": 0, "Cid": 6, "Dan": 6}, "Ann")
    play(g, *once("Ann", MID))
    assert g.to_act == "Cid"
    assert refused(g, "Bob throw 1 1 1") == (
        "Bob has no chips left and is out of the game (he has won); it is Cid's turn to throw "
        "(M7)")
    assert "Bob" not in {a.player for a in g.allowed()}


def test_D_M12_a_player_at_no_chips_in_the_middle_of_a_hand_is_all_in_not_out(
        at_betting, play) -> None:
    """S-M17: situation 5: all in, a player stays in for the showdown."""
    g = at_betting({"Ann": MID, "Bob": HIGH, "Cid": WORST}, chips={"Ann": 6, "Bob": 1, "Cid": 6})
    play(g, "Ann bet 1", "Bob call")
    bob = g.views()[1]
    assert (bob.chips, bob.stake, bob.in_hand, bob.out) == (0, 1, True, False)


def test_M7_the_last_player_holding_chips_loses_the_game(at_betting, play) -> None:
    """S-B4: the last player still holding chips is the loser. S-M22: situation 8: the last two play
    until one has lost."""
    g = at_betting({"Ann": HIGH, "Bob": MID, "Cid": WORST}, chips={"Ann": 1, "Bob": 1, "Cid": 6})
    effects = play(g, "Ann bet 1", "Bob call", "Cid call")
    s = g.state()
    assert (s["over"], s["loser"], s["winner"], s["to_act"], s["expects"]) == (
        True, "Cid", None, None, None)
    assert s["chips"] == {"Ann": 0, "Bob": 0, "Cid": 8}
    assert effects[-1].kind == "game"
    assert effects[-1].text == "Cid is the last player holding chips and loses the game"
    assert g.allowed() == []
    assert str(pytest.raises(RuleViolation, g.verify, Action.parse("Cid throw 1 1 1")).value) \
        == "the game is over; start a new game (M7)"


# --- M8: the last two ------------------------------------------------------------------------
def test_situation_8_M8_two_above_nine_discard_one_chip_when_a_bet_is_not_called(
        at_betting, play) -> None:
    """S-M23: situation 8: above nine, a bet not called discards one chip."""
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 6, "Bob": 5, "Cid": 0})
    effects = play(g, "Ann bet 1", "Bob raise 1", "Ann drop")
    # Ann, first dropper: 1 + 1 x 1 + 1 = 3 of 3; Bob, not called, discards one chip.
    assert [(e.source, e.dest, e.chips, e.rule) for e in effects if e.kind == "move"][-2:] == [
        ("pot", "Ann", 3, "M6/3"), ("Bob", "removed", 1, "M8")]
    assert g.state()["chips"] == {"Ann": 8, "Bob": 2, "Cid": 0}
    assert g.state()["removed"] == 8


def test_D_M13_the_lone_bettors_discard_of_situation_7_is_the_one_discard_of_M8(
        at_betting, play) -> None:
    """S-M23: situation 8: above nine, a bet not called discards one chip."""
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 6, "Bob": 5, "Cid": 0})
    play(g, "Ann bet 2", "Bob drop")
    assert g.state()["chips"] == {"Ann": 5, "Bob": 5, "Cid": 0}
    assert g.state()["removed"] == 8


def test_D_M13_the_raiser_discards_even_the_chip_just_returned_to_him(at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 6, "Bob": 5, "Cid": 0})
    effects = play(g, "Ann bet 3", "Bob raise 2", "Ann drop")
    # Ann takes 3 + 3 + 1 = 7 of the 8; Bob gets the last chip back and discards it.
    assert g.state()["chips"] == {"Ann": 10, "Bob": 0, "Cid": 0}
    assert g.state()["over"] and g.state()["loser"] == "Ann"
    assert ("Bob", "removed", 1, "M8") in [
        (e.source, e.dest, e.chips, e.rule) for e in effects if e.kind == "move"]


def test_D_M13_a_raiser_left_with_no_chip_at_all_has_nothing_to_discard(at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 9, "Bob": 2, "Cid": 0})
    effects = play(g, "Ann bet 1", "Bob raise 1", "Ann drop")
    assert "Bob bet and was not called but has no chip left to discard" in [
        e.text for e in effects]
    assert g.state()["chips"] == {"Ann": 11, "Bob": 0, "Cid": 0}
    assert g.state()["loser"] == "Ann"


def test_situation_8_M8_at_nine_or_fewer_the_two_play_two_hand_rules_with_no_centre(
        at_betting, play, refused, once) -> None:
    """S-M22: situation 8: the last two play until one has lost. S-M24: situation 8: then two-hand
    rules."""
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 5, "Bob": 5, "Cid": 0})
    effects = play(g, "Ann bet 1", "Bob drop")
    assert g.state()["chips"] == {"Ann": 4, "Bob": 5, "Cid": 0}
    assert any(e.rule == "M8" and "two-hand rules" in e.text for e in effects)
    play(g, *once("Ann", MID), *once("Bob", WORST))
    s = g.state()
    assert (s["variant"], s["centre"], s["round"], s["to_act"]) == ("multi-hand", 0, 1, "Ann")
    assert g.allowed() == [Allowed("Ann", "bet", 1, 1), Allowed("Ann", "pass")]
    assert refused(g, "Ann bet 2") == "a bet is one chip in two-hand Bidou (T5)"
    assert refused(g, "Ann betpot") == ("both players have thrown and the betting is open "
                                        "under two-hand rules; Ann may bet or pass (T5)")


def test_M8_two_hand_drop_takes_the_penalty_chip_from_the_opponent(at_betting, play) -> None:
    """S-M24: situation 8: then two-hand rules."""
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 4, "Bob": 5, "Cid": 0})
    play(g, "Ann bet 1", "Bob raise 1", "Ann drop")
    assert g.state()["chips"] == {"Ann": 5, "Bob": 4, "Cid": 0}
    assert g.state()["removed"] == 9 and g.state()["captain"] == "Bob"


def test_M8_two_hand_call_the_worse_throw_takes_every_chip_bet(at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 4, "Bob": 5, "Cid": 0})
    play(g, "Ann bet 1", "Bob raise 1", "Ann call")
    assert g.state()["chips"] == {"Ann": 2, "Bob": 7, "Cid": 0}
    assert g.state()["captain"] == "Ann"


def test_M8_open_throw_when_one_holds_all_chips_in_play_but_one(play, refused) -> None:
    """S-M24: situation 8: then two-hand rules."""
    g = MultiHandGame.from_position(P3, {"Ann": 7, "Bob": 1, "Cid": 0}, "Ann")
    s = g.state()
    assert (s["captain"], s["to_act"], s["expects"]) == ("Bob", "Bob", "throw")
    assert refused(g, "Bob bet 1").endswith("(T10)")
    play(g, "Bob throw 6 5 4")
    assert g.views()[1].exposed == (6, 5, 4), "open throws are thrown exposed"
    play(g, "Bob stand", "Ann throw 3 2 2", "Ann stand")
    assert g.state()["over"] and g.state()["loser"] == "Ann"
    assert g.state()["chips"] == {"Ann": 8, "Bob": 0, "Cid": 0}


def test_M8_the_short_player_losing_the_open_throw_takes_a_chip_and_play_resumes(play) -> None:
    g = MultiHandGame.from_position(P3, {"Ann": 7, "Bob": 1, "Cid": 0}, "Ann")
    play(g, "Bob throw 3 2 2", "Bob stand", "Ann throw 6 5 4", "Ann stand")
    s = g.state()
    assert s["chips"] == {"Ann": 6, "Bob": 2, "Cid": 0}
    assert (s["captain"], s["to_act"], s["expects"]) == ("Ann", "Ann", "throw")


def test_D_M14_the_two_hand_finish_starts_with_an_open_throw_when_one_is_due(
        at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 9, "Bob": 1, "Cid": 0})
    effects = play(g, "Ann bet 1", "Bob drop")
    assert g.state()["chips"] == {"Ann": 8, "Bob": 1, "Cid": 0}
    assert [(e.kind, e.rule, e.player) for e in effects[-2:]] == [
        ("hand", "T10", "Bob"), ("captain", "T10", "Bob")]
    assert (g.state()["to_act"], g.state()["expects"]) == ("Bob", "throw")
    assert isinstance(g.stage, OpenThrowing)


def test_D_M14_pass_after_a_bet_is_a_drop_under_two_hand_rules(at_betting, play) -> None:
    g = at_betting({"Ann": MID, "Bob": WORST}, chips={"Ann": 4, "Bob": 5, "Cid": 0})
    play(g, "Ann bet 1", "Bob pass")
    # Situation 9 and D-T2 agree: the pass is a drop, and the dropper takes the penalty chip.
    assert g.state()["chips"] == {"Ann": 3, "Bob": 6, "Cid": 0}


def test_D_M14_with_one_chip_each_the_earlier_seat_holds_and_the_worse_throw_loses(play) -> None:
    g = MultiHandGame.from_position(P3, {"Ann": 0, "Bob": 1, "Cid": 1}, "Bob")
    assert (g.to_act, g.expects, g.state()["captain"]) == ("Cid", "throw", "Cid")
    play(g, "Cid throw 6 5 4", "Cid stand", "Bob throw 3 2 2", "Bob stand")
    s = g.state()
    assert s["chips"] == {"Ann": 0, "Bob": 2, "Cid": 0} and s["loser"] == "Bob"
