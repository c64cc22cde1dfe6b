"""More examples from the same known throws: each known die cut out at its box and pasted,
turned, a little rescaled and relit, onto the table's own cloth.

Why: a table is taught from a few dozen dice; each is seen once, on one spot of the cloth, in
one light, beside the same neighbours. Pasted elsewhere on the same cloth (the background of
the known pictures, away from their dice, or a picture of the empty zones), the same dice
make many more pictures of this table's dice at this table's scale, for the face network and
the die finder alike (Dwibedi et al. 2017, "Cut, Paste and Learn"; Ghiasi et al. 2021,
"Simple Copy-Paste").

Only boxed dice are cut (a box from ``NAME.json``, as the Dice page marks it): a place matched
to a value has the detector's rough size, and a die cut at it would carry half a neighbour or
lose its edge. A pasted die is blended in with a soft round mask, so no square seam teaches
the finder where a die is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibrate.teach import Example

#: pictures made per known picture with boxed dice, and dice pasted on each
PER_PICTURE, DICE_EACH = 2, (2, 5)
#: a pasted die is turned by up to this (degrees; the picture's up stays up, as in teaching),
#: rescaled by up to this (log), its light multiplied by up to this and moved by up to this
TURN, RESCALE, GAIN, SHIFT = 45.0, 0.12, 0.25, 18.0
#: the pasted patch reaches this many die sizes from its centre; the mask is solid to
#: ``SOLID`` (a face's corner, turned 45 degrees, lies 0.71 out) and fades to ``REACH``
REACH, SOLID = 0.95, 0.74
#: a die is pasted at least this many sizes from every die already on the picture
APART = 1.15


@dataclass(frozen=True)
class Pasted:
    """A made picture: its pixels and its dice as (centre, size, value), every die on it."""

    image: np.ndarray
    dice: tuple[tuple[tuple[float, float], float, int], ...]


def _cut(image: np.ndarray, centre: tuple[float, float], size: float, turn: float,
         scale: float) -> tuple[np.ndarray, int]:
    """The die's patch, turned and rescaled, and its half side in the made picture."""
    half = int(math.ceil(REACH * size * scale))
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), turn, scale)
    m[0, 2] += half - centre[0]
    m[1, 2] += half - centre[1]
    patch = cv2.warpAffine(image, m, (2 * half + 1, 2 * half + 1), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REFLECT101)
    return patch, half


def _mask(half: int, size: float) -> np.ndarray:
    """1 inside ``SOLID`` die sizes of the centre, fading to 0 at ``REACH``."""
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1]
    r = np.hypot(xx, yy) / max(size, 1.0)
    return np.clip((REACH - r) / (REACH - SOLID), 0.0, 1.0).astype(np.float32)[..., None]


def paste_pictures(pictures: Sequence[np.ndarray],
                   boxed: Sequence[tuple[int, Sequence[tuple[tuple[float, float], float, int]]]],
                   backgrounds: Sequence[np.ndarray] = (), seed: int = 0,
                   per_picture: int = PER_PICTURE) -> list[Pasted]:
    """Pictures made of the known ones: ``boxed`` lists (picture index, its dice as
    (centre, size, value)) for every known picture whose dice are all boxed. Each made
    picture is one of those (its own dice kept where they are) or one of ``backgrounds``
    (the table's empty cloth, no die on it), with a few known dice from any boxed picture
    pasted where no die lies."""
    rng = np.random.default_rng(seed)
    dice = [(i, d) for i, spots in boxed for d in spots if d[2] > 0]
    if not dice:
        return []
    grounds = [(pictures[i], list(spots)) for i, spots in boxed]
    grounds += [(image, []) for image in backgrounds]
    out = []
    for _ in range(per_picture * len(boxed)):
        ground, there = grounds[int(rng.integers(len(grounds)))]
        image = ground.astype(np.float32)
        h, w = image.shape[:2]
        on = [(c, s, v) for c, s, v in there]
        for _ in range(int(rng.integers(DICE_EACH[0], DICE_EACH[1] + 1))):
            src, (centre, size, value) = dice[int(rng.integers(len(dice)))]
            scale = float(np.exp(rng.uniform(-RESCALE, RESCALE)))
            patch, half = _cut(pictures[src], centre, size, float(rng.uniform(-TURN, TURN)),
                               scale)
            new = size * scale
            if 2 * half + 2 >= min(w, h):
                continue
            for _ in range(20):  # a free spot, or this die is left out
                at = (float(rng.uniform(half, w - half - 1)),
                      float(rng.uniform(half, h - half - 1)))
                if all(math.dist(at, c) > APART * max(new, s) for c, s, _ in on):
                    break
            else:
                continue
            x, y = int(round(at[0])) - half, int(round(at[1])) - half
            lit = patch.astype(np.float32) * float(np.exp(rng.uniform(-GAIN, GAIN)))
            lit += float(rng.uniform(-SHIFT, SHIFT))
            mask = _mask(half, new)
            region = image[y:y + 2 * half + 1, x:x + 2 * half + 1]
            region[:] = mask * lit + (1 - mask) * region
            on.append(((x + half, y + half), new, value))
        if len(on) > len(there):
            out.append(Pasted(np.clip(image, 0, 255).astype(np.uint8), tuple(on)))
    return out


def examples(made: Sequence[Pasted], first: int) -> list[Example]:
    """Each made picture's dice as examples (the made pictures numbered from ``first``)."""
    return [Example(first + k, centre, size, value)
            for k, m in enumerate(made) for centre, size, value in m.dice]
