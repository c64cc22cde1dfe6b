"""Draw what the reader saw onto a copy of the frame: for the referee's dashboard and debugging.

Why: when a throw is refused ("a die in Bob's zone cannot be read"), people at the table and the
developer need to see which die, where, and what the reader made of the others. Read dice get a
green box with value and confidence; places that cannot be read a red box with "?" and a short
reason; seat zones an outline with the seat's name and verdict (its values, or why not).
Text sits on a filled label so it stays legible on any table surface, sized to the frame.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from engine.errors import VisionError
from vision.reading import Box, Reading
from vision.zones import SeatReading, Zone, read_seat

GREEN = (60, 200, 60)
RED = (40, 40, 230)
ORANGE = (0, 150, 255)
ZONE_OK = (230, 200, 40)
ZONE_WAITING = (200, 200, 200)
INK = (0, 0, 0)
PAPER = (255, 255, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX
REASON_CHARS = 28


def _style(image: np.ndarray) -> tuple[float, int]:
    """Font scale and line thickness for this frame size (0.45 and 1 at 640x480)."""
    short = min(image.shape[:2])
    scale = max(0.4, short / 1070)
    return scale, max(1, round(scale * 2.2))


def _shorten(text: str, limit: int = REASON_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _label(
    image: np.ndarray, text: str, x: int, y: int, colour: tuple[int, int, int],
    scale: float, thick: int, *, below: bool = False,
) -> None:
    """Text on a filled box; the box's bottom-left at (x, y), or top-left if ``below``."""
    (tw, th), base = cv2.getTextSize(text, FONT, scale, thick)
    pad = max(2, thick + 1)
    bw, bh = tw + 2 * pad, th + base + 2 * pad
    h, w = image.shape[:2]
    top = y if below else y - bh
    top = min(max(0, top), max(0, h - bh))
    left = min(max(0, x), max(0, w - bw))
    cv2.rectangle(image, (left, top), (left + bw, top + bh), colour, cv2.FILLED)
    brightness = 0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2]
    ink = INK if brightness > 110 else PAPER
    cv2.putText(image, text, (left + pad, top + pad + th), FONT, scale, ink, thick, cv2.LINE_AA)


def _box(image: np.ndarray, box: Box, colour: tuple[int, int, int], thick: int) -> None:
    x, y, w, h = box
    cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), colour, thick, cv2.LINE_8)


def _verdict(seat: SeatReading) -> str:
    if seat.values is not None:
        return f"{seat.seat}: {' '.join(str(v) for v in seat.values)}"
    # "2 dice in Ann's zone; 3 are needed" -> "Ann: 2 dice; 3 are needed"
    reason = (seat.reason or "no throw").replace(f" in {seat.seat}'s zone", "")
    return f"{seat.seat}: {_shorten(reason, 36)}"


def annotate(
    image: np.ndarray,
    reading: Reading,
    zones: Iterable[Zone] = (),
    seat_readings: Iterable[SeatReading] = (),
) -> np.ndarray:
    """A copy of ``image`` (BGR, or grey) with the reading drawn on it.

    ``seat_readings`` give each zone's verdict; a zone without one is judged here with
    :func:`vision.zones.read_seat` (top faces).
    """
    if not isinstance(image, np.ndarray) or image.size == 0 or image.ndim not in (2, 3):
        raise VisionError(
            "There is no picture to annotate: pass the frame the dice were read from as a "
            "BGR numpy array."
        )
    out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
    if out.dtype != np.uint8:
        out = np.clip(out, 0, 255).astype(np.uint8)
    scale, thick = _style(out)
    verdicts = {s.seat: s for s in seat_readings}

    judged = [(z, verdicts.get(z.seat) or read_seat(reading, z)) for z in zones]
    for zone, seat in judged:
        _box(out, zone.box, ZONE_OK if seat.ok else ZONE_WAITING, thick)

    for die in reading.dice:
        x, y, w, h = die.box
        _box(out, die.box, GREEN, thick)
        _label(out, f"{die.value} {round(die.confidence * 100)}%", x, y, GREEN, scale, thick)

    for place in reading.unsure:
        x, y, w, h = place.box
        _box(out, place.box, RED, thick + 1)
        _label(out, "?", x, y, RED, scale * 1.2, thick)
        _label(out, _shorten(place.reason), x, y + h, ORANGE, scale * 0.85, thick, below=True)

    # seat verdicts last, so that no die's label hides them
    for zone, seat in judged:
        colour = ZONE_OK if seat.ok else ZONE_WAITING
        _label(out, _verdict(seat), zone.x, zone.y, colour, scale, thick, below=True)
    return out


__all__ = ["annotate"]
