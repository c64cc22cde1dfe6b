"""A USB webcam through OpenCV's ``cv2.VideoCapture`` (V4L2 on the Pi and on Linux laptops).

OpenCV only says "not opened" or returns ``False`` from ``read()``; this wrapper turns both into
a :class:`CameraError` that names the device and tells the pub what to check.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.errors import CameraError
from hardware.cameras.base import BaseSource, check_frame


def device_path(index_or_path: int | str) -> str:
    """``0`` -> ``/dev/video0``; a path is kept as it is."""
    return f"/dev/video{index_or_path}" if isinstance(index_or_path, int) else index_or_path


class UsbCamera(BaseSource):
    """A webcam at ``index_or_path`` (``0`` or ``"/dev/video0"``), asked for width x height."""

    def __init__(self, index_or_path: int | str = 0, width: int = 640, height: int = 480) -> None:
        self.device = device_path(index_or_path)
        self.name = f"usb:{index_or_path}"
        self._capture = cv2.VideoCapture(index_or_path)
        if not self._capture.isOpened():
            self._capture.release()
            self._closed = True
            raise CameraError(
                f"no USB camera at {self.device}: check the cable and `v4l2-ctl --list-devices`"
            )
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> np.ndarray:
        self._check_open()
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(
                f"camera {self.name!r} at {self.device} stopped giving frames: camera unplugged? "
                "check the USB cable, then `v4l2-ctl --list-devices`"
            )
        return check_frame(self.name, frame)

    def _release(self) -> None:
        self._capture.release()
