"""Hard negatives for the face classifier (vision/mining.py, ``corpus.class_sample``'s
``negatives``).

Rules checked: what the detector proposes away from every labelled die is mined as "not a
die", and nothing near a labelled die is; mined places make ``MINED`` of the classifier's
crops, each labelled "not a die". PyTorch is not needed.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np

from vision import corpus, mining
from vision.labels import LabelledDie, LabelledPicture
from vision.networks import MODELS, Networks
from vision.render import DieSpec, SceneSpec, render_scene


def scene_with_one_die_labelled() -> tuple[np.ndarray, LabelledPicture, LabelledDie]:
    """Two dice far apart on felt; the labels hold only the left one (as a Train picture that
    leaves a die, or a die-like thing, unlabelled)."""
    spec = SceneSpec(surface="felt", dice=(DieSpec(5, (160, 240), 44), DieSpec(3, (480, 240), 44)))
    image, truth = render_scene(spec, seed=3)
    left, right = (LabelledDie(t.value, (t.box[0] + t.box[2] / 2, t.box[1] + t.box[3] / 2), 44.0)
                   for t in truth)
    return image, LabelledPicture(pathlib.Path("scene.png"), "rendered", (left,)), right


def test_a_place_the_detector_proposes_away_from_every_labelled_die_is_mined():
    image, picture, _ = scene_with_one_die_labelled()
    mined = mining.mined_patches(picture, image, Networks(MODELS))
    assert all(p.value == corpus.NOT_A_DIE for p in mined)
    # each patch is the place with 1.5 x its size around it, as a die's patch is
    assert all(p.image.shape[0] == int(4 * p.size) + 2 for p in mined)
    assert len(mined) <= mining.PER_PICTURE
    # the detector proposes the two dice and nothing else on the felt: the unlabelled one is
    # mined, the labelled one is not
    assert len(mined) == 1


def test_nothing_near_a_labelled_die_is_mined():
    image, picture, _ = scene_with_one_die_labelled()
    (die,) = picture.dice
    assert not mining.clear_of_dice(die.centre, die.size, picture)
    # a place one face beside the die (a neighbour touching it) is not clear of it either
    beside = (die.centre[0] + die.size, die.centre[1])
    assert not mining.clear_of_dice(beside, die.size, picture)
    far = (die.centre[0] + 3 * die.size, die.centre[1])
    assert mining.clear_of_dice(far, die.size, picture)


def test_mined_places_make_their_share_of_classifier_crops_each_not_a_die():
    die = corpus.Patch(np.full((162, 162, 3), 60, np.uint8), (81.0, 81.0), 40.0, 4)
    red = np.zeros((162, 162, 3), np.uint8)
    red[..., 2] = 255
    negative = corpus.Patch(red, (81.0, 81.0), 40.0, corpus.NOT_A_DIE)
    rng = np.random.default_rng(4)
    draws = [corpus.class_sample([die], rng, negatives=[negative]) for _ in range(1000)]
    # photometric changes may turn or swap colours: a mined crop is the one of one flat colour
    # unlike the die's grey, whatever it became
    mined = [v for crop, v in draws if np.ptp(crop[..., :3].astype(int).mean(axis=(0, 1))) > 40]
    assert set(mined) == {corpus.NOT_A_DIE}
    assert math.isclose(len(mined) / len(draws), corpus.MINED, abs_tol=0.04)


def test_without_mined_places_the_crops_are_drawn_as_before():
    die = corpus.Patch(np.full((162, 162, 3), 60, np.uint8), (81.0, 81.0), 40.0, 4)
    a = corpus.class_sample([die], np.random.default_rng(9))
    b = corpus.class_sample([die], np.random.default_rng(9), negatives=[])
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]
