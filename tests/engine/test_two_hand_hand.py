"""One hand of two-hand Bidou: the source's sentences and RULINGS T2-T8, one test each.

Ann sits first, Bob second. Each test plays actions as the game record writes them.
"""

from __future__ import annotations

from engine import Action, NotYourTurn

ANN_CAPTAIN = ("Ann roll 5", "Bob roll 3")


def stand_each(first: str, first_dice: str, second: str, second_dice: str) -> tuple[str, ...]:
    """One throw each, standing: ``first`` (the captain) then ``second``."""
    return (f"{first} throw {first_dice}", f"{first} stand",
            f"{second} throw {second_dice}", f"{second} stand")


#: Ann captain; Ann 6-5-4, Bob bidou; Ann opens the betting.
BETTING = (*ANN_CAPTAIN, *stand_each("Ann", "6 5 4", "Bob", "2 1 1"))


# --- Starting a round (T2) ------------------------------------------------------------------
def test_source_only_nine_chips_are_used_placed_between_the_players(two_hand) -> None:
    """S-T2: nine chips, in the centre."""
    s = two_hand().state()
    assert (s["centre"], s["chips"], s["pot"]) == (9, {"Ann": 0, "Bob": 0}, 0)
    assert (s["round"], s["expects"], s["to_act"], s["captain"]) == (1, "roll", "Ann", None)


def test_T2_the_higher_die_is_captain_of_the_first_hand(two_hand) -> None:
    """S-T3: one die each; the higher is captain of the first hand."""
    g = two_hand("Ann roll 2", "Bob roll 6")
    assert g.state()["captain"] == "Bob"
    assert (g.to_act, g.expects) == ("Bob", "throw")


def test_T2_equal_dice_roll_again(two_hand, play) -> None:
    """S-T3: one die each; the higher is captain of the first hand."""
    g = two_hand("Ann roll 4")
    effects = play(g, "Bob roll 4")
    assert "Ann and Bob tie on 4 and roll again" in [e.text for e in effects]
    assert (g.to_act, g.expects, g.state()["captain"]) == ("Ann", "roll", None)
    play(g, "Ann roll 1", "Bob roll 2")
    assert g.state()["captain"] == "Bob"


def test_T2_captain_rolls_go_in_seat_order(two_hand, refusal) -> None:
    """S-T3: one die each; the higher is captain of the first hand."""
    e = refusal(two_hand(), "Bob roll 3")
    assert isinstance(e, NotYourTurn)
    assert str(e) == "it is Ann's turn to roll, not Bob's (T2)"


def test_T2_nothing_but_a_roll_before_the_captain_is_known(two_hand, refusal) -> None:
    e = refusal(two_hand(), "Ann throw 6 5 4")
    assert str(e) == "the round starts with the captain roll: Ann rolls one die (T2)"


# --- Throwing (T3) ----------------------------------------------------------------------------
def test_T3_the_captain_throws_first_then_his_opponent(two_hand, refusal) -> None:
    """S-T4: the captain throws first, then his opponent."""
    g = two_hand(*ANN_CAPTAIN)
    assert str(refusal(g, "Bob throw 6 5 4")) == "it is Ann's turn to throw, not Bob's (T3)"
    g.apply(Action.parse("Ann throw 6 5 4"))
    g.apply(Action.parse("Ann stand"))
    assert (g.to_act, g.expects) == ("Bob", "throw")


