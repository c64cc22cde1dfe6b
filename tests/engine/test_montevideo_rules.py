"""Montevideo, one test per sentence of the source's "Variant: Montevideo" and per ruling V1-V6.

Games are driven only through actions as the game record writes them; chips are checked
after each settlement.
"""

from __future__ import annotations

import pytest

from engine import Action, new_game
from engine.errors import GameOver, NotYourTurn, RecordError, RuleViolation

THREE = ("Ann", "Bob", "Cy")
ANN_CAPTAIN = ("Ann roll 6", "Bob roll 2", "Cy roll 1")


def texts(effects) -> list[str]:
    return [e.text for e in effects]


# --- the source, sentence by sentence --------------------------------------------------


def test_source_three_or_more_players_can_take_part():
    """S-V3: three or more players."""
    with pytest.raises(RecordError, match="montevideo takes 3 or more players, not 2"):
        new_game("montevideo", ["Ann", "Bob"])
    assert new_game("montevideo", [f"P{i}" for i in range(8)]).state()["pot"] == 8


def test_source_at_the_start_each_player_has_six_chips_and_antes_one_before_throwing(montevideo):
    """S-V4: six chips each; an ante of one each hand."""
    g = montevideo()
    s = g.state()
    assert s["chips"] == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert s["pot"] == 3
    assert (s["expects"], s["to_act"]) == ("roll", "Ann")


def test_source_betting_proceeds_as_in_poker_after_the_dice_have_been_thrown(
        montevideo, refusal, once):
    """S-V5: betting as in poker, after the throws."""
    g = montevideo(*ANN_CAPTAIN, "Ann throw 6 5 4")
    assert refusal(g, "Ann bet 1").rule == "V2"
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")))
    assert (g.expects, g.to_act) == ("bet", "Ann")


def test_source_at_showdown_the_highest_combination_wins_the_pot(montevideo, once):
    """S-V7: the best throw wins the pot."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "2 1 1"), ("Cy", "6 6 6")),
             "Ann bet 2", "Bob call", "Cy call")
    # Pot: 3 antes + 6 bets = 9, all to Bob's bidou; then the next hand's antes.
    assert g.state()["chips"] == {"Ann": 5 - 2 - 1, "Bob": 5 - 2 + 9 - 1, "Cy": 5 - 2 - 1}


def test_source_objective_is_to_win_chips_the_winner_taking_all(montevideo, once):
    """S-V2: the winner takes all."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "4 2 1"), ("Bob", "6 5 4"), ("Cy", "3 3 6")),
             "Ann bet 5", "Bob call", "Cy call")
    s = g.state()
    assert s["over"] and s["winner"] == "Ann" and s["loser"] is None
    assert s["chips"] == {"Ann": 18, "Bob": 0, "Cy": 0}
    assert (s["to_act"], s["expects"], s["pot"]) == (None, None, 0)


# --- V1 ----------------------------------------------------------------------------------


def test_V1_the_last_player_with_chips_wins_and_nothing_more_is_played(montevideo, once):
    """S-V2: the winner takes all."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "4 2 1"), ("Bob", "6 5 4"), ("Cy", "3 3 6")),
             "Ann bet 5", "Bob call", "Cy call")
    assert g.allowed() == []
    with pytest.raises(GameOver) as info:
        g.apply(Action.parse("Ann throw 1 1 1"))
    assert str(info.value) == "the game is over; start a new game (V1)"
    assert [v.out for v in g.views()] == [False, True, True]


# --- V2 ----------------------------------------------------------------------------------


def test_V2_captain_roll_ties_among_the_highest_roll_again_in_seat_order(montevideo, refusal):
    g = montevideo("Ann roll 5", "Bob roll 2", "Cy roll 5")
    assert g.to_act == "Ann" and g.captain is None
    assert "only Ann, Cy roll again after the tie" in str(refusal(g, "Bob roll 6"))
    g.apply(Action.parse("Ann roll 1"))
    effects = g.apply(Action.parse("Cy roll 4")).effects
    assert "Cy is captain (V2)" in texts(effects)
    assert (g.state()["captain"], g.to_act, g.expects) == ("Cy", "Cy", "throw")


def test_V2_every_hand_each_player_with_chips_antes_one_as_the_hand_begins(montevideo, once):
    """S-V4: six chips each; an ante of one each hand."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann bet 1", "Bob call", "Cy drop")
    # Ann wins 3 antes + 2 bets; the next hand's antes are already in.
    assert g.state()["chips"] == {"Ann": 5 - 1 + 5 - 1, "Bob": 4 - 1, "Cy": 5 - 1}
    assert g.state()["pot"] == 3


