"""Independent rules review of Montevideo: each test pins a reading checked against the source,
RULINGS V1-V6 (with M2-M4 and M9, which V2 makes Montevideo's too) and GAME_RECORD.md.
"""

from __future__ import annotations

from engine import Action, new_game

THREE = ["Ann", "Bob", "Cy"]
ANN_CAPTAIN = ("Ann roll 6", "Bob roll 2", "Cy roll 1")


def game(*actions: str):
    g = new_game("montevideo", THREE)
    for text in actions:
        g.apply(Action.parse(text))
    return g


def test_M4_V2_the_opener_becomes_captain_and_after_all_pass_the_captaincy_goes_to_his_left():
    g = game(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann throw 6 5 3", "Ann stand",
             "Bob throw 2 1 1", "Bob stand", "Cy throw 3 2 2", "Cy stand")
    s = g.state()
    assert (s["captain"], s["to_act"], s["expects"]) == ("Bob", "Bob", "bet")
    for text in ("Bob pass", "Cy pass", "Ann pass"):
        g.apply(Action.parse(text))
    s = g.state()
    # Bob's bidou wins the 3 antes; the next hand's antes are already in the pot.
    assert s["chips"] == {"Ann": 4, "Bob": 7, "Cy": 4} and s["pot"] == 3
    assert (s["captain"], s["to_act"], s["expects"]) == ("Cy", "Cy", "throw")


def test_M4_V2_a_captain_among_the_fewest_throws_keeps_the_captaincy():
    g = game(*ANN_CAPTAIN, "Ann throw 6 5 4", "Ann stand",
             "Bob throw 2 1 1", "Bob throw 2 1 1", "Bob stand", "Cy throw 3 2 2", "Cy stand")
    s = g.state()
    assert (s["captain"], s["to_act"]) == ("Ann", "Ann")


def test_V4_R3_cycle_bidou_wins_the_pot_when_triple_aces_and_bide_are_shown_beside_it():
    g = game(*ANN_CAPTAIN, "Ann throw 1 1 1", "Ann stand", "Bob throw 2 1 1", "Bob stand",
             "Cy throw 2 2 1", "Cy stand", "Ann pass", "Bob pass", "Cy pass")
    s = g.state()
    # Bob's bidou takes the 3 antes; the next hand's antes (1 each) are already in.
    assert s["chips"] == {"Ann": 4, "Bob": 7, "Cy": 4} and s["pot"] == 3


def test_V3_D_V9_side_pots_worked_by_hand():
    # Hand 1: Dan's 6-6-5 beats Ann's 6-5-2 and takes 11. Hand 2 (antes in): Ann 1, Bob 3,
    # Cy 4, Dan 12. Dan bets 3; Ann calls all-in for 1, Bob calls 3 all-in, Cy raises 1
    # all-in, Dan calls. Stakes with antes: Ann 2, Bob 4, Cy 5, Dan 5. Main pot 8 to Ann's
    # bidou, side pot 6 to Bob's bide, side pot 2 split by Cy and Dan's equal 6-5-2.
    g = new_game("montevideo", ["Ann", "Bob", "Cy", "Dan"])
    for text in ("Ann roll 6", "Bob roll 1", "Cy roll 1", "Dan roll 1",
                 "Ann throw 6 5 2", "Ann stand", "Bob throw 6 4 2", "Bob stand",
                 "Cy throw 5 4 1", "Cy stand", "Dan throw 6 6 5", "Dan stand",
                 "Ann bet 1", "Bob call", "Cy drop", "Dan raise 2", "Ann call", "Bob drop",
                 "Dan throw 6 5 2", "Dan stand", "Ann throw 2 1 1", "Ann stand",
                 "Bob throw 2 2 1", "Bob stand", "Cy throw 6 5 2", "Cy stand",
                 "Dan bet 3", "Ann call", "Bob call", "Cy raise 1", "Dan call"):
        g.apply(Action.parse(text))
    s = g.state()
    # After the settlement (Ann 8, Bob 6, Cy 1, Dan 9) the next hand's antes are taken.
    assert s["chips"] == {"Ann": 7, "Bob": 5, "Cy": 0, "Dan": 8} and s["pot"] == 4
    assert (s["captain"], s["to_act"], s["expects"]) == ("Ann", "Ann", "throw")
