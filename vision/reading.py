"""What the dice reader returns: plain frozen data, shared by the reader, zones, annotate and CLI.

Boxes are ``(x, y, w, h)`` in pixels of the input image, around a die's top face.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Die:
    """One die read with a value: its top face value 1-6, where it is, how sure (0-1)."""

    value: int
    box: Box
    confidence: float


@dataclass(frozen=True)
class Unsure:
    """A place that looks like a die but cannot be read with confidence, and why."""

    box: Box
    reason: str


@dataclass(frozen=True)
class Reading:
    """Everything the reader found in one image."""

    dice: tuple[Die, ...] = ()
    unsure: tuple[Unsure, ...] = ()
    width: int = 0
    height: int = 0
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        """The ``read-dice --json`` shape, without the image path."""
        return {
            "dice": [
                {"value": d.value, "box": list(d.box), "confidence": round(d.confidence, 3)}
                for d in self.dice
            ],
            "unsure": [{"box": list(u.box), "reason": u.reason} for u in self.unsure],
        }