def test_V2_a_player_without_chips_does_not_ante_or_throw(montevideo, refusal, once):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "2 1 1"), ("Bob", "6 5 4"), ("Cy", "6 5 3")),
             "Ann bet 5", "Bob call", "Cy drop")
    s = g.state()
    assert s["chips"] == {"Ann": 13 - 2, "Bob": 0, "Cy": 5 - 2}  # the ante rose to 2 (V5)
    assert s["pot"] == 4
    g.apply(Action.parse("Ann throw 6 5 4"))
    g.apply(Action.parse("Ann stand"))
    assert g.to_act == "Cy"
    assert isinstance(refusal(g, "Bob throw 6 5 4"), NotYourTurn)


def test_V2_throwing_goes_clockwise_from_the_captain_one_to_three_throws(montevideo, refusal):
    g = montevideo("Ann roll 1", "Bob roll 6", "Cy roll 2")
    assert g.to_act == "Bob"
    assert str(refusal(g, "Ann throw 6 5 4")) == "it is Bob's turn to throw, not Ann's (V2)"
    assert str(refusal(g, "Bob stand")) == "Bob must throw at least once before standing (V2)"
    for dice in ("6 5 4", "3 3 1", "2 1 1"):
        g.apply(Action.parse(f"Bob throw {dice}"))
    assert g.to_act == "Cy"  # the third throw ends the turn by itself
    assert g.concealed_dice("Bob") == (2, 1, 1)


def test_V2_every_throw_is_three_dice(montevideo):
    """S-V1: three dice a throw."""
    g = montevideo(*ANN_CAPTAIN)
    with pytest.raises(RuleViolation) as info:
        g.apply(Action("Ann", "throw", (7, 1, 1)))
    assert str(info.value) == "a die shows 1 to 6, not 7 (V2)"
    with pytest.raises(RuleViolation, match=r"throw takes 3 numbers, not 2 \(V2\)"):
        g.apply(Action("Ann", "throw", (6, 5)))
    assert g.state()["chips"] == {"Ann": 5, "Bob": 5, "Cy": 5}


def test_V2_the_opener_is_the_fewest_throws_clockwise_from_the_captain_M4(montevideo, once):
    g = montevideo(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann throw 6 5 4", "Ann stand",
             "Bob throw 6 5 4", "Bob throw 6 5 4", "Bob throw 6 5 4",
             "Cy throw 6 5 4", "Cy stand")
    assert (g.expects, g.to_act) == ("bet", "Cy")
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 4"), ("Cy", "6 5 4")))
    assert g.to_act == "Ann"


def test_V2_M9_the_best_throw_at_a_showdown_captains_the_next_hand(montevideo, once):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "1 1 1")),
             "Ann bet 1", "Bob call", "Cy call")
    assert g.state()["captain"] == "Cy"
    assert g.to_act == "Cy"


def test_V2_M9_the_last_player_left_after_drops_captains_the_next_hand(montevideo, once):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "1 1 1")),
             "Ann pass", "Bob bet 1", "Cy drop", "Ann drop")
    assert g.state()["captain"] == "Bob"
    assert g.state()["chips"] == {"Ann": 4, "Bob": 5 - 1 + 4 - 1, "Cy": 4}


def test_V2_M9_after_all_pass_the_player_left_of_the_captain_captains(montevideo, once):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "2 1 1"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann pass", "Bob pass", "Cy pass")
    assert g.state()["captain"] == "Bob"


