"""The one check of what is handed to a dice reader, shared by the learned and the rule reader.

Why: a lens cap, a dead camera or a wrong array must give the same clear sentence whichever
reader runs, and an empty reading must never silently say "no dice".
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.errors import VisionError


def checked_picture(image: np.ndarray) -> np.ndarray:
    """The picture as h x w x 3 BGR or h x w grey uint8, or a VisionError saying what is wrong."""
    if image is None:
        raise VisionError(
            "No image was given to the dice reader: pass a BGR picture as a numpy array."
        )
    if not isinstance(image, np.ndarray):
        raise VisionError(
            f"The dice reader needs a numpy array, not {type(image).__name__}: "
            "load the picture with cv2.imread or a camera first."
        )
    if image.size == 0:
        raise VisionError("The image is empty (0 pixels): check the camera or the file.")
    if image.dtype != np.uint8:
        raise VisionError(
            f"The image has pixels of type {image.dtype}, the dice reader needs uint8 (8-bit) "
            "pixels: convert it, e.g. with cv2.convertScaleAbs."
        )
    if image.ndim == 3 and image.shape[2] == 3:
        picture = image
    elif image.ndim == 3 and image.shape[2] == 4:
        picture = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        picture = image.reshape(image.shape[0], image.shape[1])
    else:
        raise VisionError(
            f"The image has shape {image.shape}; the dice reader needs height x width x 3 (BGR) "
            "or height x width (grey)."
        )
    if min(picture.shape[:2]) < 16:
        raise VisionError(
            f"The image is only {picture.shape[1]}x{picture.shape[0]} pixels; the dice reader "
            "needs at least 16x16: check the camera resolution."
        )
    low, high = cv2.minMaxLoc(picture.reshape(picture.shape[0], -1))[:2]
    if high - low < 8:
        raise VisionError(
            f"The image is blank (every pixel is about level {int(low)}): the camera shows "
            "no table; check the lens cap, the light and the cable."
        )
    return np.ascontiguousarray(picture)


def load_image(path: str) -> np.ndarray:
    """The picture in ``path`` as BGR; OSError or ValueError with the cause if it is not one."""
    with open(path, "rb") as f:  # OSError says "No such file", "Is a directory", ...
        data = f.read()
    if not data:
        raise ValueError("the file is empty")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ValueError("it is not a picture OpenCV can decode (corrupt or not an image file)")
    return image
