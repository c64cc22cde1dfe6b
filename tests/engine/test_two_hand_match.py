"""A two-hand Bidou match: rounds (T1, T9), the open throw (T10), chips conserved (T11).

Ann sits first, Bob second. Each test plays actions as the game record writes them.
"""

from __future__ import annotations

import pytest

from engine import Action, GameOver, RuleViolation


def stand_each(first: str, first_dice: str, second: str, second_dice: str) -> tuple[str, ...]:
    return (f"{first} throw {first_dice}", f"{first} stand",
            f"{second} throw {second_dice}", f"{second} stand")


def rolls(captain: str) -> tuple[str, ...]:
    """A captain roll (in seat order, Ann first) that ``captain`` wins."""
    return ("Ann roll 5", "Bob roll 3") if captain == "Ann" else ("Ann roll 3", "Bob roll 5")


def to_eight(holder: str, short: str) -> tuple[str, ...]:
    """From a round's start: ``holder`` captains, bets up to 4-4 and loses: 8 chips, centre 1."""
    return (*rolls(holder), *stand_each(holder, "6 5 4", short, "2 1 1"),
            f"{holder} bet 1", f"{short} raise 1", f"{holder} raise 1", f"{short} raise 1",
            f"{holder} call")


def lose_round(loser: str, winner: str) -> tuple[str, ...]:
    """A whole round that ``loser`` loses: he reaches 8, then throws worse in the open throw."""
    return (*to_eight(loser, winner), *stand_each(winner, "2 1 1", loser, "3 2 2"))


#: Round 1: Bob holds 2 (centre 7), then Bob opens hand 2 and Ann takes 8: Ann 8, Bob 1, centre 0.
ANN_8_BOB_1 = (
    *rolls("Ann"), *stand_each("Ann", "2 1 1", "Bob", "6 5 4"), "Ann bet 1", "Bob call",
    "Ann throw 3 2 2", "Ann throw 6 5 4", "Ann stand", "Bob throw 2 1 1", "Bob stand",
    "Bob bet 1", "Ann raise 1", "Bob raise 1", "Ann raise 1", "Bob call",
)


# --- The open throw (T10) -----------------------------------------------------------------------
def test_T10_open_throw_when_one_holds_eight_and_the_last_chip_is_in_the_centre(
    two_hand, play
) -> None:
    """S-T26: an open throw when one player holds eight."""
    g = two_hand(*to_eight("Ann", "Bob")[:-1])
    effects = play(g, "Ann call")
    s = g.state()
    assert (s["chips"], s["centre"]) == ({"Ann": 8, "Bob": 0}, 1)
    assert (s["to_act"], s["expects"], s["captain"]) == ("Bob", "throw", "Bob")
    assert [(e.kind, e.detail, e.rule) for e in effects if e.kind == "hand"] == [
        ("hand", "open throw", "T10")
    ]


def test_T10_open_throw_when_the_last_chip_is_with_the_opponent(two_hand) -> None:
    """S-T26: an open throw when one player holds eight."""
    s = two_hand(*ANN_8_BOB_1).state()
    assert (s["chips"], s["centre"]) == ({"Ann": 8, "Bob": 1}, 0)
    assert (s["to_act"], s["expects"]) == ("Bob", "throw")


def test_T10_no_betting_in_an_open_throw(two_hand, refusal) -> None:
    """S-T26: an open throw when one player holds eight."""
    g = two_hand(*ANN_8_BOB_1)
    assert [(a.player, a.verb) for a in g.allowed()] == [("Bob", "throw")]
    assert str(refusal(g, "Bob bet 1")) == "there is no betting in an open throw; Bob throws (T10)"
    assert str(refusal(g, "Ann throw 6 5 4")) == (
        "it is Bob's turn to throw, not Ann's (T10)"
    )


def test_T10_the_short_player_throws_first_exposed_up_to_three_times(two_hand, play) -> None:
    """S-T27: the short player throws first, exposed, up to three times."""
    g = two_hand(*ANN_8_BOB_1)
    effects = play(g, "Bob throw 6 6 5")
    assert [(e.kind, e.player, e.dice) for e in effects] == [("expose", "Bob", (6, 6, 5))]
    assert [v.exposed for v in g.views()] == [None, (6, 6, 5)]
    play(g, "Bob throw 5 5 1", "Bob throw 4 2 1")
    assert (g.to_act, g.expects) == ("Ann", "throw")
    assert [v.exposed for v in g.views()] == [None, (4, 2, 1)]


def test_T10_holder_of_eight_throws_worse_takes_the_last_chip_and_loses_the_round(
    two_hand, play
) -> None:
    """S-T29: the holder throws worse: he takes the last chip and loses."""
    g = two_hand(*ANN_8_BOB_1, "Bob throw 2 1 1", "Bob stand", "Ann throw 3 2 2")
    effects = play(g, "Ann stand")
    words = [e.text for e in effects]
    assert "Ann takes the last chip from Bob: the worse open throw" in words
    assert "Ann holds all 9 chips and loses round 1" in words
    s = g.state()
    assert (s["round"], s["rounds_lost"], s["over"]) == (2, {"Ann": 1, "Bob": 0}, False)


