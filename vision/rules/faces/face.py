"""What the rule reader knows of a face: read (a value) or unsure (a reason), and its rules.

Why apart: the grouping, the layout check, the cut between touching dice, the one face per
die and the reader that turns faces into dice all pass these along; none of them owns them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.rules.faces.grid import FACE_HALF
from vision.rules.pips import DARK

NO_PATTERN = "the pips do not form a die pattern"
TOO_MANY = "more than six pips together: touching dice or side faces"
CUT_BY_EDGE = "the face is cut by the edge of the picture"
GLARE = "glare covers part of the face"


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
