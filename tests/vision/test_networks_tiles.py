"""The detector read in tiles gives the cells of one pass (networks.tiled).

Rule checked (issue 11, "scale from the dice, not from the frame"): a 12 MP frame is read at
full resolution; tiling is only how, and must not change what the detector sees.
"""

from __future__ import annotations

import numpy as np

from vision.networks import MARGIN, STRIDE, as_input, load, run, tiled
from vision.render import random_scene, render_scene


def test_tiles_give_the_cells_of_one_pass() -> None:
    image = render_scene(random_scene(3, 8, size=(1000, 760), surface="felt"), 3)[0]
    detector = load()._detector
    whole = run(detector, as_input(image[None]))[0]
    parts = tiled(detector, image, tile=256)  # 4 x 3 tiles, each with its margin
    assert parts.shape == whole.shape == (8, 760 // STRIDE, 1000 // STRIDE)
    np.testing.assert_allclose(parts, whole, atol=1e-4)


def test_without_the_margin_the_tiles_would_differ() -> None:
    """The margin is what keeps the cells exact: the check above can fail."""
    image = render_scene(random_scene(3, 8, size=(1000, 760), surface="felt"), 3)[0]
    detector = load()._detector
    whole = run(detector, as_input(image[None]))[0]
    parts = tiled(detector, image, tile=256, margin=0)
    assert np.abs(parts - whole).max() > 1e-2
    assert MARGIN % 8 == 0


def test_a_small_picture_is_one_pass() -> None:
    image = np.full((480, 640, 3), 90, np.uint8)
    detector = load()._detector
    np.testing.assert_array_equal(tiled(detector, image), run(detector, as_input(image[None]))[0])