def test_M4_V2_the_opener_becomes_captain_and_after_all_pass_the_captaincy_goes_to_his_left(
        montevideo, play):
    g = montevideo(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann throw 6 5 3", "Ann stand",
                   "Bob throw 2 1 1", "Bob stand", "Cy throw 3 2 2", "Cy stand")
    s = g.state()
    assert (s["captain"], s["to_act"], s["expects"]) == ("Bob", "Bob", "bet")
    play(g, "Bob pass", "Cy pass", "Ann pass")
    s = g.state()
    # Bob's bidou wins the 3 antes; the next hand's antes are already in the pot.
    assert s["chips"] == {"Ann": 4, "Bob": 7, "Cy": 4} and s["pot"] == 3
    assert (s["captain"], s["to_act"], s["expects"]) == ("Cy", "Cy", "throw")


def test_M4_V2_a_captain_among_the_fewest_throws_keeps_the_captaincy(montevideo):
    g = montevideo(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann stand", "Bob throw 2 1 1",
                   "Bob throw 2 1 1", "Bob stand", "Cy throw 3 2 2", "Cy stand")
    s = g.state()
    assert (s["captain"], s["to_act"]) == ("Ann", "Ann")


# --- V3 ----------------------------------------------------------------------------------


def test_V3_a_bet_is_one_chip_up_to_the_players_stack(montevideo, once, refusal):
    """S-V5: betting as in poker, after the throws."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")))
    bets = [a for a in g.allowed() if a.verb == "bet"]
    assert [(a.player, a.min_chips, a.max_chips) for a in bets] == [("Ann", 1, 5)]
    assert str(refusal(g, "Ann bet 6")) == (
        "Ann may bet 1 to 5 chips in no-limit Montevideo, not 6 (V3)"
    )
    g.apply(Action.parse("Ann bet 5"))
    assert g.state()["chips"]["Ann"] == 0 and g.state()["pot"] == 8


def test_V3_a_raise_is_one_chip_up_to_the_stack_less_the_call(montevideo, once, refusal):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann bet 2")
    raises = [a for a in g.allowed() if a.verb == "raise"]
    assert [(a.player, a.min_chips, a.max_chips) for a in raises] == [("Bob", 1, 3)]
    assert str(refusal(g, "Bob raise 4")) == (
        "Bob may raise 1 to 3 chips in no-limit Montevideo, not 4 (V3)"
    )
    g.apply(Action.parse("Bob raise 3"))
    assert g.state()["chips"]["Bob"] == 0
    assert g.to_act == "Cy"


def test_V3_betting_goes_clockwise_and_out_of_turn_is_refused(montevideo, refusal, once):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")))
    err = refusal(g, "Cy bet 1")
    assert isinstance(err, NotYourTurn)
    assert str(err) == "it is Ann's turn to bet, not Cy's: betting goes clockwise (V3)"


def test_V3_a_player_short_of_a_call_may_call_all_in(montevideo, once):
    # Hand 1 leaves Bob with 2 chips after the next ante; Ann then bets more than he has.
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann bet 2", "Bob call", "Cy call")
    assert g.state()["chips"] == {"Ann": 3 + 9 - 1, "Bob": 2, "Cy": 2}
    g2 = [*once(("Ann", "6 5 4"), ("Bob", "2 1 1"), ("Cy", "6 5 2"))]
    for text in g2:
        g.apply(Action.parse(text))
    g.apply(Action.parse("Ann bet 5"))
    assert [a.verb for a in g.allowed()] == ["call", "drop", "pass"]
    effects = g.apply(Action.parse("Bob call")).effects
    assert "Bob calls all-in with 2 chips (V3)" in texts(effects)
    effects = g.apply(Action.parse("Cy drop")).effects
    # Stakes Ann 6, Bob 3, Cy 1 (dropped): the main pot is 3 + 3 + 1 = 7 for Bob's bidou;
    # the 3 chips of Ann's bet that Bob could not match come back to her.
    assert [t for t in texts(effects) if " take" in t] == [
        "Bob takes 7 chips from the main pot: best throw (V4)",
        "Ann takes back 3 chips that nobody could call (D-V9)",
    ]
    s = g.state()
    assert s["chips"]["Bob"] + 1 == 7  # 7 won, 1 anted for the next hand
    assert s["chips"]["Ann"] == 11 - 5 + 3 - 1


def test_V3_side_pots_with_three_all_in_players(montevideo, once):
    g = montevideo(
        "A roll 6", "B roll 1", "C roll 1", "D roll 1",
        *once(("A", "6 5 2"), ("B", "6 4 2"), ("C", "5 4 1"), ("D", "6 6 5")),
        "A bet 1", "B call", "C drop", "D raise 2", "A call", "B drop",
        players=("A", "B", "C", "D"),
    )
    # D's 6-6-5 won 4 antes + A 3 + B 1 + D 3 = 11; the next antes are in.
    assert g.state()["chips"] == {"A": 1, "B": 3, "C": 4, "D": 12}
    for text in once(("D", "6 5 2"), ("A", "2 1 1"), ("B", "2 2 1"), ("C", "6 5 2")):
        g.apply(Action.parse(text))
    g.apply(Action.parse("D bet 3"))
    g.apply(Action.parse("A call"))  # all-in for 1: stake 2
    g.apply(Action.parse("B call"))  # all-in for 3: stake 4
    g.apply(Action.parse("C raise 1"))  # all-in for 4: stake 5
    effects = g.apply(Action.parse("D call")).effects
    # Main pot 2 x 4 = 8 (bidou, A); side pot 1: 2 x 3 = 6 (bidè, B);
    # side pot 2: 1 x 2 = 2, C and D tie with 6-5-2 and take 1 each.
    assert [t for t in texts(effects) if " takes " in t] == [
        "A takes 8 chips from the main pot: best throw (V4)",
        "B takes 6 chips from side pot 1: best throw (V4)",
        "C takes 1 chip from side pot 2: equal best throws split it (V4)",
        "D takes 1 chip from side pot 2: equal best throws split it (V4)",
    ]
    s = g.state()
    assert s["chips"] == {"A": 8 - 1, "B": 6 - 1, "C": 0, "D": 9 - 1}
    assert s["pot"] == 4 and sum(s["chips"].values()) + s["pot"] == 24


# --- V4 ----------------------------------------------------------------------------------


def test_V4_the_best_throw_by_R1_wins_triple_aces_beat_bidou(montevideo, once):
    """S-V6: Bidou's ranking of throws."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "2 1 1"), ("Bob", "1 1 1"), ("Cy", "6 5 2")),
             "Ann bet 1", "Bob call", "Cy call")
    assert g.state()["captain"] == "Bob"
    assert g.state()["chips"]["Bob"] == 4 + 6 - 1


