"""Scenes of dice at random places, angles, colours and looks, none overlapping.

What the tests, the benchmarks and the model lab draw most: a scene spec
(:class:`simulator.render.SceneSpec`) made from one seed, with touching pairs, side faces,
glare and the rest as asked, for :func:`simulator.render.render_scene` to draw. The simulated
camera places its dice apart the same way (:func:`place_apart`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simulator.render import DICE_COLOURS, Colour, DieSpec, Glare, SceneSpec, dice_colours


def place_apart(
    rng: np.random.Generator,
    radii: Sequence[float],
    area: tuple[float, float, float, float],
    what: str,
) -> list[tuple[float, float]]:
    """Centres for discs of the given radii inside ``area`` (x, y, w, h), none overlapping;
    ValueError naming ``what`` when they do not fit."""
    ax, ay, aw, ah = area
    placed: list[tuple[float, float, float]] = []
    for r in radii:
        spot = None
        if aw >= 2 * r and ah >= 2 * r:
            for _ in range(3000):
                x, y = rng.uniform(ax + r, ax + aw - r), rng.uniform(ay + r, ay + ah - r)
                if all((x - px) ** 2 + (y - py) ** 2 >= (r + pr) ** 2 for px, py, pr in placed):
                    spot = (float(x), float(y), r)
                    break
        if spot is None:
            raise ValueError(
                f"cannot place {len(radii)} dice in {what} without overlap; "
                "use fewer or smaller dice, or a bigger area."
            )
        placed.append(spot)
    return [(x, y) for x, y, _ in placed]


def random_scene(
    seed: int,
    n_dice: int,
    *,
    size: tuple[int, int] = (640, 480),
    surface: str = "wood",
    surface_colour: Colour | None = None,
    colour: str = "white",
    die_size: float | None = None,
    values: Sequence[int] | None = None,
    touching_pairs: int = 0,
    side: float = 0.0,
    side_dir_deg: float | None = None,
    glare: int = 0,
    light: tuple[float, float] = (0.0, 0.0),
    noise: float = 2.0,
    blur: float = 0.0,
    jpeg_quality: int | None = None,
) -> SceneSpec:
    """A scene of ``n_dice`` dice at random places and angles, none overlapping.

    ``touching_pairs`` of them are set edge to edge in pairs; ``glare`` spots fall on dice;
    with ``side`` > 0 the side faces show towards ``side_dir_deg`` (90 = down the image, as a
    tilted camera sees them), or, when None, away from the image centre (a wide lens above);
    ``colour`` names the dice (:data:`DICE_COLOURS`) or is ``"mixed"`` for a random colour each.
    The die size defaults to what fits: about a tenth of the short side, less for many dice.
    """
    if n_dice < 0 or 2 * touching_pairs > n_dice:
        raise ValueError(
            f"{touching_pairs} touching pairs need at least {2 * touching_pairs} dice, "
            f"not {n_dice}."
        )
    if values is not None and len(values) != n_dice:
        raise ValueError(f"{len(values)} values given for {n_dice} dice; give one per die.")
    rng = np.random.default_rng(seed)
    w, h = size
    base = die_size or min(0.1 * min(w, h), math.sqrt(w * h / (max(n_dice, 1) * 10.0)))
    vals = list(values) if values is not None else [int(v) for v in rng.integers(1, 7, n_dice)]

    # units: a touching pair or a single die; each with a footprint radius
    units: list[int] = [2] * touching_pairs + [1] * (n_dice - 2 * touching_pairs)
    sizes = [base * rng.uniform(0.93, 1.07) for _ in units]
    radii = [s * (0.74 + side) * (1.6 if n == 2 else 1.0) + 0.04 * base for s, n in zip(
        sizes, units, strict=True)]
    centres = place_apart(rng, radii, (0.0, 0.0, float(w), float(h)), f"a {w}x{h} image")

    dice: list[DieSpec] = []
    k = 0
    for n, s, (x, y) in zip(units, sizes, centres, strict=True):
        angle = float(rng.uniform(0, 360))
        if colour == "mixed":
            body, pips = dice_colours(str(rng.choice(list(DICE_COLOURS))))
        else:
            body, pips = dice_colours(colour)
        if n == 1:
            spots = [(x, y)]
        else:
            a = math.radians(angle)
            dx, dy = 0.5 * s * math.cos(a), 0.5 * s * math.sin(a)
            spots = [(x - dx, y - dy), (x + dx, y + dy)]
        for cx, cy in spots:
            if side_dir_deg is None:  # a wide lens above the middle sees the outer sides
                direction = math.degrees(math.atan2(cy - h / 2, cx - w / 2))
            else:
                direction = side_dir_deg
            dice.append(DieSpec(vals[k], (float(cx), float(cy)), float(s), angle, body, pips,
                                side, direction))
            k += 1
    glares = []
    for _ in range(glare if dice else 0):
        d = dice[int(rng.integers(len(dice)))]
        off = rng.uniform(-0.3, 0.3, 2) * d.size_px
        glares.append(Glare((d.centre[0] + off[0], d.centre[1] + off[1]), 0.3 * d.size_px, 0.75))
    return SceneSpec(size=(int(w), int(h)), surface=surface, surface_colour=surface_colour,
                     dice=tuple(dice), light=light, glare=tuple(glares), noise=noise, blur=blur,
                     jpeg_quality=jpeg_quality)
