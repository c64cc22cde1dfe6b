"""Find the seat zones from where the players put their dice: a pure function, no camera.

Calibration asks every player to put their three dice in the middle of the place where they
will throw. The dice found in that frame are grouped into one cluster per seat (k-means with
a deterministic start, so the same picture always gives the same zones), each cluster gets a
padded rectangle, and the rectangles are given to the seats clockwise around the frame,
starting from its left side (so the top-left seat comes first, as in
``vision.zones.default_zones``). Players are expected to sit clockwise in ``[table] players``
order; the printed result says which zone went to whom so the referee can check.

Kept apart from ``hardware.calibrate`` so the dashboard can use it on a frame it already has.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.errors import VisionError
from vision.reading import Box, Reading
from vision.zones import Zone, check_overlap

#: Padding around a seat's dice, in die sizes: room for a throw that lands a little off.
PAD_DICE = 2.0
#: The padding is tried from ``PAD_DICE`` down to none in this many steps.
PAD_STEPS = 20
#: Lloyd iterations of the k-means; a handful of dice settle in two or three.
ITERATIONS = 25


@dataclass(frozen=True)
class FoundZones:
    """The zones found, how many dice fell in each, and sentences for whoever calibrates."""

    zones: tuple[Zone, ...]
    dice_per_seat: dict[str, int]
    notes: tuple[str, ...] = ()


def _centre(box: Box) -> tuple[float, float]:
    x, y, w, h = box
    return (x + w / 2, y + h / 2)


def cluster(points: np.ndarray, k: int) -> np.ndarray:
    """Label each of ``points`` (n x 2) with one of ``k`` clusters; deterministic.

    Starts from the point nearest the frame's top-left corner, then repeatedly the point
    farthest from every start chosen so far (farthest-point seeding), then runs k-means.
    """
    n = len(points)
    if n < k:
        raise ValueError(f"cannot make {k} clusters of {n} points")
    starts = [int(np.argmin(points.sum(axis=1)))]
    while len(starts) < k:
        dist = np.min(np.linalg.norm(points[:, None, :] - points[starts][None, :, :], axis=2),
                      axis=1)
        starts.append(int(np.argmax(dist)))
    centres = points[starts].astype(float)
    labels = np.full(n, -1, dtype=int)
    for _ in range(ITERATIONS):
        dist = np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2)
        new = np.argmin(dist, axis=1)
        for j in range(k):  # an empty cluster takes the worst-placed point of a shared one
            if not np.any(new == j):
                sizes = np.bincount(new, minlength=k)
                movable = np.flatnonzero(sizes[new] > 1)
                worst = movable[np.argmax(dist[movable, new[movable]])]
                new[worst] = j
        if np.array_equal(new, labels):
            break
        labels = new
        centres = np.array([points[labels == j].mean(axis=0) for j in range(k)])
    return labels


def clockwise_key(cx: float, cy: float, width: int, height: int) -> float:
    """Angle of a point around the frame centre, clockwise on screen from the left (9 o'clock)."""
    angle = math.degrees(math.atan2(cy - height / 2, cx - width / 2))  # y down: clockwise
    return (angle - 180.0) % 360.0


def find_zones(reading: Reading, seats: Sequence[str], width: int, height: int, *,
               pad_dice: float = PAD_DICE, per_seat: int = 3) -> FoundZones:
    """One zone per seat around the dice of ``reading``, ordered clockwise from the top-left.

    Dice read with a value and unsure places both count (a die is a die for calibration).
    Raises :class:`VisionError` when there are fewer dice than seats, or when two seats'
    dice are so close that their zones cannot be kept apart.
    """
    if not seats:
        raise ValueError("find_zones needs at least one seat")
    boxes = [d.box for d in reading.dice] + [u.box for u in reading.unsure]
    wanted = per_seat * len(seats)
    if len(boxes) < len(seats):
        raise VisionError(
            f"found {len(boxes)} dice but {len(seats)} seats need {per_seat} each: ask every "
            "player to put their dice in the middle of their place, well lit, and try again "
            "(or give the zones on the referee console)"
        )
    points = np.array([_centre(b) for b in boxes], dtype=float)
    labels = cluster(points, len(seats))
    size = float(np.median([max(w, h) for _, _, w, h in boxes]))
    groups: list[tuple[float, list[Box]]] = []
    for j in range(len(seats)):
        members = [b for b, label in zip(boxes, labels, strict=True) if label == j]
        cx, cy = points[labels == j].mean(axis=0)
        groups.append((clockwise_key(cx, cy, width, height), members))
    groups.sort(key=lambda g: g[0])
    notes: list[str] = []
    if len(boxes) != wanted:
        notes.append(f"found {len(boxes)} dice where {len(seats)} seats x {per_seat} = {wanted} "
                     "were expected: check the zones before playing")
    for step in range(PAD_STEPS, -1, -1):  # the widest padding that keeps zones apart
        pad = pad_dice * step / PAD_STEPS
        zones = [_padded(seat, members, pad * size, width, height)
                 for seat, (_, members) in zip(seats, groups, strict=True)]
        try:
            check_overlap(zones)
        except ValueError:
            continue
        if pad < pad_dice / 2:
            notes.append("the seats' dice are close together, so the zones have less room "
                         "around the dice than usual")
        counts = {seat: len(members) for seat, (_, members) in zip(seats, groups, strict=True)}
        for seat, count in counts.items():
            if count != per_seat:
                notes.append(f"{seat}'s zone holds {count} dice, not {per_seat}")
        return FoundZones(tuple(zones), counts, tuple(notes))
    raise VisionError(
        "two seats' dice are so close that their zones overlap: ask the players to put their "
        "dice nearer their own places, or give the zones on the referee console"
    )


def _padded(seat: str, boxes: Iterable[Box], pad: float, width: int, height: int) -> Zone:
    boxes = list(boxes)
    left = min(x for x, _, _, _ in boxes) - pad
    top = min(y for _, y, _, _ in boxes) - pad
    right = max(x + w for x, _, w, _ in boxes) + pad
    bottom = max(y + h for _, y, _, h in boxes) + pad
    x0, y0 = max(0, math.floor(left)), max(0, math.floor(top))
    x1, y1 = min(width, math.ceil(right)), min(height, math.ceil(bottom))
    return Zone(seat, x0, y0, max(1, x1 - x0), max(1, y1 - y0))
