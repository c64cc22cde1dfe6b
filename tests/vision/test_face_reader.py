"""The reader on the pretrained network (vision/learned/face_reader.py): its one rule, its scales,
and
the clear errors of a model it cannot use."""

from __future__ import annotations

import pathlib
import shutil

import numpy as np
import pytest

from engine.errors import VisionError
from vision.learned import decision, face_reader
from vision.learned.decision import CUT_BY_EDGE, Place, decide
from vision.learned.face_model import Head, load_head
from vision.learned.face_reader import Settings, scales
from vision.learned.networks import MODELS

T = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9}


def place(value: int = 4, p: float = 0.95, no_die: float = 0.0, centre=(100.0, 100.0),
          size: float = 40.0, score: float = 0.9, cut: bool = False,
          pips: int | None = None) -> Place:
    probs = np.full(7, (1 - p - no_die) / 5, np.float32)
    probs[0], probs[value] = no_die, p
    return Place(centre, size, score, probs, np.zeros(4, np.float32), cut, pips=pips)


def test_a_value_is_given_only_at_min_value_or_above():
    dice, unsure = decide([place(p=0.95), place(p=0.85, centre=(300.0, 100.0))], T)
    assert [d.value for d in dice] == [4] and dice[0].confidence == pytest.approx(0.95)
    assert len(unsure) == 1 and "not sure of the value (4: 85.0%)" in unsure[0].reason


def test_a_value_under_min_value_is_given_when_its_pips_make_the_same_value_at_agree():
    """Two readings agree: the network's best value at ``agree`` or more and the pips counted
    there. A count of another value, or none, leaves the die unsure; without ``agree`` (a
    model or table from before it) the pips add no value."""
    t = {**T, "agree": 0.5}
    agreed = place(p=0.6, pips=4)
    other = place(p=0.6, pips=3, centre=(300.0, 100.0))
    uncounted = place(p=0.6, centre=(500.0, 100.0))
    weak = place(p=0.4, pips=4, centre=(700.0, 100.0))
    dice, unsure = decide([agreed, other, uncounted, weak], t)
    assert [(d.value, d.box) for d in dice] == [(4, agreed.box)] and len(unsure) == 3
    assert dice[0].confidence == pytest.approx(0.6)
    assert decide([agreed], T)[0] == []


def test_a_place_that_is_surely_no_die_is_dropped_not_unsure():
    dice, unsure = decide([place(p=0.3, no_die=0.6)], T)
    assert dice == [] and unsure == []


def test_of_two_places_on_one_die_the_one_more_surely_a_die_stays():
    sure = place(value=5, p=0.97, no_die=0.01)
    doubtful = place(value=2, p=0.5, no_die=0.3, centre=(108.0, 104.0))
    dice, unsure = decide([doubtful, sure], T)
    assert [d.value for d in dice] == [5] and unsure == []


def test_a_die_cut_by_the_picture_edge_is_unsure_however_sure_it_reads():
    dice, unsure = decide([place(p=0.999, cut=True)], T)
    assert dice == [] and unsure[0].reason == CUT_BY_EDGE


def test_a_proposal_the_detector_doubts_is_not_read():
    assert decide([place(score=0.2)], T) == ([], [])


def test_a_place_the_detector_doubts_is_a_die_when_the_network_is_sure_of_it():
    """The second tier (``sure_die``): a die of a make the detector never saw scores low, yet
    the network reads it surely; down to PROPOSAL_FLOOR its certainty is enough."""
    t = {**T, "sure_die": 0.003}
    sure = place(value=3, p=0.999, no_die=0.001, score=0.25)
    assert [d.value for d in decide([sure], t)[0]] == [3]
    doubted = place(value=3, p=0.99, no_die=0.005, score=0.25)
    assert decide([doubted], t) == ([], [])
    below_floor = place(value=3, p=0.999, no_die=0.001, score=decision.PROPOSAL_FLOOR / 2)
    assert decide([below_floor], t) == ([], [])


def test_the_reader_looks_as_low_as_its_thresholds_can_take_a_die():
    assert decision.lowest_score(T) == 0.3
    assert decision.lowest_score({**T, "sure_die": 0.003}) == decision.PROPOSAL_FLOOR


def test_a_known_die_size_reads_the_picture_at_one_scale():
    assert scales(4000, 3000, Settings(die_size=140.0)) == [face_reader.DETECT_AT / 140.0]
    assert len(scales(4000, 3000, Settings())) > 1


