"""THROW -> wait until the dice are still -> read the seat's zone -> values, or why not sure.

The camera sees the whole table; a seat's dice are the ones in its zone. A read is only
trusted when the zone has stopped changing (the cup is lifted, the dice have settled) and
exactly the expected dice are there and sure (three for a throw, one for a captain roll).
A value also needs two opinions that agree: the seat is read on two still frames in a row,
and the two reads must give the same values, or the read is not sure (a die the reader
reads one way on one frame and another way on the next is not sure, whatever its
confidence). A frame the same as the first, byte for byte (a simulated or still camera; a
real sensor's noise never is), is not read twice: the reader is a function of the pixels,
so the second read could only repeat the first. Anything else -- two dice, four, an unsure
die, a camera error, dice that never
settle, two frames that disagree -- is a :class:`SeatRead` with ``values=None`` and a
sentence saying why, which the controller turns into a throw with values pending
(docs/rules/pending.md). Which dice of a reading are a seat's, and whether they are enough,
is ``vision.zones.read_seat``'s to say, and said only there. The reader and the clock are
injected so that tests can drive every case without a camera.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.errors import CameraError, VisionError
from vision.reader import Reader, rule_reader
from vision.zones import Zone, read_seat

#: how far (pixels) a die's centre may move and still count as "the same place".
SAME_PLACE_PX = 6.0


@dataclass(frozen=True)
class SeatRead:
    """The outcome of reading one seat: values when sure, else the reason it is not."""

    seat: str
    values: tuple[int, ...] | None
    reason: str | None = None
    dice: tuple[Any, ...] = ()
    unsure: tuple[Any, ...] = ()
    places: tuple[tuple[int, float, float], ...] = field(default=())


def _places(dice: Sequence[Any]) -> tuple[tuple[int, float, float], ...]:
    """(value, centre x, centre y) of each die, sorted: what "same dice, same places" compares."""
    return tuple(sorted((d.value, d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2)
                        for d in dice))


def same_dice_same_places(a: SeatRead | None, b: SeatRead | None) -> bool:
    """Whether two reads show the same values lying in the same places (a possible non-throw)."""
    if a is None or b is None or not a.places or len(a.places) != len(b.places):
        return False
    for (va, xa, ya), (vb, xb, yb) in zip(a.places, b.places, strict=True):
        if va != vb or abs(xa - xb) > SAME_PLACE_PX or abs(ya - yb) > SAME_PLACE_PX:
            return False
    return True


class DiceWatcher:
    """Reads seats' zones from a frame source once the frames stop changing.

    ``zones`` maps seat (player name) to a ``vision.zones.Zone``. ``read`` is the dice reader
    (a :class:`vision.reader.Reader`, the rule reader by default; tests give the simulated
    table's). ``confirm_frames``: how many still
    frames in a row must read the same values (see the module docstring). ``bottom_faces``:
    the camera looks up through a glass table. ``on_zones(zones)`` is told when the zones
    change (the simulated camera draws its dice in them). The last frame and reading are kept
    for the referee.
    """

    def __init__(self, camera: Any, zones: dict[str, Zone],
                 read: Reader | None = None, *,
                 still_frames: int = 2, still_threshold: float = 2.0, settle_timeout: float = 3.0,
                 frame_pause: float = 0.02, bottom_faces: bool = False,
                 confirm_frames: int = 2,
                 on_zones: Callable[[list[Zone]], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.camera = camera
        self.zones = zones
        self._read = read or rule_reader()
        self.still_frames = still_frames
        self.still_threshold = still_threshold
        self.settle_timeout = settle_timeout
        self.frame_pause = frame_pause
        self.bottom_faces = bottom_faces
        if confirm_frames < 1:
            raise ValueError(f"confirm_frames must be 1 or more, not {confirm_frames}.")
        self.confirm_frames = confirm_frames
        self.clock = clock
        self.on_zones = on_zones
        self.last_frame: np.ndarray | None = None
        self.last_reading: Any = None
        self.camera_error: str | None = None
        self._camera_lock = threading.Lock()

    def set_zones(self, zones: list[Zone]) -> None:
        """Read the seats in ``zones`` from now on (and tell ``on_zones``)."""
        self.zones = {z.seat: z for z in zones}
        if self.on_zones is not None:
            self.on_zones(list(zones))

    @property
    def reader(self) -> Reader:
        """The dice reader the seats are read with now."""
        return self._read

    def set_reader(self, read: Reader) -> None:
        """Read with ``read`` from the next read on (the referee kept a calibration): a read
        in hand finishes with the reader it began with."""
        with self._camera_lock:
            self._read = read

    def still_picture(self, seat: str) -> np.ndarray:
        """A frame once ``seat``'s zone is still (a known throw is taught from it), between
        the seats' reads; CameraError, TimeoutError as :meth:`still_frame`."""
        with self._camera_lock:
            return self.still_frame(seat)

    def snapshot(self) -> np.ndarray:
        """The last frame read, or a fresh one (CameraError if the camera fails)."""
        if self.last_frame is not None:
            return self.last_frame
        with self._camera_lock:
            return self.camera.read()

    def zone_crop(self, seat: str) -> np.ndarray | None:
        """A copy of ``seat``'s zone in the last frame read (None before any, or no zone)."""
        if self.last_frame is None or seat not in self.zones:
            return None
        crop = self._crop(self.last_frame, seat)
        return crop.copy() if crop.size else None

    def _crop(self, frame: np.ndarray, seat: str) -> np.ndarray:
        z = self.zones[seat]
        return frame[z.y:z.y + z.h, z.x:z.x + z.w]

    def still_frame(self, seat: str) -> np.ndarray:
        """The first frame after which the seat's zone stayed unchanged for ``still_frames``
        frames; CameraError if the camera fails, TimeoutError if the dice never settle."""
        deadline = self.clock() + self.settle_timeout
        previous = self.camera.read()
        calm = 1
        while calm < self.still_frames:
            if self.clock() > deadline:
                raise TimeoutError("the dice did not settle within "
                                   f"{self.settle_timeout:g} seconds")
            if self.frame_pause:
                time.sleep(self.frame_pause)
            frame = self.camera.read()
            a, b = self._crop(previous, seat), self._crop(frame, seat)
            moved = a.shape != b.shape or float(
                np.mean(np.abs(a.astype(np.int16) - b.astype(np.int16)))) > self.still_threshold
            calm = 1 if moved else calm + 1
            previous = frame
        return previous

    def read_seat(self, seat: str, count: int) -> SeatRead:
        """Read ``count`` dice (3 for a throw, 1 for a roll) in ``seat``'s zone, once still."""
        if seat not in self.zones:
            return SeatRead(seat, None, f"{seat} has no camera zone; the referee gives it one "
                                        "(Camera zones on the console) or enters the dice")
        try:
            with self._camera_lock:
                frame = self.still_frame(seat)
            self.camera_error = None
        except CameraError as e:
            self.camera_error = str(e)
            return SeatRead(seat, None, f"the camera failed: {e}")
        except TimeoutError as e:
            return SeatRead(seat, None, str(e))
        self.last_frame = frame
        first: SeatRead | None = None
        first_frame = frame
        for n in range(self.confirm_frames):
            if n:
                try:
                    with self._camera_lock:
                        frame = self.camera.read()
                except CameraError as e:
                    self.camera_error = str(e)
                    return SeatRead(seat, None, f"the camera failed: {e}")
                if np.array_equal(frame, first_frame):
                    continue  # the same pixels: the reader would only repeat itself
            read = self._read_frame(seat, count, frame)
            if read.values is None:
                return read
            if first is None:
                first = read
            elif sorted(read.values) != sorted(first.values):
                return SeatRead(seat, None, "two still frames read differently ("
                                f"{' '.join(map(str, first.values))} and "
                                f"{' '.join(map(str, read.values))})", read.dice,
                                read.unsure, read.places)
        assert first is not None
        return first

    def _read_frame(self, seat: str, count: int, frame: np.ndarray) -> SeatRead:
        reader = self._read  # one reader for the whole read, if the referee swaps it meanwhile
        try:
            reading = reader.read_zone(frame, self.zones[seat], count)
        except VisionError as e:
            return SeatRead(seat, None, f"the frame could not be read: {e}")
        self.last_reading = reading
        sr = read_seat(reading, self.zones[seat], bottom_faces=self.bottom_faces, needed=count)
        dice = tuple(sr.dice)
        values = tuple(sr.values) if sr.values is not None else None
        return SeatRead(seat, values, sr.reason if values is None else None, dice,
                        tuple(sr.unsure), _places(dice))
