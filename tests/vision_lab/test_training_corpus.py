"""The training corpus and the labels it is built on (vision_lab/labels.py, vision_lab/corpus.py).

Rules checked: one face-size convention across sets whose boxes differ; a calibration split cut
from Train by picture; every sample seeded and its dice where they are drawn; crops the same in
training and at the table. PyTorch is not needed for any of these.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from vision.learned.crops import CROP_SCALE, FACE_INPUT, SECOND_INPUT, Pyramid, die_crop, face_crop
from vision_lab import corpus, face_samples
from vision_lab.labels import (
    PATTERN_TO_FACE,
    LabelledDie,
    LabelledPicture,
    face_dice,
    load_set,
    split_calibration,
)

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


@pytest.fixture(scope="module")
def pictures() -> list[LabelledPicture]:
    return [p for name in ("webcam-wood", "topdown-colour", "oblique-colour")
            for p in load_set(DATA / name, name)]


def test_pattern_boxes_become_face_sizes_and_a_lone_one_borrows_its_neighbours(tmp_path):
    # a 2 whose pip pattern is 20 px, and a 1 whose label is only its pip (6 px)
    (tmp_path / "p.txt").write_text("1 0.25 0.5 0.05 0.05\n0 0.75 0.5 0.015 0.015\n")
    dice = face_dice("webcam-wood", tmp_path / "p.jpg", 400, 400)
    assert dice[0].size == pytest.approx(20 * PATTERN_TO_FACE)
    assert dice[1].size == pytest.approx(20 * PATTERN_TO_FACE)


def test_whole_die_boxes_keep_their_size(tmp_path):
    (tmp_path / "p.txt").write_text("5 0.5 0.5 0.1 0.1\n")
    (die,) = face_dice("topdown-colour", tmp_path / "p.jpg", 400, 400)
    assert die == LabelledDie(6, (200.0, 200.0), pytest.approx(40.0))


def test_the_calibration_split_is_per_set_by_picture_and_fixed(pictures):
    fit, calib = split_calibration(pictures)
    assert not {p.path for p in fit} & {p.path for p in calib}
    assert len(fit) + len(calib) == len(pictures)
    assert {p.set_name for p in calib} == {"webcam-wood", "topdown-colour", "oblique-colour"}
    assert [p.path for p in split_calibration(pictures)[1]] == [p.path for p in calib]


def test_samples_are_seeded_and_their_dice_lie_on_them(pictures):
    def draw(seed: int):
        rng = np.random.default_rng(seed)
        crops = corpus.cut_crops(pictures[0], pictures[0].load())
        return [corpus.composite(crops, rng, 128), corpus.rendered(rng, 128),
                corpus.warped_photo(pictures[5], pictures[5].load(), rng, 128)]

    first, again = draw(3), draw(3)
    for (a, dice_a), (b, dice_b) in zip(first, again, strict=True):
        assert a.shape == (128, 128, 3) and np.array_equal(a, b)
        assert dice_a == dice_b
    for _, dice in first:
        for d in corpus.inside(dice, 128):
            assert 0 <= d.centre[0] < 128 and 0 <= d.centre[1] < 128 and 1 <= d.value <= 6


def test_photometric_changes_keep_the_picture_shape_and_type():
    rng = np.random.default_rng(0)
    image = (rng.random((64, 64, 3)) * 255).astype(np.uint8)
    for _ in range(20):
        out = corpus.photometric(image, rng)
        assert out.shape == image.shape and out.dtype == np.uint8


def test_second_opinion_samples_are_the_dice_and_some_places_that_are_not(pictures):
    rng = np.random.default_rng(0)
    p = pictures[0]
    samples = corpus.classifier_samples(p.load(), list(p.dice), rng, negatives=3)
    values = [v for _, v in samples]
    assert sorted(v for v in values if v) == sorted(d.value for d in p.dice)
    assert all(c.shape == (SECOND_INPUT, SECOND_INPUT, 3) for c, _ in samples)


def test_a_crop_holds_the_face_in_its_middle():
    image = np.zeros((200, 200, 3), np.uint8)
    image[90:110, 90:110] = 255  # a 20 px white face at (100, 100)
    crop = face_crop(image, (100.0, 100.0), 20.0)
    inner = int(FACE_INPUT / CROP_SCALE)
    lo = (FACE_INPUT - inner) // 2
    assert crop[lo + 2:lo + inner - 2, lo + 2:lo + inner - 2].min() > 200
    assert crop[:lo - 2].max() < 50


def test_a_large_die_is_cut_from_a_halved_copy_and_looks_like_a_small_one():
    big = np.zeros((800, 800, 3), np.uint8)
    big[300:500, 300:500] = 255  # a 200 px face
    small = np.zeros((200, 200, 3), np.uint8)
    small[75:125, 75:125] = 255  # the same face, 50 px
    a = die_crop(Pyramid(big), (400.0, 400.0), 200.0)
    b = die_crop(Pyramid(small), (100.0, 100.0), 50.0)
    assert a.shape == b.shape == (FACE_INPUT, FACE_INPUT, 3)
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 8


def test_face_classifier_crops_are_seeded_bgr_and_of_the_networks_size(pictures):
    patches = face_samples.real_patches(pictures[0], pictures[0].load())
    draw = [face_samples.class_sample(patches, np.random.default_rng(5)) for _ in range(2)]
    assert np.array_equal(draw[0][0], draw[1][0]) and draw[0][1] == draw[1][1]
    assert draw[0][0].shape == (FACE_INPUT, FACE_INPUT, 3)
    assert 0 <= draw[0][1] <= 6


def test_a_crop_is_never_turned_so_far_that_up_is_no_longer_up(pictures, monkeypatch):
    """Rule: a side face is told from a top face by where it lies in the crop (below the top
    face), so the stream turns a crop at most TURN degrees either way."""
    angles = []
    real = face_samples.die_crop

    def spy(pyramid, centre, size, angle=0.0, mirror=False, side=FACE_INPUT):
        angles.append(angle)
        return real(pyramid, centre, size, angle, mirror, side)

    monkeypatch.setattr(face_samples, "die_crop", spy)
    patches = face_samples.real_patches(pictures[0], pictures[0].load())
    rng = np.random.default_rng(4)
    for _ in range(200):
        face_samples.class_sample(patches, rng)
    assert max(abs(a) for a in angles) <= face_samples.TURN
    assert max(angles) > face_samples.TURN / 2 and min(angles) < -face_samples.TURN / 2


def test_a_tilted_rendered_die_for_the_classifier_shows_its_sides_below_its_top(monkeypatch):
    """Tilted rendered dice show their sides down the picture, as an upright camera at an
    angle sees them."""
    seen = []
    real = face_samples.rendered_die
    monkeypatch.setattr(face_samples, "rendered_die", lambda rng, size, side_dir=None: (
        seen.append(side_dir), real(rng, size, side_dir))[1])
    rng = np.random.default_rng(3)
    for _ in range(20):
        face_samples.rendered_patch(rng)
    assert len(seen) == 20 and all(0 < d < 180 for d in seen)  # below the top face
    assert 75 < np.median(seen) < 105


def test_about_a_third_of_classifier_crops_are_not_a_die_some_of_them_mis_sized(pictures):
    """A pip of a die and a crop twice its size are labelled "not a die", so that the reader's
    size search can tell a well-sized crop from a badly sized one."""
    patches = face_samples.real_patches(pictures[0], pictures[0].load())
    rng = np.random.default_rng(11)
    classes = [face_samples.class_sample(patches, rng)[1] for _ in range(600)]
    share = classes.count(corpus.NOT_A_DIE) / len(classes)
    expected = (face_samples.BESIDE + face_samples.ON_A_PIP + face_samples.TOO_LARGE
                + face_samples.SIDE_FACE)
    assert abs(share - expected) < 0.06
    assert set(classes) - {corpus.NOT_A_DIE} <= {d.value for d in pictures[0].dice}


def test_some_classifier_crops_sit_on_the_side_face_below_a_die_and_are_not_a_die(monkeypatch):
    """An oblique camera sees a die's front face below its top: that crop, a little smaller
    than the die, is "not a die" (the top face shows above it in the crop)."""
    patch = face_samples.Patch(np.full((162, 162, 3), 128, np.uint8), (81.0, 81.0), 40.0, 4)
    placed = []
    real = face_samples.die_crop

    def spy(pyramid, centre, size, angle=0.0, mirror=False, side=FACE_INPUT):
        k = pyramid.levels[0].shape[0] / patch.image.shape[0]
        placed.append(((centre[0] / k - 81) / 40, (centre[1] / k - 81) / 40, size / k / 40))
        return real(pyramid, centre, size, angle, mirror, side)

    monkeypatch.setattr(face_samples, "die_crop", spy)
    rng = np.random.default_rng(2)
    values = [face_samples.class_sample([patch], rng)[1] for _ in range(800)]
    side = [v for (dx, dy, s), v in zip(placed, values, strict=True)
            if abs(dx) <= 0.15 and 0.35 <= dy <= 0.65 and 0.5 <= s <= 0.85]
    assert set(side) == {corpus.NOT_A_DIE}
    assert abs(len(side) / len(values) - face_samples.SIDE_FACE) < 0.03
