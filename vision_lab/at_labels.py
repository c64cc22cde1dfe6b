"""The face network read at the labels: what no reader around it can read better.

Why: the reader loses dice in two places, where it looks (the detector's proposals, the
sizing) and how sure the network is of what it sees. Each labelled die cut where its label
says, at its label's size, read in the reader's views and decided by the model's own
``min_value`` (no detector, no "not a die" cut) separates the two: a die the network does not
read surely here, no placing will read. On 4 December 2026 this showed that the shipped
network reads topdown-colour's and oblique-colour's Valid dice at the 1 in 200 budget no
better than 85% and 71% at their labels, short of the 97% and 90% aimed at (docs/vision-model.md).

``python -m vision_lab.evaluate --at-labels`` prints a line per set (each set's Valid with the
shipped model, and each left-out set with its model when ``--leave-one-set-out``).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from vision.learned import face_reader
from vision_lab.labels import LabelledPicture


@dataclass
class AtLabels:
    """Counts over the labelled dice of some pictures."""

    min_value: float
    dice: int = 0
    best_right: int = 0  # the network's best value is the label's
    sure_right: int = 0  # ... and it is at least min_value sure of it
    sure_wrong: int = 0  # another value, at least min_value sure

    def line(self, what: str) -> str:
        def share(n: int) -> str:
            return f"{100 * n / max(self.dice, 1):5.1f}%"

        return (f"{what:28s} at labels {self.dice:5d} dice: best value right "
                f"{share(self.best_right)}; at min_value {self.min_value}: right "
                f"{share(self.sure_right)}, wrong {self.sure_wrong} ({share(self.sure_wrong)})")


def read_at_labels(pictures: list[LabelledPicture], model: pathlib.Path) -> AtLabels:
    """Every labelled die of ``pictures`` read at its label by ``model``'s network and head."""
    loaded = face_reader.load(model)
    total = AtLabels(loaded.thresholds["min_value"])
    for picture in pictures:
        if not picture.dice:
            continue
        spots = [(d.centre, d.size, 1.0) for d in picture.dice]
        places = face_reader.read_places(picture.load(), spots, loaded)
        for die, place in zip(picture.dice, places, strict=True):
            sure = float(place.probs[place.value]) >= total.min_value
            right = place.value == die.value
            total.dice += 1
            total.best_right += right
            total.sure_right += right and sure
            total.sure_wrong += sure and not right
    return total
