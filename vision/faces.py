"""From pip candidates to read faces: group the pips of one top face, then check the pattern.

Why this order: a pip alone says little (a knot in the wood, a screw head, a pip on a side face
all look like one); a set of pips that lie on one face AND sit exactly on a legal die layout is
a confident read. The layout check is what keeps a wrong number off the table:

1. Link two pips of the same polarity when they are close (relative to their size), of a
   similar size, with a similar face level around them, and nothing dark (or bright) on the
   straight path between them: that path crosses no die edge, so both lie on one face.
2. Each linked group gets a frame: its four outermost pips are the corners (4, 5, 6), or its
   two farthest pips are one diagonal (2, 3); a lone pip gets a frame from its own size (1).
   The frame gives the nine places of the 3x3 pip grid (bilinear in the corners, so mild
   perspective is fine).
3. The pips must fill exactly the places of one legal layout, and the contrast map must be
   quiet at every other place of the grid: a faint mark where the layout has no pip means a
   pip may be hidden or missed, and the face is reported unsure instead of read.
4. A group that fits no layout (side-face pips joined it, two touching faces merged) is unsure;
   dropping pips until a layout fits was tried and made wrong values.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

import numpy as np

from vision.pips import DARK, PipMaps, Pips

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
NO_PATTERN = "the pips do not form a die pattern"
TOO_MANY = "more than six pips together: touching dice or side faces"
CUT_BY_EDGE = "the face is cut by the edge of the picture"
GLARE = "glare covers part of the face"
#: a face this close to saturation (grey levels) is overexposed: its saturated pixels are its
#: own, not a lamp's glare (a lamp cannot be seen on it, and its dark pips still show)
OVEREXPOSED = 10
#: half a face side, in grid units (pip rows sit at +-1; a face edge at about +-1.85).
FACE_HALF = 1.85


@dataclass(frozen=True)
class FaceRules:
    """The grouping and layout tolerances (a view of ReaderSettings, in working pixels)."""

    link_reach: float  # pips further apart than this many diameters are never linked
    size_ratio: float  # largest / smallest diameter of two linked pips
    contrast_ratio: float  # stronger / weaker contrast of two linked pips (side faces: weaker)
    ring_tolerance: float  # the face colours around linked pips differ by at most this (levels)
    face_tolerance: float  # face levels of linked pips differ by at most this x their contrast
    path_fraction: float  # on the path between linked pips the contrast stays below this x theirs
    path_step: float  # ... and the grey level varies by at most this x their contrast
    close_pips: float  # pips closer than this many diameters need no path check
    max_skew: float  # opposite sides (and diagonals) of a corner square differ at most this x
    max_residual: float  # a pip lies within this many grid units of its place
    absent_fraction: float  # where no pip belongs, contrast stays below this x the weakest pip
    unit_per_diameter: tuple[float, float]  # plausible grid unit / pip diameter
    one_unit: float  # grid unit of a lone pip, in its diameters
    perp_scale: float  # the unseen diagonal of a 2 or 3 is taken as this x the seen one
    stray_margin: float  # no other like pip within the face grown by this factor
    one_clear: float  # a lone pip is a 1 only with no other pip within this many diameters
    slant_ratio: float  # a group's pips this x more elongated than the rest: a side face's
    glare_fraction: float  # a patch this x the pip contrast brighter than a coloured face
    glare_level: int  # grey level from which a pixel counts as glare


@dataclass(frozen=True)
class Face:
    """A read (value set) or unsure (reason set) face, in working pixels."""

    corners: np.ndarray  # 4x2 grid corners (-1,-1), (1,-1), (1,1), (-1,1) -> face extent
    value: int | None
    confidence: float
    reason: str | None
    pip_count: int
    pip_size: float = 0.0  # median pip diameter (working pixels)
    elongation: float = 1.0  # mean elongation of its pips (a face seen slantwise: higher)
    level: float = 0.0  # grey level of the face around its pips (lit from above: the top face)
    polarity: int = DARK  # DARK: dark pips on a light face; LIGHT: light pips on a dark face
    cut: bool = False  # read from a group cut apart between touching dice (split_touching)

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side(self) -> float:
        """The face's side length (working pixels), from the pip grid."""
        c = self.corners
        return 0.25 * FACE_HALF * float(np.hypot(*(c - np.roll(c, -1, axis=0)).T).sum())


