"""Pictures the reader cannot work with raise VisionError with a sentence saying what to check."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import VisionError
from vision.reading import Reading
from vision.rules.reader import ReaderSettings, read_dice


def test_no_image_is_a_clear_error():
    with pytest.raises(VisionError) as err:
        read_dice(None)  # type: ignore[arg-type]
    assert str(err.value) == (
        "No image was given to the dice reader: pass a BGR picture as a numpy array."
    )


def test_not_an_array_is_a_clear_error():
    with pytest.raises(VisionError) as err:
        read_dice(b"\xff\xd8 jpeg bytes")  # type: ignore[arg-type]
    assert str(err.value) == (
        "The dice reader needs a numpy array, not bytes: "
        "load the picture with cv2.imread or a camera first."
    )


@pytest.mark.parametrize("shape", [(0, 0, 3), (480, 0, 3), (0,)])
def test_zero_size_image_is_a_clear_error(shape):
    with pytest.raises(VisionError) as err:
        read_dice(np.zeros(shape, np.uint8))
    assert str(err.value) == "The image is empty (0 pixels): check the camera or the file."


def test_float_pixels_are_a_clear_error():
    with pytest.raises(VisionError) as err:
        read_dice(np.random.default_rng(0).random((48, 64, 3), dtype=np.float32))
    assert str(err.value) == (
        "The image has pixels of type float32, the dice reader needs uint8 (8-bit) pixels: "
        "convert it, e.g. with cv2.convertScaleAbs."
    )


@pytest.mark.parametrize("shape", [(48, 64, 2), (48, 64, 5), (2, 48, 64, 3)])
def test_wrong_shape_is_a_clear_error(shape):
    with pytest.raises(VisionError) as err:
        read_dice(np.full(shape, 7, np.uint8))
    assert str(err.value) == (
        f"The image has shape {shape}; the dice reader needs height x width x 3 (BGR) "
        "or height x width (grey)."
    )


def test_tiny_image_is_a_clear_error():
    with pytest.raises(VisionError) as err:
        read_dice(np.arange(8 * 8 * 3, dtype=np.uint8).reshape(8, 8, 3))
    assert str(err.value) == (
        "The image is only 8x8 pixels; the dice reader needs at least 16x16: "
        "check the camera resolution."
    )


@pytest.mark.parametrize("level", [0, 128, 255])
def test_blank_image_is_an_error_not_an_empty_table(level):
    # a uniform frame means a lens cap, darkness or a dead sensor: "no dice" would be a lie
    with pytest.raises(VisionError) as err:
        read_dice(np.full((480, 640, 3), level, np.uint8))
    assert str(err.value) == (
        f"The image is blank (every pixel is about level {level}): the camera shows no table; "
        "check the lens cap, the light and the cable."
    )


def test_vision_error_is_also_a_value_error():
    with pytest.raises(ValueError):
        read_dice(np.zeros((0, 0, 3), np.uint8))


def test_noise_reads_no_dice():
    noise = np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    reading = read_dice(noise)
    assert reading.dice == ()


def test_grey_and_bgra_pictures_are_read_like_bgr():
    rng = np.random.default_rng(2)
    grey = rng.integers(100, 140, (120, 160), dtype=np.uint8)
    assert isinstance(read_dice(grey), Reading)
    bgra = np.dstack([grey, grey, grey, np.full_like(grey, 255)])
    assert read_dice(bgra) == read_dice(grey[:, :, None].repeat(3, axis=2))


def test_settings_are_one_frozen_object():
    settings = ReaderSettings()
    with pytest.raises(AttributeError):
        settings.min_contrast = 10  # type: ignore[misc]
