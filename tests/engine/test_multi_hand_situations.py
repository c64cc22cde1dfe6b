"""The source's nine betting situations of multi-hand Bidou, one test (or more) each, with the
readings of RULINGS M6 and the choices of docs/rules/multi-hand.md (D-M3, D-M6 ... D-M9)."""

from __future__ import annotations

import pytest

P3 = ("Ann", "Bob", "Cid")
P4 = ("Ann", "Bob", "Cid", "Dan")
WORST, LOW, MID, HIGH = "3 2 2", "4 3 1", "6 5 4", "2 1 1"


def total(g) -> int:
    s = g.state()
    return sum(s["chips"].values()) + s["pot"] + s["removed"]


def moves(effects) -> list[tuple[str | None, str | None, int, str | None]]:
    return [(e.source, e.dest, e.chips, e.rule) for e in effects if e.kind == "move"]


def test_situation_1_on_a_showdown_the_worst_throw_collects_every_chip_in_the_pot(
        at_betting, play) -> None:
    """S-M11: situation 1: the loser of a showdown collects the pot."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    effects = play(g, "Ann bet 1", "Bob call", "Cid call")
    assert g.state()["chips"] == {"Ann": 5, "Bob": 8, "Cid": 5}
    assert g.state()["pot"] == 0
    assert ("pot", "Bob", 3, "M6/1") in moves(effects)
    assert "Bob takes 3 chips from the pot: the worst throw at the showdown" in [
        e.text for e in effects]
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (3, 2, 2), (2, 1, 1)]


def test_situation_2_players_dropping_out_without_betting_receive_no_penalty(
        at_betting, play) -> None:
    """S-M12: situation 2: no penalty without a bet."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    effects = play(g, "Ann pass", "Bob bet 2", "Cid drop")
    assert ("Cid had not bet, so he takes no penalty", "M6/2") in [
        (e.text, e.rule) for e in effects]
    assert g.state()["chips"]["Cid"] == 6
    play(g, "Ann drop")
    assert g.state()["chips"]["Ann"] == 6


def test_situation_3_the_first_dropper_takes_his_stake_again_per_player_still_in_and_one(
        at_betting, play) -> None:
    """S-M13: situation 3: the first dropper's stake, again per player still in, and one."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW})
    play(g, "Ann bet 1", "Bob call", "Cid call", "Dan raise 2")
    effects = play(g, "Ann drop")
    assert moves(effects) == [("pot", "Ann", 5, "M6/3")]
    assert effects[-1].text == ("Ann takes 5 chips from the pot: his stake of 1, 1 for each of "
                                "the 3 still in the hand and 1 penalty chip")
    assert g.state()["chips"]["Ann"] == 10 and g.state()["pot"] == 1


def test_situation_3_each_later_dropper_takes_one_penalty_chip(at_betting, play) -> None:
    """S-M14: situation 3: each later dropper takes one penalty chip."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW})
    play(g, "Ann bet 1", "Bob call", "Cid call", "Dan raise 2", "Ann drop")
    effects = play(g, "Bob drop")
    assert moves(effects) == [("pot", "Bob", 1, "M6/3")]
    assert g.state()["chips"]["Bob"] == 6 and g.state()["pot"] == 0
    effects = play(g, "Cid call")
    assert g.state()["chips"] == {"Ann": 10, "Bob": 6, "Cid": 3, "Dan": 5}
    assert ("pot", "Dan", 2, "M6/1") in moves(effects), "Dan (4-3-1) is worse than Cid (bidou)"


def test_situation_3_later_dropper_takes_nothing_from_an_empty_pot(at_betting, play) -> None:
    """S-M14: situation 3: each later dropper takes one penalty chip."""
    players = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
    dice = dict(zip(players, (MID, WORST, HIGH, LOW, MID, LOW), strict=True))
    g = at_betting(dice, chips={"Ann": 6, "Bob": 1, "Cid": 1, "Dan": 6, "Eve": 6, "Fay": 6})
    play(g, "Ann bet 1", "Bob call", "Cid call", "Dan call", "Eve call", "Fay raise 2")
    play(g, "Ann drop", "Dan drop")
    assert g.state()["pot"] == 0, "Ann took 1 + 1 x 5 + 1 = 7 of 8, Dan the last one"
    effects = play(g, "Eve drop")
    assert moves(effects) == []
    assert "The pot is empty: Eve takes no penalty chip" in [e.text for e in effects]
    assert total(g) == 36


