"""The face classifier's own stream: a die with its surroundings, cut at any size as the
detector would place it, or beside it, on a pip, twice too large, on a side face.

Why apart from the detector's corpus (:mod:`vision_lab.corpus`): the classifier learns from
crops of single places, not whole pictures, and its crops that are not a die are made to
look like the detector's mistakes. Its patches come from the Train photographs' labelled dice
and from rendered dice (:func:`vision_lab.corpus.rendered_die`), and every crop goes through
the corpus's photometric changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.learned.crops import FACE_INPUT, Pyramid, die_crop
from vision_lab.corpus import NOT_A_DIE, centred_square, photometric, rendered_die
from vision_lab.labels import LabelledPicture


@dataclass(frozen=True)
class Patch:
    """A die with 1.5 x its size of surroundings on each side, ready to be cut at any size."""

    image: np.ndarray
    centre: tuple[float, float]
    size: float
    value: int


def real_patches(picture: LabelledPicture, image: np.ndarray) -> list[Patch]:
    """Each labelled die of a picture with its surroundings (4 x its size, square: enough for a
    crop twice the die's size, :func:`class_sample`)."""
    return [patch_at(image, die.centre, die.size, die.value) for die in picture.dice]


def patch_at(image: np.ndarray, centre: tuple[float, float], size: float, value: int) -> Patch:
    """The place of ``size`` at ``centre`` with 4 x its size of surroundings, as a Patch."""
    side = int(4 * size) + 2
    return Patch(centred_square(image, centre, side), (side / 2, side / 2), size, value)


def rendered_patch(rng: np.random.Generator) -> Patch:
    """A rendered die of random colours and size, as a :class:`Patch`; a tilted one shows its
    sides below its top face, as an upright camera at an angle sees them."""
    side_dir = float(rng.normal(90, 20))
    image, dice = rendered_die(rng, float(rng.uniform(24, 64)), side_dir=side_dir)
    return Patch(image, dice[0].centre, dice[0].size, dice[0].value)


#: how often a classifier crop is not a die: beside one, on one pip of it, twice its size, or
#: on the face just below its top: a side face, as a camera at an angle sees it
BESIDE, ON_A_PIP, TOO_LARGE, SIDE_FACE = 0.2, 0.08, 0.07, 0.08
#: how far a classifier crop is turned either way (degrees): up stays up, so that a side face
#: (below its top face in the crop) can be told from a top face
TURN = 45.0


def class_sample(patches: list[Patch], rng: np.random.Generator, *, side: int = FACE_INPUT,
                 ) -> tuple[np.ndarray, int]:
    """One face classifier crop (BGR, ``side`` pixels) and its class (0 = not a die, 1-6),
    placed as the detector would: the die shrunk or enlarged to 11-90 px, turned at most
    :data:`TURN` degrees either way, mirrored, off-centre and mis-sized a little.

    Some crops are not a die: beside one or between two; on a single pip of it (a pip of a large
    die looks like a small one); about twice the die's size; or on the face below its top, a
    little smaller than the die (an oblique camera's view of a side face: the top face lies
    above it in the crop, since crops are never turned upside down). The pip and the double
    size teach the classifier what a wrongly sized crop looks like.
    """
    p = patches[int(rng.integers(len(patches)))]
    target = math.exp(rng.uniform(math.log(11), math.log(90)))
    k = target / p.size
    image = p.image
    if abs(k - 1) > 0.05:
        h = max(8, int(round(image.shape[0] * k)))
        image = cv2.resize(image, (h, h), interpolation=cv2.INTER_AREA if k < 1 else
                           cv2.INTER_LINEAR)
        k = h / p.image.shape[0]
    centre, size = (p.centre[0] * k, p.centre[1] * k), p.size * k
    crop_size = size * math.exp(rng.normal(0, 0.12))
    value = p.value
    r = rng.random()
    if r < BESIDE:
        a = rng.uniform(0, 2 * math.pi)
        reach = rng.uniform(0.7, 1.2) * size
        centre = (centre[0] + reach * math.cos(a), centre[1] + reach * math.sin(a))
        value = NOT_A_DIE
    elif r < BESIDE + ON_A_PIP:
        offset = rng.uniform(-0.27, 0.27, 2) * size  # where the pips of a face lie
        centre = (centre[0] + offset[0], centre[1] + offset[1])
        crop_size = size * rng.uniform(0.2, 0.4)
        value = NOT_A_DIE
    elif r < BESIDE + ON_A_PIP + TOO_LARGE:
        jitter = rng.normal(0, 0.15 * size, 2)
        centre = (centre[0] + jitter[0], centre[1] + jitter[1])
        crop_size = size * rng.uniform(1.8, 2.4)
        value = NOT_A_DIE
    elif r < BESIDE + ON_A_PIP + TOO_LARGE + SIDE_FACE:
        # down the picture, before the turn: where an oblique camera sees the front face
        centre = (centre[0] + rng.uniform(-0.15, 0.15) * size,
                  centre[1] + rng.uniform(0.35, 0.65) * size)
        crop_size = size * rng.uniform(0.5, 0.85)
        value = NOT_A_DIE
    else:
        jitter = rng.normal(0, 0.08 * size, 2)
        centre = (centre[0] + jitter[0], centre[1] + jitter[1])
    angle = float(rng.uniform(-TURN, TURN))
    mirror = bool(rng.random() < 0.5)
    crop = die_crop(Pyramid(image), centre, crop_size, angle, mirror, side)
    return photometric(crop, rng), value
