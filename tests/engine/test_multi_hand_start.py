"""Multi-hand Bidou from the first roll to the opening of the betting (source "Multi-Hand
Bidou": chips, captaincy, play, opening the betting; RULINGS M1-M4)."""

from __future__ import annotations

import pytest

from engine import Action, NotYourTurn

P3 = ["Ann", "Bob", "Cid"]
ANN_CAPTAIN = ["Ann roll 6", "Bob roll 2", "Cid roll 1"]


def test_M1_each_player_starts_with_six_chips_and_there_is_no_centre(multi_hand) -> None:
    """S-M1: no centre; six chips each."""
    s = multi_hand(players=["Ann", "Bob", "Cid", "Dan"]).state()
    assert s["chips"] == {"Ann": 6, "Bob": 6, "Cid": 6, "Dan": 6}
    assert (s["centre"], s["pot"], s["removed"]) == (0, 0, 0)
    assert (s["variant"], s["round"], s["rounds_lost"], s["winner"]) == (
        "multi-hand", 1, {}, None)


def test_M1_chips_are_listed_in_seat_order(multi_hand) -> None:
    assert list(multi_hand(players=["Zoe", "Ann", "Max"]).state()["chips"]) == ["Zoe", "Ann", "Max"]


def test_M2_the_preliminary_roll_goes_in_seat_order_and_the_highest_die_is_captain(
        multi_hand, refused) -> None:
    """S-M2: a preliminary roll names the first captain."""
    g = multi_hand()
    assert (g.to_act, g.expects) == ("Ann", "roll")
    assert refused(g, "Bob roll 3") == "it is Ann's turn to roll, not Bob's (M2)"
    g = multi_hand("Ann roll 3", "Bob roll 5", "Cid roll 4")
    assert g.state()["captain"] == "Bob"
    assert (g.to_act, g.expects) == ("Bob", "throw")


def test_M2_players_tied_on_the_highest_die_roll_again_and_only_they(multi_hand) -> None:
    """S-M2: a preliminary roll names the first captain."""
    g = multi_hand("Ann roll 5", "Bob roll 2", "Cid roll 5")
    assert g.state()["captain"] is None
    assert g.to_act == "Ann"
    g.apply(Action.parse("Ann roll 1"))
    assert g.to_act == "Cid"
    g.apply(Action.parse("Cid roll 3"))
    assert g.state()["captain"] == "Cid"


def test_M2_nothing_but_a_roll_is_accepted_before_the_captain_is_known(refused, multi_hand) -> None:
    assert refused(multi_hand(), "Ann throw 1 2 3") == (
        "the game starts with the captain roll: Ann rolls one die (M2)")


def test_M3_each_player_throws_one_to_three_times_clockwise_from_the_captain(
        multi_hand, refused) -> None:
    """S-M3: play starts with the captain, clockwise."""
    g = multi_hand("Ann roll 2", "Bob roll 6", "Cid roll 1")
    assert g.to_act == "Bob"
    assert refused(g, "Bob stand") == "Bob must throw at least once before standing (M3)"
    g.apply(Action.parse("Bob throw 6 5 4"))
    g.apply(Action.parse("Bob stand"))
    assert g.to_act == "Cid"
    for _ in range(3):
        g.apply(Action.parse("Cid throw 3 2 2"))
    assert g.to_act == "Ann", "the third throw ends the turn by itself"
    assert [v.throws for v in g.views()] == [0, 1, 3]


def test_M3_throws_out_of_turn_and_bets_before_everyone_has_thrown_are_refused(
        multi_hand, refused) -> None:
    g = multi_hand(*ANN_CAPTAIN)
    with pytest.raises(NotYourTurn):
        g.verify(Action.parse("Cid throw 1 1 1"))
    assert refused(g, "Cid throw 1 1 1") == "it is Ann's turn to throw, not Cid's (M3)"
    g.apply(Action.parse("Ann throw 1 2 3"))
    assert refused(g, "Ann bet 1") == (
        "the betting begins when every player has thrown; Ann throws again or stands (M3)")


def test_M3_throws_are_concealed_from_the_views_but_known_to_the_seat(multi_hand) -> None:
    """S-M6: dice stay hidden until the betting closes."""
    g = multi_hand(*ANN_CAPTAIN, "Ann throw 2 1 1")
    assert g.concealed_dice("Ann") == (2, 1, 1)
    assert all(v.exposed is None for v in g.views())


def test_M4_all_threw_equally_so_the_captain_opens(multi_hand) -> None:
    """S-M7: equal throws: the captain stays and opens."""
    g = multi_hand(*ANN_CAPTAIN, "Ann throw 1 2 3", "Ann stand", "Bob throw 1 2 3", "Bob stand",
             "Cid throw 1 2 3", "Cid stand")
    assert (g.to_act, g.expects, g.state()["captain"]) == ("Ann", "bet", "Ann")


def test_M4_fewest_throws_nearest_the_captains_left_becomes_captain_and_opens(multi_hand) -> None:
    """S-M8: else the fewest throws nearest the captain's left."""
    g = multi_hand(*ANN_CAPTAIN, "Ann throw 1 2 3", "Ann throw 1 2 3", "Ann stand",
             "Bob throw 1 2 3", "Bob throw 1 2 3", "Bob throw 1 2 3",
             "Cid throw 1 2 3", "Cid stand")
    assert (g.to_act, g.state()["captain"]) == ("Cid", "Cid")


def test_M4_a_captain_among_the_fewest_throws_keeps_the_captaincy(multi_hand) -> None:
    """S-M8: else the fewest throws nearest the captain's left."""
    g = multi_hand(*ANN_CAPTAIN, "Ann throw 1 2 3", "Ann stand", "Bob throw 1 2 3", "Bob stand",
             "Cid throw 1 2 3", "Cid throw 1 2 3", "Cid stand")
    assert (g.to_act, g.state()["captain"]) == ("Ann", "Ann")


def test_M2_the_tie_note_names_the_highest_die_not_the_last_one_rolled(multi_hand) -> None:
    g = multi_hand("Ann roll 6", "Bob roll 6")
    event = g.apply(Action.parse("Cid roll 1"))
    assert [e.text for e in event.effects][-1] == "Ann and Bob tie on 6 and roll again"
