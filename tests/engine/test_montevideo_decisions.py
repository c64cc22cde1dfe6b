"""Montevideo: one test per project decision D-V1 to D-V14 of docs/rules/montevideo.md."""

from __future__ import annotations

from engine import Action

THREE = ("Ann", "Bob", "Cy")
ANN_CAPTAIN = ("Ann roll 6", "Bob roll 2", "Cy roll 1")


THROWN = (*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann stand", "Bob throw 6 5 3", "Bob stand",
          "Cy throw 6 5 2", "Cy stand")


def texts(effects) -> list[str]:
    return [e.text for e in effects]


def verbs(g) -> list[str]:
    return [a.verb for a in g.allowed()]


def test_D_V1_any_player_opening_the_betting_may_bet_the_pot(montevideo):
    """S-V10: betting the pot: staying in for nothing."""
    g = montevideo(*THROWN, "Ann pass")
    assert (g.to_act, verbs(g)) == ("Bob", ["pass", "bet", "betpot"])
    g.apply(Action.parse("Bob betpot"))
    assert g.to_act == "Cy"
    assert "betpot" not in verbs(g)


def test_D_V2_after_a_pot_bet_a_player_who_passed_acts_again_and_pass_is_a_drop(
        montevideo, refused):
    g = montevideo(*THROWN, "Ann pass", "Bob betpot")
    assert refused(g, "Cy call") == (
        "nobody has bet chips after the pot bet: Cy may call the pot for nothing (V6)"
    )
    g.apply(Action.parse("Cy callpot"))
    assert (g.to_act, verbs(g)) == ("Ann", ["callpot", "raise", "drop", "pass"])
    effects = g.apply(Action.parse("Ann pass")).effects
    assert texts(effects)[0] == "Ann passes after the betting has begun, and so drops out (D-V13)"
    # Bob and Cy show down for the 3 antes: Bob's 6-5-3 beats Cy's 6-5-2.
    assert g.state()["chips"] == {"Ann": 4, "Bob": 5 + 3 - 1, "Cy": 4}


def test_D_V3_a_pot_bet_nobody_raises_is_a_showdown_for_the_pot_as_it_stands(montevideo):
    g = montevideo(*THROWN, "Ann betpot", "Bob callpot")
    effects = g.apply(Action.parse("Cy callpot")).effects
    assert [e.player for e in effects if e.kind == "expose"] == ["Ann", "Bob", "Cy"]
    assert "Ann takes 3 chips from the pot: best throw (V4)" in texts(effects)


def test_D_V3_a_pot_bet_everyone_drops_goes_to_the_pot_bettor_unshown(montevideo):
    g = montevideo(*THROWN, "Ann pass", "Bob betpot", "Cy drop")
    effects = g.apply(Action.parse("Ann drop")).effects
    assert not [e for e in effects if e.kind == "expose"]
    assert "Bob takes the pot of 3 chips: everyone else dropped out (V3)" in texts(effects)
    assert g.state()["captain"] == "Bob"


def test_D_V4_a_raise_after_a_pot_bet_binds_the_pot_bettor_and_the_pot_callers(montevideo, refused):
    """S-V12: a pot bet may be raised."""
    g = montevideo(*THROWN, "Ann betpot", "Bob callpot", "Cy raise 2")
    assert (g.to_act, verbs(g)) == ("Ann", ["call", "raise", "drop", "pass"])
    assert [(a.min_chips, a.max_chips) for a in g.allowed() if a.verb == "raise"] == [(1, 3)]
    g.apply(Action.parse("Ann raise 1"))
    assert (g.to_act, verbs(g)) == ("Bob", ["call", "raise", "drop", "pass"])
    g.apply(Action.parse("Bob call"))
    assert g.to_act == "Cy"
    assert refused(g, "Cy bet 1") == (
        "the betting is already open: raise instead of betting again (V3)"
    )


def test_D_V5_no_minimum_raise_and_every_raise_reopens_the_betting(montevideo):
    g = montevideo(*THROWN, "Ann bet 3")
    assert [(a.min_chips, a.max_chips) for a in g.allowed() if a.verb == "raise"] == [(1, 2)]
    g.apply(Action.parse("Bob raise 1"))
    g.apply(Action.parse("Cy call"))
    assert (g.to_act, verbs(g)) == ("Ann", ["call", "raise", "drop", "pass"])


def test_D_V5_no_raise_when_nobody_could_answer_it_or_the_stack_only_covers_the_call(
        montevideo, refused):
    g = montevideo(*THROWN, "Ann bet 5", "Bob call")
    # Ann and Bob are all-in: Cy may only call or drop.
    assert verbs(g) == ["call", "drop", "pass"]
    assert refused(g, "Cy raise 1") == (
        "Cy has 5 chips, not more than the 5 to call, so can only call all-in or drop (V3)"
    )
    # Ann and Bob keep 1 chip each: they can answer, so Cy may raise by his 1 spare chip.
    g = montevideo(*THROWN, "Ann bet 4", "Bob call")
    assert [(a.verb, a.min_chips, a.max_chips) for a in g.allowed()] == [
        ("call", None, None), ("raise", 1, 1), ("drop", None, None), ("pass", None, None)
    ]
    g = montevideo(*THROWN, "Ann bet 5", "Bob drop")
    assert refused(g, "Cy raise 1") == (
        "Cy has 5 chips, not more than the 5 to call, so can only call all-in or drop (V3)"
    )


