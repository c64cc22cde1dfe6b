"""Table 1 (RULINGS R1-R4): golden tests over all 56 x 56 ordered pairs, and the corner cases.

The expected order is built here from the table as RULINGS.md writes it (the text below is a
copy of that table), never from ``engine.ranking``'s own data, so a slip in either shows.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ranking import (
    ALL_THROWS,
    TABLE,
    best,
    compare,
    normalise,
    position,
    rank_words,
    spoken_name,
    throw_class,
    throw_name,
    worst,
)

# RULINGS.md, "R: ranking of throws", rows 1-22 as written there; rows 23-56 are "all others
# by the three-digit number of the dice in descending order".
RULINGS_TABLE = """\
1 | 2-1-1 | bidou
2 | 2-2-1 | bidè
3 | 4-2-1 | four-two-one
4-9 | 6-6-6, 5-5-5, 4-4-4, 3-3-3, 2-2-2, 1-1-1 | triples
10-14 | 3-3-6, 3-3-5, 3-3-4, 3-3-2, 3-3-1 | pair of threes
15-18 | 1-1-6, 1-1-5, 1-1-4, 1-1-3 | pair of aces
19-22 | 3-2-1, 4-3-2, 5-4-3, 6-5-4 | runs
"""


def _key(dice: str) -> tuple[int, ...]:
    return tuple(sorted((int(d) for d in dice.strip().split("-")), reverse=True))


def _expected_order() -> list[tuple[int, ...]]:
    named = [
        _key(d) for row in RULINGS_TABLE.splitlines() for d in row.split("|")[1].split(",")
    ]
    everything = {
        tuple(sorted(c, reverse=True)) for c in combinations_with_replacement(range(1, 7), 3)
    }
    plain = sorted(everything - set(named), key=lambda t: int("".join(map(str, t))),
                   reverse=True)
    return named + plain


EXPECTED = _expected_order()
RANK = {t: i for i, t in enumerate(EXPECTED)}


def expected_compare(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """R, R1, R2 straight from the table: lower row wins, except 1-1-1 beats 2-1-1."""
    if (a, b) == ((1, 1, 1), (2, 1, 1)):
        return 1
    if (a, b) == ((2, 1, 1), (1, 1, 1)):
        return -1
    return (RANK[a] < RANK[b]) - (RANK[a] > RANK[b])


def test_R_there_are_56_throws_22_named_and_34_plain_from_665_down_to_322() -> None:
    assert len(EXPECTED) == 56 == len(set(EXPECTED)) == len(ALL_THROWS)
    assert EXPECTED[22] == (6, 6, 5)
    assert EXPECTED[-1] == (3, 2, 2)


def test_R_table_order_matches_the_rulings_row_by_row() -> None:
    """S-B5: throws rank as Table 1 says."""
    assert list(TABLE) == EXPECTED


@pytest.mark.parametrize("a", EXPECTED, ids=lambda t: "-".join(map(str, t)))
def test_R_golden_every_ordered_pair(a: tuple[int, int, int]) -> None:
    """S-B5: throws rank as Table 1 says. All 56 x 56 ordered pairs, one parametrised case per
    first throw."""
    for b in EXPECTED:
        assert compare(a, b) == expected_compare(a, b), (a, b)


def test_R1_triple_aces_beats_bidou_but_loses_to_rows_2_to_8() -> None:
    assert compare((1, 1, 1), (2, 1, 1)) == 1
    assert compare((2, 1, 1), (1, 1, 1)) == -1
    for higher in [(2, 2, 1), (4, 2, 1), (6, 6, 6), (5, 5, 5), (4, 4, 4), (3, 3, 3), (2, 2, 2)]:
        assert compare((1, 1, 1), higher) == -1
        assert compare(higher, (1, 1, 1)) == 1


def test_R1_beats_is_not_transitive() -> None:
    # 1-1-1 beats 2-1-1, 2-1-1 beats 2-2-1, yet 2-2-1 beats 1-1-1.
    assert compare((1, 1, 1), (2, 1, 1)) == 1
    assert compare((2, 1, 1), (2, 2, 1)) == 1
    assert compare((2, 2, 1), (1, 1, 1)) == 1


def test_R2_equal_multisets_tie_whatever_the_order_of_the_dice() -> None:
    assert compare((4, 5, 6), (6, 4, 5)) == 0
    assert compare((1, 2, 1), (1, 1, 2)) == 0


def test_R_hand_checked_corner_cases() -> None:
    assert compare((3, 2, 1), (4, 3, 2)) == 1  # 3-2-1 is the highest run
    assert compare((6, 5, 4), (6, 6, 5)) == 1  # the lowest run beats the highest plain
    assert compare((3, 3, 1), (1, 1, 6)) == 1  # the lowest pair of threes beats pair of aces
    assert compare((1, 1, 3), (3, 2, 1)) == 1  # the lowest pair of aces beats every run
    assert compare((6, 6, 1), (6, 5, 5)) == 1  # 661 beats 655: three-digit order
    assert compare((3, 2, 2), (4, 2, 2)) == -1  # 322 is the lowest throw
    assert compare((2, 2, 2), (1, 1, 1)) == 1  # triples in order


@given(st.tuples(*[st.integers(1, 6)] * 3), st.tuples(*[st.integers(1, 6)] * 3))
def test_R_compare_is_antisymmetric(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    assert compare(a, b) == -compare(b, a)


def test_R3_worst_is_the_one_every_other_throw_beats() -> None:
    assert worst([(6, 5, 4), (3, 2, 2), (2, 1, 1)]) == [1]
    assert worst([(2, 1, 1), (1, 1, 1), (6, 5, 4)]) == [2]
    # 1-1-1 beats 2-1-1, so among those two bidou is the worst.
    assert worst([(2, 1, 1), (1, 1, 1)]) == [0]


def test_R3_best_is_the_one_that_beats_every_other() -> None:
    assert best([(6, 5, 4), (2, 1, 1), (3, 2, 2)]) == [1]
    assert best([(2, 1, 1), (1, 1, 1), (6, 5, 4)]) == [1]


def test_R3_cycle_ignores_R1_and_table_order_decides() -> None:
    """D-R3: the R3 cycle rule applies to the whole group."""
    cycle = [(1, 1, 1), (2, 1, 1), (2, 2, 1)]
    assert best(cycle) == [1]  # bidou is row 1
    assert worst(cycle) == [0]  # 1-1-1 is row 9
    assert best([(3, 2, 2), *cycle]) == [2]
    assert worst([(3, 2, 2), *cycle]) == [0]


def test_R3_a_shared_best_or_worst_is_a_tie() -> None:
    assert best([(6, 5, 4), (4, 5, 6), (3, 2, 2)]) == [0, 1]
    assert worst([(3, 2, 2), (6, 5, 4), (2, 3, 2)]) == [0, 2]


def test_R4_total_option_ranks_plain_throws_by_total_and_ties_equal_totals() -> None:
    """D-R1: under the total option, equal totals tie."""
    assert compare((6, 6, 5), (6, 6, 4), "total") == 1
    assert compare((6, 6, 4), (6, 5, 5), "total") == 0
    assert compare((6, 6, 4), (6, 5, 5)) == 1  # the default three-digit order
    assert compare((5, 2, 2), (4, 4, 2), "total") == -1  # 9 < 10 though 522 > 442


def test_R4_total_option_leaves_the_22_named_throws_and_R1_alone() -> None:
    """D-R1: under the total option, equal totals tie."""
    named = EXPECTED[:22]
    for a, b in product(named, repeat=2):
        assert compare(a, b, "total") == expected_compare(a, b)
    for a in named:
        assert compare(a, (6, 6, 5), "total") == 1
    assert compare((1, 1, 1), (2, 1, 1), "total") == 1


def test_R4_unknown_ranking_is_refused_with_a_sentence() -> None:
    """D-R4: an unknown ranking name is a ValueError naming the allowed ones."""
    with pytest.raises(ValueError, match="ranking must be one of three-digit, total, not 'dice'"):
        position((2, 1, 1), "dice")


@pytest.mark.parametrize(
    ("dice", "cls", "name"),
    [
        ((1, 2, 1), "bidou", "bidou (2-1-1)"),
        ((1, 2, 2), "bidè", "bidè (2-2-1)"),
        ((1, 2, 4), "421", "421 (4-2-1)"),
        ((1, 1, 1), "triple", "triple (1-1-1)"),
        ((3, 6, 3), "pair of threes", "pair of threes (6-3-3)"),
        ((1, 5, 1), "pair of aces", "pair of aces (5-1-1)"),
        ((5, 4, 6), "run", "run (6-5-4)"),
        ((6, 5, 2), "plain", "6-5-2"),
    ],
)
def test_R_every_class_of_throw_has_a_name_for_the_dashboard(dice, cls, name) -> None:
    """D-R2: the names of throws for the dashboard."""
    assert throw_class(dice) == cls
    assert throw_name(dice) == name


def test_R_a_throw_is_three_dice_from_one_to_six() -> None:
    """S-B3: a throw is three dice."""
    with pytest.raises(ValueError, match=r"a throw is three dice from 1 to 6, not \[7, 1, 1\]"):
        normalise((7, 1, 1))
    with pytest.raises(ValueError):
        normalise((1, 1))


@pytest.mark.parametrize(
    ("dice", "spoken"),
    [
        ((1, 2, 1), "Bidou"),
        ((1, 2, 2), "Bidè"),
        ((1, 2, 4), "4-2-1"),
        ((6, 6, 6), "three sixes"),
        ((1, 1, 1), "three aces"),
        ((3, 6, 3), "a pair of threes with a 6"),
        ((3, 3, 1), "a pair of threes with a 1"),
        ((1, 5, 1), "a pair of aces with a 5"),
        ((5, 4, 6), "a run 6-5-4"),
        ((6, 5, 2), "6-5-2"),
    ],
)
def test_R_every_class_of_throw_is_said_as_players_say_it(dice, spoken) -> None:
    assert spoken_name(dice) == spoken


def test_R_every_throw_has_one_spoken_name_and_its_place_in_words() -> None:
    names = [spoken_name(t) for t in TABLE]
    assert len(set(names)) == len(TABLE) == 56
    assert rank_words(TABLE[0]) == "the best throw"
    assert rank_words(TABLE[1]) == "2nd best of 56"
    assert rank_words(TABLE[10]) == "11th best of 56"
    assert [rank_words(TABLE[i]) for i in (2, 11, 12, 19, 20, 21, 22)] == [
        "3rd best of 56", "12th best of 56", "13th best of 56", "20th best of 56",
        "21st best of 56", "22nd best of 56", "23rd best of 56"]
    assert rank_words(TABLE[-1]) == "56th best of 56"
    assert rank_words((6, 5, 2), "total") == rank_words((6, 4, 3), "total") == "28th best of 56"
