"""Synthetic top-down dice scenes, with the truth of every die, for tests and the simulated camera.

Why: the real photographs (``/work/shared/dice``) show white dice on light wood only. The table
must also read coloured dice, dark felt, glass from below, touching dice, glare and many dice at
high resolution; this renderer draws those cases on demand, deterministically (one seed, one
``numpy.random.Generator``), and says exactly where each die's top face is.

The scene is drawn in layers: a table surface (wood, felt, glass or plain), then each die in its
own small patch, supersampled 1-4x and downsampled for smooth edges (soft shadow, optional side
faces with squashed pips that a reader must ignore, top face as a rounded square with pips at the
standard layouts), then lighting gradient, glare spots, blur, sensor noise and JPEG compression.
This module has the scene's spec, the dice and the order of the layers; the layers that know
nothing of dice (the surface, the light and glare) are :mod:`simulator.light`, and scenes of
dice at random places are :mod:`simulator.random_scenes`. Two users
have their own modules: the simulated camera's table frames (:mod:`simulator.table_scenes`) and
labelled sets written to disk (``python -m simulator.sets``).

Colours are BGR, as everywhere in OpenCV. Sizes are ``(width, height)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np

from simulator.light import (
    SURFACE_COLOURS,
    SURFACES,
    Backdrop,
    add_glare,
    backdrop,
    light_field,
)
from vision.reading import Box

Colour = tuple[int, int, int]

#: dice colour name -> (body colour, pip colour), BGR.
DICE_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "white": ((232, 234, 236), (28, 26, 24)),
    "ivory": ((205, 228, 238), (30, 30, 30)),
    "blue": ((165, 70, 25), (240, 240, 240)),
    "red": ((40, 35, 185), (240, 240, 240)),
    "green": ((60, 135, 35), (240, 240, 240)),
    "black": ((32, 30, 30), (235, 235, 235)),
}

#: dice the rule reader is not made for, drawn only when named (the simulated camera's
#: ``[camera] dice``, to teach the table them): never in a "mixed" scene or the readers' sets.
#: "red-green": green pips as bright as the red body, so a reader that looks for pips darker
#: or lighter than the die sees none.
OTHER_DICE_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "red-green": ((40, 40, 200), (40, 130, 40)),
}

#: pip centres in face units (-0.5..0.5 across the face), standard layouts; 6 is two columns.
_A = 0.27
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0.0, 0.0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0.0, 0.0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (-_A, 0.0), (-_A, _A), (_A, -_A), (_A, 0.0), (_A, _A)),
}
PIP_RADIUS = 0.09  # in face units
CORNER_RADIUS = 0.14  # in face units


@dataclass(frozen=True)
class DieSpec:
    """One die: its top value, where its top face's centre is, its size and look.

    ``size_px`` is the side of the top face in pixels; ``angle_deg`` its rotation.
    ``side`` (0 = straight down, ~0.1-0.35 = mild perspective) is how much of the side faces
    shows, as a fraction of ``size_px``, towards ``side_dir_deg`` (90 = down the image).
    """

    value: int
    centre: tuple[float, float]
    size_px: float = 48.0
    angle_deg: float = 0.0
    body: Colour = DICE_COLOURS["white"][0]
    pips: Colour = DICE_COLOURS["white"][1]
    side: float = 0.0
    side_dir_deg: float = 90.0

    def __post_init__(self) -> None:
        if self.value not in PIP_LAYOUTS:
            raise ValueError(f"a die shows 1 to 6 pips, not {self.value!r}.")
        if not self.size_px > 2:
            raise ValueError(f"a die must be more than 2 pixels wide, not {self.size_px!r}.")
        if not 0.0 <= self.side <= 0.6:
            raise ValueError(f"side must be between 0 and 0.6 of the die's size, not {self.side}.")


@dataclass(frozen=True)
class Glare:
    """A bright lamp reflection: centre in pixels, radius in pixels, strength 0-1."""

    centre: tuple[float, float]
    radius: float
    strength: float = 0.8


@dataclass(frozen=True)
class SceneSpec:
    """Everything that decides a rendered scene (with the seed given to :func:`render_scene`).

    ``light`` is a brightness gradient: ``(strength, angle_deg)``; strength 0.3 makes one side
    30% darker than the other. ``noise`` is the sensor noise's standard deviation in grey
    levels, ``blur`` a Gaussian blur sigma in pixels, ``jpeg_quality`` None for no compression.
    """

    size: tuple[int, int] = (640, 480)
    surface: str = "wood"
    surface_colour: Colour | None = None
    dice: tuple[DieSpec, ...] = ()
    light: tuple[float, float] = (0.0, 0.0)
    glare: tuple[Glare, ...] = ()
    noise: float = 2.0
    blur: float = 0.0
    jpeg_quality: int | None = None
    shadow: float = 0.35

    def __post_init__(self) -> None:
        w, h = self.size
        if not (isinstance(w, int) and isinstance(h, int) and w >= 16 and h >= 16):
            raise ValueError(
                f"size must be (width, height) of at least 16 pixels, not {self.size}."
            )
        if self.surface not in SURFACE_COLOURS:
            raise ValueError(
                f"surface {self.surface!r} is unknown; use one of {', '.join(SURFACES)}."
            )
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality must be 1-100 or None, not {self.jpeg_quality}.")


class TrueDie(NamedTuple):
    """What the renderer drew: a die's top value and the box of its top face, in pixels."""

    value: int
    box: Box


