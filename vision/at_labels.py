"""How the face classifier alone reads each labelled die, cut where its label says it lies.

Why: the reader's figures mix three causes of a die not read right: the detector did not
propose it, the reader placed or sized it badly (or read a place that is no die: a side face, a
pip), or the classifier cannot read the face. Cut at the label's own centre and face size
(:func:`vision.labels.face_dice`) in the reader's eight views, a die is read with no detector, no
sizing and no other place beside it, by the reader's own decision (:func:`decide`, the model's
thresholds, no second opinion and no pip count). What the classifier misreads or doubts there,
no placing can mend; what it reads there and the reader does not is the reader's to mend.

Measured with it (docs/vision-model.md, the eleventh session): on the shipped model's
calibration split the classifier's best value at the label is the label's for 99% of
webcam-wood, 93% of topdown-colour and 90% of oblique-colour dice, whatever the die's size in
pixels; the rest are mostly doubted, not read wrong. Trained without oblique-colour, a model's
classifier gets the best value right for 75% of that set's dice and is sure of 18%.

``python -m vision.evaluate --at-labels`` prints a line per set (its Valid, and the calibration
split cut from its Train).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from vision.crops import Pyramid
from vision.labels import LabelledDie, LabelledPicture
from vision.learned_reader import DEFAULTS, Seen, agreement, decide, view_crops
from vision.networks import Candidate, Networks
from vision.reading import Die, Unsure

#: the detector is not asked at a label: its value guess gives every value alike
NO_GUESS = (1.0,) * 6


@dataclass
class AtLabels:
    """Counts over labelled dice read at their labels."""

    dice: int = 0
    best_right: int = 0  # the classifier's most likely value is the label's
    sure: int = 0  # a value given (the model's thresholds)
    sure_wrong: int = 0  # ... and not the label's
    no_die: int = 0  # the classifier takes the place for no die at all

    def add(self, label: int, seen: Seen, verdict: Die | Unsure | None) -> None:
        self.dice += 1
        self.best_right += seen.value == label
        if verdict is None:
            self.no_die += 1
        elif isinstance(verdict, Die):
            self.sure += 1
            self.sure_wrong += verdict.value != label

    def summary(self) -> str:
        share = 100 * self.best_right / max(self.dice, 1)
        return (f"{self.dice} dice: best value right {self.best_right} ({share:.1f}%), "
                f"sure {self.sure} ({self.sure_wrong} wrong), no die {self.no_die}")


def read_at_label(nets: Networks, pyramid: Pyramid, die: LabelledDie) -> Seen:
    """What the classifier sees of one die cut at its label, as the reader would keep it."""
    mean, agreeing = agreement(nets.classify(view_crops(pyramid, die.centre, die.size)))
    return Seen(Candidate(die.centre, die.size, 1.0, NO_GUESS), mean, agreeing, cut=False)


def at_labels(nets: Networks, pictures: Iterable[LabelledPicture],
              thresholds: dict[str, float] | None = None) -> AtLabels:
    """Every labelled die of the pictures read at its label, decided at ``thresholds`` (else
    the model's), with no detector opinion and no second opinion."""
    t = {**DEFAULTS, **nets.thresholds, **(thresholds or {}),
         "min_detector_value": 0.0, "second_veto": 1.0}
    counts = AtLabels()
    for picture in pictures:
        pyramid = Pyramid(picture.load())
        for die in picture.dice:
            seen = read_at_label(nets, pyramid, die)
            counts.add(die.value, seen, decide(seen, t))
    return counts