def test_D_M3_all_in_players_count_as_still_in_and_the_pot_pays_as_far_as_it_goes(
        at_betting, play) -> None:
    """S-M13: situation 3: the first dropper's stake, again per player still in, and one."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH}, chips={"Ann": 6, "Bob": 1, "Cid": 6})
    play(g, "Ann bet 3", "Bob call", "Cid raise 2")
    effects = play(g, "Ann drop")
    assert moves(effects) == [("pot", "Ann", 9, "M6/3")], "owed 3 + 3 x 2 + 1 = 10, pot had 9"
    assert "The pot held only 9 chips of the 10 Ann owed; he takes it all" in [
        e.text for e in effects]
    assert g.state()["chips"] == {"Ann": 12, "Bob": 0, "Cid": 1}
    assert g.state()["removed"] == 5 and total(g) == 18


def test_situation_4_all_drop_after_a_raise_and_the_rest_of_the_pot_goes_to_the_raiser(
        at_betting, play) -> None:
    """S-M16: situation 4: the rest of the pot goes to the raiser."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann bet 1", "Bob raise 2", "Cid drop")
    effects = play(g, "Ann drop")
    assert moves(effects) == [("pot", "Ann", 3, "M6/3"), ("pot", "Bob", 1, "M6/4")]
    assert g.state()["chips"] == {"Ann": 8, "Bob": 4, "Cid": 6}
    assert g.state()["captain"] == "Bob", "M9: the last player left captains the next hand"


def test_situation_5_an_all_in_player_stays_in_while_the_others_raise(at_betting, play) -> None:
    """S-M17: situation 5: all in, a player stays in for the showdown."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW},
             chips={"Ann": 6, "Bob": 2, "Cid": 6, "Dan": 6})
    play(g, "Ann bet 3", "Bob call", "Cid raise 2", "Dan call")
    assert g.to_act == "Ann", "Bob, all in, is not asked again"
    assert g.views()[1].in_hand


def test_situation_5_an_all_in_loser_takes_back_his_bet_and_as_much_from_each_other(
        at_betting, play) -> None:
    """S-M18: situation 5: an all-in loser's due, the rest returned."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW},
             chips={"Ann": 6, "Bob": 2, "Cid": 6, "Dan": 6})
    effects = play(g, "Ann bet 3", "Bob call", "Cid raise 2", "Dan call", "Ann call")
    assert moves(effects)[-4:] == [
        ("pot", "Bob", 8, "M6/5"),
        ("pot", "Cid", 3, "M6/5"), ("pot", "Dan", 3, "M6/5"), ("pot", "Ann", 3, "M6/5"),
    ], "2 + 2 x 3 to Bob; the other chips go back to those who bet them, clockwise from Bob"
    assert g.state()["chips"] == {"Ann": 4, "Bob": 8, "Cid": 4, "Dan": 4}
    assert g.state()["pot"] == 0 and total(g) == 24


def test_D_M6_chips_of_later_droppers_are_returned_to_them_after_an_all_in_loss(
        at_betting, play) -> None:
    """S-M18: situation 5: an all-in loser's due, the rest returned."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW},
             chips={"Ann": 6, "Bob": 2, "Cid": 6, "Dan": 6})
    play(g, "Ann bet 1", "Bob call", "Cid raise 2", "Dan raise 2", "Ann drop")
    assert g.state()["pot"] == 5, "Ann, first dropper, took 1 + 1 x 3 + 1 = 5 of 10"
    play(g, "Bob call", "Cid drop")
    # Cid took 1 penalty chip (pot 5); Bob, all in for 2 and worst, takes 2 + 2 from Dan;
    # the last chip goes back to Cid, the next clockwise from Bob who has chips in the pot.
    assert g.state()["chips"] == {"Ann": 10, "Bob": 4, "Cid": 5, "Dan": 1}
    assert total(g) == 24


def test_situation_6_a_tie_with_the_all_in_player_he_takes_his_bet_others_all_but_one(
        at_betting, play) -> None:
    """S-M19: situation 6: a tie with the all-in player."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": WORST}, chips={"Ann": 6, "Bob": 2, "Cid": 6})
    effects = play(g, "Ann bet 3", "Bob call", "Cid call")
    assert moves(effects) == [
        ("Ann", "pot", 3, "M5"), ("Bob", "pot", 2, "M6/5"), ("Cid", "pot", 3, "M5"),
        ("pot", "Bob", 2, "M6/6"), ("pot", "Ann", 2, "M6/6"), ("pot", "Cid", 2, "M6/6"),
        ("pot", "removed", 2, "M6/6"),
    ]
    assert g.state()["chips"] == {"Ann": 5, "Bob": 2, "Cid": 5}
    assert g.state()["removed"] == 4 + 2


