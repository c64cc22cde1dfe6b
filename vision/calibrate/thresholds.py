"""A table's thresholds, chosen on readings of its known throws (the held-out folds'
readings, :mod:`vision.calibrate.folds`): what each costs, the grid tried, the choice.

Why its own module: the folds decide whether a taught network is kept and what it reads at;
how a setting of the thresholds is scored is one question, asked of every fold and of the
whole, and the same for the pips' word (``agree``) as for the network's.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from vision.calibrate.adapt import Seen
from vision.calibrate.known import (
    ERROR_COST,
    SHOWS_TARGET,
    Tally,
    by_values,
    errors,
    needed_dice,
)
from vision.learned.decision import DEFAULTS, decide, floored
from vision.learned.opinions import careful

__all__ = ["AGREE", "DISSENTS", "ERROR_COST", "FINDER_DETECT", "GRID", "choose_thresholds",
           "errors", "tally"]
#: the thresholds tried (``detect`` stays the model's). ``sure_die`` reaches 0.5: a taught
#: network is less sure that a die is one than the model is (its head's temperature is 1),
#: and with ``sure_die`` at most 0.05 the second tier of proposals, which finds webcam-wood's
#: dice under the left-out detector's ``detect``, was lost (as a new table, 60 known dice:
#: the held-out folds read 9 right and missed 45)
GRID = {"min_value": (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998),
        "not_a_die": (0.2, 0.3, 0.5, 0.7),
        "sure_die": (0.0, 0.003, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5)}
#: ``agree`` tried once the others are chosen, with ``min_value`` again: the probability of
#: its best value at which a die whose pips make the same value is given it (1.0: never on
#: the pips' word)
AGREE = (1.0, 0.9, 0.7, 0.5, 0.3)
#: the other opinions' thresholds tried, each once the others are chosen, with ``min_value``
#: again (:mod:`vision.learned.opinions`; 1.0: the opinion never dissents; ``pips`` 0: a
#: count of another value makes the die unsure; ``side`` 0: a place against it above)
DISSENTS = {"turned": (1.0, 0.5, 0.2, 0.05), "untaught": (1.0, 0.5, 0.2, 0.05),
            "pips": (1.0, 0.0), "side": (1.0, 0.0)}
#: ``detect`` tried with a taught finder: its scores at the table's dice are its own (the
#: finder taught on topdown-colour's 64 known dice scored the set's other dice 0.30-0.46 at
#: their centres, where the model's had scored 0.19-0.31 under its 0.4)
FINDER_DETECT = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def tally(seen: Sequence[Seen], thresholds: Mapping[str, float]) -> Tally:
    """The known throws' readings decided at ``thresholds``, scored by their values."""
    total = Tally()
    for item in seen:
        dice, unsure = decide(list(item.places), thresholds)
        total.add(by_values(item.name, item.values, dice, unsure))
    return total


def choose_thresholds(seen: Sequence[Seen], base: Mapping[str, float],
                      detects: Sequence[float] | None = None,
                      floor: Mapping[str, float] | None = None) -> dict[str, float]:
    """The grid's thresholds that read ``seen`` best: most right less :data:`ERROR_COST` per
    error; on a tie the surer (higher ``min_value`` and ``agree``, lower ``not_a_die``,
    stricter opinions). ``detect`` is the model's (``base``), or one of ``detects`` (a taught
    finder's scores are its own). ``agree``, then each opinion, is chosen with ``min_value``
    once the others are: trying them at every setting would take the grid many times as
    long, for words that change only which dice are given values.

    Careful: where the known dice cannot show a wrong share under 1 in 500 at what is chosen
    (fewer than :data:`vision.calibrate.known.SHOWS_TARGET`, or too many errors or too few
    values given among them, :func:`vision.calibrate.known.needed_dice`), the choice is made
    again with every setting asking the opinions at least as
    :func:`vision.learned.opinions.careful` does and giving no value under the untaught
    model's ``min_value`` (``base``; chosen on its calibration split of hundreds of dice),
    nor on the pips' word (``agree``) under it: at
    64 known dice of topdown-colour, the folds chose 0.7 with none of their 64 dice wrong,
    and the rest was read with 15 wrong values in 1731 dice. Nor looser than ``floor`` (the
    model's floor for a new make, :func:`vision.learned.decision.floored`; its ``detect``
    aside where ``detects`` is given): the model's own thresholds are chosen on makes it was
    trained on, and a table's dice are often a make it never saw. Known dice that show the
    target keep their own choice: they are measured, the floor only guesses at them."""
    dice = sum(len(item.values) for item in seen)
    if dice >= SHOWS_TARGET:
        chosen = _search(seen, base, detects, None)
        s = tally(seen, chosen)
        if needed_dice(s.right + errors(s), errors(s), dice) == 0:
            return chosen
    floor = {k: v for k, v in (floor or {}).items() if not (detects and k == "detect")}
    return _search(seen, base, detects, floor)


def _search(seen: Sequence[Seen], base: Mapping[str, float], detects: Sequence[float] | None,
            careful_at: Mapping[str, float] | None) -> dict[str, float]:
    """:func:`choose_thresholds`' search; careful, no looser than the floor ``careful_at``,
    unless it is None."""
    few = careful_at is not None
    values = GRID["min_value"]
    bar = float(base.get("min_value", DEFAULTS["min_value"]))

    def worth(t: dict[str, float]) -> float:
        if few:  # the opinions asked, and no value given under the untaught model's bar,
            # on the network's word or the pips'
            t.update(careful(t), min_value=max(t["min_value"], bar), agree=max(t["agree"], bar))
            t.update(floored(t, careful_at))
        s = tally(seen, t)
        return (s.right - ERROR_COST * errors(s) + 1e-3 * t["min_value"]
                + 1e-5 * t["agree"] - 1e-4 * t["not_a_die"]
                - 1e-6 * sum(t[k] for k in DISSENTS))

    best, best_key = {**base, "agree": 1.0, **dict.fromkeys(DISSENTS, 1.0)}, -math.inf
    for dt, mv, nd, sd in itertools.product(detects or (base["detect"],), values,
                                            GRID["not_a_die"], GRID["sure_die"]):
        t = {**base, "detect": dt, "min_value": mv, "not_a_die": nd, "sure_die": sd,
             "agree": 1.0, **dict.fromkeys(DISSENTS, 1.0)}
        key = worth(t)
        if key > best_key:
            best, best_key = t, key
    for mv, ag in itertools.product(values, AGREE):
        t = {**best, "min_value": mv, "agree": ag}
        key = worth(t)
        if key > best_key:
            best, best_key = t, key
    for name, tried in DISSENTS.items():
        if name == "untaught" and not any(p.untaught is not None
                                          for item in seen for p in item.places):
            continue  # no taught network here: the opinion is the reading itself
        for mv, dissent in itertools.product(values, tried):
            t = {**best, "min_value": mv, name: dissent}
            key = worth(t)
            if key > best_key:
                best, best_key = t, key
    return best
