"""Poor Fish, the option of multi-hand Bidou (source "Poor Fish", RULINGS P1, choice D-M15)."""

from __future__ import annotations

import pytest

from engine import RecordError, new_game
from engine.multi_hand import MultiHandGame

WORST, LOW, MID, HIGH = "3 2 2", "4 3 1", "6 5 4", "2 1 1"


@pytest.fixture
def all_pass(at_betting, play):
    """``all_pass(dice, **options)``: everybody throws ``dice`` once and passes; the game and
    the effects of the passes."""

    def make(dice: dict[str, str], **options: object):
        g = at_betting(dice, **options)
        return g, play(g, *[f"{p} pass" for p in dice])

    return make


def test_P1_when_all_pass_every_last_throw_is_exposed(all_pass) -> None:
    """S-P1: Poor Fish: all pass, all last throws are shown."""
    g, effects = all_pass({"Ann": MID, "Bob": WORST, "Cid": LOW}, poor_fish=True)
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (3, 2, 2), (4, 3, 1)]
    assert [e.text for e in effects if e.kind == "expose"] == [
        "Ann's dice are shown: run (6-5-4)", "Bob's dice are shown: 3-2-2",
        "Cid's dice are shown: 4-3-1"]


def test_P1_the_single_best_throw_is_the_poor_fish_and_takes_one_chip_from_every_other(
        all_pass) -> None:
    """S-P2: the highest throw is the poor fish and takes a chip from each."""
    g, effects = all_pass({"Ann": MID, "Bob": WORST, "Cid": HIGH, "Dan": LOW}, poor_fish=True)
    assert g.state()["chips"] == {"Ann": 5, "Bob": 5, "Cid": 9, "Dan": 5}
    assert [(e.source, e.dest, e.chips, e.rule) for e in effects if e.kind == "move"] == [
        ("Ann", "Cid", 1, "P1"), ("Bob", "Cid", 1, "P1"), ("Dan", "Cid", 1, "P1")]
    assert "Cid has the best throw and is the poor fish" in [e.text for e in effects]
    assert g.state()["captain"] == "Bob", "M9 still: left of the captain"


def test_P1_triple_aces_beat_bidou_for_the_poor_fish(all_pass) -> None:
    g, _ = all_pass({"Ann": HIGH, "Bob": "1 1 1", "Cid": LOW}, poor_fish=True)
    assert g.state()["chips"] == {"Ann": 5, "Bob": 8, "Cid": 5}


def test_P1_a_shared_best_throw_makes_nobody_the_poor_fish(all_pass) -> None:
    """S-P2: the highest throw is the poor fish and takes a chip from each."""
    g, effects = all_pass({"Ann": HIGH, "Bob": WORST, "Cid": HIGH}, poor_fish=True)
    assert g.state()["chips"] == {"Ann": 6, "Bob": 6, "Cid": 6}
    assert "Ann and Cid share the best throw: there is no poor fish" in [
        e.text for e in effects]


def test_P1_without_the_option_all_passing_exposes_nothing_and_moves_no_chip(all_pass) -> None:
    g, effects = all_pass({"Ann": MID, "Bob": WORST, "Cid": HIGH})
    assert g.state()["chips"] == {"Ann": 6, "Bob": 6, "Cid": 6}
    assert [v.exposed for v in g.views()] == [None, None, None]
    assert not [e for e in effects if e.kind in ("move", "expose")]


def test_P1_paying_the_poor_fish_ones_last_chip_puts_that_player_out(play, once) -> None:
    g = MultiHandGame.from_position(("Ann", "Bob", "Cid"), {"Ann": 1, "Bob": 6, "Cid": 6},
                                    "Ann", {"poor_fish": True})
    play(g, *once("Ann", WORST), *once("Bob", HIGH), *once("Cid", MID),
         "Ann pass", "Bob pass", "Cid pass")
    assert g.state()["chips"] == {"Ann": 0, "Bob": 8, "Cid": 5}
    assert g.views()[0].out and g.state()["captain"] == "Bob"


def test_D_M15_poor_fish_applies_to_two_players_above_nine_but_not_in_the_two_hand_finish(
        play, once) -> None:
    opts = {"poor_fish": True}
    g = MultiHandGame.from_position(("Ann", "Bob", "Cid"), {"Ann": 6, "Bob": 5, "Cid": 0},
                                    "Ann", opts)
    play(g, *once("Ann", HIGH), *once("Bob", WORST), "Ann pass", "Bob pass")
    assert g.state()["chips"] == {"Ann": 7, "Bob": 4, "Cid": 0}
    g = MultiHandGame.from_position(("Ann", "Bob", "Cid"), {"Ann": 4, "Bob": 5, "Cid": 0},
                                    "Ann", opts)
    play(g, *once("Ann", HIGH), *once("Bob", WORST), "Ann pass", "Bob pass")
    assert g.state()["chips"] == {"Ann": 4, "Bob": 5, "Cid": 0}
    assert [v.exposed for v in g.views()] == [None, None, None]


def test_P1_poor_fish_is_an_option_of_multi_hand_only() -> None:
    """S-P1: Poor Fish: all pass, all last throws are shown."""
    with pytest.raises(RecordError, match=r"multi-hand only \(P1\)"):
        new_game("montevideo", ["Ann", "Bob", "Cid"], {"poor_fish": True})


def test_P1_R3_cycle_bidou_is_the_poor_fish(all_pass) -> None:
    g, _ = all_pass({"Ann": "1 1 1", "Bob": "2 1 1", "Cid": "2 2 1"}, poor_fish=True)
    s = g.state()
    assert s["chips"] == {"Ann": 5, "Bob": 8, "Cid": 5}
    assert s["captain"] == "Bob"  # all passed: the left of Ann, the hand's captain (M9)
