"""Which pips lie on one face: pips linked when alike and with a flat path between them.

Why: two pips on one face are close for their size, alike in size, contrast and face colour,
and the straight path between them crosses no die edge (no step in grey level, no line);
grouping by these alone, before any layout is asked for, keeps a side face's or a touching
die's pips apart from a top face's as far as the picture allows.
"""

from __future__ import annotations

import numpy as np

from vision.rules.faces.face import FaceRules
from vision.rules.pips import PipMaps, Pips


def group_pips(pips: Pips, maps: PipMaps, rules: FaceRules) -> list[np.ndarray]:
    """Indices of the pips of each candidate face (connected groups of linked pips)."""
    n = len(pips)
    if n == 0:
        return []
    dx = pips.x[:, None] - pips.x[None, :]
    dy = pips.y[:, None] - pips.y[None, :]
    dist = np.hypot(dx, dy)
    dmean = 0.5 * (pips.diameter[:, None] + pips.diameter[None, :])
    ratio = np.maximum(pips.diameter[:, None], pips.diameter[None, :]) / np.minimum(
        pips.diameter[:, None], pips.diameter[None, :]
    )
    cmin = np.minimum(pips.contrast[:, None], pips.contrast[None, :])
    usable = ~pips.glint
    candidate = (
        usable[:, None]
        & usable[None, :]
        & (pips.polarity[:, None] == pips.polarity[None, :])
        & (dist <= rules.link_reach * dmean)
        & (ratio <= rules.size_ratio)
        & (
            np.maximum(pips.contrast[:, None], pips.contrast[None, :])
            <= rules.contrast_ratio * cmin
        )
        & (np.abs(pips.face[:, None] - pips.face[None, :]) <= rules.face_tolerance * cmin)
        & (np.abs(pips.ring[:, None, :] - pips.ring[None, :, :]).max(axis=2)
           <= rules.ring_tolerance)
    )
    iu, ju = np.nonzero(np.triu(candidate, 1))
    parent = np.arange(n)

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    if iu.size:
        ok = _clear_paths(
            pips, maps, iu, ju, rules.path_fraction * cmin[iu, ju], rules.path_step * cmin[iu, ju]
        )
        # pips this close cannot lie on two faces (a pip sits a quarter side in from its face's
        # edge), and blur between them fails the path check: no path check for them
        ok |= dist[iu, ju] <= rules.close_pips * dmean[iu, ju]
        for a, b in zip(iu[ok], ju[ok], strict=True):
            ra, rb = find(int(a)), find(int(b))
            if ra != rb:
                parent[ra] = rb
    roots = np.array([find(i) for i in range(n)])
    return [np.flatnonzero(roots == r) for r in np.unique(roots[usable])]


def _clear_paths(
    pips: Pips, maps: PipMaps, iu: np.ndarray, ju: np.ndarray, limit: np.ndarray, step: np.ndarray
) -> np.ndarray:
    """True where the path between two pips (outside the pips) stays on one flat face.

    On one face the grey level between two pips is flat; a die edge shows as a step (a side
    face is lit differently) or a line (the gap between touching dice), and a pip-like mark on
    the way means a pip lies there (the link through it is then made pip by pip).
    """
    steps = np.linspace(0.0, 1.0, 9)[None, :]
    x0, y0, x1, y1 = pips.x[iu], pips.y[iu], pips.x[ju], pips.y[ju]
    length = np.maximum(np.hypot(x1 - x0, y1 - y0), 1e-6)
    a = np.clip(0.7 * pips.diameter[iu] / length, 0.0, 0.4)[:, None]
    b = np.clip(1.0 - 0.7 * pips.diameter[ju] / length, 0.6, 1.0)[:, None]
    t = a + (b - a) * steps
    h, w = maps.gray.shape
    xs = np.clip(np.rint(x0[:, None] + (x1 - x0)[:, None] * t).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(y0[:, None] + (y1 - y0)[:, None] * t).astype(np.intp), 0, h - 1)
    dark = (pips.polarity[iu] == 0)[:, None]
    response = np.where(dark, maps.dark[ys, xs], maps.light[ys, xs]).astype(np.int16)
    grey = maps.gray[ys, xs].astype(np.int16)
    # a blurred pip's fading rim reaches beyond its measured size: it is neither a mark on the
    # way nor the face's grey level. Left out, from either end: the samples where the pip's
    # own contrast is still fading (above the step, never rising) within 1.2 diameters of it
    fading = response > step[:, None]
    rim = np.zeros_like(fading)
    for order, near, size in (
        (range(steps.size), t * length[:, None], pips.diameter[iu]),
        (range(steps.size - 1, -1, -1), (1.0 - t) * length[:, None], pips.diameter[ju]),
    ):
        going = np.ones(len(iu), dtype=bool)
        previous = np.full(len(iu), np.iinfo(np.int16).max, dtype=np.int16)
        for k in order:
            going &= fading[:, k] & (response[:, k] <= previous) & (near[:, k] <= 1.2 * size)
            rim[:, k] |= going
            previous = response[:, k]
    low, high = np.iinfo(np.int16).min, np.iinfo(np.int16).max
    peak = np.where(rim, low, response).max(axis=1)
    spread = np.where(rim, low, grey).max(axis=1) - np.where(rim, high, grey).min(axis=1)
    spread = np.where(rim.all(axis=1), 0, spread)
    return (peak <= limit) & (spread <= step)
