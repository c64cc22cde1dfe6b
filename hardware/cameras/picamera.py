"""The Raspberry Pi camera (CSI ribbon) through picamera2, with exposure locked once settled.

Why lock: the dice reader compares pips with the table around them. With auto-exposure running,
a hand or a sleeve over the table changes the brightness of every frame; after the camera has
settled on the empty table, exposure, gain and white balance are frozen at those values.

``picamera2`` is imported only here, inside ``PiCamera()``: it exists only on Pi OS (the
``python3-picamera2`` package), and the rest of the program must run on a laptop.
We ask for ``RGB888``, which libcamera lays out as B, G, R bytes: exactly OpenCV's BGR order.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from engine.errors import CameraError
from hardware.cameras.base import BaseSource, check_frame

#: Frames to let auto-exposure and white balance settle before locking them (~1 s at 30 fps).
SETTLE_FRAMES = 30


class PiCamera(BaseSource):
    """Camera ``camera_num`` on the Pi's camera connector, ``width`` x ``height`` BGR frames."""

    def __init__(self, camera_num: int = 0, width: int = 640, height: int = 480, *,
                 settle_frames: int = SETTLE_FRAMES) -> None:
        self.name = f"picamera:{camera_num}"
        self._camera: Any = None
        self.locked: dict[str, object] = {}
        try:
            module = importlib.import_module("picamera2")
        except ImportError as exc:
            self._closed = True
            raise CameraError(
                f"camera {self.name!r} needs the picamera2 library, which is not installed: "
                "on Pi OS run `sudo apt install python3-picamera2` and create the venv with "
                "`python3 -m venv --system-site-packages`"
            ) from exc
        picamera2 = module.Picamera2
        try:
            found = picamera2.global_camera_info()
        except Exception as exc:  # libcamera itself failed: report it, do not crash the table
            self._closed = True
            raise CameraError(f"camera {self.name!r}: libcamera failed ({exc}); check "
                              "`rpicam-hello --list-cameras`") from exc
        if camera_num >= len(found):
            self._closed = True
            raise CameraError(
                f"no Pi camera number {camera_num} is connected ({len(found)} found): check the "
                "ribbon cable (contacts the right way round, latch closed) and "
                "`rpicam-hello --list-cameras`"
            )
        try:
            self._camera = picamera2(camera_num)
            config = self._camera.create_still_configuration(
                main={"format": "RGB888", "size": (width, height)}, buffer_count=2)
            self._camera.configure(config)
            self._camera.start()
            self._settle_and_lock(settle_frames)
        except CameraError:
            self.close()
            raise
        except Exception as exc:
            self.close()
            raise CameraError(
                f"camera {self.name!r} could not start ({exc}): check that no other program "
                "uses it and that the user is in the video group"
            ) from exc

    def _settle_and_lock(self, settle_frames: int) -> None:
        metadata: dict[str, Any] = {}
        for _ in range(max(1, settle_frames)):
            metadata = self._camera.capture_metadata()
        controls: dict[str, object] = {"AeEnable": False}
        for key in ("ExposureTime", "AnalogueGain"):
            if key not in metadata:
                raise CameraError(f"camera {self.name!r} reports no {key}, so exposure cannot "
                                  "be locked: update Pi OS (`sudo apt full-upgrade`)")
            controls[key] = metadata[key]
        if "ColourGains" in metadata:
            controls["AwbEnable"] = False
            controls["ColourGains"] = tuple(metadata["ColourGains"])
        self._camera.set_controls(controls)
        self.locked = controls

    def read(self) -> np.ndarray:
        self._check_open()
        try:
            frame = self._camera.capture_array("main")
        except Exception as exc:
            raise CameraError(
                f"camera {self.name!r} stopped giving frames ({exc}): camera unplugged? check "
                "the ribbon cable, then `rpicam-hello --list-cameras`"
            ) from exc
        return check_frame(self.name, frame)

    def _release(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
            finally:
                self._camera.close()