def test_a_model_folder_missing_a_file_is_named(tmp_path):
    shutil.copy(MODELS / "detector.onnx", tmp_path)
    with pytest.raises(VisionError, match="faces.onnx, head.npz missing"):
        face_reader.Model(tmp_path)


def test_a_broken_head_says_which_file_and_what_to_do(tmp_path):
    path = tmp_path / "table.head.npz"
    path.write_bytes(b"not numpy")
    with pytest.raises(VisionError, match="table.head.npz is not a dice reader head"):
        load_head(path)
    Head(np.zeros((7, 3), np.float32), np.zeros(7, np.float32)).save(path)
    with pytest.raises(VisionError, match="does not fit the dice reader's network"):
        load_head(path, features=256)


def test_the_head_gives_probabilities_that_sum_to_one():
    rng = np.random.default_rng(0)
    head = Head(rng.normal(size=(7, 5)).astype(np.float32), np.zeros(7, np.float32), 2.0)
    p = head.probabilities(rng.normal(size=(3, 5)))
    assert p.shape == (3, 7) and np.allclose(p.sum(axis=1), 1, atol=1e-5)


def test_the_shipped_model_loads_and_its_thresholds_are_its_own():
    model = face_reader.load(MODELS)
    assert set(model.thresholds) == set(decision.DEFAULTS)
    assert model.faces.features == model.head.weight.shape[1]


def test_a_blank_picture_is_an_error_not_an_empty_table():
    with pytest.raises(VisionError):
        face_reader.read_dice(np.zeros((480, 640, 3), np.uint8))


def test_the_reader_never_imports_pytorch():
    source = pathlib.Path(face_reader.__file__).read_text()
    assert "torch" not in source.replace("PyTorch", "")


PHOTO = pathlib.Path(__file__).parents[1] / "data" / "dice" / "topdown-colour"


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    import cv2

    return cv2.imread(str(sorted(PHOTO.glob("*.jpg"))[0]))


def test_a_place_the_sizing_takes_for_no_die_is_not_read_in_its_views(photo):
    """The model's own head reads only what its sizing did not already rule out; what a
    table's head is fitted on (every_place) holds those places too, and the dice read are
    the same either way (NO_DIE_AT_SIZING is above the loosest not_a_die)."""
    model = face_reader.load(MODELS)
    spots, no_die = face_reader.sized(photo, face_reader.propose(photo, model, Settings(), 0.2),
                                      model)
    assert (no_die >= face_reader.NO_DIE_AT_SIZING).any() and (no_die < 0.5).any()
    read = face_reader.look(photo, model, Settings(), 0.2)
    every = face_reader.look(photo, model, Settings(), 0.2, every_place=True)
    assert len(every) == len(spots)
    assert len(read) == int((no_die < face_reader.NO_DIE_AT_SIZING).sum()) < len(every)
    assert decide(read, model.thresholds) == decide(every, model.thresholds)


def test_a_table_head_gives_the_value_and_the_model_head_says_whether_it_is_a_die(
        photo, tmp_path):
    """A table's head, fitted on a few dozen places, reads values; whether a place is a die
    stays the model's head's (a head sure that everything is a six reads sixes, and no more
    places as dice than the model's own)."""
    six = Head(np.zeros((7, load_head(MODELS / "head.npz").weight.shape[1]), np.float32),
               np.array([0, 0, 0, 0, 0, 0, 30], np.float32), 1.0)
    six.save(tmp_path / "six.head.npz")
    own = face_reader.Model(MODELS, tmp_path / "six.head.npz")
    model = face_reader.load(MODELS)
    mine = face_reader.look(photo, own, Settings(), 0.2)
    theirs = face_reader.look(photo, model, Settings(), 0.2)
    assert [p.centre for p in mine] == [p.centre for p in theirs]
    assert np.allclose([p.probs[0] for p in mine], [p.probs[0] for p in theirs], atol=1e-5)
    assert all(p.value == 6 for p in mine)
    assert np.allclose([p.probs.sum() for p in mine], 1.0, atol=1e-5)


def test_a_known_die_size_is_every_place_s_size_and_costs_no_sizing(photo):
    model = face_reader.load(MODELS)
    proposed = face_reader.propose(photo, model, Settings(die_size=50.0), 0.3)
    spots, _ = face_reader.sized(photo, proposed, model, die_size=50.0)
    assert proposed and {size for _, size, _ in spots} == {50.0}
