"""The simulated camera: renders the dice the simulation threw, in each seat's zone.

Off the Pi, the table runs with this instead of a lens: the simulation decides the throw,
calls ``set_dice(seat, values)``, and the real reader reads the rendered frame, so vision,
zones and controller are exercised end to end. ``unplug()`` and ``black()`` make it fail
the way real cameras do, so the controller's fallback to manual entry can be tested.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np

from engine.actions import is_die
from engine.errors import CameraError
from hardware.cameras.base import BaseSource, check_frame
from simulator.table_scenes import render_table
from vision.zones import Zone


class SimulatedCamera(BaseSource):
    """A camera over a rendered table: ``zones`` say where each seat's dice go.

    Each ``set_dice`` moves the dice (a new scene seed), as a new throw would; reading again
    without a change gives the same frame, like a still table under a fixed camera.
    """

    def __init__(self, zones: Iterable[Zone], size: tuple[int, int] = (640, 480),
                 seed: int = 0, *, surface: str = "felt", bottom_faces: bool = False) -> None:
        self.zones = tuple(zones)
        self.size = size
        self.seed = seed
        self.surface = surface
        self.bottom_faces = bottom_faces
        self.name = "simulated"
        self._lock = threading.Lock()
        self._dice: dict[str, tuple[int, ...]] = {}
        self._throws = 0
        self._frame: np.ndarray | None = None
        self._fault: str | None = None
        self.reads = 0

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
            frame = render_table(self.zones, dice, seed, self.size, surface=self.surface,
                                 bottom_faces=self.bottom_faces)
            with self._lock:
                if self._throws + self.seed == seed and self._dice == dice:
                    self._frame = frame
        self.reads += 1
        return check_frame(self.name, frame.copy())