def _dark_gap(a: Face, b: Face, maps: PipMaps) -> float:
    """The strongest dark line across the middle of the segment between two face centres."""
    t = np.linspace(0.3, 0.7, 9)[:, None]
    pts = a.centre[None, :] + t * (b.centre - a.centre)[None, :]
    return float(_sample(maps.dark, pts).max())


def _two_dice_apart(a: Face, b: Face, maps: PipMaps, gap: float, gap_fraction: float) -> bool:
    """Whether a dark line between two faces seen alike makes them two touching dice.

    A line ``gap`` grey levels darker than its surroundings does on any dice. On dark dice
    (blue, red, black) every contrast is smaller, so a line ``gap_fraction`` of the faces'
    level counts too, but only where the faces lie as two touching dice of one set do: a
    full face side apart (0.9 at least) and about the same size (1.2x). A top face and a side
    face of one die are closer (0.71-0.75 of a side on rendered dark dice with side faces
    showing) and differ in size, and the rim between them is as dark.
    """
    line = _dark_gap(a, b, maps)
    if line >= gap:
        return True
    mean_side = 0.5 * (a.side + b.side)
    apart = float(np.hypot(*(a.centre - b.centre))) >= 0.9 * mean_side
    alike = max(a.side, b.side) <= 1.2 * min(a.side, b.side)
    return apart and alike and line >= gap_fraction * 0.5 * (a.level + b.level)


def _beside_bigger_unsure(
    face: Face, faces: list[Face], top_ratio: float, slant_ratio: float
) -> bool:
    """A read face right beside an unreadable group of clearly bigger or rounder pips is likely
    a side face (seen slantwise, so with smaller, squashed pips) of a die whose top face could
    not be read."""
    for other in faces:
        if other.value is not None or other.pip_count < 2 or other.pip_size <= 0:
            continue
        pts = other.corners
        bigger = other.pip_size >= top_ratio * face.pip_size
        rounder = face.elongation >= slant_ratio * other.elongation
        if not (bigger or rounder):
            continue
        if np.hypot(*(face.centre - pts.mean(axis=0))) < 1.5 * face.side:
            return True
    return False


def one_face_per_die(
    faces: list[Face],
    maps: PipMaps,
    *,
    same_die: float,
    top_ratio: float,
    gap: float,
    slant_ratio: float = 1.15,
    top_brighter: float = 0.06,
    min_brighter: float = 4.0,
    side_smaller: float = 1.3,
    gap_fraction: float = 0.2,
) -> list[Face]:
    """Keep one read face per die when a side face was read too.

    Two read faces whose centres are closer than ``same_die`` x their size belong to one die.
    The top face is the one seen most squarely: its pips are rounder (the other's at least
    ``slant_ratio`` times more elongated; so even across a dark line, which the rounded edge
    between a top and a side face can show), or much bigger (``side_smaller``: touching dice
    lie as far from the camera, so their pips are about as big). Faces seen alike with a dark
    gap between them are two touching dice; without one, the top face has bigger pips
    (``top_ratio``) or else is the face lit from above: brighter by ``top_brighter`` x the
    other's grey level (the light a face gets scales with how squarely it faces the lamp,
    whatever the die's colour), and by ``min_brighter`` levels at least (noise); if none
    tells, the die is unsure. A read face beside an unreadable group of
    clearly bigger or rounder pips is likely a side face of that die and is unsure. Unsure
    places close to a read face are its side faces and are dropped.
    """
    read = [f for f in faces if f.value is not None]
    keep = [True] * len(faces)
    index = {id(f): k for k, f in enumerate(faces)}
    out_unsure: list[Face] = []
    for a, b in itertools.combinations(read, 2):
        if np.hypot(*(a.centre - b.centre)) >= same_die * 0.5 * (a.side + b.side):
            continue
        if b.elongation >= slant_ratio * a.elongation:
            keep[index[id(b)]] = False
        elif a.elongation >= slant_ratio * b.elongation:
            keep[index[id(a)]] = False
        elif a.pip_size >= side_smaller * b.pip_size:
            keep[index[id(b)]] = False
        elif b.pip_size >= side_smaller * a.pip_size:
            keep[index[id(a)]] = False
        elif _two_dice_apart(a, b, maps, gap, gap_fraction):
            continue
        elif a.pip_size >= top_ratio * b.pip_size:
            keep[index[id(b)]] = False
        elif b.pip_size >= top_ratio * a.pip_size:
            keep[index[id(a)]] = False
        elif a.level >= b.level + max(top_brighter * b.level, min_brighter):
            keep[index[id(b)]] = False
        elif b.level >= a.level + max(top_brighter * a.level, min_brighter):
            keep[index[id(a)]] = False
        else:
            keep[index[id(a)]] = keep[index[id(b)]] = False
            out_unsure.append(
                Face(a.corners, None, 0.0, "two faces of one die could be its top face", 0)
            )
    for k, f in enumerate(faces):
        if keep[k] and f.value is not None and _beside_bigger_unsure(
            f, faces, top_ratio, slant_ratio
        ):
            keep[k] = False
            out_unsure.append(Face(f.corners, None, 0.0, "may be a side face of an unread die", 0))
    kept = [f for f, k in zip(faces, keep, strict=True) if k]
    sure = [f for f in kept if f.value is not None]
    result = []
    for f in kept + out_unsure:
        if f.value is None and any(
            np.hypot(*(f.centre - d.centre)) < same_die * d.side for d in sure
        ):
            continue
        result.append(f)
    return result


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


