"""Table 1: the ranking of all 56 throws of three dice (RULINGS R1-R4).

The ranking is data: ``TABLE`` lists every throw, best first, and the rest is
lookups. Comparison is not transitive (R1: 1-1-1 beats 2-1-1, which beats
everything else), so "best" and "worst" of several throws follow R3.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Literal, cast

from engine.dice import is_die

Throw = tuple[int, int, int]
"""Three dice, highest first: ``(6, 5, 4)``."""

PENDING: Throw = cast(Throw, ())
"""A throw whose values are pending (D-S1): it counts, it is never ranked."""


def is_pending(dice: Sequence[int]) -> bool:
    """Whether ``dice`` are a pending throw's (no values yet)."""
    return len(dice) == 0


Ranking = Literal["three-digit", "total"]
RANKINGS: tuple[str, ...] = ("three-digit", "total")

BIDOU: Throw = (2, 1, 1)
TRIPLE_ACES: Throw = (1, 1, 1)

_NAMED: tuple[tuple[str, tuple[Throw, ...]], ...] = (
    ("bidou", ((2, 1, 1),)),
    ("bidè", ((2, 2, 1),)),
    ("421", ((4, 2, 1),)),
    ("triple", ((6, 6, 6), (5, 5, 5), (4, 4, 4), (3, 3, 3), (2, 2, 2), (1, 1, 1))),
    ("pair of threes", ((6, 3, 3), (5, 3, 3), (4, 3, 3), (3, 3, 2), (3, 3, 1))),
    ("pair of aces", ((6, 1, 1), (5, 1, 1), (4, 1, 1), (3, 1, 1))),
    ("run", ((3, 2, 1), (4, 3, 2), (5, 4, 3), (6, 5, 4))),
)

ALL_THROWS: tuple[Throw, ...] = tuple(
    sorted(((c, b, a) for a, b, c in combinations_with_replacement(range(1, 7), 3)),
           reverse=True)
)

_CLASS: dict[Throw, str] = {t: name for name, throws in _NAMED for t in throws}
_NAMED_ORDER: tuple[Throw, ...] = tuple(t for _, throws in _NAMED for t in throws)
_PLAIN: tuple[Throw, ...] = tuple(t for t in ALL_THROWS if t not in _CLASS)

#: Every throw, best first, in the default three-digit order (R, #1-#56).
TABLE: tuple[Throw, ...] = _NAMED_ORDER + tuple(sorted(_PLAIN, reverse=True))

_POSITION: dict[Throw, int] = {t: i for i, t in enumerate(TABLE)}


def normalise(dice: Sequence[int]) -> Throw:
    """Three dice as a throw (highest first); a ValueError for anything else, a pending
    throw included: its values are settled before it is ever ranked (D-S2)."""
    if is_pending(dice):
        raise ValueError("a pending throw is never ranked: its values are settled first (D-S2)")
    if len(dice) != 3 or not all(is_die(v) for v in dice):
        raise ValueError(f"a throw is three dice from 1 to 6, not {list(dice)}")
    a, b, c = sorted(dice, reverse=True)
    return (a, b, c)


def throw_class(dice: Sequence[int]) -> str:
    """The class of a throw: bidou, bidè, 421, triple, pair of threes, pair of aces, run, plain."""
    return _CLASS.get(normalise(dice), "plain")


def throw_name(dice: Sequence[int]) -> str:
    """A name for the dashboard, e.g. ``"bidou (2-1-1)"`` or ``"6-5-2"``."""
    t = normalise(dice)
    digits = "-".join(map(str, t))
    cls = _CLASS.get(t)
    return f"{cls} ({digits})" if cls else digits


#: How players say a die value in the plural ("three sixes", "a pair of threes").
_PLURAL = {1: "aces", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}