def test_situation_6_a_tie_in_any_other_circumstance_one_chip_back_each_the_rest_removed(
        at_betting, play) -> None:
    """S-M20: situation 6: any other tie, one chip back each."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": WORST})
    effects = play(g, "Ann bet 2", "Bob call", "Cid call")
    assert moves(effects)[-4:] == [("pot", "Ann", 1, "M6/6"), ("pot", "Bob", 1, "M6/6"),
                                   ("pot", "Cid", 1, "M6/6"), ("pot", "removed", 3, "M6/6")]
    assert g.state()["chips"] == {"Ann": 5, "Bob": 5, "Cid": 5}
    assert g.state()["removed"] == 3


def test_D_M8_a_tie_for_worst_beside_an_all_in_winner_is_the_other_circumstance(
        at_betting, play) -> None:
    """S-M20: situation 6: any other tie, one chip back each."""
    g = at_betting({"Ann": HIGH, "Bob": WORST, "Cid": WORST}, chips={"Ann": 2, "Bob": 6, "Cid": 6})
    effects = play(g, "Ann bet 2", "Bob call", "Cid call")
    assert [m for m in moves(effects) if m[0] == "pot"] == [
        ("pot", "Ann", 1, "M6/6"), ("pot", "Bob", 1, "M6/6"), ("pot", "Cid", 1, "M6/6"),
        ("pot", "removed", 3, "M6/6")]


def test_situation_7_a_lone_bettor_gets_his_bet_back_and_discards_one_chip(
        at_betting, play) -> None:
    """S-M21: situation 7: a lone bettor discards one chip."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    effects = play(g, "Ann bet 2", "Bob pass", "Cid drop")
    assert moves(effects)[-2:] == [("pot", "Ann", 2, "M6/7"), ("Ann", "removed", 1, "M6/7")]
    assert g.state()["chips"] == {"Ann": 5, "Bob": 6, "Cid": 6}
    assert (g.state()["removed"], g.state()["captain"]) == (1, "Ann")


def test_situation_7_the_lone_bettor_discards_even_his_last_chip_and_is_out(
        at_betting, play) -> None:
    """S-M21: situation 7: a lone bettor discards one chip."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH}, chips={"Ann": 1, "Bob": 6, "Cid": 6})
    play(g, "Ann bet 1", "Bob drop", "Cid drop")
    assert g.state()["chips"] == {"Ann": 0, "Bob": 6, "Cid": 6}
    assert [v.out for v in g.views()] == [True, False, False]
    assert g.state()["captain"] == "Bob", "D-M10: Ann is out, the next player with chips"


def test_situation_9_any_player_who_passes_after_betting_has_begun_drops_out(
        at_betting, play) -> None:
    """S-M25: situation 9: a pass after a bet is a drop."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    play(g, "Ann pass", "Bob bet 1", "Cid pass")
    assert [v.in_hand for v in g.views()] == [True, True, False]
    assert g.to_act == "Ann"


def test_D_M7_an_all_in_loser_takes_no_more_from_a_smaller_all_in_stake_than_it_holds(
        at_betting, play) -> None:
    """S-M18: situation 5: an all-in loser's due, the rest returned."""
    g = at_betting({"Ann": MID, "Bob": HIGH, "Cid": WORST, "Dan": LOW},
             chips={"Ann": 6, "Bob": 1, "Cid": 3, "Dan": 6})
    effects = play(g, "Ann bet 3", "Bob call", "Cid call", "Dan call")
    assert moves(effects)[-1] == ("pot", "Cid", 10, "M6/5"), "3 + 3 (Ann) + 1 (Bob) + 3 (Dan)"
    assert g.state()["chips"] == {"Ann": 3, "Bob": 0, "Cid": 10, "Dan": 3}


