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
from vision.calibrate.known import Tally, by_values
from vision.learned.face_reader import decide

#: what a wrong value or a phantom die costs, in dice read right, when thresholds are chosen
ERROR_COST = 20
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
#: ``detect`` tried with a taught finder: its scores at the table's dice are its own (the
#: finder taught on topdown-colour's 64 known dice scored the set's other dice 0.30-0.46 at
#: their centres, where the model's had scored 0.19-0.31 under its 0.4)
FINDER_DETECT = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def errors(t: Tally) -> int:
    """Wrong values and dice read where none was thrown."""
    return t.wrong + t.extra


def tally(seen: Sequence[Seen], thresholds: Mapping[str, float]) -> Tally:
    """The known throws' readings decided at ``thresholds``, scored by their values."""
    total = Tally()
    for item in seen:
        dice, unsure = decide(list(item.places), thresholds)
        total.add(by_values(item.name, item.values, dice, unsure))
    return total


def choose_thresholds(seen: Sequence[Seen], base: Mapping[str, float],
                      detects: Sequence[float] | None = None) -> dict[str, float]:
    """The grid's thresholds that read ``seen`` best: most right less :data:`ERROR_COST` per
    error; on a tie the surer (higher ``min_value`` and ``agree``, lower ``not_a_die``).
    ``detect`` is the model's (``base``), or one of ``detects`` (a taught finder's scores are
    its own). ``agree`` is chosen with ``min_value`` once the others are: trying it at every
    setting would take the grid five times as long, for a word that changes only which
    unsure dice are given values."""
    values = GRID["min_value"]

    def worth(t: Mapping[str, float]) -> float:
        s = tally(seen, t)
        return (s.right - ERROR_COST * errors(s) + 1e-3 * t["min_value"]
                + 1e-5 * t["agree"] - 1e-4 * t["not_a_die"])

    best, best_key = {**base, "agree": 1.0}, -math.inf
    for dt, mv, nd, sd in itertools.product(detects or (base["detect"],), values,
                                            GRID["not_a_die"], GRID["sure_die"]):
        t = {**base, "detect": dt, "min_value": mv, "not_a_die": nd, "sure_die": sd,
             "agree": 1.0}
        key = worth(t)
        if key > best_key:
            best, best_key = t, key
    for mv, ag in itertools.product(values, AGREE):
        t = {**best, "min_value": mv, "agree": ag}
        key = worth(t)
        if key > best_key:
            best, best_key = t, key
    return best