def test_T10_short_player_throws_worse_takes_one_chip_and_normal_play_resumes(
    two_hand, play
) -> None:
    """S-T30: the short player throws worse: he takes one chip, play resumes."""
    g = two_hand(*to_eight("Ann", "Bob"), "Bob throw 3 2 2", "Bob stand", "Ann throw 2 1 1")
    effects = play(g, "Ann stand")
    assert "Bob takes 1 chip from Ann: the worse open throw" in [e.text for e in effects]
    s = g.state()
    assert (s["chips"], s["centre"], s["round"]) == ({"Ann": 7, "Bob": 1}, 1, 1)
    # The winner of the open throw captains the normal hand that follows.
    assert (s["captain"], s["to_act"], s["expects"]) == ("Ann", "Ann", "throw")


def test_T10_equal_open_throws_are_played_again(two_hand, play) -> None:
    """S-T29: the holder throws worse: he takes the last chip and loses."""
    g = two_hand(*ANN_8_BOB_1, "Bob throw 6 5 4", "Bob stand", "Ann throw 4 5 6")
    effects = play(g, "Ann stand")
    assert [e.detail for e in effects if e.kind == "hand"] == ["open throw"]
    s = g.state()
    assert (s["chips"], s["centre"], s["to_act"], s["expects"]) == (
        {"Ann": 8, "Bob": 1}, 0, "Bob", "throw"
    )
    play(g, "Bob throw 3 2 2", "Bob stand", "Ann throw 2 1 1", "Ann stand")
    assert g.state()["chips"] == {"Ann": 7, "Bob": 2}


def test_T10_R1_triple_aces_beats_bidou_in_the_open_throw(two_hand) -> None:
    g = two_hand(*ANN_8_BOB_1, "Bob throw 2 1 1", "Bob stand", "Ann throw 1 1 1", "Ann stand")
    assert g.state()["chips"] == {"Ann": 7, "Bob": 2}


# --- Rounds and the match (T1, T2, T9) -----------------------------------------------------------
def test_T9_a_round_is_lost_by_the_player_holding_all_the_chips(two_hand) -> None:
    """S-B1: a player's objective is to get rid of his chips. S-B4: the last player still holding
    chips is the loser."""
    s = two_hand(*lose_round("Bob", "Ann")).state()
    assert s["rounds_lost"] == {"Ann": 0, "Bob": 1}


def test_T2_every_round_starts_with_nine_centre_chips_and_a_captain_roll(two_hand) -> None:
    """S-T2: nine chips, in the centre."""
    s = two_hand(*lose_round("Ann", "Bob")).state()
    assert (s["round"], s["centre"], s["chips"], s["pot"]) == (2, 9, {"Ann": 0, "Bob": 0}, 0)
    assert (s["captain"], s["to_act"], s["expects"]) == (None, "Ann", "roll")


def test_T1_the_loser_is_the_first_to_lose_two_rounds_in_two_rounds(two_hand, play) -> None:
    """S-T1: a match is rounds; the first to lose two rounds loses."""
    g = two_hand(*lose_round("Ann", "Bob"), *lose_round("Ann", "Bob")[:-1])
    effects = play(g, "Ann stand")
    assert [(e.kind, e.player, e.rule) for e in effects if e.kind == "game"] == [
        ("game", "Ann", "T1")
    ]
    s = g.state()
    assert (s["over"], s["loser"], s["winner"], s["round"]) == (True, "Ann", "Bob", 2)
    assert (s["to_act"], s["expects"], s["rounds_lost"]) == (None, None, {"Ann": 2, "Bob": 0})
    assert g.allowed() == []


def test_T1_one_round_each_plays_a_third_round(two_hand) -> None:
    """S-T1: a match is rounds; the first to lose two rounds loses."""
    g = two_hand(*lose_round("Ann", "Bob"), *lose_round("Bob", "Ann"))
    s = g.state()
    assert (s["round"], s["over"], s["rounds_lost"]) == (3, False, {"Ann": 1, "Bob": 1})
    g2 = two_hand(*lose_round("Ann", "Bob"), *lose_round("Bob", "Ann"), *lose_round("Bob", "Ann"))
    assert (g2.state()["over"], g2.state()["loser"], g2.state()["round"]) == (True, "Bob", 3)


def test_T1_after_the_match_every_action_is_refused(two_hand, refusal) -> None:
    g = two_hand(*lose_round("Ann", "Bob"), *lose_round("Ann", "Bob"))
    e = refusal(g, "Ann roll 3")
    assert isinstance(e, GameOver)
    assert str(e) == "the game is over; start a new game (T1)"
    assert e.rule == "T1"


