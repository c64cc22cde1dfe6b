"""The checks a framed group of pips must pass before it is read as a face.

Why each exists: a group that fits a legal layout can still be the wrong number: a pip hidden
by glare, a row that is only one side of a 4, a pip of the same face left out of the group,
a lone mark that is no pip. Each check here finds one such case on the picture, and the
layout read (:mod:`vision.rules.faces.read`) makes the face unsure when one does.
"""

from __future__ import annotations

import numpy as np

from vision.rules.faces.face import FaceRules
from vision.rules.faces.grid import AROUND, FACE_HALF, GRID, LAYOUTS, PLACES, sample
from vision.rules.pips import PipMaps, Pips

#: a face this close to saturation (grey levels) is overexposed: its saturated pixels are its
#: own, not a lamp's glare (a lamp cannot be seen on it, and its dark pips still show)
OVEREXPOSED = 10


def glare_at_places(
    maps: PipMaps, places: np.ndarray, empty: np.ndarray, level: int
) -> bool:
    """Saturated pixels where a dark pip may hide, on a face that is not itself saturated.

    (A glare on a coloured face shows as a bright mark where no pip belongs, which the absence
    check already refuses.)"""
    if not (sample(maps.gray_max, places[empty]) >= level).any():
        return False
    between = 0.5 * (places[[1, 3, 5, 7]] + places[4])  # face pixels between the pip places
    return bool(np.median(sample(maps.gray, between)) < level - OVEREXPOSED)


def neighbours(i: int, pips: Pips, reach: float) -> bool:
    """Whether another mark (either polarity) at least half as wide lies within ``reach``
    diameters of pip i. (A much smaller mark is no pip of the same face, which is what would
    make a lone pip part of a bigger face.)"""
    d = np.hypot(pips.x - pips.x[i], pips.y - pips.y[i])
    near = (d <= reach * pips.diameter[i]) & (d >= 0.8 * pips.diameter[i])  # not its own glint
    near &= pips.diameter >= 0.5 * pips.diameter[i]
    return bool(near.any())


_RING = np.exp(1j * np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False))


def clean_ring(i: int, pips: Pips, maps: PipMaps, spread: float) -> bool:
    """A lone pip sits on a plain face: the grey level just around it is flat (a die face), not a
    shadow, an edge or a highlight beside something dark."""
    radii = np.concatenate([_RING * 1.0, _RING * 1.5]) * pips.diameter[i]
    h, w = maps.gray.shape
    xs = np.clip(np.rint(pips.x[i] + radii.real).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pips.y[i] + radii.imag).astype(np.intp), 0, h - 1)
    ring = maps.gray[ys, xs].astype(np.int16)
    return int(ring.max() - ring.min()) <= spread * pips.contrast[i]


def glare_near(maps: PipMaps, outline: np.ndarray) -> bool:
    """A saturated patch bigger than a pip touches the face (grown by half): pips may hide."""
    if not len(maps.glare):
        return False
    c = outline.mean(axis=0)
    grown = c + 1.5 * (outline - c)
    x0, y0 = grown.min(axis=0)
    x1, y1 = grown.max(axis=0)
    g = maps.glare
    return bool(((g[:, 0] <= x1) & (g[:, 2] >= x0) & (g[:, 1] <= y1) & (g[:, 3] >= y0)).any())


def bright_patch(
    maps: PipMaps, corners: np.ndarray, contrast: float, fraction: float, single: bool
) -> bool:
    """On a coloured face, a patch bigger than a pip and much brighter than the face: a lamp's
    glare, which can wash white pips out. The opening keeps only patches bigger than a pip."""
    around = PLACES if single else AROUND  # a lone pip's frame is only a guess of the face
    level = sample(maps.face_light, around @ corners).astype(np.float64)
    return bool(level.max() - np.median(level) > fraction * contrast)