def read_group(idx: np.ndarray, pips: Pips, maps: PipMaps, rules: FaceRules) -> Face:
    """Read one group of pips, or say why it cannot be read.

    A group that fits no layout is retried once, and only in one way: when its pips fall into
    two sets of clearly different roundness (the more elongated at least ``slant_ratio`` times
    the rounder), the squashed ones are taken for a side face's pips that joined the top face
    and the round ones are read alone, with every check. Dropping pips at will until a layout
    fits was tried and made wrong values on the tuning photographs (docs/vision.md).
    """
    face = _read_exact(idx, pips, maps, rules)
    if face.value is not None or len(idx) < 3 or face.reason not in (NO_PATTERN, TOO_MANY):
        return face
    elong = pips.elongation[idx]
    order = np.argsort(elong)
    ratios = elong[order][1:] / elong[order][:-1]
    cut = int(np.argmax(ratios))
    if ratios[cut] < rules.slant_ratio:
        return face
    top = _read_exact(np.sort(idx[order[: cut + 1]]), pips, maps, rules)
    return top if top.value is not None else face


#: directions tried for the straight cuts between touching dice (every 5 degrees)
_CUT_DIRECTIONS = np.exp(1j * np.arange(0.0, np.pi, np.pi / 36))


#: most dice one group of pips is cut into, and the most face reads spent on one group
_MOST_DICE = 3
_MOST_READS = 150
#: ways of sharing a group's pips out into faces: the pip sets -> their read faces
_Ways = dict[frozenset[frozenset[int]], list[Face]]


def split_touching(
    idx: np.ndarray, pips: Pips, maps: PipMaps, rules: FaceRules, same_size: float = 1.35
) -> list[Face] | None:
    """Two or three touching dice whose pips joined one group: their faces, or None.

    White dice pressed side by side show little of an edge between them (dark dice even less),
    so the pips of both link into one group that fits no layout. The group is cut along
    straight lines (a direction, every 5 degrees, and a place along it between two pips where
    the gap across the cut is that between two dice): one side must read as a face with every
    check of :func:`read_group` (absence of pips elsewhere, no stray pip, glare, ...), and the
    other side as a face too, or, for three dice, be cut again the same way. A way of sharing
    the pips out counts when all its faces read and are about the same size (``same_size``:
    dice of one set); the group is read only when **exactly one** way counts, since two ways
    that both read mean the dice cannot be told apart. A lone pip (a 1 touching another die)
    can be the last cut: it is read as a 1 with the other pips left out of its neighbourhood,
    and only where a 1 touching that face would lie (0.85-1.6 of its side from its centre).
    At most ``_MOST_READS`` face reads are spent on one group; past that it stays unsure.
    """
    if not 4 <= len(idx) <= 6 * _MOST_DICE:
        return None
    splitter = _Splitter(pips, maps, rules, 0.9 * float(np.median(pips.diameter[idx])), same_size)
    ways = splitter.ways(np.sort(idx), _MOST_DICE)
    if ways is None or len(ways) != 1:
        return None
    return [dataclasses.replace(f, cut=True) for f in next(iter(ways.values()))]


