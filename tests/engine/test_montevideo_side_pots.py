"""Montevideo side pots and splits (V3, V4, D-V9), on engine/side_pots.py alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.side_pots import Pot, build_pots, split


def test_V3_no_all_in_makes_one_pot_for_everyone_still_in():
    assert build_pots({"A": 3, "B": 3, "C": 1}, ["A", "B"]) == [Pot(7, ("A", "B"))]


def test_V3_side_pots_with_two_all_ins():
    stakes = {"A": 2, "B": 5, "C": 9, "D": 9}
    assert build_pots(stakes, ["A", "B", "C", "D"]) == [
        Pot(8, ("A", "B", "C", "D")),
        Pot(9, ("B", "C", "D")),
        Pot(8, ("C", "D")),
    ]


def test_V3_side_pots_with_three_all_ins_and_a_dropped_player():
    # D dropped after putting in 4: his chips feed the pots he reached but he wins none.
    stakes = {"A": 1, "B": 3, "C": 6, "D": 4, "E": 8}
    assert build_pots(stakes, ["A", "B", "C", "E"]) == [
        Pot(5, ("A", "B", "C", "E")),
        Pot(8, ("B", "C", "E")),
        Pot(7, ("C", "E")),
        Pot(2, ("E",)),
    ]


def test_D_V9_carried_chips_join_the_main_pot():
    assert build_pots({"A": 1, "B": 4, "C": 4}, ["A", "B", "C"], carried=1) == [
        Pot(4, ("A", "B", "C")),
        Pot(6, ("B", "C")),
    ]


def test_D_V9_a_pot_with_one_eligible_player_is_his_uncalled_bet():
    assert build_pots({"A": 2, "B": 7}, ["A", "B"])[-1] == Pot(5, ("B",))


def test_V4_equal_best_throws_split_and_the_odd_chips_stay():
    assert split(7, ["A", "B"]) == ({"A": 3, "B": 3}, 1)
    assert split(8, ["A", "B", "C"]) == ({"A": 2, "B": 2, "C": 2}, 2)
    assert split(5, ["A"]) == ({"A": 5}, 0)


def test_build_pots_needs_a_player_still_in_the_hand():
    with pytest.raises(ValueError, match="at least one player still in the hand"):
        build_pots({"A": 1}, [])
    with pytest.raises(ValueError, match="at least one winner"):
        split(3, [])


@settings(max_examples=200, deadline=None)
@given(
    stakes=st.lists(st.integers(1, 20), min_size=2, max_size=8),
    dropped=st.lists(st.booleans(), min_size=8, max_size=8),
    carried=st.integers(0, 7),
)
def test_D_V9_pots_hold_every_chip_and_each_eligible_player_is_in_every_lower_pot(
    stakes, dropped, carried
):
    names = [f"P{i}" for i in range(len(stakes))]
    by_name = dict(zip(names, stakes, strict=True))
    live = [p for p, d in zip(names, dropped, strict=False) if not d] or names[:1]
    pots = build_pots(by_name, live, carried)
    assert sum(p.chips for p in pots) == sum(stakes) + carried
    assert pots[0].eligible == tuple(live)
    for lower, upper in zip(pots, pots[1:], strict=False):
        assert set(upper.eligible) < set(lower.eligible)
    # No pot is smaller than the number of players who may win it (D-V12's argument).
    assert all(p.chips >= len(p.eligible) for p in pots)
