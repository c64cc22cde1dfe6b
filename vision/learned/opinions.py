"""Opinions that fail in different ways, asked before a value is given: a strong dissent makes
the die unsure.

Why: a referee who is unsure asks; one who is sure and wrong decides a showdown and nobody
sees it. The face network's probability alone is over-confident exactly where it is wrong (a
table's taught network: its fitted temperatures were 1.4-1.9), so a value is given only when
readings that do not share its mistakes do not contradict it:

- **turned**: the same network on the crop turned 90 and 270 degrees. A top face keeps its
  value when turned, while the network's mistakes (a shadow taken for a pip, part of a heap)
  move with the picture's up. Their disagreement is the opinion, not their average:
  averaged, views that agree hide the one that does not. Not 180 degrees: seen from an
  angle, a die's side face lies below its top face, and turned upside down a top face reads
  as one more often than turned a quarter (the shipped model's calibration split: 44 of 496
  dice read right were read otherwise at 180 degrees, 17 at 90 and 25 at 270).
- **untaught**: for a table with its own taught network, the model's network it was taught
  from, read at the same views. Taught on a few dozen dice, a network can learn a table's
  mistakes; the untaught one never saw them.
- **pips**: the value the pips make where the die lies (:mod:`vision.learned.pip_count`),
  which knows no network at all.
- **side**: where the die lies among the others. Two dice's top faces cannot lie closer than
  a face apart, while a die seen from an angle shows a side face against its top face, below
  it in the picture; a side face read as a die is a die read where none was thrown, or, when
  the top face was not found, a wrong value. So a die whose centre lies within
  :data:`SIDE_REACH` faces of another place above it is unsure. Of the shipped model's errors
  on the sets' Valid, the side faces were the ones not in the labels: webcam-wood's 2
  phantom dice, 3 of oblique-colour's 6 errors whose labels are right. Dice that touch lose
  their lower one to the referee.

An opinion dissents when it gives another value at least the threshold's probability; a
majority does not outvote it. Another value, not "not a die": a die turned or seen by another
network may look less like a die without being read as another one. Each threshold is 1.0
(never dissents) unless a calibration chose it (:mod:`vision.calibrate.thresholds` on a
table's held-out folds, :mod:`vision_lab.choose_thresholds` on the model's calibration
split), and a reader whose calibration cannot show a low wrong share is careful
(:func:`careful`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

#: the turns of the ``turned`` opinion, degrees
TURNS = (90.0, 270.0)
#: the thresholds of the opinions, and their value when no calibration chose one (never)
DISSENT = {"turned": 1.0, "untaught": 1.0, "pips": 1.0, "side": 1.0}
#: the opinions read at each place (the others need no reading)
READ = ("turned", "untaught", "pips")
#: the ``side`` opinion's reach: a die is unsure when another place's centre lies above its
#: own and closer than this many times the larger's face size (one face: the top faces of
#: two dice that touch)
SIDE_REACH = 1.0
#: the opinions a reader asks at least while its calibration holds too few dice to show a
#: wrong share under 1 in 500 (:func:`careful`): another value read at 0.5 or more, more
#: likely than not, is a strong dissent
CAREFUL = {"turned": 0.5, "untaught": 0.5, "side": 0.0}
#: opinions are asked of every place that may be a die: "not a die" under this (no grid's
#: ``not_a_die`` is looser). Not by its best value: a table's head fitted alone reads the
#: values again from the same places, so what it may give a value is not known when they
#: are read
ASKED = 0.7


def asked(probs: np.ndarray) -> bool:
    """Whether a place with these probabilities is asked the other opinions (:data:`ASKED`)."""
    return float(probs[0]) < ASKED


def against(probs: np.ndarray, value: int) -> float:
    """How strongly one reading speaks against ``value``: the probability of its likeliest
    other value."""
    return float(max(p for v, p in enumerate(probs[1:], 1) if v != value))


def dissent(value: int, turned: np.ndarray | None, untaught: np.ndarray | None,
            pips: int | None, thresholds: Mapping[str, float]) -> str | None:
    """The opinion that speaks against ``value`` at least its threshold's strength, as a few
    words for the unsure place's reason; None when none does. ``turned``: the turned views'
    probabilities (one row each), ``untaught``: the untaught network's, ``pips``: the count
    (None: no pattern, which is no dissent)."""
    t = {**DISSENT, **{k: v for k, v in thresholds.items() if k in DISSENT}}
    if turned is not None and t["turned"] < 1.0:
        worst = max(against(row, value) for row in turned)
        if worst >= t["turned"]:
            return f"turned, it reads otherwise ({100 * worst:.0f}%)"
    if untaught is not None and t["untaught"] < 1.0 and against(untaught, value) >= t["untaught"]:
        return f"the untaught network reads otherwise ({100 * against(untaught, value):.0f}%)"
    if pips is not None and t["pips"] < 1.0 and pips != value:
        return f"its pips make {pips}"
    return None


def side_face(centre: tuple[float, float], size: float,
              others: Iterable[tuple[tuple[float, float], float]]) -> bool:
    """Whether a die at ``centre`` of face ``size`` lies where the side face of one of
    ``others`` ((centre, size) each, the other places taken for dice) would show: against
    it (:data:`SIDE_REACH`) and below it."""
    return any(c[1] < centre[1] and math.dist(c, centre) < SIDE_REACH * max(s, size)
               for c, s in others if c != centre)


def careful(thresholds: Mapping[str, float]) -> dict[str, float]:
    """``thresholds`` with every opinion of :data:`CAREFUL` asked at least that strictly:
    the thresholds of a reader whose calibration cannot show its wrong share to be low."""
    out = dict(thresholds)
    for name, strictest in CAREFUL.items():
        out[name] = min(float(out.get(name, DISSENT[name])), strictest)
    return out
