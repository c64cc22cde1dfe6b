"""Table 1's throws as players say them, in any language: phrases from the engine's classes.

The engine names each throw's class (``engine.ranking.throw_class``) and its place; this module
makes the words from those facts, never from the engine's English, so the French and Spanish
catalogues can say "brelan de six" or "tres seises" rather than a word swap. The catalogue's
comments say which names come from the source rules and which are the players' usual words.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ranking import TABLE, normalise, position, throw_class
from firmware.words.phrases import N_, Phrase


def digits(dice: Sequence[int]) -> str:
    """``"6-5-4"``: a throw's dice, highest first."""
    return "-".join(map(str, normalise(dice)))


def _values(n: int) -> Phrase:
    """A die value said in the plural: "sixes", "aces"."""
    return [N_("aces"), N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes")][n - 1]


def throw_phrase(dice: Sequence[int]) -> Phrase:
    """A throw as people at the table say it (``engine.ranking.spoken_name``'s classes)."""
    t = normalise(dice)
    cls = throw_class(t)
    if cls == "bidou":
        # Translators: 2-1-1, the best throw; the source rules' name (a proper name)
        return N_("Bidou")
    if cls == "bidè":
        # Translators: 2-2-1; the source rules' name (a proper name)
        return N_("Bidè")
    if cls == "triple":
        return N_("three %(values)s", values=_values(t[0]))
    if cls in ("pair of threes", "pair of aces"):
        pair = 3 if cls == "pair of threes" else 1
        odd = next(v for v in t if v != pair)
        return N_("a pair of %(values)s with a %(odd)s", values=_values(pair), odd=odd)
    if cls == "run":
        return N_("a run %(dice)s", dice=digits(t))
    return Phrase(digits(t))  # 4-2-1 and plain throws are said by their dice


def ordinal(n: int) -> Phrase:
    """``3rd``: the place of a throw said as an ordinal. The first has a msgid of its own, as
    French says "1er" but "21e" where English says "1st" and "21st"."""
    if n == 1:
        # Translators: the first throw, or the first place of a throw (French 1er, Spanish 1.ª)
        return N_("1st", n=n)
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return N_("%(n)sth", n=n)
    return {1: N_("%(n)sst", n=n), 2: N_("%(n)snd", n=n), 3: N_("%(n)srd", n=n)}[n % 10]


def throw_words(dice: Sequence[int] | None,
                ranking: str = "three-digit") -> tuple[Phrase | None, Phrase | None]:
    """A shown or own throw's name and its place in Table 1 (None and None for no throw, or a
    captain roll's one die): what a seat card and a seat page say beside the dice."""
    if not dice or len(dice) != 3:
        return None, None
    return throw_phrase(dice), rank_phrase(dice, ranking)


def rank_phrase(dice: Sequence[int], ranking: str = "three-digit") -> Phrase:
    """Where a throw stands in Table 1 (``engine.ranking.rank_words``' facts)."""
    place = position(dice, ranking) + 1
    if place == 1:
        return N_("the best throw")
    return N_("%(place)s best of %(total)s", place=ordinal(place), total=len(TABLE))
