"""Touching dice whose pips joined one group: the straight cut of vision.faces.split_touching.

Rule (docs/vision.md, "Touching dice"): a group that fits no layout is cut in two along a
straight line between its pips; the cut counts only when both sets read as faces with every
check and are about the same size, and only a group with exactly one such cut is read.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.evaluate import Label, score_reading
from vision.reader import ReaderSettings, read_dice
from vision.render import random_scene, render_scene

NO_LOOK = ReaderSettings(second_look=False)  # the cut alone, without the learned second look


@pytest.mark.parametrize(
    ("seed", "colour"),
    [(5, "white"), (6, "white"), (13, "blue"), (13, "black"), (17, "white"), (18, "white")],
)
def test_two_touching_dice_whose_pips_joined_are_cut_apart_and_both_read(seed, colour):
    # rendered pairs found by comparing the reader with and without the cut on seeds 0-18
    image, truth = render_scene(random_scene(seed, 2, touching_pairs=1, colour=colour), seed)
    without = read_dice(image, ReaderSettings(split_touching=False, second_look=False))
    assert without.dice == ()
    assert [u.reason for u in without.unsure] == [
        "more than six pips together: touching dice or side faces"
    ]
    reading = read_dice(image, NO_LOOK)
    assert sorted(d.value for d in reading.dice) == sorted(t.value for t in truth)
    assert reading.unsure == ()
    for die in reading.dice:  # each box lies on its own die
        x, y, w, h = die.box
        assert any(
            t.box[0] <= x + w / 2 <= t.box[0] + t.box[2]
            and t.box[1] <= y + h / 2 <= t.box[1] + t.box[3]
            and t.value == die.value
            for t in truth
        )


def _pip_grid(columns: int, rows: int = 2, step: int = 16) -> np.ndarray:
    """Rows x columns of pips on one white patch: no edge anywhere between them."""
    pad = 14
    w, h = (columns - 1) * step + 2 * pad, (rows - 1) * step + 2 * pad
    image = np.full((h + 80, w + 80, 3), 120, np.uint8)
    cv2.rectangle(image, (40, 40), (40 + w, 40 + h), (235, 235, 235), -1)
    for c in range(columns):
        for r in range(rows):
            centre = (40 + pad + c * step, 40 + pad + r * step)
            cv2.circle(image, centre, 5, (30, 30, 30), -1, lineType=cv2.LINE_AA)
    return image


def test_pips_that_can_be_shared_out_two_ways_stay_unsure():
    # two rows of five: a 4 and a 6 either way round; the cut cannot tell which
    reading = read_dice(_pip_grid(5), NO_LOOK)
    assert reading.dice == ()
    assert reading.unsure != ()


def test_two_faces_cut_from_one_patch_with_no_edge_between_them_stay_unsure():
    # two rows of four cut into two 4s, but with no dark line between them they may be two
    # faces of one die (vision.faces.one_face_per_die), so no value is given
    reading = read_dice(_pip_grid(4), NO_LOOK)
    assert reading.dice == ()
    assert [u.reason for u in reading.unsure] == ["two faces of one die could be its top face"]


def test_the_cut_is_never_asked_for_a_group_that_reads_as_is():
    image, truth = render_scene(random_scene(3, 3, values=[6, 5, 4]), 3)
    assert read_dice(image, NO_LOOK) == read_dice(
        image, ReaderSettings(split_touching=False, second_look=False)
    )
    assert sorted(d.value for d in read_dice(image, NO_LOOK).dice) == [4, 5, 6]


@pytest.mark.parametrize("colour", ["blue", "red", "black"])
@pytest.mark.parametrize(("seed", "values"), [(0, [4, 6]), (1, [3, 4])])
def test_touching_dark_dice_are_two_dice_by_a_line_relative_to_their_level(seed, colour, values):
    # the rim between two touching blue, red or black dice is darker than their faces by
    # less than 40 grey levels (their whole level is 30-90): judged by the absolute line only,
    # the two read faces were "two faces of one die" and both dice were lost
    image, truth = render_scene(random_scene(seed, 2, touching_pairs=1, colour=colour), seed)
    assert sorted(t.value for t in truth) == values
    absolute_only = read_dice(image, ReaderSettings(gap_fraction=1.0, second_look=False))
    reasons = [u.reason for u in absolute_only.unsure]
    assert reasons == ["two faces of one die could be its top face"]
    reading = read_dice(image, NO_LOOK)
    assert sorted(d.value for d in reading.dice) == values
    assert reading.unsure == ()


def test_a_dark_die_with_its_side_face_showing_is_not_read_as_two_dice():
    # a black die with a side face showing (rendered side 0.2): the rim between its top face
    # and its side face is as dark as between two dice, but the faces are closer than a side
    # apart and differ in size; with the relative line alone the side face read as an extra 2
    spec = random_scene(640306, 7, colour="black", surface="glass", side=0.2, noise=2.9)
    image, truth = render_scene(spec, 640306)
    labels = [Label(t.value, tuple(float(v) for v in t.box)) for t in truth]
    score = score_reading(read_dice(image), labels)
    assert score.extra == 0 and score.wrong == 0, score.summary()
    assert score.right >= 6
