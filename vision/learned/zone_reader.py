"""Read a seat's zone alone, at the scale its dice were last seen: a frame costs its zones.

Why: at the table a seat's dice lie in its zone, all of one size (one camera, one height, one
make of dice). Reading the whole frame at every scale where any die might be spends most of
a 12 MP frame's time on felt. So a zone is cut out with a margin and read alone; once it has
read three places (dice, or places whose value it doubts: a size is a size all the same), the
median of their sizes is kept, and the zone is read from then on at the one scale where that
size is what the networks were trained on (:attr:`vision.learned.face_reader.Settings.die_size`). A
zone where that finds another count of places than expected is read again at every scale, so
a change of dice (larger ones brought to the table) costs one slow read, not a wrong one.

The sizes are kept in memory only: after a restart the first read of each zone finds them.
"""

from __future__ import annotations

import dataclasses
import statistics
import threading

import numpy as np

from vision.learned.face_reader import Settings, read_dice
from vision.reading import Die, Reading, Unsure
from vision.zones import NEEDED, Zone

#: the margin around a zone, in die sizes (a die whose centre lies in the zone is whole)
MARGIN_DICE = 0.8
#: the margin when no die size is known yet, as a fraction of the zone's longer side
MARGIN_UNKNOWN = 0.15


class ZoneReader:
    """A dice reader for the table: ``reader(frame)`` reads a whole frame (the referee's view,
    calibration), ``reader.read_zone(frame, zone)`` one seat's zone (a throw)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self._sizes: dict[str, float] = {}
        self._lock = threading.Lock()

    def __call__(self, frame: np.ndarray) -> Reading:
        return read_dice(frame, self.settings)

    def die_size(self, seat: str) -> float | None:
        with self._lock:
            return self._sizes.get(seat)

    def read_zone(self, frame: np.ndarray, zone: Zone, expected: int = NEEDED) -> Reading:
        """The dice of the frame around ``zone``, in the frame's pixels."""
        size = self.die_size(zone.seat)
        reading = self._read_around(frame, zone, size)
        inside = [d for d in reading.dice if zone.holds(d.box)]
        found = len(inside) + sum(zone.holds(u.box) for u in reading.unsure)
        if size is not None and found != expected:
            # the dice may have changed; an unsure place among the expected count is a value
            # in doubt, which no other scale mends (a 12 MP zone read at every scale cost 350
            # ms of CPU here, at its dice's size 45)
            reading = self._read_around(frame, zone, None)
        places = [d.box for d in reading.dice if zone.holds(d.box)]
        places += [u.box for u in reading.unsure if zone.holds(u.box)]
        if len(places) == expected:
            with self._lock:
                self._sizes[zone.seat] = statistics.median(box[2] for box in places)
        return reading

    def _read_around(self, frame: np.ndarray, zone: Zone, size: float | None) -> Reading:
        h, w = frame.shape[:2]
        m = int(round(MARGIN_DICE * size if size else MARGIN_UNKNOWN * max(zone.w, zone.h)))
        x0, y0 = max(0, zone.x - m), max(0, zone.y - m)
        x1, y1 = min(w, zone.x + zone.w + m), min(h, zone.y + zone.h + m)
        settings = dataclasses.replace(self.settings, die_size=size)
        part = read_dice(frame[y0:y1, x0:x1], settings)

        def moved(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
            return (box[0] + x0, box[1] + y0, box[2], box[3])

        return Reading(tuple(Die(d.value, moved(d.box), d.confidence) for d in part.dice),
                       tuple(Unsure(moved(u.box), u.reason) for u in part.unsure), w, h,
                       part.notes)