class _Splitter:
    """The search of :func:`split_touching`, with each set of pips read once."""

    def __init__(
        self, pips: Pips, maps: PipMaps, rules: FaceRules, least_gap: float, same_size: float
    ) -> None:
        self.pips, self.maps, self.rules = pips, maps, rules
        self.same_size = same_size
        # between two dice the nearest pips are at least 1.7 grid units apart across the cut
        # (each sits 0.85 in from its edge), and a grid unit is at least 0.6 pip diameters
        self.least_gap = least_gap
        self.read: dict[frozenset[int], Face] = {}
        self.left = _MOST_READS

    def face(self, part: np.ndarray) -> Face | None:
        key = frozenset(int(i) for i in part)
        if key not in self.read:
            if self.left <= 0:
                return None
            self.left -= 1
            self.read[key] = _read_exact(part, self.pips, self.maps, self.rules)
        return self.read[key]

    def ways(self, idx: np.ndarray, dice: int) -> _Ways | None:
        """Every way of cutting ``idx`` into 2..``dice`` read faces of about one size, up to
        the second found (None: out of reads). A way whose faces differ in size is dropped
        where it is made: one more face can only widen the spread, so it never counts."""
        n = len(idx)
        found: _Ways = {}
        xy = self.pips.x[idx] + 1j * self.pips.y[idx]
        tried: set[frozenset[int]] = set()
        for direction in _CUT_DIRECTIONS:
            along = (xy * np.conj(direction)).real
            order = np.argsort(along)
            gaps = np.diff(along[order])
            for cut in range(1, n):
                if gaps[cut - 1] < self.least_gap:
                    continue
                for one, rest in ((order[:cut], order[cut:]), (order[cut:], order[:cut])):
                    key = frozenset(int(i) for i in idx[one])
                    if key in tried or len(one) > 6:
                        continue
                    tried.add(key)
                    if not self._cut(np.sort(idx[one]), np.sort(idx[rest]), dice, found):
                        return None
                    if len(found) > 1:
                        return found  # two ways already: the caller refuses the group
        return found

    def _cut(self, one: np.ndarray, rest: np.ndarray, dice: int, found: _Ways) -> bool:
        """Add the ways with ``one`` a face and ``rest`` the others; False when out of reads."""
        if len(one) == 1:
            return True  # a lone pip is only ever the last cut (below), beside a read face
        face = self.face(one)
        if face is None:
            return False
        if face.value is None:
            return True
        rest_ways: _Ways = {}
        rest_key = frozenset(int(i) for i in rest)
        if len(rest) == 1:
            lone = _lone_one(rest, one, face, self.pips, self.maps, self.rules)
            if lone is not None and lone.value is not None:
                rest_ways[frozenset([rest_key])] = [lone]
        elif len(rest) <= 6:
            other = self.face(rest)
            if other is None:
                return False
            if other.value is not None:
                rest_ways[frozenset([rest_key])] = [other]
        if dice > 2 and len(rest) >= 3:
            more = self.ways(rest, dice - 1)
            if more is None:
                return False
            rest_ways.update(more)
        one_key = frozenset(int(i) for i in one)
        for key, faces in rest_ways.items():
            every = [face, *faces]
            sides = [f.side for f in every]
            if max(sides) <= self.same_size * min(sides):
                found[key | {one_key}] = every
        return True


