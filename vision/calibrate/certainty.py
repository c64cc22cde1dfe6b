"""How sure the table's taught network is: a temperature fitted on its held-out folds, and the
value given where that makes it worth giving.

Why: a network taught for a few minutes on a few dozen dice is not calibrated (its head's
temperature is 1), and ``min_value`` chosen by counting held-out errors rests on the two or
three wrong values the folds happen to hold: on topdown-colour at 152 known dice it chose
0.995 and left 798 of the other 1643 dice unsure. Here every held-out place the known throws
name (a die and its value, or no die) fits one number, the temperature, by likelihood
(:func:`fit_temperature`); with probabilities so calibrated, a value read at ``p`` is right
``p`` of the time, and giving it is worth more than leaving it unsure when ``p - (1 - p)``
times :data:`vision.calibrate.thresholds.ERROR_COST` is above nothing: ``min_value`` is
:func:`min_value_for` that cost, not a count of held-out errors.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from vision.calibrate.adapt import Known, Seen, match
from vision.calibrate.places import box_dice, matched
from vision.learned.face_model import Head

#: the temperatures tried (log-spaced): sharper than the head's 1 down to a quarter, softer
#: up to twice
TEMPERATURES = tuple(float(t) for t in np.exp(np.linspace(math.log(0.2), math.log(2.0), 41)))
#: a place this far (in the die's size) from every boxed die is taught as no die
CLEAR = 0.8


def min_value_for(error_cost: float) -> float:
    """The calibrated probability above which a value is worth giving: ``p`` right against
    ``(1 - p) * error_cost`` lost (``error_cost`` 20 gives 20/21, about 0.952)."""
    return error_cost / (error_cost + 1.0)


def named(seen: Seen, known: Known, thresholds: dict[str, float]) -> list[tuple[int, int]]:
    """(place index, class) of the places the known throw names: with boxes, the place
    matched to each boxed die (its value) and each place clear of every die (0); without,
    the reader's places matched to the values (:func:`vision.calibrate.adapt.match`)."""
    if known.boxes is None:
        return [(i, c) for i, c in match(seen, thresholds) if not seen.places[i].cut]
    dice = box_dice(known, 0)
    out = []
    for i, p in enumerate(seen.places):
        if p.cut or p.views is None:
            continue
        mine = [d for d in dice if matched(p.centre, p.size, d)]
        if mine:
            out.append((i, min(mine, key=lambda d: math.dist(p.centre, d.centre)).cls))
        elif all(math.dist(p.centre, d.centre) > CLEAR * max(p.size, d.size) for d in dice):
            out.append((i, 0))
    return out


def logits_of(seen: Sequence[Seen], known: Sequence[Known], head: Head,
              thresholds: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """Each named place's views' logits under ``head`` at temperature 1 (N x views x 7), and
    its class."""
    by_name = {k.name: k for k in known}
    logits, classes = [], []
    for s in seen:
        for i, cls in named(s, by_name[s.name], thresholds):
            views = s.places[i].views
            if views is None:
                continue
            logits.append(views.astype(np.float64) @ head.weight.T.astype(np.float64)
                          + head.bias)
            classes.append(cls)
    if not logits:
        return np.zeros((0, 1, 7)), np.zeros(0, int)
    return np.stack(logits), np.asarray(classes)


def probabilities(logits: np.ndarray, temperature: float) -> np.ndarray:
    """The reader's probabilities: each view's softmax at ``temperature``, averaged."""
    z = logits / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=-1, keepdims=True)).mean(axis=-2)


def fit_temperature(logits: np.ndarray, classes: np.ndarray) -> float:
    """The temperature of :data:`TEMPERATURES` under which the named places' classes are the
    likeliest (1 when there are none)."""
    if len(classes) == 0:
        return 1.0
    rows = np.arange(len(classes))

    def nll(t: float) -> float:
        return float(-np.log(np.maximum(probabilities(logits, t)[rows, classes], 1e-12)).sum())

    return min(TEMPERATURES, key=nll)


def tempered(seen: Sequence[Seen], head: Head, temperature: float) -> list[Seen]:
    """``seen`` with every place's probabilities read again by ``head`` at ``temperature``."""
    out = []
    for s in seen:
        places = []
        for p in s.places:
            if p.views is None:
                places.append(p)
                continue
            logits = p.views.astype(np.float64) @ head.weight.T.astype(np.float64) + head.bias
            probs = probabilities(logits[None], temperature)[0].astype(np.float32)
            places.append(dataclasses.replace(p, probs=probs))
        out.append(dataclasses.replace(s, places=tuple(places)))
    return out