def test_D_V5_a_raise_is_refused_when_every_other_player_in_the_hand_is_all_in(
        montevideo, refused, once):
    # Hand 1 leaves Ann with 11 chips; in hand 2 Bob and Cy go all-in with 2 each.
    g = montevideo(*THROWN, "Ann bet 2", "Bob call", "Cy call",
             *once(("Ann", "6 5 4"), ("Bob", "6 5 3"), ("Cy", "6 5 2")),
             "Ann pass", "Bob bet 2", "Cy call")
    assert g.state()["chips"] == {"Ann": 11, "Bob": 0, "Cy": 0}
    assert verbs(g) == ["call", "drop", "pass"]
    assert refused(g, "Ann raise 1") == (
        "every other player in the hand is all-in, so nobody could answer a raise: "
        "Ann may call or drop (V3)"
    )


def test_D_V6_betting_goes_clockwise_from_the_opener_and_passers_act_again(montevideo):
    g = montevideo(*THROWN, "Ann pass", "Bob bet 1", "Cy call")
    assert (g.to_act, verbs(g)) == ("Ann", ["call", "raise", "drop", "pass"])


def test_D_V6_all_in_players_are_skipped_in_the_betting(montevideo, once):
    # After the side-pot hand of test_V3_side_pots..., C is all-in on the ante.
    g = montevideo(
        "A roll 6", "B roll 1", "C roll 1", "D roll 1",
        *once(("A", "6 5 2"), ("B", "6 4 2"), ("C", "5 4 1"), ("D", "6 6 5")),
        "A bet 1", "B call", "C drop", "D raise 2", "A call", "B drop",
        *once(("D", "6 5 2"), ("A", "2 1 1"), ("B", "2 2 1"), ("C", "6 5 2")),
        "D bet 3", "A call", "B call", "C raise 1", "D call",
        *once(("A", "6 5 4"), ("B", "6 5 3"), ("C", "6 5 2"), ("D", "6 4 1")),
        "A bet 1", "B call",
        players=("A", "B", "C", "D"),
    )
    assert g.state()["chips"]["C"] == 0
    assert g.to_act == "D"


def test_D_V7_when_everyone_passes_the_best_throw_wins_the_pot_and_the_captaincy_goes_left(
        montevideo):
    g = montevideo(*THROWN, "Ann pass", "Bob pass")
    effects = g.apply(Action.parse("Cy pass")).effects
    assert "Ann takes 3 chips from the pot: best throw (V4)" in texts(effects)
    s = g.state()
    assert s["pot"] == 3  # only the new antes: nothing carried
    assert s["captain"] == "Bob"


def test_D_V8_a_player_all_in_on_the_ante_throws_and_goes_to_the_showdown(montevideo, once):
    g = montevideo(*THROWN, "Ann bet 5", "Bob call", "Cy drop")
    # Ann's run wins 13; Bob is out; Cy has 5 -> ante 2 (V5).
    for cap, other in [("Ann", "Cy"), ("Cy", "Ann"), ("Ann", "Cy")]:
        for text in once((cap, "4 2 1"), (other, "4 2 1")):
            g.apply(Action.parse(text))
        g.apply(Action.parse(f"{g.to_act} pass"))
        g.apply(Action.parse(f"{g.to_act} pass"))
    assert g.ante == 5 and g.state()["chips"] == {"Ann": 8, "Bob": 0, "Cy": 0}
    assert g.to_act == "Cy"  # Cy captains and throws though all-in
    g.apply(Action.parse("Cy throw 2 1 1"))
    g.apply(Action.parse("Cy stand"))
    g.apply(Action.parse("Ann throw 6 5 4"))
    effects = g.apply(Action.parse("Ann stand")).effects
    assert texts(effects)[1:3] == [
        "Cy opens the betting (M4)",
        "at most one player has chips left to bet, so the dice are shown at once (D-V8)",
    ]
    assert "Cy takes 10 chips from the pot: best throw (V4)" in texts(effects)


def test_D_V9_side_pots_carry_odd_chips_of_each_pot_and_return_uncalled_chips(montevideo, once):
    # Bob goes all-in for 2 against Ann's 5; Bob and Cy tie best in the main pot.
    g = montevideo(*THROWN, "Ann bet 2", "Bob call", "Cy call",
             *once(("Ann", "6 5 4"), ("Bob", "2 2 1"), ("Cy", "2 2 1")),
             "Ann bet 5", "Bob call", "Cy call")
    # Stakes: Ann 6, Bob 3, Cy 3. Main pot 9 (all three): Bob and Cy split 4 each, 1 stays.
    # Ann's 3 chips above Bob's and Cy's stakes: nobody could call them, back to Ann.
    assert g.state()["chips"] == {"Ann": 11 - 5 + 3 - 1, "Bob": 4 - 1, "Cy": 4 - 1}
    assert g.state()["pot"] == 1 + 3


