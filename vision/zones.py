"""Seat zones: which dice in a camera frame belong to which seat, and whether a throw can be taken.

Why: the reader sees every die on the table; the controller needs, per seat, "exactly three dice,
all read with confidence" before it accepts a throw, and a plain sentence when not. A calibration
in the table's config (``[zones.SEAT]`` tables of ``x``, ``y``, ``w``, ``h`` pixels) maps each
seat to a rectangle of the frame; a die belongs to the zone whose rectangle holds the centre of
its box. Under a glass table the camera sees the bottom faces: ``bottom_faces=True`` turns each
seen value v into the top value 7 - v.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import ConfigError
from vision.reading import Box, Die, Reading, Unsure

_KEYS = ("x", "y", "w", "h")
NEEDED = 3


@dataclass(frozen=True)
class Zone:
    """A seat's rectangle of the camera frame, in pixels: left ``x``, top ``y``, width, height."""

    seat: str
    x: int
    y: int
    w: int
    h: int

    @property
    def box(self) -> Box:
        return (self.x, self.y, self.w, self.h)

    def contains(self, px: float, py: float) -> bool:
        """Whether the point lies inside (left/top edges in, right/bottom edges out)."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    def holds(self, box: Box) -> bool:
        """Whether a die's box belongs to this zone: its centre is inside the rectangle."""
        x, y, w, h = box
        return self.contains(x + w / 2, y + h / 2)

    def overlaps(self, other: Zone) -> bool:
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )


@dataclass(frozen=True)
class SeatReading:
    """The dice in one seat's zone and the verdict.

    ``values`` (high first) is set only when the zone holds exactly three sure dice and no place
    that cannot be read; otherwise it is None and ``reason`` is a sentence saying why. ``dice``
    carry top values (already turned with ``bottom_faces``).
    """

    seat: str
    values: tuple[int, int, int] | None  # a 1-tuple when read with needed=1
    dice: tuple[Die, ...]
    unsure: tuple[Unsure, ...]
    reason: str | None

    @property
    def ok(self) -> bool:
        return self.values is not None


