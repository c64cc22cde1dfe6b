"""Frames of the table for the simulated camera: each seat's dice inside that seat's zone.

Why apart from :mod:`simulator.render`: the renderer draws any scene; this is the one scene the
table itself needs, laid out by the seats' camera zones (``hardware.cameras.simulated`` shows
it for every throw, the calibration tests put dice down in it). With ``bottom_faces`` it is
the view from under a glass table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

import numpy as np

from simulator.light import Backdrop, backdrop
from simulator.random_scenes import place_apart
from simulator.render import DieSpec, SceneSpec, dice_colours, render_scene


class _Zone(Protocol):
    seat: str
    x: int
    y: int
    w: int
    h: int


def table_scene(
    zones: Iterable[_Zone],
    dice_by_seat: Mapping[str, Sequence[int]],
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    surface: str = "felt",
    colour: str = "white",
    bottom_faces: bool = False,
    noise: float = 2.0,
) -> SceneSpec:
    """The spec of a table: each seat's dice (values) at random places inside that seat's zone.

    With ``bottom_faces`` (a camera under a glass table) each die is drawn showing ``7 - v``,
    the face the camera sees when ``v`` is on top.
    """
    rng = np.random.default_rng(seed)
    by_seat = {z.seat: z for z in zones}
    body, pips = dice_colours(colour)
    w, h = size
    dice: list[DieSpec] = []
    for seat, values in dice_by_seat.items():
        if seat not in by_seat:
            raise ValueError(f"there is no zone for seat {seat!r}; zones: {', '.join(by_seat)}.")
        z = by_seat[seat]
        s = min(0.2 * min(z.w, z.h), 0.09 * min(w, h))
        radii = [0.8 * s] * len(values)
        centres = place_apart(rng, radii, (z.x, z.y, z.w, z.h), f"{seat}'s zone")
        for v, (x, y) in zip(values, centres, strict=True):
            shown = 7 - v if bottom_faces else v
            size_px = float(s * rng.uniform(0.95, 1.05))
            angle = float(rng.uniform(0, 360))
            dice.append(DieSpec(int(shown), (float(x), float(y)), size_px, angle, body, pips))
    return SceneSpec(size=size, surface=surface, dice=tuple(dice), noise=noise)


def render_table(
    zones: Iterable[_Zone],
    dice_by_seat: Mapping[str, Sequence[int]],
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    surface: str = "felt",
    colour: str = "white",
    bottom_faces: bool = False,
    noise: float = 2.0,
    drawn: Backdrop | None = None,
) -> np.ndarray:
    """A frame of the table with each seat's dice in its zone (what the simulated camera shows).

    See :func:`table_scene` for the options; the same arguments give the same frame.
    ``drawn``: its :func:`table_backdrop`, drawn ahead (the same frame, sooner).
    """
    spec = table_scene(zones, dice_by_seat, seed, size, surface=surface, colour=colour,
                       bottom_faces=bottom_faces, noise=noise)
    image, _ = render_scene(spec, seed, drawn)
    return image


def table_backdrop(seed: int = 0, size: tuple[int, int] = (640, 480), *,
                   surface: str = "felt", noise: float = 2.0) -> Backdrop:
    """The layers of :func:`render_table`'s frame that need no dice: its surface and noise.

    Why: they are most of a frame's drawing, and the seed of a throw's frame is known before
    its dice are, so the simulated camera draws them ahead, off the press's path.
    """
    return backdrop(size, surface, None, noise, seed)
