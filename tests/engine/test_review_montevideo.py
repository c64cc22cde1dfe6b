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
