"""The camera's picture of one seat's dice, for people to read from across a pub: one square
tile a die, side by side.

A seat's zone is a few hundred pixels of the camera's frame, its dice a few dozen pixels each;
shown whole on a TV the dice come out the size of a fingernail. Each die the reader found is cut
out with a margin round it and enlarged to :data:`TILE` pixels, framed green when the camera is
sure of it and red when it is not, in the order the table states them: the sure dice first,
then the unsure ones (``firmware.table.views.settling``'s ``guess``, whose ``None`` are the
unsure dice). A zone where the reader found no die at all is shown whole, at the tile's height.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

#: A tile's side in pixels: the page shows it at 120 px or more on a 1080-line screen.
TILE = 192
#: The square cut round a die: this many times its larger side (the die and what lies beside it).
MARGIN = 1.5
SURE = (0, 170, 0)  # BGR, as the camera's frames are
UNSURE = (0, 0, 230)


def dice_tiles(picture: np.ndarray, sure: Sequence[Any], unsure: Sequence[Any],
               origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """``picture`` (a seat's zone, whose top left corner is ``origin`` in the frame the boxes
    are measured in) as one row of square tiles, a die each: ``sure`` dice framed green, then
    ``unsure`` places framed red (each has a ``box``: x, y, w, h in the frame)."""
    tiles = [_tile(picture, d.box, origin, SURE) for d in sure]
    tiles += [_tile(picture, u.box, origin, UNSURE) for u in unsure]
    if not tiles:
        height, width = picture.shape[:2]
        return cv2.resize(picture, (max(1, round(width * TILE / height)), TILE),
                          interpolation=cv2.INTER_CUBIC)
    return np.hstack(tiles)


def _tile(picture: np.ndarray, box: tuple[int, int, int, int], origin: tuple[int, int],
          colour: tuple[int, int, int]) -> np.ndarray:
    """The square round ``box`` (padded with black where it runs off the zone), enlarged to
    TILE pixels, the die framed in ``colour``."""
    x, y, w, h = (int(v) for v in box)
    x, y = x - origin[0], y - origin[1]
    side = max(1, round(max(w, h) * MARGIN))
    left, top = x + w // 2 - side // 2, y + h // 2 - side // 2
    square = np.zeros((side, side, 3), dtype=picture.dtype)
    height, width = picture.shape[:2]
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(width, left + side), min(height, top + side)
    if x1 > x0 and y1 > y0:
        square[y0 - top:y1 - top, x0 - left:x1 - left] = picture[y0:y1, x0:x1]
    tile = cv2.resize(square, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    scale = TILE / side
    cv2.rectangle(tile, (round((x - left) * scale), round((y - top) * scale)),
                  (round((x - left + w) * scale), round((y - top + h) * scale)), colour, 4)
    return tile