def spoken_name(dice: Sequence[int]) -> str:
    """A throw as people at the table say it, from its class in Table 1: ``"Bidou"``,
    ``"Bidè"``, ``"4-2-1"``, ``"three sixes"``, ``"a pair of threes with a 6"``,
    ``"a pair of aces with a 5"``, ``"a run 6-5-4"``; a plain throw is its digits.

    >>> spoken_name((1, 2, 1)), spoken_name((3, 6, 3)), spoken_name((5, 4, 6))
    ('Bidou', 'a pair of threes with a 6', 'a run 6-5-4')
    """
    t = normalise(dice)
    digits = "-".join(map(str, t))
    cls = _CLASS.get(t, "plain")
    if cls == "bidou":
        return "Bidou"
    if cls == "bidè":
        return "Bidè"
    if cls == "triple":
        return f"three {_PLURAL[t[0]]}"
    if cls in ("pair of threes", "pair of aces"):
        pair = 3 if cls == "pair of threes" else 1
        odd = next(v for v in t if v != pair)
        return f"a pair of {_PLURAL[pair]} with a {odd}"
    if cls == "run":
        return f"a run {digits}"
    return digits


def rank_words(dice: Sequence[int], ranking: str = "three-digit") -> str:
    """Where a throw stands in Table 1, in words: ``"the best throw"``, ``"3rd best of 56"``.

    Under the ``total`` ranking plain throws of one total share a place, so the place given is
    the first of them (equal throws are equal, R2).

    >>> rank_words((2, 1, 1)), rank_words((4, 2, 1)), rank_words((2, 1, 1), "total")
    ('the best throw', '3rd best of 56', 'the best throw')
    """
    place = position(dice, ranking) + 1
    if place == 1:
        return "the best throw"
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix} best of {len(TABLE)}"


def position(dice: Sequence[int], ranking: str = "three-digit") -> int:
    """Place in Table 1, 0 = best. Under ``total`` (R4), #23-56 all share the key of their total.

    Equal positions are equal throws (R2). Under the total house rule two plain throws
    with the same total are equal too; the project's rules document records that choice.
    """
    t = normalise(dice)
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, not {ranking!r}")
    if ranking == "three-digit" or t in _CLASS:
        return _POSITION[t]
    # Plain throws by total, highest total first; placed after the 22 named throws.
    return len(_NAMED_ORDER) + (18 - sum(t))


def compare(a: Sequence[int], b: Sequence[int], ranking: str = "three-digit") -> int:
    """1 if throw ``a`` beats ``b``, -1 if it loses, 0 for a tie (R1, R2)."""
    ta, tb = normalise(a), normalise(b)
    if ta == TRIPLE_ACES and tb == BIDOU:
        return 1
    if ta == BIDOU and tb == TRIPLE_ACES:
        return -1
    pa, pb = position(ta, ranking), position(tb, ranking)
    return (pa < pb) - (pa > pb)


def _extreme(throws: Sequence[Sequence[int]], ranking: str, sign: int) -> list[int]:
    """Indices of the throws that every other throw beats (sign -1) or that beat all (sign 1)."""
    n = len(throws)
    if n == 0:
        raise ValueError("there is no best or worst of no throws")
    chosen = [
        i
        for i in range(n)
        if all(j == i or sign * compare(throws[i], throws[j], ranking) >= 0 for j in range(n))
    ]
    if chosen:
        return chosen
    # R3: a cycle made by R1 -- ignore R1 and let table order decide.
    keys = [position(t, ranking) for t in throws]
    target = min(keys) if sign > 0 else max(keys)
    return [i for i, k in enumerate(keys) if k == target]


def best(throws: Sequence[Sequence[int]], ranking: str = "three-digit") -> list[int]:
    """Indices of the best throw(s) among several (R3); more than one index is a tie."""
    return _extreme(throws, ranking, 1)


def worst(throws: Sequence[Sequence[int]], ranking: str = "three-digit") -> list[int]:
    """Indices of the worst throw(s) among several (R3); more than one index is a tie."""
    return _extreme(throws, ranking, -1)