def test_T1_round_two_may_keep_dice_aside_and_round_three_rethrows_all(two_hand, play) -> None:
    """S-T6: every throw is all the dice, concealed. S-T23: round 2: dice may be put aside, hidden.
    S-T25: round 3 plays as round 1."""
    g = two_hand()
    assert "every throw rethrows all three dice" in g.opening_effects[0].text
    assert g.throw_rule == "rethrow all three"
    effects = play(g, *lose_round("Ann", "Bob"))
    assert any("Round 2 begins" in t and "may keep dice aside" in t for t in
               (e.text for e in effects))
    assert g.throw_rule == "keep dice aside"
    effects = play(g, *lose_round("Bob", "Ann"))
    assert any("Round 3 begins" in t and "rethrows all three dice" in t for t in
               (e.text for e in effects))
    assert g.throw_rule == "rethrow all three"


def test_D_T1_held_dice_are_not_checked_any_three_values_are_recorded(two_hand) -> None:
    """S-T23: round 2: dice may be put aside, hidden. S-T24: round 2: all dice may be thrown again
    on the third throw."""
    # Round 2: Ann keeps 2-1 aside and rethrows one die; then throws all three again on the
    # third throw. The table sees only values, so each is accepted as thrown.
    g = two_hand(*lose_round("Ann", "Bob"), *rolls("Ann"),
                 "Ann throw 2 1 5", "Ann throw 2 1 1", "Ann throw 6 6 6")
    assert g.concealed_dice("Ann") == (6, 6, 6)
    assert g.to_act == "Bob"


# --- Chips (T11) and refusals -------------------------------------------------------------------
def test_T11_centre_plus_both_players_plus_stakes_is_always_nine(two_hand) -> None:
    g = two_hand()
    actions = (*lose_round("Ann", "Bob"), *ANN_8_BOB_1, "Bob throw 6 5 4", "Bob stand",
               "Ann throw 6 5 4", "Ann stand", "Bob throw 3 2 2", "Bob stand",
               "Ann throw 2 1 1", "Ann stand", *stand_each("Ann", "4 4 1", "Bob", "5 5 2"),
               "Ann bet 1", "Bob drop")
    for text in actions:
        g.apply(Action.parse(text))
        s = g.state()
        assert sum(s["chips"].values()) + s["centre"] + s["pot"] + s["removed"] == 9, text
    # Bob's drop with the centre empty: the penalty chip comes from Ann (T8).
    assert g.state()["chips"] == {"Ann": 6, "Bob": 3}


def test_T8_with_the_centre_empty_the_penalty_chip_comes_from_the_opponent(
    two_hand, play
) -> None:
    """S-T20: a dropper takes one penalty chip; the bets go back."""
    g = two_hand(*ANN_8_BOB_1, "Bob throw 3 2 2", "Bob stand", "Ann throw 2 1 1", "Ann stand",
                 *stand_each("Ann", "4 4 1", "Bob", "5 5 2"), "Ann bet 1")
    assert g.state()["centre"] == 0
    effects = play(g, "Bob drop")
    assert "Bob takes 1 penalty chip from Ann" in [e.text for e in effects]
    assert g.state()["chips"] == {"Ann": 6, "Bob": 3}


def test_refusal_of_dice_that_are_not_one_to_six_built_in_code(two_hand) -> None:
    """D-T12: actions built in code are checked for shape."""
    g = two_hand(*rolls("Ann"))
    with pytest.raises(RuleViolation, match=r"^a die shows 1 to 6, not 7 \(T3\)$"):
        g.apply(Action("Ann", "throw", (7, 1, 1)))
    with pytest.raises(RuleViolation, match=r"^throw takes 3 numbers, not 2 \(T3\)$"):
        g.apply(Action("Ann", "throw", (6, 1)))
    with pytest.raises(RuleViolation, match=r"^Carl is not a player in this game$"):
        g.apply(Action("Carl", "throw", (6, 1, 1)))
    assert g.history == [Action.parse(a) for a in rolls("Ann")]


def test_source_open_throw_follows_the_rules_of_the_round_being_played(two_hand) -> None:
    """S-T28: the open throw follows the round's throw rule."""
    # Round 2: the short player keeps 2-1 aside; exposed, the values are simply recorded (D-T1).
    g = two_hand(*lose_round("Bob", "Ann"), *to_eight("Ann", "Bob"),
                 "Bob throw 2 1 6", "Bob throw 2 1 1")
    assert g.state()["round"] == 2
    assert [v.exposed for v in g.views()] == [None, (2, 1, 1)]


def test_source_second_round_dice_put_aside_stay_hidden(two_hand) -> None:
    """S-T23: round 2: dice may be put aside, hidden."""
    g = two_hand(*lose_round("Ann", "Bob"), *rolls("Ann"), "Ann throw 2 1 5", "Ann throw 2 1 1")
    assert [v.exposed for v in g.views()] == [None, None]
    assert g.views()[0].throws == 2


def test_D_T15_a_finished_match_names_the_other_player_as_winner(two_hand) -> None:
    g = two_hand(*lose_round("Bob", "Ann"))
    assert (g.state()["loser"], g.state()["winner"]) == (None, None)  # one round is no match
    g = two_hand(*lose_round("Bob", "Ann"), *lose_round("Bob", "Ann"))
    assert (g.state()["over"], g.state()["loser"], g.state()["winner"]) == (True, "Bob", "Ann")
