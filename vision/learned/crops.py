"""The face classifier's view of a die: one square crop around its centre, the same in training
and at the table.

Why its own module: if training cut crops one way and the table another, the classifier would
be judged on pictures it never learned from. Both call :func:`die_crop`. A large die is cut
from a halved copy of the picture (an image pyramid), so that shrinking it to the crop never
skips pixels: a 200 px die and a 30 px die reach the classifier equally sharp.
"""

from __future__ import annotations

import cv2
import numpy as np

#: the face network's input is a square of this side ...
FACE_INPUT = 64
#: ... holding this many times the die's face size, so a little of the table shows around it
CROP_SCALE = 1.5
#: the crops the detector's training stream still draws (:mod:`vision_lab.train_detector`)
SECOND_INPUT = 32
SECOND_SCALE = 1.6


def face_crop(image: np.ndarray, centre: tuple[float, float], size: float, angle: float = 0.0,
              mirror: bool = False, side: int = FACE_INPUT, crop_scale: float = CROP_SCALE,
              ) -> np.ndarray:
    """``crop_scale`` x the face size around ``centre``, turned by ``angle``, ``side`` pixels."""
    scale = side / (crop_scale * size)
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
    m[0, 2] += side / 2 - centre[0]
    m[1, 2] += side / 2 - centre[1]
    if mirror:
        m[0] = -m[0]
        m[0, 2] += side
    return cv2.warpAffine(image, m, (side, side), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT101)


class Pyramid:
    """A picture and its halved copies, made when first needed."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]

    def level(self, k: int) -> np.ndarray:
        while len(self.levels) <= k:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[k]


def die_crop(pyramid: Pyramid, centre: tuple[float, float], size: float, angle: float = 0.0,
             mirror: bool = False, side: int = FACE_INPUT, crop_scale: float = CROP_SCALE,
             ) -> np.ndarray:
    """The classifier's crop of one die (``crop_scale`` x its face size), ``side`` pixels
    square, from the coarsest copy of the picture where it is still sharp."""
    k = 0
    while size / 2 ** (k + 1) >= side / crop_scale and min(
            pyramid.level(k).shape[:2]) >= 32:
        k += 1
    f = 2.0 ** k
    return face_crop(pyramid.level(k), (centre[0] / f, centre[1] / f), size / f, angle, mirror,
                     side, crop_scale)