def _lone_one(
    lone: np.ndarray, other: np.ndarray, face: Face, pips: Pips, maps: PipMaps, rules: FaceRules
) -> Face | None:
    """The lone pip cut off a touching die's face read as a 1, with that die's pips left out
    of its neighbourhood; None where no 1 touching ``face`` could lie."""
    i = int(lone[0])
    d = float(np.hypot(pips.x[i] - face.centre[0], pips.y[i] - face.centre[1]))
    if not 0.85 * face.side <= d <= 1.6 * face.side:
        return None
    keep = np.ones(len(pips), dtype=bool)
    keep[other] = False
    rest = Pips(*(getattr(pips, f.name)[keep] for f in dataclasses.fields(Pips)))
    return _read_exact(np.array([int(keep[:i].sum())]), rest, maps, rules)


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


def _bilinear(scale: float) -> np.ndarray:
    """9 x 4 weights: grid place (row-major over GRID) from the four corners."""
    weights = np.empty((len(GRID), 4))
    for k, (r, c) in enumerate(GRID):
        u = 0.5 * (c * scale + 1.0)
        v = 0.5 * (r * scale + 1.0)
        weights[k] = ((1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v)
    return weights


_PLACES = _bilinear(1.0)
_AROUND = np.vstack([_bilinear(1.0), _bilinear(1.6)])


def grid_points(corners: np.ndarray) -> np.ndarray:
    """The 3x3 grid places (row-major over GRID) by bilinear interpolation of the corners
    (-1,-1), (1,-1), (1,1), (-1,1)."""
    return _PLACES @ corners


def face_outline(corners: np.ndarray) -> np.ndarray:
    """The face's four corners (the pip grid grown to the face edge)."""
    c = corners.mean(axis=0)
    return c + FACE_HALF * (corners - c)


def _sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    h, w = image.shape
    xs = np.clip(np.rint(pts[:, 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pts[:, 1]).astype(np.intp), 0, h - 1)
    return image[ys, xs]


def _glare(maps: PipMaps, places: np.ndarray, empty: np.ndarray, level: int) -> bool:
    """Saturated pixels where a dark pip may hide, on a face that is not itself saturated.

    (A glare on a coloured face shows as a bright mark where no pip belongs, which the absence
    check already refuses.)"""
    if not (_sample(maps.gray_max, places[empty]) >= level).any():
        return False
    between = 0.5 * (places[[1, 3, 5, 7]] + places[4])  # face pixels between the pip places
    return bool(np.median(_sample(maps.gray, between)) < level - OVEREXPOSED)


def _neighbours(i: int, pips: Pips, reach: float) -> bool:
    """Whether another mark (either polarity) at least half as wide lies within ``reach``
    diameters of pip i. (A much smaller mark is no pip of the same face, which is what would
    make a lone pip part of a bigger face.)"""
    d = np.hypot(pips.x - pips.x[i], pips.y - pips.y[i])
    near = (d <= reach * pips.diameter[i]) & (d >= 0.8 * pips.diameter[i])  # not its own glint
    near &= pips.diameter >= 0.5 * pips.diameter[i]
    return bool(near.any())


_RING = np.exp(1j * np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False))


def _clean_ring(i: int, pips: Pips, maps: PipMaps, spread: float) -> bool:
    """A lone pip sits on a plain face: the grey level just around it is flat (a die face), not a
    shadow, an edge or a highlight beside something dark."""
    radii = np.concatenate([_RING * 1.0, _RING * 1.5]) * pips.diameter[i]
    h, w = maps.gray.shape
    xs = np.clip(np.rint(pips.x[i] + radii.real).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pips.y[i] + radii.imag).astype(np.intp), 0, h - 1)
    ring = maps.gray[ys, xs].astype(np.int16)
    return int(ring.max() - ring.min()) <= spread * pips.contrast[i]


def _glare_near(maps: PipMaps, outline: np.ndarray) -> bool:
    """A saturated patch bigger than a pip touches the face (grown by half): pips may hide."""
    if not len(maps.glare):
        return False
    c = outline.mean(axis=0)
    grown = c + 1.5 * (outline - c)
    x0, y0 = grown.min(axis=0)
    x1, y1 = grown.max(axis=0)
    g = maps.glare
    return bool(((g[:, 0] <= x1) & (g[:, 2] >= x0) & (g[:, 1] <= y1) & (g[:, 3] >= y0)).any())


