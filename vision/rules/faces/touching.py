"""Two or three touching dice whose pips joined one group, cut apart along straight lines.

Why: white dice pressed side by side show little of an edge between them (dark dice even
less), so their pips link into one group that fits no layout. Cutting it where the gap is
that between two dice, and reading every part with every check, reads them; two ways of
cutting that both read leave the group unsure.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.rules.faces.face import Face, FaceRules
from vision.rules.faces.read import read_exact
from vision.rules.pips import PipMaps, Pips

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
            self.read[key] = read_exact(part, self.pips, self.maps, self.rules)
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
    return read_exact(np.array([int(keep[:i].sum())]), rest, maps, rules)
