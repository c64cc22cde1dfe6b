"""The classifier's view of a die: one square crop around its centre, the same in training and
at the table.

Why its own module: if training cut crops one way and the table another, the classifier would
be judged on pictures it never learned from. Both call :func:`die_crop`. A large die is cut
from a halved copy of the picture (an image pyramid), so that shrinking it to the crop never
skips pixels: a 200 px die and a 30 px die reach the classifier equally sharp.

The classifier's crop carries a fourth channel, :func:`up_channel`: where "up" lay in the
picture, turned and mirrored with the crop. Why: a camera that looks at the table at an angle
sees a die's top face above its front face, and the value is the top face's. Crops are turned
every way in training and at the table (the reader reads eight turns of each), which erased
that cue: on oblique photographs the classifier could not tell the top face from a side face,
and said so (most of the oblique set's "not sure") or, worse, read the side face. With the
picture's up in the crop, turning the crop no longer hides which face is on top.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

#: the classifier's input is a square of this side ...
CLASS_INPUT = 40
#: ... holding this many times the die's face size, so a little of the table shows around it
CROP_SCALE = 1.5
#: the second opinion (the classifier trained beside the detector) sees its own crop
SECOND_INPUT = 32
SECOND_SCALE = 1.6


def face_crop(image: np.ndarray, centre: tuple[float, float], size: float, angle: float = 0.0,
              mirror: bool = False, side: int = CLASS_INPUT, crop_scale: float = CROP_SCALE,
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


#: the up channel's value per unit of the picture's height, counted from the crop's centre in
#: halves of the crop (its top edge is -1 upright, its corners reach -1.41 when turned 45°)
UP_GAIN = 85.0
_RAMP_SIDE = 129


@functools.lru_cache(maxsize=64)
def _up(angle: float, mirror: bool) -> np.ndarray:
    half = _RAMP_SIDE // 2
    ramp = np.arange(_RAMP_SIDE, dtype=np.float32)[:, None].repeat(_RAMP_SIDE, axis=1) - half
    size = 40.0  # the crop then covers 60 px of the ramp: 42 from its centre at most, turned
    turned = face_crop(ramp, (float(half), float(half)), size, angle, mirror)
    up = np.clip(128.0 + UP_GAIN * turned / (CROP_SCALE * size / 2), 0, 255)
    return np.round(up).astype(np.uint8)


def up_channel(angle: float = 0.0, mirror: bool = False) -> np.ndarray:
    """The classifier's fourth channel for a crop cut at ``angle`` (mirrored or not): each
    pixel's height in the picture, below the crop's centre bright, above it dark, cut with the
    same turn as the die (:func:`face_crop` on a ramp), so the two can never disagree."""
    return _up(round(float(angle) % 360.0, 3), bool(mirror))


def with_up(crop: np.ndarray, angle: float = 0.0, mirror: bool = False) -> np.ndarray:
    """A BGR crop (or a stack of them) with its up channel: what the classifier reads."""
    up = up_channel(angle, mirror)
    up = np.broadcast_to(up, crop.shape[:-1])[..., None]
    return np.concatenate([crop, up], axis=-1)


class Pyramid:
    """A picture and its halved copies, made when first needed."""

    def __init__(self, image: np.ndarray) -> None:
        self.levels = [image]

    def level(self, k: int) -> np.ndarray:
        while len(self.levels) <= k:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[k]


def die_crop(pyramid: Pyramid, centre: tuple[float, float], size: float, angle: float = 0.0,
             mirror: bool = False, side: int = CLASS_INPUT) -> np.ndarray:
    """The classifier's crop of one die (BGR: :func:`with_up` adds the up channel), ``side``
    pixels square, from the coarsest copy where it is still sharp."""
    k = 0
    while size / 2 ** (k + 1) >= side / CROP_SCALE and min(
            pyramid.level(k).shape[:2]) >= 32:
        k += 1
    f = 2.0 ** k
    return face_crop(pyramid.level(k), (centre[0] / f, centre[1] / f), size / f, angle, mirror,
                     side)
