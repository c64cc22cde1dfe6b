"""The 3x3 pip grid of a die face: the legal layouts on it and where its places fall.

Why apart: every step from pips to faces (framing a group, checking its layout, looking
between two faces, drawing a face's box) works on this grid, and none of them on the others.
"""

from __future__ import annotations

import numpy as np

#: grid places (row, col) in -1..1 of each legal layout; 2, 3 and 6 have two orientations.
LAYOUTS: dict[int, tuple[frozenset[tuple[int, int]], ...]] = {
    1: (frozenset({(0, 0)}),),
    2: (frozenset({(-1, -1), (1, 1)}), frozenset({(-1, 1), (1, -1)})),
    3: (frozenset({(-1, -1), (0, 0), (1, 1)}), frozenset({(-1, 1), (0, 0), (1, -1)})),
    4: (frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1)}),),
    5: (frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)}),),
    6: (
        frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1), (0, -1), (0, 1)}),
        frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1), (-1, 0), (1, 0)}),
    ),
}
GRID = tuple((r, c) for r in (-1, 0, 1) for c in (-1, 0, 1))
#: half a face side, in grid units (pip rows sit at +-1; a face edge at about +-1.85).
FACE_HALF = 1.85


def _bilinear(scale: float) -> np.ndarray:
    """9 x 4 weights: grid place (row-major over GRID) from the four corners."""
    weights = np.empty((len(GRID), 4))
    for k, (r, c) in enumerate(GRID):
        u = 0.5 * (c * scale + 1.0)
        v = 0.5 * (r * scale + 1.0)
        weights[k] = ((1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v)
    return weights


PLACES = _bilinear(1.0)
#: the places, and the places of the grid grown by 1.6 (beyond the pips, on the face)
AROUND = np.vstack([_bilinear(1.0), _bilinear(1.6)])


def grid_points(corners: np.ndarray) -> np.ndarray:
    """The 3x3 grid places (row-major over GRID) by bilinear interpolation of the corners
    (-1,-1), (1,-1), (1,1), (-1,1)."""
    return PLACES @ corners


def face_outline(corners: np.ndarray) -> np.ndarray:
    """The face's four corners (the pip grid grown to the face edge)."""
    c = corners.mean(axis=0)
    return c + FACE_HALF * (corners - c)


def sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The image's values at the points (x, y), each at its nearest pixel inside the image."""
    h, w = image.shape
    xs = np.clip(np.rint(pts[:, 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pts[:, 1]).astype(np.intp), 0, h - 1)
    return image[ys, xs]
