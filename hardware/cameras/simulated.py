"""The simulated camera: renders the dice the simulation threw, in each seat's zone.

Off the Pi, the table runs with this instead of a lens: the simulation decides the throw,
calls ``set_dice(seat, values)``, and the real reader reads the rendered frame, so vision,
zones and controller are exercised end to end. ``unplug()`` and ``black()`` make it fail
the way real cameras do, so the controller's fallback to manual entry can be tested.

A frame's surface and sensor noise need only its seed, and the next throws' seeds are known
before their dice are: they are drawn ahead on a thread (:mod:`hardware.cameras.drawn_ahead`),
so a THROW waits for its dice to be drawn and not for the whole table. The frame is the same
pixels either way. A frame is checked (:func:`~hardware.cameras.base.check_frame`) once, when
drawn: a still table gives the same frame again, and the same pixels pass the same check.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np

from engine.actions import is_die
from engine.errors import CameraError
from hardware.cameras.base import BaseSource, check_frame
from hardware.cameras.drawn_ahead import DrawnAhead
from simulator.render import top_face_box
from simulator.table_scenes import render_table, table_backdrop, table_scene
from vision.zones import Zone

#: how many next throws' backdrops are drawn ahead, and the most memory they may take (a
#: backdrop is two float32 pictures: 24 bytes a pixel; 7.4 MB at 640x480)
AHEAD = 3
AHEAD_BYTES = 64 << 20


class SimulatedCamera(BaseSource):
    """A camera over a rendered table: ``zones`` say where each seat's dice go.

    Each ``set_dice`` moves the dice (a new scene seed), as a new throw would; reading again
    without a change gives the same frame, like a still table under a fixed camera.
    """

    def __init__(self, zones: Iterable[Zone], size: tuple[int, int] = (640, 480),
                 seed: int = 0, *, surface: str = "felt", bottom_faces: bool = False,
                 dice: str = "white") -> None:
        self.zones = tuple(zones)
        self.size = size
        self.seed = seed
        self.surface = surface
        self.bottom_faces = bottom_faces
        self.look = dice  # the dice's colours, as the renderer names them
        self.name = "simulated"
        self._lock = threading.Lock()
        self._dice: dict[str, tuple[int, ...]] = {}
        self._throws = 0
        self._frame: np.ndarray | None = None
        self._fault: str | None = None
        self.reads = 0
        width, height = size
        self._ahead = DrawnAhead(
            lambda s: table_backdrop(s, self.size, surface=self.surface),
            depth=max(1, min(AHEAD, AHEAD_BYTES // (24 * width * height))))
        self._ahead.want(seed + 1)  # the first throws'

    def set_dice(self, seat: str, values: Sequence[int]) -> None:
        """Put ``values`` (each 1-6; usually three) in ``seat``'s zone, as if just thrown."""
        if seat not in {zone.seat for zone in self.zones}:
            seats = ", ".join(zone.seat for zone in self.zones)
            raise ValueError(f"the simulated camera has no zone for seat {seat!r}; "
                             f"zones are: {seats}")
        if not all(is_die(v) for v in values):
            raise ValueError(f"dice values must be whole numbers 1 to 6, not {list(values)}")
        with self._lock:
            self._dice[seat] = tuple(values)
            self._throws += 1
            self._frame = None

    def set_zones(self, zones: Iterable[Zone]) -> None:
        """Draw each seat's dice in ``zones`` from now on (the referee moved the zones)."""
        with self._lock:
            self.zones = tuple(zones)
            self._frame = None

    def clear(self, seat: str) -> None:
        """Take ``seat``'s dice off the table (the cup is lifted and the dice gathered)."""
        with self._lock:
            if self._dice.pop(seat, None) is not None:
                self._frame = None

    def dice(self) -> dict[str, tuple[int, ...]]:
        """What is on the table now, seat -> values."""
        with self._lock:
            return dict(self._dice)

    def truth(self) -> list[tuple[str, int, tuple[int, int, int, int]]]:
        """Where each die is drawn now: (seat, value on top, box of its top face in the
        frame), what a test checks a known throw or a read against."""
        with self._lock:
            dice, seed = dict(self._dice), self.seed + self._throws
        spec = table_scene(self.zones, dice, seed, self.size, surface=self.surface,
                           colour=self.look, bottom_faces=self.bottom_faces)
        seats = [seat for seat, values in dice.items() for _ in values]
        values = [v for values in dice.values() for v in values]
        return [(seat, value, top_face_box(die))
                for seat, value, die in zip(seats, values, spec.dice, strict=True)]

    def unplug(self) -> None:
        """From now on ``read()`` fails as an unplugged camera does, until :meth:`replug`."""
        with self._lock:
            self._fault = "unplugged"

    def black(self) -> None:
        """From now on the camera gives black frames (lens cap on), until :meth:`replug`."""
        with self._lock:
            self._fault = "black"

    def replug(self) -> None:
        """Undo :meth:`unplug` or :meth:`black`."""
        with self._lock:
            self._fault = None

    def read(self) -> np.ndarray:
        self._check_open()
        with self._lock:
            fault, frame = self._fault, self._frame
            dice, seed = dict(self._dice), self.seed + self._throws
        if fault == "unplugged":
            raise CameraError(
                f"camera {self.name!r} stopped giving frames: camera unplugged? check the cable "
                "(simulated fault: call replug())"
            )
        if fault == "black":
            width, height = self.size
            return check_frame(self.name, np.zeros((height, width, 3), np.uint8))
        if frame is None:
            frame = check_frame(self.name, render_table(
                self.zones, dice, seed, self.size, surface=self.surface, colour=self.look,
                bottom_faces=self.bottom_faces, drawn=self._ahead.take(seed)))
            with self._lock:
                if self._throws + self.seed == seed and self._dice == dice:
                    self._frame = frame
            self._ahead.want(seed + 1)  # the next throws'
        self.reads += 1
        return frame.copy()

    def _release(self) -> None:
        self._ahead.close()

