"""Pip candidates: small round marks that contrast with the face around them, in both polarities.

Why both: white dice carry dark pips, coloured and black dice carry white pips, and the table
never says which it is. A morphological black-hat (closing minus image) at a window a little
larger than a pip answers "how much darker than its surroundings is this spot", a top-hat the
same for brighter spots; a threshold on either, then shape filters on the blobs (size,
elongation, fill) gives the candidates. No loop over pixels: outer contours per polarity, then
pixel moments of the few blobs of a plausible size.

The response maps are kept: the face reader samples them again where a pattern says a pip
must NOT be, which is what catches a missed pip before it turns a 5 into a 4.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DARK = 0  # dark pip on a light face (white dice)
LIGHT = 1  # light pip on a dark or coloured face


@dataclass(frozen=True)
class PipMaps:
    """The working-scale grey image and the two contrast maps (uint8)."""

    gray: np.ndarray
    colour: np.ndarray  # the working-scale picture (BGR, or grey as h x w x 1)
    dark: np.ndarray  # black-hat: how much darker than the surroundings
    light: np.ndarray  # top-hat: how much brighter than the surroundings
    face_dark: np.ndarray  # closing: the face level around a dark pip
    face_light: np.ndarray  # opening: the face level around a light pip
    dark_max: np.ndarray  # the maps' maxima over a small square: what is near a point
    light_max: np.ndarray
    gray_max: np.ndarray
    glare: np.ndarray  # k x 4 boxes (x0, y0, x1, y1) of saturated patches bigger than a pip

    def response(self, polarity: int) -> np.ndarray:
        return self.dark if polarity == DARK else self.light

    def response_max(self, polarity: int) -> np.ndarray:
        return self.dark_max if polarity == DARK else self.light_max


@dataclass(frozen=True)
class Pips:
    """Pip candidates as parallel arrays (one entry per candidate)."""

    x: np.ndarray
    y: np.ndarray
    diameter: np.ndarray  # equivalent-circle diameter in working pixels
    polarity: np.ndarray  # DARK or LIGHT
    contrast: np.ndarray  # response at the pip (grey levels)
    face: np.ndarray  # face level around the pip (grey levels)
    elongation: np.ndarray  # long / short axis of the component's inertia ellipse (>= 1)
    glint: np.ndarray  # bool: inside a bigger mark of the other polarity (a glint in a pip)
    ring: np.ndarray  # n x 3: median colour just around the pip (the face it lies on)

    def __len__(self) -> int:
        return int(self.x.size)


def contrast_maps(
    gray: np.ndarray,
    window: int,
    colour: np.ndarray | None = None,
    near: int = 2,
    glare_level: int = 250,
    glare_area: int = 180,
) -> PipMaps:
    """Black-hat / top-hat maps with a square window of ``window`` working pixels, and their
    maxima within ``near`` pixels of each point."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (window, window))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
    opened = cv2.morphologyEx(gray, cv2.MORPH_OPEN, kernel)
    dark = cv2.subtract(closed, gray)
    light = cv2.subtract(gray, opened)
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * near + 1, 2 * near + 1))
    return PipMaps(
        gray=gray,
        colour=gray[:, :, None] if colour is None else colour,
        dark=dark,
        light=light,
        face_dark=closed,
        face_light=opened,
        dark_max=cv2.dilate(dark, square),
        light_max=cv2.dilate(light, square),
        gray_max=cv2.dilate(gray, square),
        glare=_glare_boxes(gray, glare_level, glare_area),
    )


def _glare_boxes(gray: np.ndarray, level: int, area: int) -> np.ndarray:
    """Boxes of saturated patches of at least ``area`` pixels: a lamp's reflection."""
    bright = (gray >= level).view(np.uint8)
    if cv2.countNonZero(bright) < area:
        return np.zeros((0, 4))
    ltype = cv2.CV_16U if cv2.countNonZero(bright) < 65535 else cv2.CV_32S
    n, _, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=8, ltype=ltype)
    big = stats[1:][stats[1:, cv2.CC_STAT_AREA] >= area]
    x, y, w, h = (big[:, k].astype(np.float64) for k in range(4))
    return np.column_stack([x, y, x + w, y + h])