def row_beside(pts: np.ndarray, response: np.ndarray, limit: float) -> bool:
    """Marks beside both end pips of a 2 or 3, as far away as the row is long: the row is one
    side of a 4 (or one column of a 6) whose other side did not join it (a touching die's edge
    in between, pips merged with the crease, or a glare that made them fainter). The middle of
    a 3 is not asked for: a glare can wash out the middle pip of the other column of a 6."""
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    half = 0.5 * (pts[j] - pts[i])
    beside = 2.0 * np.array([-half[1], half[0]])
    ends = pts[[i, j]]  # a middle pip washed out by glare still leaves a 6's ends
    return any(bool((sample(response, ends + sign * beside) > limit).all()) for sign in (1, -1))


def row_goes_on(pts: np.ndarray, response: np.ndarray, limit: float) -> bool:
    """A mark one diagonal beyond either pip of a 2: the pips may be two close pips of a 3
    whose third pip did not join them. Telling that third pip from a pip of the next die by
    the grey level on the way (flat or not) was tried: it let touching and glared dice on
    rendered scenes through as wrong 2s, for one 2 more on Train."""
    step = pts[1] - pts[0]
    beyond = np.array([pts[0] - step, pts[1] + step])
    return bool((sample(response, beyond) > limit).any())


def square_enough(corners: np.ndarray, max_skew: float) -> bool:
    """The four corner pips of a 4, 5 or 6 make a square seen with mild perspective: opposite
    sides and the two diagonals of about the same length, adjacent sides within 2x."""
    sides = np.hypot(*(corners - np.roll(corners, -1, axis=0)).T)
    diagonals = np.hypot(*(corners[:2] - corners[2:]).T)
    if sides.min() <= 0 or diagonals.min() <= 0:
        return False
    opposite = max(
        sides[0] / sides[2], sides[2] / sides[0], sides[1] / sides[3], sides[3] / sides[1]
    )
    adjacent = sides.max() / sides.min()
    return bool(
        opposite <= max_skew
        and diagonals.max() / diagonals.min() <= max_skew
        and adjacent <= 2.0
    )


def _inside(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Which points lie inside a convex quadrilateral (either winding)."""
    edge = np.roll(quad, -1, axis=0) - quad
    rel = pts[:, None, :] - quad[None, :, :]
    cross = edge[None, :, 0] * rel[:, :, 1] - edge[None, :, 1] * rel[:, :, 0]
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


def stray_pip(idx: np.ndarray, pips: Pips, corners: np.ndarray, rules: FaceRules) -> bool:
    """Another pip like these (polarity, size) inside the face grown by ``stray_margin``: the
    group is only part of a face (two pips of a 4 look like a 2 when the others are hidden)."""
    c = corners.mean(axis=0)
    if len(idx) in (2, 3):  # the unseen diagonal is taken as long as the seen one here
        a, b = corners[0], corners[2]
        half = 0.5 * (b - a)
        perp = np.array([-half[1], half[0]])
        corners = np.array([a, c + perp, b, c - perp])
    quad = c + rules.stray_margin * FACE_HALF * (corners - c)
    size = float(np.median(pips.diameter[idx]))
    others = np.ones(len(pips), dtype=bool)
    others[idx] = False
    others &= ~pips.glint & (pips.polarity == pips.polarity[idx[0]])
    ratio = pips.diameter / size
    others &= (ratio <= rules.size_ratio) & (ratio >= 1.0 / rules.size_ratio)
    if not others.any():
        return False
    pts = np.column_stack([pips.x[others], pips.y[others]])
    return bool(_inside(quad, pts).any())


def could_hide_a_pip(taken: frozenset[tuple[int, int]]) -> np.ndarray:
    """The grid places where a missed pip would make these pips a bigger legal layout.

    For a 2 or a 3 these are the centre and the other diagonal's corners, not the middles of
    the sides (every layout with a side's middle has all four corners, so a pip missed there
    goes with a pip missed at a watched corner). On a 2 or 3 seen at an
    angle the guessed middles of the sides fall on the pips' own blur, the rounded edge or a
    side face: watching them there refused good reads and guarded against nothing.
    """
    bigger = [lay for lays in LAYOUTS.values() for lay in lays if taken < lay]
    # the next bigger layouts (3 and 4 for a 2, 5 for a 3): any bigger one holds one of them
    nearest = [lay for lay in bigger if not any(other < lay for other in bigger)]
    could = frozenset().union(*nearest) - taken
    return np.array([place in could for place in GRID])