def test_V4_equal_best_throws_split_and_the_odd_chip_stays_for_the_next_hand(montevideo, once):
    """S-V7: the best throw wins the pot."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "4 2 1"), ("Bob", "4 2 1"), ("Cy", "6 5 2")),
             "Ann bet 1", "Bob call", "Cy call")
    # Pot 3 + 3 = 6: 3 each, nothing left.
    assert g.state()["pot"] == 3
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "4 2 1"), ("Bob", "4 2 1"), ("Cy", "6 5 2")),
             "Ann pass", "Bob pass", "Cy pass")
    s = g.state()
    # Pot 3: 1 each to Ann and Bob, 1 chip carried; then the next antes.
    assert s["chips"] == {"Ann": 5, "Bob": 5, "Cy": 4}
    assert s["pot"] == 1 + 3
    # The carried chip goes to the next hand's winner (Bob captains after all passed).
    for text in once(("Bob", "6 5 2"), ("Cy", "2 2 1"), ("Ann", "6 5 3")):
        g.apply(Action.parse(text))
    for text in ("Bob pass", "Cy pass", "Ann pass"):
        g.apply(Action.parse(text))
    assert g.state()["chips"] == {"Ann": 4, "Bob": 4, "Cy": 4 + 4 - 1}


def test_V4_if_everyone_passes_all_throws_are_shown(montevideo, once):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "3 3 1"), ("Cy", "6 5 2")),
             "Ann pass", "Bob pass")
    effects = g.apply(Action.parse("Cy pass")).effects
    assert texts(effects)[1:5] == [
        "everyone passed: all throws are shown (V4)",
        "Ann's dice are shown: run (6-5-4)",
        "Bob's dice are shown: pair of threes (3-3-1)",
        "Cy's dice are shown: 6-5-2",
    ]
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (3, 3, 1), (6, 5, 2)]
    assert g.concealed_dice("Bob") is None  # a new hand: nothing thrown yet


def test_V4_R3_cycle_bidou_wins_the_pot_when_triple_aces_and_bide_are_shown_beside_it(
        montevideo, once):
    g = montevideo(*ANN_CAPTAIN, *once("Ann", "1 1 1", "Bob", "2 1 1", "Cy", "2 2 1"),
                   "Ann pass", "Bob pass", "Cy pass")
    s = g.state()
    # Bob's bidou takes the 3 antes; the next hand's antes (1 each) are already in.
    assert s["chips"] == {"Ann": 4, "Bob": 7, "Cy": 4} and s["pot"] == 3


# --- V5 ----------------------------------------------------------------------------------


@pytest.fixture
def two_left(montevideo, once):
    """Bob is out after hand 1: Ann 13, Cy 5 before the next ante."""
    return montevideo(*ANN_CAPTAIN, *once(("Ann", "2 1 1"), ("Bob", "6 5 4"), ("Cy", "6 5 3")),
                      "Ann bet 5", "Bob call", "Cy drop")


@pytest.fixture
def tie_and_pass(play, once):
    """``tie_and_pass(g, first, second)``: both throw 4-2-1 once; any betting is passed."""

    def tie(g, first: str, second: str) -> None:
        play(g, *once((first, "4 2 1"), (second, "4 2 1")))
        if g.expects == "bet":
            play(g, f"{g.to_act} pass")
            play(g, f"{g.to_act} pass")

    return tie


def test_V5_with_two_players_left_the_ante_rises_each_hand_to_at_most_six(two_left, tie_and_pass):
    """S-V8: two players left: the ante rises to at most six."""
    g = two_left
    antes = [g.ante]
    # All pass and tie: the captaincy goes left (M9) -- except in hand 5, where Cy is
    # all-in on the ante, nobody can bet, and the tied captain keeps it (D-V8, D-V11).
    captains = ["Ann", "Cy", "Ann", "Cy", "Cy"]
    for cap in captains:
        other = "Ann" if cap == "Cy" else "Cy"
        assert g.state()["captain"] == cap
        tie_and_pass(g, cap, other)
        antes.append(g.ante)
        assert sum(g.state()["chips"].values()) + g.state()["pot"] == 18
    assert antes == [2, 3, 4, 5, 6, 6]


def test_V5_a_player_who_cannot_cover_the_ante_antes_all_he_has_and_is_all_in(two_left,
                                                                                tie_and_pass):
    g = two_left
    for cap in ["Ann", "Cy", "Ann", "Cy", "Cy"]:
        tie_and_pass(g, cap, "Ann" if cap == "Cy" else "Cy")
    # Ante 6: Cy holds 5 before it.
    s = g.state()
    assert g.ante == 6
    assert s["chips"] == {"Ann": 13 - 6, "Bob": 0, "Cy": 0}
    assert s["pot"] == 11
    view = {v.name: v for v in g.views()}
    assert view["Cy"].in_hand and view["Cy"].stake == 5 and not view["Cy"].out
    assert view["Bob"].out


def test_V5_with_six_or_more_starting_players_the_ante_rises_when_three_hold_chips(
        once, montevideo):
    """S-V9: many players: the ante rises with three left."""
    names = ("P0", "P1", "P2", "P3", "P4", "P5")
    acts = ["P0 roll 6", *[f"{p} roll 1" for p in names[1:]]]
    acts += once(("P0", "2 1 1"), ("P1", "6 5 4"), ("P2", "6 5 3"), ("P3", "6 5 2"),
                 ("P4", "6 4 2"), ("P5", "6 4 1"))
    acts += ["P0 bet 5", "P1 call", "P2 call", "P3 call", "P4 drop", "P5 drop"]
    g = montevideo(*acts, players=names)
    assert g.ante == 2
    assert g.state()["chips"] == {"P0": 24, "P1": 0, "P2": 0, "P3": 0, "P4": 3, "P5": 3}


def test_V5_with_five_starting_players_three_left_still_ante_one(once, montevideo):
    """S-V9: many players: the ante rises with three left."""
    names = ("P0", "P1", "P2", "P3", "P4")
    acts = ["P0 roll 6", *[f"{p} roll 1" for p in names[1:]]]
    acts += once(("P0", "2 1 1"), ("P1", "6 5 4"), ("P2", "6 5 3"), ("P3", "6 5 2"),
                 ("P4", "6 4 2"))
    acts += ["P0 bet 5", "P1 call", "P2 call", "P3 drop", "P4 drop"]
    g = montevideo(*acts, players=names)
    assert g.state()["chips"] == {"P0": 5 + 15 - 1, "P1": 0, "P2": 0, "P3": 4, "P4": 4}
    assert g.ante == 1


# --- V6 ----------------------------------------------------------------------------------


def test_V6_the_opener_may_bet_the_pot_staying_in_without_putting_up_chips(montevideo, once):
    """S-V10: betting the pot: staying in for nothing."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")))
    assert {a.verb for a in g.allowed()} == {"pass", "bet", "betpot"}
    effects = g.apply(Action.parse("Ann betpot")).effects
    assert texts(effects) == ["Ann bets the pot: stays in without putting up chips (V6)"]
    assert g.state()["chips"]["Ann"] == 5 and g.state()["pot"] == 3
    assert [a.verb for a in g.allowed()] == ["callpot", "raise", "drop", "pass"]