def find_pips(
    maps: PipMaps,
    *,
    min_contrast: float,
    min_area: int,
    max_area: int,
    max_elongation: float,
    min_fill: float,
    max_ring_spread: float = 0.5,
    max_ring_gap: float = 0.5,
    split_level: float = 0.6,
) -> Pips:
    """Candidates of both polarities that pass the contrast and shape filters."""
    parts = []
    alike = np.zeros((2, *maps.gray.shape), np.uint8)  # the pip-shaped blobs of each polarity
    for polarity in (DARK, LIGHT):
        response = maps.response(polarity)
        mask = (response >= min_contrast).view(np.uint8)
        blobs = _blobs(mask, min_area, max_area, min_fill, max_elongation, response, split_level)
        if blobs is None:
            continue
        cx, cy, area, elong, contours = blobs
        cv2.drawContours(alike[polarity], contours, -1, 1, -1)
        xi = np.clip(np.rint(cx).astype(np.intp), 0, response.shape[1] - 1)
        yi = np.clip(np.rint(cy).astype(np.intp), 0, response.shape[0] - 1)
        face_map = maps.face_dark if polarity == DARK else maps.face_light
        parts.append(
            (
                cx,
                cy,
                2.0 * np.sqrt(area / np.pi),
                np.full(cx.size, polarity, dtype=np.int8),
                response[yi, xi].astype(np.float64),
                face_map[yi, xi].astype(np.float64),
                elong,
            )
        )
    if not parts:
        empty = np.zeros(0)
        return Pips(
            empty, empty, empty, np.zeros(0, np.int8), empty, empty, empty, empty > 0,
            np.zeros((0, 3)),
        )
    cols = [np.concatenate([p[i] for p in parts]) for i in range(7)]
    ring = _ring_colour(maps.colour, cols[0], cols[1], cols[2])
    pips = Pips(*cols, glint=_glints(*cols[:5]), ring=ring)
    spread = _ring_spread(maps.gray, pips.x, pips.y, pips.diameter, pips.polarity, alike)
    plain = spread <= max_ring_spread * pips.contrast
    # the face the pip lies on (its ring) is the level its contrast was measured from: a dark
    # spot on a dark face, darker only than a lamp's glare or white pips nearby, is no pip
    ring_grey = ring @ _GREY_WEIGHTS[: ring.shape[1]] if ring.shape[1] == 3 else ring[:, 0]
    sign = np.where(pips.polarity == DARK, 1.0, -1.0)
    plain &= sign * (pips.face - ring_grey) <= max_ring_gap * pips.contrast
    if plain.all():
        return pips
    return Pips(*(getattr(pips, f)[plain] for f in Pips.__dataclass_fields__))


def _blobs(
    mask: np.ndarray,
    min_area: int,
    max_area: int,
    min_fill: float,
    max_elongation: float,
    response: np.ndarray | None = None,
    split_level: float = 0.6,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]] | None:
    """Centre, pixel area and elongation of each pip-shaped blob of a mask.

    Outer contours (a tenth of the cost of labelling every pixel), then pixel-exact moments of
    each plausible blob, filled (a glint's hole in a pip counts as pip). Elongation is long /
    short axis of the inertia ellipse (1 for a disc).

    A blob too elongated to be a pip may be close pips merged by blur (a column of a 6): with
    the ``response`` map it is cut again at ``split_level`` x its peak, and the parts that are
    pip-shaped are kept, each as big as the merged row is wide.
    """
    contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    longest = int(np.ceil(2.5 * np.sqrt(max_area)))
    found = []
    kept: list[np.ndarray] = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < min_area or w > longest or h > longest:
            continue
        canvas = np.zeros((h, w), np.uint8)
        cv2.drawContours(canvas, [contour], -1, 1, -1, offset=(-x, -y))
        # a row of 3 at most; a row's fill of its box is not tested here (a slanting row of
        # pips fills a third of its box): its pieces are, below
        shape = _pip_shape(canvas, min_area, 3 * max_area, 0.0)
        if shape is None:
            continue
        filled = shape[2] >= min_fill * canvas.size
        if filled and shape[3] <= max_elongation and shape[2] <= max_area:
            found.append((x + shape[0], y + shape[1], shape[2], shape[3]))
            kept.append(contour)
        elif response is not None and shape[3] > max_elongation:
            # a merged row is as wide as its pips: a disc of diameter D has variance D^2 / 16
            # across, so each part counts as a disc of the row's width
            width_area = np.pi * 4.0 * shape[4]
            part = response[y : y + h, x : x + w] * canvas
            cut = (part >= split_level * float(part.max())).view(np.uint8)
            pieces = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
            for piece in pieces if len(pieces) > 1 else ():
                px, py, pw, ph = cv2.boundingRect(piece)
                small = np.zeros((ph, pw), np.uint8)
                cv2.drawContours(small, [piece], -1, 1, -1, offset=(-px, -py))
                sub = _pip_shape(small, min_area, max_area, min_fill)
                if sub is not None and sub[3] <= max_elongation:
                    found.append((x + px + sub[0], y + py + sub[1], width_area, sub[3]))
                    kept.append(piece + np.array([x, y], dtype=piece.dtype))
    if not found:
        return None
    cx, cy, area, elong = (np.array(col, dtype=np.float64) for col in zip(*found, strict=True))
    return cx, cy, area, elong, kept


