"""Dice moved onto made-up surfaces for the face classifier (``corpus.composed_patch``,
``corpus.class_sample``'s ``composed``, ``python -m vision.train --composed``).

Rules checked: a composed patch keeps the die (its face, its value, size and place) and replaces
the table around it; composed patches make ``COMPOSED`` of the crops that are not mined; and
without them the crops are drawn exactly as before. PyTorch is not needed.
"""

from __future__ import annotations

import math

import numpy as np

from vision import corpus


def grey_table_with_white_face() -> corpus.Patch:
    """A 40 px white face on a flat grey table, as :func:`corpus.patch_at` cuts it."""
    image = np.full((162, 162, 3), 60, np.uint8)
    image[61:101, 61:101] = 255
    return corpus.Patch(image, (81.0, 81.0), 40.0, 4)


def test_a_composed_patch_keeps_the_die_and_replaces_the_table():
    die = grey_table_with_white_face()
    for seed in range(10):
        moved = corpus.composed_patch(die, np.random.default_rng(seed))
        assert (moved.centre, moved.size, moved.value) == (die.centre, die.size, die.value)
        assert moved.image.shape == die.image.shape and moved.image.dtype == np.uint8
        # the face is still there (a shadow may darken its edge, never its middle)
        assert np.array_equal(moved.image[71:91, 71:91], die.image[71:91, 71:91])
        # the flat grey table is gone from the corners
        corner = moved.image[:30, :30].astype(int)
        assert np.abs(corner - 60).mean() > 3 or corner.std() > 3


def test_composed_patches_make_their_share_of_crops_that_are_not_mined():
    die = grey_table_with_white_face()
    # told apart by value: the die is a 4, the composed patch a 2; "not a die" crops say nothing
    composed = corpus.Patch(die.image.copy(), die.centre, die.size, 2)
    rng = np.random.default_rng(5)
    values = [corpus.class_sample([die], rng, composed=[composed])[1] for _ in range(2000)]
    twos, fours = values.count(2), values.count(4)
    assert math.isclose(twos / (twos + fours), corpus.COMPOSED, abs_tol=0.04)


def test_without_composed_patches_the_crops_are_drawn_as_before():
    die = grey_table_with_white_face()
    a = corpus.class_sample([die], np.random.default_rng(9))
    for b in (corpus.class_sample([die], np.random.default_rng(9), composed=[]),
              corpus.class_sample([die], np.random.default_rng(9), composed=None)):
        assert np.array_equal(a[0], b[0]) and a[1] == b[1]
