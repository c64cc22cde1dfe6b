"""The reader's one rule: which places read are dice, and which of them are given a value.

Why apart from the reading (:mod:`vision.learned.face_reader`): the rule is decided again and
again on places read once, by a table's calibration choosing its thresholds
(:mod:`vision.calibrate.thresholds`) and by the model lab choosing the model's
(:mod:`vision_lab.choose_thresholds`); neither needs the networks to do it.

The rule: a place is taken for a die when the detector scores it at least ``detect``, or,
down to :data:`PROPOSAL_FLOOR`, when the network takes it for a die surely (its "not a die"
probability under ``sure_die``); a place whose "not a die" probability is at least
``not_a_die`` is dropped; of overlapping places the one most surely a die stays; a place whose
best value has at least ``min_value`` is that value, as is one whose best value has at least
``agree`` and whose pips, counted where it lies (:mod:`vision.learned.pip_count`), make the
same value (two independent readings agree), unless another opinion speaks against the value
(:mod:`vision.learned.opinions`; where the die lies among the others is one of them); any
other place is :class:`Unsure`. A die cut by the picture's edge is unsure whatever it reads.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from vision.learned.opinions import DISSENT, dissent, side_face
from vision.reading import Box, Die, Unsure

#: two proposals closer than this times the larger's size are one die
SAME_DIE = 0.5

NOT_SURE = "not sure of the value"
CUT_BY_EDGE = "the die is cut by the picture's edge"

#: the thresholds when neither the model nor the table gives one; ``sure_die`` 0 keeps only
#: what the detector scores ``detect`` or more, ``agree`` 1 gives no value on the pips'
#: word (a model's ``reader.json`` from before them)
DEFAULTS = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9, "sure_die": 0.0, "agree": 1.0,
            **DISSENT}
#: the lowest detector score a place may have and still be taken for a die, when the network
#: is sure of it (``sure_die``). Why the network may overrule the detector: the detector's
#: score does not travel to dice it was not trained on, the network's "not a die" does. With
#: the detector trained without webcam-wood, its surest places on that set's dice were pips
#: (0.35-0.49), and the die itself, read right by the network at 0.999 or more, scored
#: 0.20-0.29 under the 0.3 chosen on the other sets (4 December 2026, docs/vision-model.md).
#: Why 0.15: every place above it is sized (four crops); a 640x480 photo cost 34 ms of CPU
#: with the detector alone, 70 with a floor of 0.1, 53 at 0.15 and 45 at 0.2; 0.1 and 0.15
#: read about the same (the calibration split 524 dice each, webcam-wood's Train left out
#: 81.1% and 80.5%), while at 0.2 the left-out model's thresholds no longer take the second
#: tier (sure_die 0 read its calibration split as well) and webcam-wood stays at 68.8%
PROPOSAL_FLOOR = 0.15
#: the thresholds a higher value of makes stricter (fewer values given, fewer places taken for
#: dice); of the others (``not_a_die``, ``sure_die``, the opinions') a lower value does
STRICTER_HIGHER = ("detect", "min_value", "agree")


@dataclass(frozen=True)
class Place:
    """One proposed die as read: where, how big, the detector's score, the probabilities
    (not a die, 1-6) and the features they came from (for a table's own head): ``features``
    the mean of the views', ``views`` each view's (a row for each of
    :data:`vision.learned.face_reader.VIEWS`), which a table's own head is fitted on, since
    the reader averages the views' probabilities, not their features."""

    centre: tuple[float, float]
    size: float
    score: float
    probs: np.ndarray
    features: np.ndarray
    cut: bool
    views: np.ndarray | None = None
    #: the value its pips make where it lies (:mod:`vision.learned.pip_count`), None where
    #: they make no die's pattern or were not counted
    #: (:data:`vision.learned.face_reader.COUNTED`)
    pips: int | None = None
    #: the other opinions (:mod:`vision.learned.opinions`), where asked: the probabilities
    #: of the crop turned by each of :data:`vision.learned.opinions.TURNS`, one row each,
    #: and the untaught network's (a table with its own network only)
    turned: np.ndarray | None = None
    untaught: np.ndarray | None = None

    @property
    def box(self) -> Box:
        (cx, cy), s = self.centre, self.size
        return (int(round(cx - s / 2)), int(round(cy - s / 2)), int(round(s)), int(round(s)))

    @property
    def value(self) -> int:
        return int(np.argmax(self.probs[1:])) + 1


def floored(thresholds: Mapping[str, float], floor: Mapping[str, float] | None,
            ) -> dict[str, float]:
    """``thresholds`` (every key of :data:`DEFAULTS`) made no looser than ``floor`` in any
    key it gives: ``detect``, ``min_value``, ``agree`` at least the floor's, the others at
    most. Why a floor and not the floor's thresholds: a model's or a table's own choice that
    is stricter in some key was chosen for a reason the floor does not know.

    The floor a model ships with (:data:`vision.learned.table_files.FLOOR_FILE`) is what a
    new make of dice needs: thresholds chosen on the makes a model was trained on read a make
    it never saw with many times the wrong share they were chosen for."""
    t = {**DEFAULTS, **thresholds}
    for key, bar in (floor or {}).items():
        if key in t:
            t[key] = max(t[key], bar) if key in STRICTER_HIGHER else min(t[key], bar)
    return t


def lowest_score(thresholds: Mapping[str, float]) -> float:
    """The lowest detector score a place needs to be read at all under ``thresholds``."""
    t = {**DEFAULTS, **thresholds}
    return min(t["detect"], PROPOSAL_FLOOR) if t["sure_die"] > 0 else t["detect"]


def proposed(place: Place, thresholds: Mapping[str, float]) -> bool:
    """Whether the detector's score, or the network's certainty that it is a die, makes the
    place a die's candidate (:func:`decide`, before its "not a die" cut)."""
    return _proposed(place.score, place.probs, thresholds)


def _proposed(score: float, probs: np.ndarray, thresholds: Mapping[str, float]) -> bool:
    if score >= thresholds["detect"]:
        return True
    return score >= PROPOSAL_FLOOR and float(probs[0]) < thresholds.get("sure_die", 0.0)


def may_be_valued(score: float, probs: np.ndarray, cut: bool,
                  thresholds: Mapping[str, float]) -> bool:
    """Whether :func:`decide` could give a place read so a value, whatever its pips and the
    other opinions say: only then can an opinion change the reading, so only then is it
    asked at the table (:func:`vision.learned.face_reader.read_places`)."""
    t = {**DEFAULTS, **thresholds}
    return (not cut and _proposed(score, probs, t) and float(probs[0]) < t["not_a_die"]
            and float(probs[1:].max()) >= min(t["min_value"], t["agree"]))


def decide(places: list[Place], thresholds: Mapping[str, float],
           ) -> tuple[list[Die], list[Unsure]]:
    """The one rule (module docstring): drop what is no die, keep one place per die, give a
    value only when its calibrated probability reaches ``min_value``, or ``agree`` where the
    place's pips make the same value (two readings agree)."""
    t = {**DEFAULTS, **thresholds}
    dice_like = [p for p in places if proposed(p, t) and p.probs[0] < t["not_a_die"]]
    dice_like.sort(key=lambda p: -(1 - float(p.probs[0])))
    kept: list[Place] = []
    for p in dice_like:
        if all(math.dist(p.centre, k.centre) > SAME_DIE * max(p.size, k.size) for k in kept):
            kept.append(p)
    dice, unsure = [], []
    for p in kept:
        sure = float(p.probs[p.value])
        if p.cut:
            unsure.append(Unsure(p.box, CUT_BY_EDGE))
        elif sure >= t["min_value"] or (sure >= t["agree"] and p.pips == p.value):
            against = dissent(p.value, p.turned, p.untaught, p.pips, t)
            if against is None and t["side"] < 1.0 and side_face(
                    p.centre, p.size, ((k.centre, k.size) for k in kept)):
                against = "it lies against the die above it, where that die's side shows"
            if against is None:
                dice.append(Die(p.value, p.box, round(sure, 4)))
            else:
                unsure.append(Unsure(p.box, f"{NOT_SURE} ({p.value}: {against})"))
        else:
            unsure.append(Unsure(p.box, f"{NOT_SURE} ({p.value}: {100 * sure:.1f}%)"))
    return dice, unsure
