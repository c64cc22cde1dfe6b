"""One read face per die: when a side face of a die was read too, keep its top face.

Why: a tilted camera or a wide lens sees side faces, whose pips make a legal layout as well;
two faces read on one die would put two numbers on the table for one die.
"""

from __future__ import annotations

import itertools

import numpy as np

from vision.rules.faces.face import Face
from vision.rules.faces.grid import sample
from vision.rules.pips import PipMaps


def _dark_gap(a: Face, b: Face, maps: PipMaps) -> float:
    """The strongest dark line across the middle of the segment between two face centres."""
    t = np.linspace(0.3, 0.7, 9)[:, None]
    pts = a.centre[None, :] + t * (b.centre - a.centre)[None, :]
    return float(sample(maps.dark, pts).max())


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
