"""A second opinion on a die's value: its pips counted where the reader placed it.

Why: a die's value is sure when two independent readings agree. The face network's best value
is often right where it is not sure of it (the model trained without topdown-colour, read at
that set's labels: best value right for 90% of its dice, sure of 29%), and a pip count is
independent of it: it knows no make of dice, only that pips are small round marks of one
colour, set point-symmetrically about the face's centre, with a pip at the centre exactly
when the value is odd. Counted at the face the reader placed (its centre and size), not over
the whole picture, it needs no die finder of its own, so it reads coloured dice the rule
reader (:mod:`vision.rules`, tuned on white dice) cannot find.

It says nothing rather than a guess: a face whose marks do not make a die's pattern (too many,
uneven in size, not symmetric, a centre pip on an even count) counts ``None``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.learned.crops import Pyramid, die_crop

#: the face is counted on a square of this many pixels holding the face alone
SIDE = 48
#: pips lie within this radius of the crop's centre (times ``SIDE``): the corners of a face
#: turned by 45 degrees lie outside the face, and a neighbour's pips may show there
REACH = 0.44
#: the window of the top-hat and black-hat: a little more than a pip's width (a pip is about
#: 0.1-0.2 of the face)
WINDOW = 15
#: a pip's area at its contrast threshold, as a fraction of ``SIDE`` squared
PIP_AREA = (0.004, 0.09)
#: a mark is kept when its contrast is at least this fraction of the face's strongest ...
LEVEL = 0.5
#: ... at least this much (0-255), and it differs from the face's median colour by this much
#: in some channel, the way a pip differs from its face
MIN_CONTRAST, MIN_COLOUR = 30, 35
#: the pips of one face: at most this ratio between the largest and smallest area
EVEN_SIZE = 2.5
#: the pattern's centre within this of the crop's (times ``SIDE``: the place is the face's
#: only roughly); a pip mirrored about the pattern's centre lies within ``SYMMETRY`` of
#: another; a centre pip within ``CENTRE_PIP`` of the pattern's centre
OFF_CENTRE, SYMMETRY, CENTRE_PIP = 0.16, 0.1, 0.12

_Y, _X = np.mgrid[0:SIDE, 0:SIDE]
_INSIDE = np.hypot(_X - (SIDE - 1) / 2, _Y - (SIDE - 1) / 2) <= REACH * SIDE
_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (WINDOW, WINDOW))


def count_pips(pyramid: Pyramid, centre: tuple[float, float], size: float) -> int | None:
    """The value the pips of the face at ``centre`` (face ``size`` pixels) make, or None when
    its marks make no die's pattern. Dark pips on a light face and light pips on a dark or
    coloured one are both looked for; where both make a pattern, the more contrasted."""
    crop = cv2.GaussianBlur(die_crop(pyramid, centre, size, side=SIDE, crop_scale=1.0),
                            (3, 3), 0)
    face = np.median(crop[_INSIDE].astype(np.float32), axis=0)
    channels = [*cv2.split(crop), cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)]
    best: tuple[float, int] | None = None
    for sign, op in ((-1.0, cv2.MORPH_BLACKHAT), (1.0, cv2.MORPH_TOPHAT)):
        contrast = np.max([cv2.morphologyEx(c, op, _KERNEL) for c in channels], axis=0)
        found = _pattern(crop, face, sign, np.where(_INSIDE, contrast, 0).astype(np.float32))
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return None if best is None else best[1]


def _pattern(crop: np.ndarray, face: np.ndarray, sign: float, contrast: np.ndarray,
             ) -> tuple[float, int] | None:
    """(mean contrast, count) of the marks of one polarity, when they make a die's pattern."""
    top = float(contrast.max())
    if top < MIN_CONTRAST:
        return None
    mask = (contrast >= max(LEVEL * top, MIN_CONTRAST)).astype(np.uint8)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    low, high = PIP_AREA[0] * SIDE * SIDE, PIP_AREA[1] * SIDE * SIDE
    pips, areas, strengths = [], [], []
    for i in range(1, n):
        _, _, w, h, area = (int(v) for v in stats[i])
        if not low <= area <= high or max(w, h) > 2 * min(w, h) or area < 0.5 * w * h:
            continue  # not a round mark of a pip's size
        inside = labels == i
        if float(np.max(sign * (crop[inside].astype(np.float32).mean(axis=0) - face))) < MIN_COLOUR:
            continue  # the face itself between darker pips, or a shadow of its own colour
        pips.append(centres[i])
        areas.append(area)
        strengths.append(float(contrast[inside].mean()))
    k = len(pips)
    if not 1 <= k <= 6 or (k > 1 and max(areas) > EVEN_SIZE * min(areas)):
        return None
    at = np.asarray(pips, np.float64)
    middle = at.mean(axis=0)
    if math.dist(middle, ((SIDE - 1) / 2,) * 2) > OFF_CENTRE * SIDE:
        return None
    if k > 1:
        mirrored = 2 * middle - at
        gaps = np.linalg.norm(mirrored[:, None] - at[None], axis=-1).min(axis=1)
        if float(gaps.max()) > SYMMETRY * SIDE:
            return None
        centre_pip = bool((np.linalg.norm(at - middle, axis=1) < CENTRE_PIP * SIDE).any())
        if centre_pip != (k % 2 == 1):
            return None
    return float(np.mean(strengths)), k
