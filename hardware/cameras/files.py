"""Frames from files: a folder of photos or a video, to replay a recorded game or to calibrate.

Replaying what the camera saw through the same ``FrameSource`` interface means the controller,
the reader and the dashboard are exercised exactly as at the table, without a camera.
"""

from __future__ import annotations

import pathlib

import cv2
import numpy as np

from engine.errors import CameraError
from hardware.cameras.base import BaseSource, check_frame

#: Picture files a FolderSource reads, by suffix (lower case).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class FolderSource(BaseSource):
    """The pictures of a folder in name order, one per ``read()``.

    With ``loop=True`` (the default) it starts again after the last picture, like a camera that
    never runs dry; with ``loop=False`` reading past the last picture raises ``CameraError``.
    """

    def __init__(self, directory: str | pathlib.Path, *, loop: bool = True) -> None:
        self.directory = pathlib.Path(directory)
        self.name = f"folder:{self.directory}"
        self.loop = loop
        if not self.directory.is_dir():
            self._closed = True
            raise CameraError(
                f"camera {self.name!r}: there is no folder {self.directory}; check [camera] "
                "device in the config"
            )
        self.paths = sorted(p for p in self.directory.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.paths:
            self._closed = True
            raise CameraError(
                f"camera {self.name!r}: the folder has no pictures "
                f"({', '.join(IMAGE_SUFFIXES)}); put the recorded frames there"
            )
        self.position = 0

    def read(self) -> np.ndarray:
        self._check_open()
        if self.position >= len(self.paths):
            if not self.loop:
                raise CameraError(
                    f"camera {self.name!r} has shown all {len(self.paths)} pictures: the replay "
                    "is over"
                )
            self.position = 0
        path = self.paths[self.position]
        self.position += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(
                f"camera {self.name!r}: {path.name} is not a picture OpenCV can read; remove or "
                "replace it"
            )
        return check_frame(self.name, frame)


class VideoFileSource(BaseSource):
    """The frames of a video file in order; ``loop=True`` rewinds at the end."""

    def __init__(self, path: str | pathlib.Path, *, loop: bool = False) -> None:
        self.path = pathlib.Path(path)
        self.name = f"video:{self.path}"
        self.loop = loop
        if not self.path.is_file():
            self._closed = True
            raise CameraError(
                f"camera {self.name!r}: there is no video file {self.path}; check [camera] "
                "device in the config"
            )
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            self._capture.release()
            self._closed = True
            raise CameraError(
                f"camera {self.name!r}: OpenCV cannot open {self.path.name} as a video; "
                "convert it to MP4 (H.264) or AVI (MJPG)"
            )

    def read(self) -> np.ndarray:
        self._check_open()
        ok, frame = self._capture.read()
        if not ok and self.loop:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.name!r} has reached the end of the video: the "
                              "replay is over")
        return check_frame(self.name, frame)

    def _release(self) -> None:
        self._capture.release()
