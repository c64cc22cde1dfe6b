"""The one interface every camera offers, and the check that keeps unusable frames out.

Like gpiozero's pin factories, the rest of the program never knows which camera it has: the
Pi camera, a USB webcam, a folder of photos, a recorded video or the simulator all give
``read() -> BGR uint8 HxWx3`` and ``close()``. A camera that fails says so with a
:class:`~engine.errors.CameraError` naming the device and what to check, so the table can
show it and offer manual entry by the referee instead of stopping the game.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, runtime_checkable

import numpy as np

from engine.errors import CameraError

#: A frame whose brightest tenth is darker than this (0-255) is black: lens cap, no light.
BLACK_LEVEL = 16
#: A frame with less spread than this (standard deviation, 0-255) shows nothing: blank.
BLANK_SPREAD = 1.5


@runtime_checkable
class FrameSource(Protocol):
    """Anything that gives camera frames: ``name`` for messages, ``read()``, ``close()``."""

    name: str

    def read(self) -> np.ndarray:
        """The next frame, BGR uint8, shape (height, width, 3). Raises ``CameraError``."""
        ...

    def close(self) -> None:
        """Release the device; safe to call twice."""
        ...

    def __enter__(self) -> FrameSource: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


class BaseSource:
    """Shared plumbing: the context manager, an idempotent close and a closed-read error."""

    name: str = "camera"
    _closed: bool = False

    def __enter__(self) -> BaseSource:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._release()

    def _release(self) -> None:
        """Free the device (subclasses); called once, by :meth:`close`."""

    def _check_open(self) -> None:
        if self._closed:
            raise CameraError(
                f"camera {self.name!r} is closed: open it again (restart the table) to read frames"
            )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}{' closed' if self._closed else ''}>"


def check_frame(name: str, frame: object) -> np.ndarray:
    """Return ``frame`` if it is a usable BGR picture, else raise a ``CameraError`` saying why.

    Refuses no frame, a wrong shape or type, a black frame (lens cap, lights off, exposure
    far too short) and a blank one (all one colour: covered, out of focus, overexposed).
    """
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0:
        raise CameraError(
            f"camera {name!r} gave no picture: check that it is connected and not used by "
            "another program"
        )
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise CameraError(
            f"camera {name!r} gave a {frame.dtype} frame of shape {frame.shape}, not a colour "
            "picture (height x width x 3, 8-bit): check its pixel format setting"
        )
    small = frame[::4, ::4]
    if float(np.percentile(small, 90)) < BLACK_LEVEL:
        raise CameraError(
            f"camera {name!r} returns black frames: check the lens cap, the lighting and the "
            "exposure"
        )
    if float(small.std()) < BLANK_SPREAD:
        raise CameraError(
            f"camera {name!r} returns blank frames (all one colour): check that nothing covers "
            "the lens, the focus and the exposure"
        )
    return frame