def test_D_M9_a_short_pot_pays_the_tied_all_in_player_before_the_others(at_betting, play) -> None:
    """S-M19: situation 6: a tie with the all-in player."""
    g = at_betting({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": WORST},
             chips={"Ann": 6, "Bob": 6, "Cid": 1, "Dan": 1})
    play(g, "Ann bet 1", "Bob raise 2", "Cid call", "Dan call")
    effects = play(g, "Ann drop")
    # Ann takes 1 + 1 x 3 + 1 = 5 of 6; Bob and Dan tie for worst and Dan is all in: he takes
    # his bet back first, and nothing is left for Bob's "all but one".
    assert moves(effects) == [("pot", "Ann", 5, "M6/3"), ("pot", "Dan", 1, "M6/6")]
    assert g.state()["chips"] == {"Ann": 10, "Bob": 3, "Cid": 0, "Dan": 1}
    assert total(g) == 24


def test_situation_3_worked_by_hand_with_four_players_stake_two_three_still_in(
        multi_hand, once) -> None:
    """S-M13: situation 3: the first dropper's stake, again per player still in, and one."""
    # A bets 2, B calls, C raises 2 (stake 4), D calls 4: pot 12. A drops first: 2 + 2 x 3
    # (B, C, D still in) + 1 = 9 from the pot, 3 left. B drops: 1 penalty chip, 2 left.
    # C and D show down: C's 3-2-2 is worst and collects the 2; D (6-6-5) captains next.
    g = multi_hand("A roll 6", "B roll 1", "C roll 1", "D roll 1",
                   *once("A", "6 5 4", "B", "6 5 4", "C", "3 2 2", "D", "6 6 5"),
                   "A bet 2", "B call", "C raise 2", "D call", "A drop", "B drop",
                   players="ABCD")
    s = g.state()
    assert s["chips"] == {"A": 13, "B": 5, "C": 4, "D": 2}
    assert (s["pot"], s["removed"], s["captain"], s["expects"]) == (0, 0, "D", "throw")


def test_R3_cycle_at_a_showdown_the_worst_is_triple_aces_and_the_best_bidou(
        at_betting, play) -> None:
    # R3's cycle (1-1-1 beats 2-1-1, 2-2-1 beats 1-1-1, 2-1-1 beats 2-2-1), worked by hand
    g = at_betting({"Ann": "1 1 1", "Bob": "2 1 1", "Cid": "2 2 1"})
    play(g, "Ann bet 1", "Bob call", "Cid call")
    s = g.state()
    assert s["chips"] == {"Ann": 8, "Bob": 5, "Cid": 5}  # Ann's 1-1-1 collects the 3 chips
    assert s["captain"] == "Bob"  # bidou is best by table order once R1 is set aside


def test_R1_R3_without_a_cycle_triple_aces_is_best_and_the_plain_throw_worst(
        at_betting, play) -> None:
    g = at_betting({"Ann": "1 1 1", "Bob": "2 1 1", "Cid": "6 5 4"})
    play(g, "Ann bet 1", "Bob call", "Cid call")
    s = g.state()
    assert s["chips"] == {"Ann": 5, "Bob": 5, "Cid": 8} and s["captain"] == "Ann"


# What the table says at each step of the situations: who moves what, and why (M5, M6).
SAID = {
    "s4": ({"Ann": MID, "Bob": WORST, "Cid": HIGH}, None,
            ("Ann bet 1", "Bob raise 2", "Cid drop", "Ann drop"), [
                ("Ann bets 1 chip", "M5"),
                ("Bob raises by 2 chips to 3", "M5"),
                ("Cid drops out", "M5"),
                ("Cid had not bet, so he takes no penalty", "M6/2"),
                ("Ann drops out", "M5"),
                ("Ann takes 3 chips from the pot: his stake of 1, 1 for each of the 1 "
                 "still in the hand and 1 penalty chip", "M6/3"),
                ("Bob takes 1 chip from the pot: the rest of the pot goes back to the "
                 "raiser when all others drop", "M6/4"),
            ]),
    "s5": ({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW},
            {"Ann": 6, "Bob": 2, "Cid": 6, "Dan": 6},
            ("Ann bet 3", "Bob call", "Cid raise 2", "Dan call", "Ann call"), [
                ("Ann bets 3 chips", "M5"),
                ("Bob calls with his last 2 chips: he is all in", "M6/5"),
                ("Cid raises by 2 chips to 5", "M5"),
                ("Dan calls 5 chips", "M5"),
                ("Ann calls 2 chips", "M5"),
                ("Bob takes 8 chips from the pot: the worst throw, all in: his bet of 2 "
                 "back and as much from each other showdown player", "M6/5"),
                ("Cid takes 3 chips from the pot: the rest of his bet, returned", "M6/5"),
                ("Dan takes 3 chips from the pot: the rest of his bet, returned", "M6/5"),
                ("Ann takes 3 chips from the pot: the rest of his bet, returned", "M6/5"),
            ]),
    "s6a": ({"Ann": MID, "Bob": WORST, "Cid": WORST}, {"Ann": 6, "Bob": 2, "Cid": 6},
            ("Ann bet 3", "Bob call", "Cid call"), [
                ("Ann bets 3 chips", "M5"),
                ("Bob calls with his last 2 chips: he is all in", "M6/5"),
                ("Cid calls 3 chips", "M5"),
                ("Bob and Cid tie for the worst throw with a player all in: he takes "
                 "back his bet, the others all but one chip each", "M6/6"),
                ("Bob takes 2 chips from the pot: his bet back after the tie", "M6/6"),
                ("Ann takes 2 chips from the pot: his bet back but one chip after the tie", "M6/6"),
                ("Cid takes 2 chips from the pot: his bet back but one chip after the tie", "M6/6"),
                ("2 chips removed from the game: the rest of the pot after a tie", "M6/6"),
            ]),
    "s6b": ({"Ann": MID, "Bob": WORST, "Cid": WORST}, None,
            ("Ann bet 2", "Bob call", "Cid call"), [
                ("Ann bets 2 chips", "M5"),
                ("Bob calls 2 chips", "M5"),
                ("Cid calls 2 chips", "M5"),
                ("Bob and Cid tie for the worst throw: each showdown player takes back "
                 "one chip", "M6/6"),
                ("Ann takes 1 chip from the pot: one chip back after the tie", "M6/6"),
                ("Bob takes 1 chip from the pot: one chip back after the tie", "M6/6"),
                ("Cid takes 1 chip from the pot: one chip back after the tie", "M6/6"),
                ("3 chips removed from the game: the rest of the pot after a tie", "M6/6"),
            ]),
    "s7": ({"Ann": MID, "Bob": WORST, "Cid": HIGH}, None,
            ("Ann bet 2", "Bob pass", "Cid drop"), [
                ("Ann bets 2 chips", "M5"),
                ("Bob passes after the betting has begun, so he drops", "M6/9"),
                ("Bob had not bet, so he takes no penalty", "M6/2"),
                ("Cid drops out", "M5"),
                ("Cid had not bet, so he takes no penalty", "M6/2"),
                ("Ann takes 2 chips from the pot: nobody else bet, so his bet goes back "
                 "to him", "M6/7"),
                ("Ann discards 1 chip: the only bettor of the hand", "M6/7"),
            ]),
    "s3later": ({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW}, None,
            ("Ann bet 1", "Bob call", "Cid call", "Dan raise 2", "Ann drop", "Bob drop"), [
                ("Ann bets 1 chip", "M5"),
                ("Bob calls 1 chip", "M5"),
                ("Cid calls 1 chip", "M5"),
                ("Dan raises by 2 chips to 3", "M5"),
                ("Ann drops out", "M5"),
                ("Ann takes 5 chips from the pot: his stake of 1, 1 for each of the 3 "
                 "still in the hand and 1 penalty chip", "M6/3"),
                ("Bob drops out", "M5"),
                ("Bob takes 1 chip from the pot: 1 penalty chip for dropping after "
                 "betting", "M6/3"),
            ]),
}


@pytest.mark.parametrize("case", list(SAID))
def test_M5_M6_every_bet_and_settlement_says_who_moves_what_and_why(at_betting, play,
                                                                     case) -> None:
    dice, chips, actions, said = SAID[case]
    effects = play(at_betting(dice, chips=chips), *actions)
    assert [(e.text, e.rule) for e in effects if e.kind in ("move", "note")
            and e.rule is not None and (e.rule == "M5" or e.rule.startswith("M6"))] == said
