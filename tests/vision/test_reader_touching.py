"""Touching dice whose pips joined one group: the straight cut of vision/rules/faces/touching.py.

Rule (docs/vision.md, "Touching dice"): a group that fits no layout is cut in two along a
straight line between its pips; the cut counts only when both sets read as faces with every
check and are about the same size, and only a group with exactly one such cut is read.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from simulator.random_scenes import random_scene
from simulator.render import DieSpec, Glare, SceneSpec, dice_colours, render_scene
from vision.rules.faces.read import read_exact
from vision.rules.faces.touching import _lone_one
from vision.rules.pips import contrast_maps, find_pips
from vision.rules.reader import ReaderSettings, read_dice
from vision_lab.evaluate import Label, score_reading

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
    # faces of one die (vision.rules.faces.one_per_die), so no value is given
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


@pytest.mark.parametrize(
    ("seed", "colour", "values"),
    [(14, "blue", [1, 5]), (23, "blue", [1, 5]), (25, "white", [1, 4]), (25, "blue", [1, 4])],
)
def test_a_1_touching_another_die_is_cut_off_as_a_lone_pip(seed, colour, values):
    # the 1's pip linked to the pips of the die against it: no layout, and no cut into two
    # sets of two or more pips; the lone pip, read with the other die's pips left out of its
    # neighbourhood, lies a face side from the other face's centre, as a touching 1 does
    image, truth = render_scene(random_scene(seed, 2, touching_pairs=1, colour=colour), seed)
    assert sorted(t.value for t in truth) == values
    without = read_dice(image, ReaderSettings(split_touching=False, second_look=False))
    assert [u.reason for u in without.unsure] == ["the pips do not form a die pattern"]
    reading = read_dice(image, NO_LOOK)
    assert sorted(d.value for d in reading.dice) == values
    assert reading.unsure == ()


def _four_and_a_pip(dx: int) -> tuple:
    """A drawn 4 (unit 12 px) and one more pip dx px right of its centre: pips and maps."""
    image = np.full((200, 300, 3), 120, np.uint8)
    cv2.rectangle(image, (40, 40), (260, 160), (235, 235, 235), -1)
    for gx, gy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        cv2.circle(image, (100 + 12 * gx, 100 + 12 * gy), 5, (30, 30, 30), -1, cv2.LINE_AA)
    cv2.circle(image, (100 + dx, 100), 5, (30, 30, 30), -1, cv2.LINE_AA)
    s = ReaderSettings()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    maps = contrast_maps(gray, s.pip_window, image, s.place_radius, s.glare_level, s.glare_area)
    pips = find_pips(
        maps, min_contrast=s.min_contrast, min_area=s.min_pip_area, max_area=s.max_pip_area,
        max_elongation=s.max_elongation, min_fill=s.min_fill, max_ring_spread=s.max_ring_spread,
        max_ring_gap=s.max_ring_gap, split_level=s.split_level,
    )
    lone = np.array([int(np.argmax(pips.x))])
    four = np.array([i for i in range(len(pips)) if i != lone[0]])
    face = read_exact(four, pips, maps, s.rules())
    assert face.value == 4
    return lone, four, face, pips, maps, s.rules()


def test_a_lone_pip_is_cut_off_as_a_1_only_where_a_touching_1_would_lie():
    # the 4's face is about 44 px wide; a touching 1's pip lies 0.85-1.6 of that from its centre
    near = _lone_one(*_four_and_a_pip(30))  # 0.68 of a side: on the 4's own die
    assert near is None
    touching = _lone_one(*_four_and_a_pip(46))  # 1.05 of a side
    assert touching is not None and touching.value == 1
    far = _lone_one(*_four_and_a_pip(80))  # 1.8 of a side: not touching
    assert far is None


def test_a_pip_just_beyond_a_faces_edge_is_not_cut_off_as_a_1():
    # a 4 on a white patch with one more pip 0.6 of a side from its centre: closer than a
    # touching 1 could lie (0.85 of a side at least), so no 1 and no split
    image = np.full((200, 240, 3), 120, np.uint8)
    cv2.rectangle(image, (40, 40), (200, 160), (235, 235, 235), -1)
    for gx, gy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        cv2.circle(image, (100 + 12 * gx, 100 + 12 * gy), 5, (30, 30, 30), -1, cv2.LINE_AA)
    cv2.circle(image, (127, 100), 5, (30, 30, 30), -1, cv2.LINE_AA)
    reading = read_dice(image)
    assert reading.dice == ()
    assert [u.reason for u in reading.unsure] == ["the pips do not form a die pattern"]


def _row_of_three(values, colour, centre, step, angle, surface="felt"):
    """Three dice of one colour pressed together in a row (the renderer's DieSpec)."""
    body, pips = dice_colours(colour)
    a = math.radians(angle)
    dice = tuple(
        DieSpec(v, (centre[0] + k * step * math.cos(a), centre[1] + k * step * math.sin(a)), step,
                angle, body, pips)
        for k, v in enumerate(values)
    )
    return SceneSpec(surface=surface, dice=dice, noise=2.0)


@pytest.mark.parametrize(
    ("values", "colour", "step", "angle"),
    [
        ([5, 4, 4], "blue", 53.5, 68.2),
        ([6, 5, 1], "white", 43.8, 49.0),
        ([1, 3, 5], "blue", 47.4, 33.6),
    ],
)
def test_three_dice_pressed_together_in_a_row_are_cut_apart(values, colour, step, angle):
    # their pips joined one group of up to 18: cut off one face, then cut the rest in two
    image, truth = render_scene(_row_of_three(values, colour, (300.0, 230.0), step, angle), 0)
    without = read_dice(image, ReaderSettings(split_touching=False, second_look=False))
    assert without.dice == ()
    reading = read_dice(image)
    assert sorted(d.value for d in reading.dice) == sorted(values)
    assert reading.unsure == ()


def test_a_face_cut_from_touching_dice_counts_only_when_the_second_look_confirms_it():
    # three green dice (3, 3, 1) under a glare: the glare took a pip of the left 3, and the
    # cut shared its bottom pip and the 1's pip out as a 2. The rules alone read that wrong 2;
    # the second look, shown the patch across two dice, does not confirm it
    body, pips = dice_colours("green")
    dice = (
        DieSpec(3, (394.5, 229.9), 48.25, 15.9, body, pips),
        DieSpec(3, (440.9, 243.2), 48.25, 21.0, body, pips),
        DieSpec(1, (404.4, 283.0), 48.25, 17.0, body, pips),
    )
    spec = SceneSpec(surface="glass", dice=dice, noise=1.6,
                     glare=(Glare((386.6, 218.4), 14.5, 0.75),))
    image, truth = render_scene(spec, 124)
    rules_alone = read_dice(image, NO_LOOK)
    assert 2 in [d.value for d in rules_alone.dice]  # the wrong 2 the confirmation stops
    reading = read_dice(image)
    labels = [Label(t.value, tuple(float(v) for v in t.box)) for t in truth]
    assert score_reading(reading, labels).wrong == 0
    assert "a 2 the second look does not confirm" in [u.reason for u in reading.unsure]