def test_T3_up_to_three_throws_the_third_ends_the_turn(two_hand, refusal) -> None:
    """S-T5: up to three throws a turn."""
    g = two_hand(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann throw 6 5 3", "Ann throw 6 5 2")
    assert g.to_act == "Bob"
    e = refusal(g, "Ann throw 6 5 1")
    assert str(e) == "it is Bob's turn to throw, not Ann's (T3)"


def test_T3_at_least_one_throw_before_standing(two_hand, refusal) -> None:
    """S-T5: up to three throws a turn."""
    e = refusal(two_hand(*ANN_CAPTAIN), "Ann stand")
    assert str(e) == "Ann must throw at least once before standing (T3)"


def test_source_when_both_players_have_thrown_betting_begins(two_hand, refusal) -> None:
    """S-T8: betting begins when both have thrown."""
    g = two_hand(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann stand", "Bob throw 2 1 1")
    assert str(refusal(g, "Bob bet 1")) == (
        "the betting begins when both players have thrown; Bob throws again or stands (T3)"
    )
    g.apply(Action.parse("Bob stand"))
    assert (g.to_act, g.expects) == ("Ann", "bet")


def test_source_dice_stay_concealed_and_the_number_of_throws_is_declared(two_hand) -> None:
    """S-T6: every throw is all the dice, concealed. S-T7: the number of throws is declared."""
    g = two_hand(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann throw 6 6 5")
    ann, bob = g.views()
    assert (ann.throws, ann.exposed, bob.throws, bob.exposed) == (2, None, 0, None)
    assert g.concealed_dice("Ann") == (6, 6, 5)
    assert g.concealed_dice("Bob") is None


# --- Opening the betting (T4) ----------------------------------------------------------------
def test_T4_same_number_of_throws_the_captain_opens(two_hand) -> None:
    """S-T9: equal or fewer throws: the captain opens."""
    g = two_hand(*BETTING)
    assert (g.state()["captain"], g.to_act) == ("Ann", "Ann")


def test_T4_captain_with_fewer_throws_opens(two_hand) -> None:
    """S-T9: equal or fewer throws: the captain opens."""
    g = two_hand(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann stand",
                 "Bob throw 3 2 2", "Bob throw 2 1 1", "Bob stand")
    assert (g.state()["captain"], g.to_act) == ("Ann", "Ann")


def test_T4_captain_with_more_throws_the_opponent_becomes_captain_and_opens(
    two_hand, play
) -> None:
    """S-T10: more throws: the opponent becomes captain and opens."""
    g = two_hand(*ANN_CAPTAIN, "Ann throw 3 2 2", "Ann throw 6 5 4", "Ann stand",
                 "Bob throw 2 1 1")
    effects = play(g, "Bob stand")
    assert [(e.kind, e.player, e.rule) for e in effects if e.kind == "captain"] == [
        ("captain", "Bob", "T4")
    ]
    assert (g.state()["captain"], g.to_act, g.expects) == ("Bob", "Bob", "bet")


# --- Betting (T5) -------------------------------------------------------------------------------
def test_T5_a_raise_is_one_chip(two_hand, refusal) -> None:
    """S-T11: a bet or raise is at most one chip."""
    g = two_hand(*BETTING, "Ann bet 1")
    e = refusal(g, "Bob raise 2")
    assert str(e) == "a raise is one chip in two-hand Bidou (T5)"
    assert (e.sentence, e.rule) == ("a raise is one chip in two-hand Bidou", "T5")


def test_T5_a_bet_is_one_chip(two_hand, refusal) -> None:
    """S-T11: a bet or raise is at most one chip."""
    assert str(refusal(two_hand(*BETTING), "Ann bet 2")) == (
        "a bet is one chip in two-hand Bidou (T5)"
    )


def test_T5_the_opener_bets_or_passes(two_hand, refusal) -> None:
    """S-T15: two passes end the hand."""
    g = two_hand(*BETTING)
    assert [(a.player, a.verb, a.min_chips, a.max_chips) for a in g.allowed()] == [
        ("Ann", "bet", 1, 1), ("Ann", "pass", None, None)
    ]
    assert str(refusal(g, "Ann call")) == (
        "nobody has bet yet, so there is nothing to call; Ann may bet or pass (T5)"
    )
    assert str(refusal(g, "Bob bet 1")) == "it is Ann's turn to bet, not Bob's (T5)"


def test_T5_if_the_opener_passes_the_other_bets_or_passes(two_hand) -> None:
    """S-T15: two passes end the hand."""
    g = two_hand(*BETTING, "Ann pass")
    assert [a.verb for a in g.allowed()] == ["bet", "pass"]
    assert g.to_act == "Bob"


def test_T5_two_passes_end_the_hand_and_the_other_player_captains_the_next(
    two_hand, play
) -> None:
    """S-T15: two passes end the hand."""
    g = two_hand(*BETTING, "Ann pass")
    effects = play(g, "Bob pass")
    s = g.state()
    assert (s["centre"], s["chips"], s["pot"]) == (9, {"Ann": 0, "Bob": 0}, 0)
    assert (s["captain"], s["to_act"], s["expects"]) == ("Bob", "Bob", "throw")
    assert not [e for e in effects if e.kind == "move"]


def test_source_if_both_players_pass_the_captaincy_changes_even_after_T4(two_hand) -> None:
    """S-T22: two passes: no chips move, the captaincy changes."""
    # Ann threw more, so Bob became captain and opened (T4); two passes hand it back to Ann.
    g = two_hand(*ANN_CAPTAIN, "Ann throw 3 2 2", "Ann throw 6 5 4", "Ann stand",
                 "Bob throw 2 1 1", "Bob stand", "Bob pass", "Ann pass")
    assert g.state()["captain"] == "Ann"


def test_T5_after_a_bet_the_other_calls_raises_or_drops(two_hand, refusal) -> None:
    """S-T16: after a bet: call, raise or drop."""
    g = two_hand(*BETTING, "Ann bet 1")
    assert [(a.player, a.verb) for a in g.allowed()] == [
        ("Bob", "call"), ("Bob", "raise"), ("Bob", "drop"), ("Bob", "pass")
    ]
    assert str(refusal(g, "Bob bet 1")) == (
        "the betting is already open; Bob may call or raise or drop (T5)"
    )


def test_T5_after_a_raise_likewise_until_a_call_or_a_drop(two_hand) -> None:
    """S-T17: after a raise likewise, until a call or a drop. D-T8: the number of a raise is the
    raise over the bet to call, so always 1."""
    g = two_hand(*BETTING, "Ann bet 1", "Bob raise 1", "Ann raise 1", "Bob raise 1")
    assert [(a.player, a.verb) for a in g.allowed()] == [
        ("Ann", "call"), ("Ann", "raise"), ("Ann", "drop"), ("Ann", "pass")
    ]
    assert g.state()["pot"] == 3 + 4  # Ann's stake 3, Bob's 4


def test_D_T2_a_pass_after_a_bet_is_a_drop_with_its_penalty(two_hand) -> None:
    """S-T16: after a bet: call, raise or drop."""
    passed = two_hand(*BETTING, "Ann bet 1")
    dropped = two_hand(*BETTING, "Ann bet 1")
    event = passed.apply(Action.parse("Bob pass"))
    dropped.apply(Action.parse("Bob drop"))
    assert event.effects[0].text == "Bob passes after a bet: that is a drop"
    assert event.effects[0].rule == "D-T2"
    assert passed.state() == dropped.state()
    assert passed.state()["chips"]["Bob"] == 1  # the penalty chip (T8)


def test_source_betting_verbs_of_montevideo_are_refused_in_two_hand(two_hand, refusal) -> None:
    e = refusal(two_hand(*BETTING), "Ann betpot")
    assert str(e) == "betpot belongs to Montevideo; in two-hand Bidou Ann may bet or pass (T5)"


# --- Where chips come from (T6) ----------------------------------------------------------------
def test_T6_bets_come_from_the_centre_while_it_has_chips(two_hand) -> None:
    """S-T12: bets come from the centre until it runs out."""
    g = two_hand(*BETTING, "Ann bet 1", "Bob raise 1")
    s = g.state()
    assert (s["centre"], s["pot"], s["chips"]) == (6, 3, {"Ann": 0, "Bob": 0})


#: Hand 1: Ann bets, Bob calls and loses: Bob 2, centre 7, Ann captain of hand 2.
BOB_HOLDS_TWO = (*BETTING[:2], *stand_each("Ann", "2 1 1", "Bob", "6 5 4"),
                 "Ann bet 1", "Bob call")


def test_T6_then_from_the_bettors_own_chips(two_hand, play) -> None:
    """S-T13: then from the chips a player received."""
    # Hand 2: Ann threw more, so Bob opens; four one-chip steps empty the centre, and Bob's
    # call is his own chip.
    g = two_hand(*BOB_HOLDS_TWO, "Ann throw 3 2 2", "Ann throw 6 5 4", "Ann stand",
                 "Bob throw 2 1 1", "Bob stand",
                 "Bob bet 1", "Ann raise 1", "Bob raise 1", "Ann raise 1")
    assert g.state()["centre"] == 0
    effects = play(g, "Bob call")
    assert "Bob stakes 1 own chip" in [e.text for e in effects]
    s = g.state()
    assert (s["chips"], s["centre"], s["pot"]) == ({"Ann": 8, "Bob": 1}, 0, 0)


def test_T6_a_raise_needs_chips_for_the_call_and_one_more(two_hand, refusal) -> None:
    """S-T13: then from the chips a player received."""
    # Hand 2, Ann opens: the centre runs out; Ann holds nothing, so she cannot raise.
    g = two_hand(*BOB_HOLDS_TWO, *stand_each("Ann", "6 5 4", "Bob", "2 1 1"),
                 "Ann bet 1", "Bob raise 1", "Ann raise 1", "Bob raise 1")
    assert [a.verb for a in g.allowed()] == ["call", "drop", "pass"]
    assert str(refusal(g, "Ann raise 1")) == (
        "Ann cannot raise: calling and raising takes 2 chips and the centre and Ann's own "
        "chips hold 0; Ann may call or drop (T6)"
    )


def test_T6_short_of_chips_he_calls_for_what_he_has_and_the_rest_goes_back(
    two_hand, play
) -> None:
    """S-T18: a call shows both throws; the loser takes every chip bet."""
    g = two_hand(*BOB_HOLDS_TWO, *stand_each("Ann", "6 5 4", "Bob", "2 1 1"),
                 "Ann bet 1", "Bob raise 1", "Ann raise 1", "Bob raise 1")
    effects = play(g, "Ann call")
    words = [e.text for e in effects]
    assert "Ann calls short, for 0 chips: all the chips available to Ann" in words
    assert "1 chip of Bob's stake goes back to the centre: the part of the stake not called" in (
        words
    )
    s = g.state()
    # Ann staked 3, Bob 3 matched: Ann's 6-5-4 is worse and takes the 6.
    assert (s["chips"], s["centre"], s["pot"]) == ({"Ann": 6, "Bob": 2}, 1, 0)


# --- Call and showdown (T7) ---------------------------------------------------------------------
def test_T7_call_both_show_the_worse_throw_takes_every_chip_bet(two_hand, play) -> None:
    """S-T18: a call shows both throws; the loser takes every chip bet."""
    g = two_hand(*BETTING, "Ann bet 1", "Bob raise 1")
    effects = play(g, "Ann call")
    assert [(e.player, e.dice) for e in effects if e.kind == "expose"] == [
        ("Ann", (6, 5, 4)), ("Bob", (2, 1, 1))
    ]
    assert "Ann takes 4 chips: the worse throw at the showdown" in [e.text for e in effects]
    s = g.state()
    assert (s["chips"], s["centre"], s["pot"]) == ({"Ann": 4, "Bob": 0}, 5, 0)


def test_T7_the_better_throw_captains_the_next_hand(two_hand) -> None:
    """S-T19: the winner of a showdown captains next."""
    g = two_hand(*BETTING, "Ann bet 1", "Bob call")
    assert (g.state()["captain"], g.to_act, g.expects) == ("Bob", "Bob", "throw")


def test_T7_equal_throws_every_chip_goes_back_and_the_captain_stays(two_hand) -> None:
    """S-T18: a call shows both throws; the loser takes every chip bet."""
    g = two_hand(*ANN_CAPTAIN, *stand_each("Ann", "6 5 4", "Bob", "4 5 6"),
                 "Ann bet 1", "Bob raise 1", "Ann call")
    s = g.state()
    assert (s["chips"], s["centre"], s["pot"], s["captain"]) == (
        {"Ann": 0, "Bob": 0}, 9, 0, "Ann"
    )


def test_D_T5_showdown_dice_stay_exposed_until_the_next_hands_first_throw(two_hand, play) -> None:
    g = two_hand(*BETTING, "Ann bet 1", "Bob call")
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (2, 1, 1)]
    play(g, "Bob throw 3 3 3")
    assert [v.exposed for v in g.views()] == [None, None]


def test_T7_R1_triple_aces_beats_bidou_at_the_showdown(two_hand) -> None:
    g = two_hand(*ANN_CAPTAIN, *stand_each("Ann", "1 1 1", "Bob", "2 1 1"),
                 "Ann bet 1", "Bob call")
    assert g.state()["chips"] == {"Ann": 0, "Bob": 2}


def test_R4_total_option_decides_the_showdown(two_hand) -> None:
    """D-T14: the ranking option decides showdowns and open throws."""
    plays = (*ANN_CAPTAIN, *stand_each("Ann", "6 6 4", "Bob", "6 5 5"), "Ann bet 1", "Bob call")
    assert two_hand(*plays).state()["chips"] == {"Ann": 0, "Bob": 2}
    assert two_hand(*plays, ranking="total").state()["chips"] == {"Ann": 0, "Bob": 0}


# --- Drop (T8) ----------------------------------------------------------------------------------
def test_T8_drop_returns_every_chip_and_takes_one_penalty_chip_from_the_centre(
    two_hand, play
) -> None:
    """S-T20: a dropper takes one penalty chip; the bets go back."""
    g = two_hand(*BETTING, "Ann bet 1", "Bob raise 1")
    effects = play(g, "Ann drop")
    assert "Ann takes 1 penalty chip from the centre" in [e.text for e in effects]
    s = g.state()
    assert (s["chips"], s["centre"], s["pot"]) == ({"Ann": 1, "Bob": 0}, 8, 0)


def test_T8_the_player_who_did_not_drop_captains_next(two_hand) -> None:
    """S-T21: the player who did not drop captains next."""
    g = two_hand(*BETTING, "Ann bet 1", "Bob drop")
    assert (g.state()["captain"], g.to_act) == ("Ann", "Ann")
    assert g.state()["chips"] == {"Ann": 0, "Bob": 1}


def test_T8_drop_sends_own_chips_back_to_their_owner(two_hand, play) -> None:
    """S-T20: a dropper takes one penalty chip; the bets go back."""
    g = two_hand(*BOB_HOLDS_TWO, *stand_each("Ann", "6 5 4", "Bob", "2 1 1"),
                 "Ann bet 1", "Bob raise 1", "Ann raise 1", "Bob raise 1")
    g2 = two_hand(*BOB_HOLDS_TWO, "Ann throw 3 2 2", "Ann throw 6 5 4", "Ann stand",
                  "Bob throw 2 1 1", "Bob stand",
                  "Bob bet 1", "Ann raise 1", "Bob raise 1", "Ann raise 1", "Bob raise 1")
    # g: Ann drops with the centre emptied by the stakes; all 7 go back, penalty from the centre.
    play(g, "Ann drop")
    assert (g.state()["chips"], g.state()["centre"]) == ({"Ann": 1, "Bob": 2}, 6)
    # g2: Bob's last raise took his 2 own chips; on Ann's drop they go back to Bob.
    effects = play(g2, "Ann drop")
    assert "2 chips of Bob's stake go back to Bob" in [e.text for e in effects]
    assert (g2.state()["chips"], g2.state()["centre"]) == ({"Ann": 1, "Bob": 2}, 6)


def test_source_a_player_need_not_have_a_strong_hand_to_bet_he_may_bluff(two_hand) -> None:
    """S-T14: a player may bet on any throw (bluff)."""
    # Ann holds 3-2-2, the lowest throw of all, and may still bet; Bob believes her and drops.
    g = two_hand(*ANN_CAPTAIN, *stand_each("Ann", "3 2 2", "Bob", "2 1 1"), "Ann bet 1",
                 "Bob drop")
    assert g.state()["chips"] == {"Ann": 0, "Bob": 1}
