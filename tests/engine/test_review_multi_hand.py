"""Independent rules review of multi-hand Bidou and Poor Fish: hand-worked hands.

Each expected result was worked out by hand from the source, RULINGS M/P/R and GAME_RECORD.md
before the hand was replayed; R3's cycle (1-1-1 beats 2-1-1, 2-2-1 beats 1-1-1, 2-1-1 beats
2-2-1) is played at a showdown and at a Poor Fish all-pass, where the scripted tests of the
variant only use throws without a cycle.
"""

from __future__ import annotations

from engine import Action, new_game

A_CAPTAIN = ("A roll 6", "B roll 1", "C roll 1")


def game(players, *actions: str, **options):
    g = new_game("multi-hand", list(players), options)
    for text in actions:
        g.apply(Action.parse(text))
    return g


def once(*pairs: str) -> tuple[str, ...]:
    """``once("A", "6 5 4", "B", ...)``: each player throws once and stands, in that order."""
    out: tuple[str, ...] = ()
    for name, dice in zip(pairs[::2], pairs[1::2], strict=True):
        out += (f"{name} throw {dice}", f"{name} stand")
    return out


def test_situation_3_worked_with_four_players_stake_two_three_still_in():
    # A bets 2, B calls, C raises 2 (stake 4), D calls 4: pot 12. A drops first: 2 + 2 x 3
    # (B, C, D still in) + 1 = 9 from the pot, 3 left. B drops: 1 penalty chip, 2 left.
    # C and D show down: C's 3-2-2 is worst and collects the 2; D (6-6-5) captains next.
    g = game("ABCD", *A_CAPTAIN, "D roll 1",
             *once("A", "6 5 4", "B", "6 5 4", "C", "3 2 2", "D", "6 6 5"),
             "A bet 2", "B call", "C raise 2", "D call", "A drop", "B drop")
    s = g.state()
    assert s["chips"] == {"A": 13, "B": 5, "C": 4, "D": 2}
    assert (s["pot"], s["removed"], s["captain"], s["expects"]) == (0, 0, "D", "throw")


def test_R3_cycle_at_a_showdown_the_worst_is_triple_aces_and_the_best_bidou():
    g = game("ABC", *A_CAPTAIN, *once("A", "1 1 1", "B", "2 1 1", "C", "2 2 1"),
             "A bet 1", "B call", "C call")
    s = g.state()
    assert s["chips"] == {"A": 8, "B": 5, "C": 5}  # A's 1-1-1 collects the 3 chips
    assert s["captain"] == "B"  # bidou is best by table order once R1 is set aside


def test_R1_R3_without_a_cycle_triple_aces_is_best_and_the_plain_throw_worst():
    g = game("ABC", *A_CAPTAIN, *once("A", "1 1 1", "B", "2 1 1", "C", "6 5 4"),
             "A bet 1", "B call", "C call")
    s = g.state()
    assert s["chips"] == {"A": 5, "B": 5, "C": 8} and s["captain"] == "A"


def test_P1_R3_cycle_bidou_is_the_poor_fish():
    g = game("ABC", *A_CAPTAIN, *once("A", "1 1 1", "B", "2 1 1", "C", "2 2 1"),
             "A pass", "B pass", "C pass", poor_fish=True)
    s = g.state()
    assert s["chips"] == {"A": 5, "B": 8, "C": 5}
    assert s["captain"] == "B"  # all passed: the left of A, the hand's captain (M9)


def test_P1_triple_aces_beats_bidou_and_is_the_poor_fish():
    g = game("ABC", *A_CAPTAIN, *once("A", "1 1 1", "B", "2 1 1", "C", "6 5 4"),
             "A pass", "B pass", "C pass", poor_fish=True)
    assert g.state()["chips"] == {"A": 8, "B": 5, "C": 5}