def _pip_shape(
    canvas: np.ndarray, min_area: int, max_area: int, min_fill: float
) -> tuple[float, float, float, float, float] | None:
    """Centre (in the canvas), area, elongation and variance across its long axis of a filled
    blob, or None if its size or fill of its box is not a pip's."""
    m = cv2.moments(canvas, binaryImage=True)
    area = m["m00"]
    if not min_area <= area <= max_area or area < min_fill * canvas.size:
        return None
    cxx = m["mu20"] / area + 1.0 / 12
    cyy = m["mu02"] / area + 1.0 / 12
    cxy = m["mu11"] / area
    half = 0.5 * (cxx + cyy)
    root = np.sqrt(max(0.25 * (cxx - cyy) ** 2 + cxy * cxy, 0.0))
    elong = float(np.sqrt((half + root) / max(half - root, 1e-6)))
    return m["m10"] / area, m["m01"] / area, area, elong, max(half - root, 0.0)


_GREY_WEIGHTS = np.array([0.114, 0.587, 0.299])  # B, G, R as cv2.COLOR_BGR2GRAY weighs them
_RING = np.exp(1j * np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False))


def _ring_colour(colour: np.ndarray, x: np.ndarray, y: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Median colour on a circle just outside each pip: the colour of the face it lies on."""
    h, w = colour.shape[:2]
    pts = (x + 1j * y)[:, None] + 0.9 * d[:, None] * _RING[None, :]
    xs = np.clip(np.rint(pts.real).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pts.imag).astype(np.intp), 0, h - 1)
    samples = np.sort(colour[ys, xs].reshape(x.size, _RING.size, -1), axis=1)
    half = _RING.size // 2  # the median of 16 samples: mean of the 8th and 9th
    return 0.5 * (samples[:, half - 1].astype(np.float64) + samples[:, half])


def _ring_spread(
    gray: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    d: np.ndarray,
    polarity: np.ndarray,
    alike: np.ndarray,
) -> np.ndarray:
    """How uneven the grey level is on a circle around each candidate (80th - 20th percentile),
    leaving out the points that lie on another pip candidate like it (``alike[polarity]``: the
    pip-shaped blobs of each polarity).

    A pip lies on a plain face; the face showing between the white pips of a coloured die (or
    the wood between two dice) is ringed by pips or edges, so its ring is uneven. A pip in a
    row of close pips has its neighbours on its ring: they are like it, not uneven face."""
    h, w = gray.shape
    pts = (x + 1j * y)[:, None] + 1.0 * d[:, None] * _RING[None, :]
    xs = np.clip(np.rint(pts.real).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(pts.imag).astype(np.intp), 0, h - 1)
    ring = gray[ys, xs].astype(np.float64)
    other = alike[polarity[:, None], ys, xs] > 0
    ring[other] = np.inf  # sorted last, out of the percentiles
    ring.sort(axis=1)
    last = _RING.size - 1 - other.sum(axis=1)
    rows = np.arange(x.size)
    spread = ring[rows, (0.8 * last).astype(np.intp)] - ring[rows, (0.2 * last).astype(np.intp)]
    return np.where(last < 0, np.inf, spread)  # a ring wholly on other marks is not plain


def _glints(
    x: np.ndarray, y: np.ndarray, diameter: np.ndarray, polarity: np.ndarray, contrast: np.ndarray
) -> np.ndarray:
    """True for a candidate overlapping a stronger and bigger one of the other polarity: a
    lamp's glint in a pip.

    Glints are kept (a lone pip with a glint beside it is not a clean 1) but never read.
    """
    if x.size < 2:
        return np.zeros(x.size, dtype=bool)
    dist = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    other = polarity[:, None] != polarity[None, :]
    reach = 0.5 * np.maximum(diameter[:, None], diameter[None, :])
    weaker = contrast[:, None] < contrast[None, :]
    inside = other & (dist < reach) & weaker & (diameter[:, None] <= diameter[None, :])
    return inside.any(axis=1)