def test_D_V10_the_rising_ante_starts_at_two_with_the_first_hand_of_two_holders(montevideo):
    g = montevideo(*THROWN, "Ann bet 5", "Bob call")
    effects = g.apply(Action.parse("Cy drop")).effects
    assert "Hand 2: the ante is 2 chips (V5)" in texts(effects)
    assert "Cy antes 2 chips (V5)" in texts(effects)


def test_D_V11_a_shared_best_throw_gives_the_captaincy_to_the_first_clockwise_from_the_captain(
        montevideo, once):
    base = (*ANN_CAPTAIN,)
    g = montevideo(*base, *once(("Ann", "6 5 2"), ("Bob", "4 2 1"), ("Cy", "4 2 1")),
             "Ann bet 1", "Bob call", "Cy call")
    assert g.state()["captain"] == "Bob"
    g = montevideo(*base, *once(("Ann", "4 2 1"), ("Bob", "6 5 2"), ("Cy", "4 2 1")),
             "Ann bet 1", "Bob call", "Cy call")
    assert g.state()["captain"] == "Ann"


def test_D_V12_the_winner_holds_every_chip_and_the_pot_is_empty(montevideo):
    g = montevideo(*THROWN, "Ann bet 5", "Bob call", "Cy call")
    s = g.state()
    assert (s["winner"], s["chips"]["Ann"], s["pot"], s["removed"]) == ("Ann", 18, 0, 0)


def test_D_V13_drop_before_any_bet_is_refused_and_pass_after_a_bet_is_a_drop(montevideo, refused):
    g = montevideo(*THROWN)
    assert refused(g, "Ann drop") == (
        "nobody has bet yet, so Ann cannot drop: pass, bet or bet the pot (V3)"
    )
    assert refused(g, "Ann call") == (
        "nobody has bet yet, so Ann cannot call: pass, bet or bet the pot (V3)"
    )
    g.apply(Action.parse("Ann bet 1"))
    g.apply(Action.parse("Bob pass"))
    assert [v.in_hand for v in g.views()] == [True, False, True]


def test_D_V14_shown_dice_stay_public_until_their_owner_throws_again(montevideo):
    g = montevideo(*THROWN, "Ann pass", "Bob pass", "Cy pass")
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (6, 5, 3), (6, 5, 2)]
    g.apply(Action.parse("Bob throw 1 1 1"))
    assert [v.exposed for v in g.views()] == [(6, 5, 4), None, (6, 5, 2)]
    assert g.concealed_dice("Bob") == (1, 1, 1)
    effects = g.apply(Action.parse("Bob stand")).effects
    assert texts(effects) == ["Bob stands after 1 throw"]


def test_V3_D_V9_side_pots_worked_by_hand(montevideo):
    # Hand 1: Dan's 6-6-5 beats Ann's 6-5-2 and takes 11. Hand 2 (antes in): Ann 1, Bob 3,
    # Cy 4, Dan 12. Dan bets 3; Ann calls all-in for 1, Bob calls 3 all-in, Cy raises 1
    # all-in, Dan calls. Stakes with antes: Ann 2, Bob 4, Cy 5, Dan 5. Main pot 8 to Ann's
    # bidou, side pot 6 to Bob's bide, side pot 2 split by Cy and Dan's equal 6-5-2.
    g = montevideo("Ann roll 6", "Bob roll 1", "Cy roll 1", "Dan roll 1",
                   "Ann throw 6 5 2", "Ann stand", "Bob throw 6 4 2", "Bob stand",
                   "Cy throw 5 4 1", "Cy stand", "Dan throw 6 6 5", "Dan stand",
                   "Ann bet 1", "Bob call", "Cy drop", "Dan raise 2", "Ann call", "Bob drop",
                   "Dan throw 6 5 2", "Dan stand", "Ann throw 2 1 1", "Ann stand",
                   "Bob throw 2 2 1", "Bob stand", "Cy throw 6 5 2", "Cy stand",
                   "Dan bet 3", "Ann call", "Bob call", "Cy raise 1", "Dan call",
                   players=("Ann", "Bob", "Cy", "Dan"))
    s = g.state()
    # After the settlement (Ann 8, Bob 6, Cy 1, Dan 9) the next hand's antes are taken.
    assert s["chips"] == {"Ann": 7, "Bob": 5, "Cy": 0, "Dan": 8} and s["pot"] == 4
    assert (s["captain"], s["to_act"], s["expects"]) == ("Ann", "Ann", "throw")