# ---------------------------------------------------------------------------------------------
# geometry


def _rounded_square(radius: float = CORNER_RADIUS, per_corner: int = 7) -> np.ndarray:
    """Outline of a rounded square of side 1 centred on 0, as an (N, 2) array in face units."""
    h = 0.5 - radius
    pts = []
    for cx, cy, start in ((h, h, 0), (-h, h, 90), (-h, -h, 180), (h, -h, 270)):
        for k in range(per_corner):
            a = math.radians(start + 90.0 * k / (per_corner - 1))
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return np.array(pts, dtype=np.float64)


_FACE = _rounded_square()
_CIRCLE = np.array(
    [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 20, endpoint=False)]
)


def _face_matrix(die: DieSpec) -> np.ndarray:
    """2x2 map from face units to image pixels for the top face (rotation, size, foreshortening)."""
    a = math.radians(die.angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    m = die.size_px * rot
    if die.side > 0:
        b = math.radians(die.side_dir_deg)
        d = np.array([math.cos(b), math.sin(b)])
        squash = np.eye(2) - 0.35 * die.side * np.outer(d, d)
        m = squash @ m
    return m


def _side_vector(die: DieSpec) -> np.ndarray:
    a = math.radians(die.side_dir_deg)
    return die.side * die.size_px * np.array([math.cos(a), math.sin(a)])


def top_face_outline(die: DieSpec) -> np.ndarray:
    """The top face's outline in image pixels, as an (N, 2) float array."""
    return _FACE @ _face_matrix(die).T + np.asarray(die.centre, dtype=np.float64)


def top_face_box(die: DieSpec) -> Box:
    """The pixel box ``(x, y, w, h)`` around a die's top face."""
    pts = top_face_outline(die)
    x0, y0 = np.floor(pts.min(axis=0))
    x1, y1 = np.ceil(pts.max(axis=0))
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def footprint_radius(die: DieSpec) -> float:
    """Radius around the centre that holds the whole die, side faces and shadow included."""
    return die.size_px * (0.72 + die.side + 0.12)


def _side_values(value: int) -> tuple[int, int, int, int]:
    """The four faces around a top face (opposite faces add up to 7)."""
    around = [v for v in range(1, 7) if v not in (value, 7 - value)]
    return around[0], around[1], 7 - around[0], 7 - around[1]


# ---------------------------------------------------------------------------------------------
# one die


def _supersample(size_px: float) -> int:
    if size_px < 48:
        return 4
    if size_px < 120:
        return 3
    if size_px < 250:
        return 2
    return 1


def _poly(pts: np.ndarray, scale: int) -> np.ndarray:
    return np.round(pts * scale * 16).astype(np.int32).reshape(-1, 1, 2)


def _draw_die(img: np.ndarray, die: DieSpec, shadow: float) -> None:
    """Draw one die (with its shadow) onto the float image, in place."""
    h, w = img.shape[:2]
    r = footprint_radius(die)
    cx, cy = die.centre
    x0, y0 = max(0, int(math.floor(cx - r))), max(0, int(math.floor(cy - r)))
    x1, y1 = min(w, int(math.ceil(cx + r)) + 1), min(h, int(math.ceil(cy + r)) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    pw, ph = x1 - x0, y1 - y0
    s = _supersample(die.size_px)
    origin = np.array([x0, y0], dtype=np.float64)
    m = _face_matrix(die)
    c = np.asarray(die.centre, dtype=np.float64) - origin
    top = _FACE @ m.T + c
    d = _side_vector(die)
    shift = 4  # fixed-point bits for cv2 drawing (coordinates * 16)

    colour = np.zeros((ph * s, pw * s, 3), np.uint8)
    alpha = np.zeros((ph * s, pw * s), np.uint8)
    body = np.array(die.body, dtype=np.float64)
    pipc = np.array(die.pips, dtype=np.float64)

    def fill(pts: np.ndarray, col: np.ndarray, mask: bool = True) -> None:
        p = _poly(pts, s)
        cv2.fillPoly(colour, [p], tuple(float(v) for v in col), cv2.LINE_AA, shift)
        if mask:
            cv2.fillPoly(alpha, [p], 255, cv2.LINE_AA, shift)

    # silhouette: the top face and its copy at the bottom edge of the die, hulled
    sil = np.vstack([top, top + d]) if die.side > 0 else top
    hull = cv2.convexHull(sil.astype(np.float32)).reshape(-1, 2).astype(np.float64)

    # soft shadow, cast down-right, darkens the table under the patch
    if shadow > 0:
        sh = np.zeros((ph, pw), np.uint8)
        off = np.array([0.06, 0.09]) * die.size_px
        cv2.fillPoly(sh, [_poly(hull + off, 1)], 255, cv2.LINE_AA, shift)
        sh = cv2.GaussianBlur(sh, (0, 0), max(0.8, 0.08 * die.size_px)).astype(np.float32)
        img[y0:y1, x0:x1] *= 1.0 - shadow * (sh[:, :, None] / 255.0)

    if die.side > 0:
        fill(hull, body * 0.5)
        # each side face whose outward normal points along d shows as a strip with squashed pips
        corners = np.array([(0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)]) @ m.T + c
        for k, value in enumerate(_side_values(die.value)):
            p0, p1 = corners[k], corners[(k + 1) % 4]
            normal = np.array([(p1 - p0)[1], -(p1 - p0)[0]])
            if np.dot(normal, (p0 + p1) / 2 - c) < 0:
                normal = -normal
            facing = float(np.dot(normal / np.linalg.norm(normal), d / np.linalg.norm(d)))
            if facing <= 0.05:
                continue
            shade = 0.55 + 0.2 * facing
            inset = CORNER_RADIUS * (p1 - p0)
            q0, q1 = p0 + inset, p1 - inset
            fill(np.array([q0, q1, q1 + d, q0 + d]), body * shade, mask=False)
            # pips on this face: face coords (u along the edge, v from edge to edge + d)
            u_vec, v_vec = p1 - p0, d
            for pu, pv in PIP_LAYOUTS[value]:
                circle = np.array([pu, pv]) + PIP_RADIUS * _CIRCLE
                pts = p0 + np.outer(circle[:, 0] + 0.5, u_vec) + np.outer(circle[:, 1] + 0.5, v_vec)
                fill(pts, (pipc * 0.75 + body * shade * 0.25), mask=False)

    # top face, with a darker rim (the rounded edge of a real die), then its pips
    fill(top, body)
    rim = tuple(float(v) for v in body * 0.72)
    cv2.polylines(colour, [_poly(top, s)], True, rim, max(1, round(0.035 * die.size_px * s)),
                  cv2.LINE_AA, shift)
    for pu, pv in PIP_LAYOUTS[die.value]:
        circle = np.array([pu, pv]) + PIP_RADIUS * _CIRCLE
        fill(circle @ m.T + c, pipc, mask=False)

    if s > 1:
        colour = cv2.resize(colour, (pw, ph), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (pw, ph), interpolation=cv2.INTER_AREA)
    a = alpha.astype(np.float32)[:, :, None] / 255.0
    patch = img[y0:y1, x0:x1]
    patch *= 1.0 - a
    patch += a * colour.astype(np.float32)


# ---------------------------------------------------------------------------------------------
# whole scene


def scene_backdrop(spec: SceneSpec, seed: int = 0) -> Backdrop:
    """The layers of ``spec`` drawn with ``seed`` that need no dice (:class:`Backdrop`)."""
    return backdrop(spec.size, spec.surface, spec.surface_colour, spec.noise, seed)


def render_scene(spec: SceneSpec, seed: int = 0,
                 drawn: Backdrop | None = None) -> tuple[np.ndarray, list[TrueDie]]:
    """Render a scene: the BGR uint8 image and, per die in ``spec.dice`` order, its truth.

    The same spec and seed always give the same image. ``drawn``: the scene's backdrop
    drawn ahead (:func:`scene_backdrop` of the same spec and seed, not yet drawn on), else
    it is drawn now.
    """
    key = (spec.size, spec.surface, spec.surface_colour, spec.noise, seed)
    if drawn is not None and drawn.key != key:
        raise ValueError(f"the backdrop was drawn for {drawn.key}, not for this scene's {key}")
    img, grain = (drawn or scene_backdrop(spec, seed)).take()
    w, h = spec.size
    for die in spec.dice:
        _draw_die(img, die, spec.shadow)

    strength, angle = spec.light
    if strength:
        img *= light_field(w, h, strength, angle)[:, :, None]
    for g in spec.glare:
        add_glare(img, g.centre, g.radius, g.strength)
    if spec.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), spec.blur)
    if grain is not None:
        img += grain
    out: np.ndarray = np.clip(img, 0, 255, out=img).astype(np.uint8)
    if spec.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(spec.jpeg_quality)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is None:  # pragma: no cover - OpenCV's JPEG codec is always built in
            raise RuntimeError("OpenCV could not encode the scene as JPEG.")
        out = decoded
    truth = [TrueDie(d.value, top_face_box(d)) for d in spec.dice]
    return out, truth


# ---------------------------------------------------------------------------------------------
# making specs


def dice_colours(name: str) -> tuple[Colour, Colour]:
    """(body, pips) colours of a named dice colour; ValueError naming the choices if unknown."""
    try:
        return {**DICE_COLOURS, **OTHER_DICE_COLOURS}[name]
    except KeyError:
        raise ValueError(
            f"dice colour {name!r} is unknown; use one of "
            f"{', '.join([*DICE_COLOURS, *OTHER_DICE_COLOURS])}."
        ) from None


def with_dice(spec: SceneSpec, dice: Iterable[DieSpec]) -> SceneSpec:
    """A copy of ``spec`` with other dice (e.g. to test one die in many looks)."""
    return replace(spec, dice=tuple(dice))


__all__ = [
    "DICE_COLOURS", "OTHER_DICE_COLOURS", "PIP_LAYOUTS", "SURFACES", "SURFACE_COLOURS", "DieSpec",
    "Glare", "SceneSpec",
    "TrueDie", "dice_colours", "footprint_radius", "render_scene", "scene_backdrop",
    "top_face_box", "top_face_outline", "with_dice",
]
