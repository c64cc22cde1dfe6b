"""The layers of a rendered scene under and over the dice: the table's surface, and the light.

Why apart from :mod:`simulator.render`: these layers know nothing of dice. The surface (wood,
felt, glass or plain, each with its texture) is what the dice are drawn on; the lighting
gradient and the glare spots are laid over the whole scene once the dice are drawn. Keeping
them here leaves ``simulator.render`` with the dice and the order of the layers. They take plain
values, not the scene's spec, so this module needs nothing from ``simulator.render``.

Colours are BGR, as everywhere in OpenCV; images are float32 BGR (0-255) while being drawn.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

Colour = tuple[int, int, int]

#: surface name -> default colour, BGR.
SURFACE_COLOURS: dict[str, Colour] = {
    "wood": (120, 170, 205),  # light oak
    "felt": (45, 95, 30),  # green baize
    "glass": (45, 40, 38),  # dark smoked glass (camera below the table)
    "plain": (128, 128, 128),
}
SURFACES = tuple(SURFACE_COLOURS)


def surface(size: tuple[int, int], kind: str, colour: Colour | None,
            rng: np.random.Generator) -> np.ndarray:
    """The empty table of ``kind`` (a key of :data:`SURFACE_COLOURS`) as float32 BGR (0-255),
    in ``colour`` or the kind's own; ``size`` is (width, height)."""
    w, h = size
    base = np.array(colour or SURFACE_COLOURS[kind], dtype=np.float32)
    # Texture is made at low resolution and enlarged: cheap even at 12 MP, and smooth.
    lw, lh = max(8, w // 4), max(8, h // 4)
    if kind == "wood":
        # long fine streaks along the planks, gently waving, with a few broad rings
        angle = rng.uniform(-0.15, 0.15)
        yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
        along = yy * math.cos(angle) - xx * math.sin(angle)
        wave = cv2.resize(rng.standard_normal((3, 4)).astype(np.float32), (lw, lh))
        period = rng.uniform(0.12, 0.2) * lh
        rings = np.sin(2 * math.pi * (along / period + 0.35 * wave))
        streaks = cv2.resize(rng.standard_normal((lh, 6)).astype(np.float32), (lw, lh))
        shade = 1.0 + 0.035 * rings + 0.03 * streaks
    elif kind == "felt":
        blotch = cv2.resize(rng.standard_normal((6, 8)).astype(np.float32), (lw, lh))
        shade = 1.0 + 0.05 * blotch
    elif kind == "glass":
        yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
        streak = np.exp(-(((xx - yy * rng.uniform(0.3, 1.0)) - rng.uniform(0, lw)) ** 2)
                        / (2 * (0.05 * lw) ** 2))
        vignette = 1.0 - 0.25 * ((xx / lw - 0.5) ** 2 + (yy / lh - 0.5) ** 2)
        shade = vignette + 0.4 * streak
    else:
        shade = np.ones((lh, lw), np.float32)
    shade = cv2.resize(shade.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    img = shade[:, :, None] * base[None, None, :]
    if kind == "felt":  # fibres: fine per-pixel texture
        fibres = rng.standard_normal((h, w, 1), dtype=np.float32)
        fibres *= np.float32(6.0)
        img += fibres
    return img


class Backdrop:
    """The layers of a scene its seed alone decides: the empty table and the sensor noise.

    Why apart from the dice: they are most of a frame's drawing (two normal draws a pixel on
    felt) and need nothing the dice change, so a caller that knows the next frame's seed
    (the simulated camera, :mod:`hardware.cameras.simulated`) may draw them before the dice
    are thrown. ``key`` is what they were drawn for: (size, surface kind, surface colour,
    noise, seed). A backdrop serves one frame: the dice are drawn on its table (:meth:`take`).
    """

    def __init__(self, key: tuple[tuple[int, int], str, Colour | None, float, int],
                 table: np.ndarray, grain: np.ndarray | None) -> None:
        self.key = key
        self._table: np.ndarray | None = table
        self._grain = grain

    def take(self) -> tuple[np.ndarray, np.ndarray | None]:
        """The surface to draw the frame on (float32 BGR) and the noise to add once the dice
        and the light are drawn (float32, already scaled; None without noise). Once only:
        the surface is drawn on, so a second frame would find the first's dice on it."""
        if self._table is None:
            raise ValueError("this backdrop was drawn on already: a backdrop serves one frame")
        table, self._table = self._table, None
        return table, self._grain


def backdrop(size: tuple[int, int], kind: str, colour: Colour | None, noise: float,
             seed: int) -> Backdrop:
    """The backdrop of a scene drawn with ``seed``: one ``numpy.random.default_rng(seed)``
    gives the surface's draws, then the noise's, as :func:`simulator.render.render_scene`
    has always drawn them (nothing between them draws), so a frame is the same pixels
    whether its backdrop was drawn ahead or not."""
    rng = np.random.default_rng(seed)
    w, h = size
    table = surface(size, kind, colour, rng)
    grain = None
    if noise > 0:
        grain = rng.standard_normal((h, w, 3), dtype=np.float32)
        grain *= np.float32(noise)
    return Backdrop((size, kind, colour, noise, seed), table, grain)


def light_field(w: int, h: int, strength: float, angle_deg: float) -> np.ndarray:
    """Brightness factor per pixel: a linear ramp from 1 - strength/2 to 1 + strength/2."""
    a = math.radians(angle_deg)
    yy, xx = np.mgrid[0:16, 0:16].astype(np.float32) / 15.0 * 2.0 - 1.0
    ramp = (xx * math.cos(a) + yy * math.sin(a)) / (abs(math.cos(a)) + abs(math.sin(a)))
    field = 1.0 + 0.5 * strength * ramp
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def add_glare(img: np.ndarray, centre: tuple[float, float], radius: float,
              strength: float) -> None:
    """A lamp's reflection brightened into the float image, in place (strength 0-1)."""
    h, w = img.shape[:2]
    r = 3 * radius
    x0, y0 = max(0, int(centre[0] - r)), max(0, int(centre[1] - r))
    x1, y1 = min(w, int(centre[0] + r) + 1), min(h, int(centre[1] + r) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    dist2 = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2
    k = (strength * np.exp(-dist2 / (2 * (radius / 1.5) ** 2)))[:, :, None]
    patch = img[y0:y1, x0:x1]
    patch += k * (255.0 - patch)