def _bright_patch(
    maps: PipMaps, corners: np.ndarray, contrast: float, fraction: float, single: bool
) -> bool:
    """On a coloured face, a patch bigger than a pip and much brighter than the face: a lamp's
    glare, which can wash white pips out. The opening keeps only patches bigger than a pip."""
    around = _PLACES if single else _AROUND  # a lone pip's frame is only a guess of the face
    level = _sample(maps.face_light, around @ corners).astype(np.float64)
    return bool(level.max() - np.median(level) > fraction * contrast)


def _row_beside(pts: np.ndarray, response: np.ndarray, limit: float) -> bool:
    """Marks beside both end pips of a 2 or 3, as far away as the row is long: the row is one
    side of a 4 (or one column of a 6) whose other side did not join it (a touching die's edge
    in between, pips merged with the crease, or a glare that made them fainter). The middle of
    a 3 is not asked for: a glare can wash out the middle pip of the other column of a 6."""
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    half = 0.5 * (pts[j] - pts[i])
    beside = 2.0 * np.array([-half[1], half[0]])
    ends = pts[[i, j]]  # a middle pip washed out by glare still leaves a 6's ends
    return any(bool((_sample(response, ends + sign * beside) > limit).all()) for sign in (1, -1))


def _row_goes_on(pts: np.ndarray, response: np.ndarray, limit: float) -> bool:
    """A mark one diagonal beyond either pip of a 2: the pips may be two close pips of a 3
    whose third pip did not join them. Telling that third pip from a pip of the next die by
    the grey level on the way (flat or not) was tried: it let touching and glared dice on
    rendered scenes through as wrong 2s, for one 2 more on Train."""
    step = pts[1] - pts[0]
    beyond = np.array([pts[0] - step, pts[1] + step])
    return bool((_sample(response, beyond) > limit).any())


def _square_enough(corners: np.ndarray, max_skew: float) -> bool:
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


def _stray_pip(idx: np.ndarray, pips: Pips, corners: np.ndarray, rules: FaceRules) -> bool:
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


def _could_hide_a_pip(taken: frozenset[tuple[int, int]]) -> np.ndarray:
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


def _read_exact(idx: np.ndarray, pips: Pips, maps: PipMaps, rules: FaceRules) -> Face:
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
    if n == 1 and _neighbours(int(idx[0]), pips, rules.one_clear):
        return unsure("a lone pip with other pips close by")
    if n == 1 and not _clean_ring(int(idx[0]), pips, maps, rules.path_step):
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
    if n >= 4 and not _square_enough(corners, rules.max_skew):
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
    watched = empty & _could_hide_a_pip(taken) if n in (2, 3) else empty
    quiet = float(_sample(maps.response_max(polarity), places[watched]).max())
    if quiet > rules.absent_fraction * weakest:
        return unsure("a faint pip-like mark where the pattern has none")
    if _glare_near(maps, outline) and level < rules.glare_level - OVEREXPOSED:
        return unsure(GLARE)
    beside_limit = rules.absent_fraction * weakest
    if n in (2, 3) and _row_beside(pts, maps.response_max(polarity), beside_limit):
        return unsure(
            "the pips may be one column of a 6" if n == 3 else "the pips may be one side of a 4"
        )
    if n == 2 and _row_goes_on(pts, maps.response_max(polarity), beside_limit):
        return unsure("the pips may be part of a longer row")
    if polarity != DARK and _bright_patch(
        maps, corners, weakest, rules.glare_fraction, single=n == 1
    ):
        return unsure(GLARE)
    if n > 1 and _stray_pip(idx, pips, corners, rules):
        return unsure("another pip lies on the face outside the pattern")
    if polarity == DARK and _glare(maps, places, empty, rules.glare_level):
        return unsure(GLARE)
    confidence = float(
        np.clip(min(1.0 - quiet / weakest, 1.0 - residual.max() / rules.max_residual), 0, 1)
    )
    return Face(corners, n, confidence, None, n, diam, slant, level, polarity)
