"""A photo uploaded from the referee's phone, checked before it is decoded, and made small.

Why checked before decoding: a few kilobytes of PNG can declare a picture of 60000 x 60000
pixels, which OpenCV would try to allocate (10 GB). So the bytes must be at most
:data:`MAX_BYTES`, start as a JPEG or PNG does, and declare at most :data:`MAX_PIXELS` in
their header (read here, without decoding); only then are they decoded. The picture kept is
the decoded one, at most :data:`LONG_SIDE` pixels on its long side, encoded again: the phone's
file itself (and its EXIF: where and when it was taken) is never kept.
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

#: the largest upload taken: a phone's 12-megapixel JPEG is 3 to 6 MB
MAX_BYTES = 12 * 1024 * 1024
#: the most pixels a picture may declare (a 48-megapixel phone camera's full picture)
MAX_PIXELS = 50_000_000
#: the long side of the picture kept, in pixels: dice stay 40 pixels or more across
LONG_SIDE = 1600


class PhotoError(ValueError):
    """An upload that is not a picture the table takes: one sentence saying what to do."""


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None when none is found."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) a JPEG or PNG declares, or None when the bytes are neither."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:3] == b"\xff\xd8\xff":
        return jpeg_size(data)
    return None


def checked_photo(data: bytes) -> np.ndarray:
    """The uploaded ``data`` as a picture (BGR), at most :data:`LONG_SIDE` on its long side;
    :class:`PhotoError` saying what is wrong otherwise."""
    if not data:
        raise PhotoError("No photo came with the form; choose a photo of the dice and send "
                         "it again.")
    if len(data) > MAX_BYTES:
        raise PhotoError(f"That photo is {len(data) / 1e6:.1f} MB; the table takes photos of "
                         f"at most {MAX_BYTES // (1024 * 1024)} MB: send a smaller one.")
    size = declared_size(data)
    if size is None:
        raise PhotoError("That file is not a JPEG or PNG photo; take a photo of the dice "
                         "with the phone's camera and send that.")
    width, height = size
    if width * height > MAX_PIXELS or not width or not height:
        raise PhotoError(f"That photo says it is {width} x {height} pixels; the table takes "
                         f"at most {MAX_PIXELS // 1_000_000} megapixels: send a smaller one.")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise PhotoError("That photo cannot be decoded (a damaged or unfinished file); take "
                         "it again and send it.")
    long_side = max(image.shape[:2])
    if long_side > LONG_SIDE:
        scale = LONG_SIDE / long_side
        image = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)),
                           interpolation=cv2.INTER_AREA)
    return image