def test_V6_a_player_who_already_passed_may_call_the_pot_for_nothing(montevideo, once):
    """S-V11: anyone, even after passing, may call the pot."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann pass", "Bob betpot", "Cy callpot")
    assert g.to_act == "Ann"
    effects = g.apply(Action.parse("Ann callpot")).effects
    assert "Ann calls the pot for nothing (V6)" in texts(effects)
    # Showdown for the 3 antes: Ann's run 6-5-4 wins.
    assert g.state()["chips"] == {"Ann": 5 + 3 - 1, "Bob": 4, "Cy": 4}


def test_V6_a_raise_after_a_pot_bet_must_be_called_or_dropped_by_everyone_still_in(
        montevideo, once, refusal):
    """S-V12: a pot bet may be raised."""
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann betpot", "Bob callpot", "Cy raise 2")
    assert g.to_act == "Ann"
    assert str(refusal(g, "Ann callpot")) == (
        "Cy has raised after the pot bet: Ann must call 2, raise or drop (V6)"
    )
    g.apply(Action.parse("Ann call"))
    assert g.to_act == "Bob"
    g.apply(Action.parse("Bob drop"))
    # Ann's 6-5-4 beats Cy's 6-5-2: 3 antes + 2 + 2.
    assert g.state()["chips"] == {"Ann": 3 + 7 - 1, "Bob": 4, "Cy": 2}
    assert g.state()["captain"] == "Ann"


def test_V6_betpot_is_refused_once_the_betting_is_open(montevideo, once, refusal):
    g = montevideo(*ANN_CAPTAIN, *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann bet 1")
    assert str(refusal(g, "Bob betpot")) == (
        "only the player opening the betting may bet the pot; it is open already (V6)"
    )
    assert str(refusal(g, "Bob callpot")) == (
        "nobody has bet the pot, so Bob cannot call it: call 1, raise or drop (V6)"
    )