def _whole(key: str, value: object, minimum: int, allowed: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(key, value, allowed)
    return value


def parse_zones(
    section: Mapping[str, object], *, frame: tuple[int, int] | None = None
) -> list[Zone]:
    """Zones from the config's ``[zones.SEAT]`` tables, in the order given.

    Raises :class:`ConfigError` naming the key (``zones.Ann.w``) for a missing, unknown or
    non-whole-number value, a zone outside ``frame`` (width, height) when given, or two zones
    that overlap.
    """
    if not isinstance(section, Mapping):
        raise ConfigError("zones", section, "a table of seat zones, one [zones.SEAT] per seat")
    zones: list[Zone] = []
    for seat, table in section.items():
        where = f"zones.{seat}"
        if not isinstance(table, Mapping):
            raise ConfigError(where, table, "a table with x, y, w and h in pixels")
        for key in table:
            if key not in _KEYS:
                raise ConfigError(
                    f"{where}.{key}", table[key], "a zone has only x, y, w and h (pixels)"
                )
        numbers: dict[str, int] = {}
        for key in _KEYS:
            if key not in table:
                raise ConfigError(
                    f"{where}.{key}", None, f"{key} is missing; give x, y, w and h in pixels"
                )
            if key in ("x", "y"):
                allowed = "a whole number of pixels, 0 or more"
                numbers[key] = _whole(f"{where}.{key}", table[key], 0, allowed)
            else:
                allowed = "a whole number of pixels, 1 or more"
                numbers[key] = _whole(f"{where}.{key}", table[key], 1, allowed)
        zone = Zone(str(seat), numbers["x"], numbers["y"], numbers["w"], numbers["h"])
        if frame is not None:
            fw, fh = frame
            if zone.x + zone.w > fw:
                raise ConfigError(
                    f"{where}.w", zone.w, f"the zone must end inside the {fw}x{fh} frame "
                    f"(x + w at most {fw})",
                )
            if zone.y + zone.h > fh:
                raise ConfigError(
                    f"{where}.h", zone.h, f"the zone must end inside the {fw}x{fh} frame "
                    f"(y + h at most {fh})",
                )
        zones.append(zone)
    check_overlap(zones)
    return zones


def check_overlap(zones: Iterable[Zone]) -> None:
    """Raise :class:`ConfigError` if two zones overlap (a die would belong to two seats)."""
    seen: list[Zone] = []
    for zone in zones:
        for other in seen:
            if zone.overlaps(other):
                raise ConfigError(
                    f"zones.{zone.seat}",
                    {"x": zone.x, "y": zone.y, "w": zone.w, "h": zone.h},
                    f"it overlaps {other.seat}'s zone; seat zones must not overlap",
                )
        seen.append(zone)


def _count(n: int) -> str:
    if n == 0:
        return "no dice"
    return "1 die" if n == 1 else f"{n} dice"


def read_seat(
    reading: Reading, zone: Zone, *, bottom_faces: bool = False, needed: int = NEEDED
) -> SeatReading:
    """The dice of one seat, and whether they make a throw (exactly three, all sure).

    ``needed`` is 3 for a throw; 1 reads a single die (a captain's roll): ``values`` is then
    a 1-tuple.
    """
    dice = tuple(d for d in reading.dice if zone.holds(d.box))
    if bottom_faces:
        dice = tuple(Die(7 - d.value, d.box, d.confidence) for d in dice)
    unsure = tuple(u for u in reading.unsure if zone.holds(u.box))
    owner = f"{zone.seat}'s zone"
    if unsure:
        if len(unsure) == 1:
            reason = f"a die in {owner} cannot be read: {unsure[0].reason}"
        else:
            reasons = "; ".join(u.reason for u in unsure)
            reason = f"{len(unsure)} dice in {owner} cannot be read: {reasons}"
        return SeatReading(zone.seat, None, dice, unsure, reason)
    if len(dice) != needed:
        wanted = "1 is needed" if needed == 1 else f"{needed} are needed"
        reason = f"{_count(len(dice))} in {owner}; {wanted}"
        return SeatReading(zone.seat, None, dice, unsure, reason)
    values = tuple(sorted((d.value for d in dice), reverse=True))
    return SeatReading(zone.seat, values, dice, unsure, None)  # type: ignore[arg-type]


def read_seats(
    reading: Reading, zones: Iterable[Zone], *, bottom_faces: bool = False
) -> list[SeatReading]:
    """:func:`read_seat` for every zone, in order."""
    return [read_seat(reading, z, bottom_faces=bottom_faces) for z in zones]


def default_zones(seats: Sequence[str], width: int, height: int) -> list[Zone]:
    """Zones for ``seats`` laid around a ``width`` x ``height`` frame, clockwise from top left.

    Used when no calibration exists (simulation): the top row holds the first half of the
    seats, left to right, the bottom row the rest, right to left; one seat takes the frame.
    Zones are inset from each other so that none overlap.
    """
    if not seats:
        raise ValueError("default_zones needs at least one seat.")
    if len(set(seats)) != len(seats):
        raise ValueError(f"seat names must differ: {', '.join(seats)}.")
    top_n = math.ceil(len(seats) / 2) if len(seats) > 1 else 1
    rows = [list(seats[:top_n])]
    if len(seats) > 1:
        rows.append(list(reversed(seats[top_n:])))
    margin = max(2, round(0.02 * min(width, height)))
    row_h = height // len(rows)
    if row_h <= 2 * margin + 8 or width // top_n <= 2 * margin + 8:
        raise ValueError(
            f"a {width}x{height} frame is too small for {len(seats)} seat zones."
        )
    zones: list[Zone] = []
    for r, row in enumerate(rows):
        cell_w = width // len(row)
        for c, seat in enumerate(row):
            zones.append(
                Zone(seat, c * cell_w + margin, r * row_h + margin,
                     cell_w - 2 * margin, row_h - 2 * margin)
            )
    order = {s: i for i, s in enumerate(seats)}
    return sorted(zones, key=lambda z: order[z.seat])


__all__ = [
    "NEEDED", "SeatReading", "Zone", "check_overlap", "default_zones", "parse_zones",
    "read_seat", "read_seats",
]
