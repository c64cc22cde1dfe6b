"""One group of pips read as a face: framed on the 3x3 grid, fitted to a legal layout, checked.

Why: the layout check is what keeps a wrong number off the table. The pips must fill exactly
the places of one legal layout, every other place must be quiet, and every check of
:mod:`vision.rules.faces.checks` must pass; otherwise the face is unsure with the reason.
"""

from __future__ import annotations

import numpy as np

from vision.rules.faces.checks import (
    OVEREXPOSED,
    bright_patch,
    clean_ring,
    could_hide_a_pip,
    glare_at_places,
    glare_near,
    neighbours,
    row_beside,
    row_goes_on,
    square_enough,
    stray_pip,
)
from vision.rules.faces.face import CUT_BY_EDGE, GLARE, NO_PATTERN, TOO_MANY, Face, FaceRules
from vision.rules.faces.grid import GRID, LAYOUTS, face_outline, grid_points, sample
from vision.rules.pips import DARK, PipMaps, Pips


def read_group(idx: np.ndarray, pips: Pips, maps: PipMaps, rules: FaceRules) -> Face:
    """Read one group of pips, or say why it cannot be read.

    A group that fits no layout is retried once, and only in one way: when its pips fall into
    two sets of clearly different roundness (the more elongated at least ``slant_ratio`` times
    the rounder), the squashed ones are taken for a side face's pips that joined the top face
    and the round ones are read alone, with every check. Dropping pips at will until a layout
    fits was tried and made wrong values on the tuning photographs (docs/vision.md).
    """
    face = read_exact(idx, pips, maps, rules)
    if face.value is not None or len(idx) < 3 or face.reason not in (NO_PATTERN, TOO_MANY):
        return face
    elong = pips.elongation[idx]
    order = np.argsort(elong)
    ratios = elong[order][1:] / elong[order][:-1]
    cut = int(np.argmax(ratios))
    if ratios[cut] < rules.slant_ratio:
        return face
    top = read_exact(np.sort(idx[order[: cut + 1]]), pips, maps, rules)
    return top if top.value is not None else face


def read_exact(idx: np.ndarray, pips: Pips, maps: PipMaps, rules: FaceRules) -> Face:
    """These pips read as one face, all of them and with every check, or unsure with the reason
    (no retry: that is :func:`read_group`'s; the cut between touching dice reads each part so).
    """
    pts = np.column_stack([pips.x[idx], pips.y[idx]])
    n = len(idx)
    diam = float(np.median(pips.diameter[idx]))
    frame = _frame(pts, diam, rules) if n <= 6 else None
    corners = frame if frame is not None else np.repeat(pts.mean(axis=0)[None], 4, axis=0)
    slant = float(pips.elongation[idx].mean())
    level = float(pips.ring[idx].mean())  # the ring's channels averaged: the face's brightness
    polarity = int(pips.polarity[idx[0]])

    def unsure(reason: str) -> Face:
        return Face(corners, None, 0.0, reason, n, diam, slant, level, polarity)

    if n > 6:
        return unsure(TOO_MANY)
    if frame is None:
        return unsure(NO_PATTERN)
    if n == 1 and neighbours(int(idx[0]), pips, rules.one_clear):
        return unsure("a lone pip with other pips close by")
    if n == 1 and not clean_ring(int(idx[0]), pips, maps, rules.path_step):
        return unsure("a lone pip not on a plain face")
    h, w = maps.gray.shape
    outline = face_outline(corners)
    if (outline < 0).any() or (outline[:, 0] > w - 1).any() or (outline[:, 1] > h - 1).any():
        return unsure(CUT_BY_EDGE)
    unit = 0.125 * float(np.hypot(*(corners - np.roll(corners, -1, axis=0)).T).sum())
    if n > 1:
        lo, hi = rules.unit_per_diameter
        if not lo * diam <= unit <= hi * diam:
            return unsure("the pips are too far apart or too close for their size")
    if n >= 4 and not square_enough(corners, rules.max_skew):
        return unsure(NO_PATTERN)
    places = grid_points(corners)
    d = np.hypot(*(pts[:, None, :] - places[None, :, :]).transpose(2, 0, 1))
    nearest = d.argmin(axis=1)
    residual = d[np.arange(n), nearest] / unit
    taken = frozenset(GRID[k] for k in nearest)
    if len(taken) != n or residual.max() > rules.max_residual:
        return unsure(NO_PATTERN)
    if not any(taken == layout for layout in LAYOUTS.get(n, ())):
        return unsure(NO_PATTERN)
    empty = np.ones(len(GRID), dtype=bool)
    empty[nearest] = False
    weakest = float(pips.contrast[idx].min())
    watched = empty & could_hide_a_pip(taken) if n in (2, 3) else empty
    quiet = float(sample(maps.response_max(polarity), places[watched]).max())
    if quiet > rules.absent_fraction * weakest:
        return unsure("a faint pip-like mark where the pattern has none")
    if glare_near(maps, outline) and level < rules.glare_level - OVEREXPOSED:
        return unsure(GLARE)
    beside_limit = rules.absent_fraction * weakest
    if n in (2, 3) and row_beside(pts, maps.response_max(polarity), beside_limit):
        return unsure(
            "the pips may be one column of a 6" if n == 3 else "the pips may be one side of a 4"
        )
    if n == 2 and row_goes_on(pts, maps.response_max(polarity), beside_limit):
        return unsure("the pips may be part of a longer row")
    if polarity != DARK and bright_patch(
        maps, corners, weakest, rules.glare_fraction, single=n == 1
    ):
        return unsure(GLARE)
    if n > 1 and stray_pip(idx, pips, corners, rules):
        return unsure("another pip lies on the face outside the pattern")
    if polarity == DARK and glare_at_places(maps, places, empty, rules.glare_level):
        return unsure(GLARE)
    confidence = float(
        np.clip(min(1.0 - quiet / weakest, 1.0 - residual.max() / rules.max_residual), 0, 1)
    )
    return Face(corners, n, confidence, None, n, diam, slant, level, polarity)


def _frame(pts: np.ndarray, diam: float, rules: FaceRules) -> np.ndarray | None:
    """Grid corners (-1,-1), (1,-1), (1,1), (-1,1) for these pips, or None if none fits."""
    n = len(pts)
    centre = pts.mean(axis=0)
    if n == 1:
        u = rules.one_unit * diam
        c = pts[0]
        return np.array([c + (-u, -u), c + (u, -u), c + (u, u), c + (-u, u)])
    if n in (2, 3):
        d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
        i, j = np.unravel_index(int(np.argmax(d)), d.shape)
        a, b = pts[i], pts[j]
        c = 0.5 * (a + b)
        half = 0.5 * (b - a)
        # the other diagonal's length is unknown (perspective shortens it): take it a bit short
        perp = rules.perp_scale * np.array([-half[1], half[0]])
        return np.array([a, c + perp, b, c - perp])
    far = np.argsort(-np.hypot(*(pts - centre).T))[:4]
    corners = pts[far]
    c = corners.mean(axis=0)
    order = np.argsort(np.arctan2(corners[:, 1] - c[1], corners[:, 0] - c[0]))
    return corners[order]
