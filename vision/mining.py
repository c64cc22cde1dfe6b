"""Hard negatives for the face classifier: what the detector takes for a die on a Train picture
where no die is labelled.

Why: the classifier's "not a die" crops were all cut near a labelled die (beside it, on a pip,
twice its size, its side face), so it had never been shown the things a table holds besides
dice. On the calibration split it read Catan number tokens, board hexes and the holes of a grey
dice tray as dice, with "not a die" near 0: each is a place the reader then calls unsure, or,
once a threshold is loose enough, a phantom die. The detector that proposes those places at
the table proposes them here too, so its proposals away from every labelled die are the
negatives worth training on.

A Train picture may leave a real die unlabelled; such a die is mined as "not a die". The
proposals kept lie well away from every labelled die, which keeps touching dice out; a few
missing labels remain, a small price against hundreds of true negatives.
"""

from __future__ import annotations

import math

import numpy as np

from vision.corpus import NOT_A_DIE, Patch, patch_at
from vision.labels import LabelledPicture
from vision.learned_reader import ReaderSettings, propose
from vision.networks import Networks

#: the detector's centre score a mined place needs: the loosest the reader's thresholds use
MIN_SCORE = 0.2
#: a mined place's centre lies at least this many (its size + the die's) from every labelled die
CLEAR = 0.75
#: at most this many places a picture, the detector's surest first
PER_PICTURE = 12
#: the detector reads sizes about a quarter small (:func:`vision.learned_reader.sized`)
SIZE_FACTOR = 1.2


def clear_of_dice(centre: tuple[float, float], size: float, picture: LabelledPicture) -> bool:
    """Whether a place lies well away from every labelled die of the picture."""
    return all(math.dist(centre, d.centre) > CLEAR * (size + d.size) for d in picture.dice)


def mined_patches(picture: LabelledPicture, image: np.ndarray, nets: Networks) -> list[Patch]:
    """The detector's proposals on one picture that lie clear of its labelled dice, each as a
    "not a die" :class:`~vision.corpus.Patch` (4 x its size of surroundings, as a die's)."""
    out = []
    for c in propose(image, nets, ReaderSettings(), MIN_SCORE):
        size = c.size * SIZE_FACTOR
        if size < ReaderSettings.min_die or not clear_of_dice(c.centre, size, picture):
            continue
        out.append(patch_at(image, c.centre, size, NOT_A_DIE))
        if len(out) == PER_PICTURE:
            break
    return out

