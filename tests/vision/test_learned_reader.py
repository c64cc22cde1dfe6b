"""The learned reader's decisions, scales and model loading, without judging the model's skill.

Rules checked (vision/reader.py): scale from the dice, not the frame; a value needs two
opinions that agree (every view of the classifier, and the detector); abstain rather than
guess; a missing or broken model is one sentence, not a traceback.
"""

from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest

from engine.errors import VisionError
from vision import learned_reader
from vision.crops import CLASS_INPUT, Pyramid, up_channel, with_up
from vision.learned_reader import (
    CUT_BY_EDGE,
    NOT_SURE,
    OPINIONS_DIFFER,
    SIZES,
    VIEWS,
    VIEWS_DIFFER,
    ReaderSettings,
    counted_at,
    decide,
    look,
    read_dice,
    scales,
)
from vision.networks import CLASSIFIERS, MODELS, Candidate, Networks, session
from vision.reading import Die, Reading, Unsure

from .conftest import WhiteSquareNets, seen

SURE = {"not_a_die": 0.5, "min_value": 0.9, "min_detector_value": 0.5, "min_views": 8}


def test_two_agreeing_opinions_give_a_value_with_its_box():
    verdict = decide(seen(4), SURE)
    assert isinstance(verdict, Die)
    assert verdict.value == 4
    assert verdict.box == (80, 60, 40, 40)
    assert 0.9 < verdict.confidence <= 1


def test_the_detector_disagreeing_makes_the_place_unsure():
    verdict = decide(seen(4, detector=5), SURE)
    assert isinstance(verdict, Unsure)
    assert verdict.reason == f"{OPINIONS_DIFFER} (4 and 5)"


def test_a_view_that_reads_otherwise_makes_the_place_unsure():
    verdict = decide(seen(6, views=7), SURE)
    assert isinstance(verdict, Unsure)
    assert verdict.reason.startswith(VIEWS_DIFFER)


def test_a_weak_value_is_not_sure_rather_than_a_guess():
    verdict = decide(seen(2, p=0.6), SURE)
    assert isinstance(verdict, Unsure)
    assert verdict.reason.startswith(NOT_SURE)


def test_a_die_cut_by_the_edge_is_unsure():
    verdict = decide(seen(3, cut=True), SURE)
    assert isinstance(verdict, Unsure) and verdict.reason == CUT_BY_EDGE


def test_what_the_classifier_takes_for_no_die_is_dropped():
    assert decide(seen(3, p=0.2, not_die=0.7), SURE) is None


def test_every_turn_and_mirror_is_a_view():
    assert len(VIEWS) == 8 and len(set(VIEWS)) == 8


def test_a_webcam_frame_is_read_at_full_resolution_and_coarser():
    levels = scales(640, 480, ReaderSettings())
    assert levels[0] == 1.0
    assert all(b < a for a, b in zip(levels, levels[1:], strict=False))
    assert ReaderSettings().max_die * levels[-1] <= 60


def test_small_dice_asked_for_are_read_enlarged():
    assert scales(640, 480, ReaderSettings(min_die=6))[0] == 2.0


def test_a_12_mp_frame_reads_12_px_dice_at_full_resolution_and_300_px_dice_too():
    levels = scales(4000, 3000, ReaderSettings())
    assert levels[0] == 1.0
    assert 300 * levels[-1] <= 60


def test_the_shipped_model_loads_with_its_thresholds():
    nets = Networks(MODELS)
    assert {"detect", "min_value", "min_detector_value", "min_views"} <= set(nets.thresholds)
    probs = nets.classify(np.zeros((2, CLASS_INPUT, CLASS_INPUT, 3), np.uint8))
    assert probs.shape == (2, 7)
    assert np.allclose(probs.sum(axis=1), 1, atol=1e-4)


def test_the_classifier_pair_reads_the_mean_of_its_two_members(tmp_path: pathlib.Path):
    """The model card's pair: ``classifier.onnx`` (BGR) and ``classifier-up.onnx`` (BGR and the
    picture's up), each read alone from a folder of its own, then together."""
    alone = []
    for name in CLASSIFIERS:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "detector.onnx").write_bytes((MODELS / "detector.onnx").read_bytes())
        (folder / "classifier.onnx").write_bytes((MODELS / name).read_bytes())
        alone.append(Networks(folder))
    rng = np.random.default_rng(4)
    crops = rng.integers(0, 256, (5, CLASS_INPUT, CLASS_INPUT, 3), dtype=np.uint8)
    first, up = (n.classify(crops) for n in alone)
    assert not np.allclose(first, up, atol=1e-3)  # two opinions, not one file twice
    assert np.allclose(Networks(MODELS).classify(crops), (first + up) / 2, atol=1e-5)


def test_each_classifier_member_reads_the_channels_it_was_trained_on():
    nets = Networks(MODELS)
    shapes = [net.get_inputs()[0].shape[1] for net in nets._classifiers]
    assert shapes == [3, 4]  # BGR; BGR and the picture's up
    crops = np.zeros((2, CLASS_INPUT, CLASS_INPUT, 3), np.uint8)
    assert np.allclose(nets.classify(crops), nets.classify(with_up(crops)), atol=1e-6)


def test_the_networks_take_as_many_threads_as_opencv_is_allowed():
    """One setting for both (the benchmark's one core is ``cv2.setNumThreads(1)``)."""
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(1)
        assert session(MODELS / "classifier.onnx").get_session_options().intra_op_num_threads == 1
        cv2.setNumThreads(2)
        assert session(MODELS / "classifier.onnx").get_session_options().intra_op_num_threads == 2
    finally:
        cv2.setNumThreads(before)


def test_a_missing_model_is_one_sentence(tmp_path: pathlib.Path):
    with pytest.raises(VisionError, match="detector.onnx, classifier.onnx missing"):
        Networks(tmp_path)


def test_a_broken_model_file_is_one_sentence(tmp_path: pathlib.Path):
    (tmp_path / "detector.onnx").write_bytes(b"not a model")
    (tmp_path / "classifier.onnx").write_bytes(b"not a model")
    with pytest.raises(VisionError, match="onnxruntime cannot load the dice reader's model"):
        Networks(tmp_path)


def test_a_lens_cap_is_an_error_not_an_empty_table():
    with pytest.raises(VisionError, match="blank"):
        read_dice(np.zeros((480, 640, 3), np.uint8))


def test_an_empty_felt_reads_no_dice():
    rng = np.random.default_rng(0)
    felt = np.clip(rng.normal(0, 6, (480, 640, 3)) + (40, 90, 30), 0, 255).astype(np.uint8)
    reading = read_dice(felt)
    assert reading.dice == ()
    assert (reading.width, reading.height) == (640, 480)


def test_a_grey_picture_is_read_like_its_colour_one():
    rng = np.random.default_rng(1)
    grey = np.clip(rng.normal(128, 10, (240, 320)), 0, 255).astype(np.uint8)
    assert read_dice(grey).dice == ()


def _white_face() -> np.ndarray:
    image = np.zeros((400, 600, 3), np.uint8)
    image[70:130, 70:130] = 255  # a 60 px face centred on (100, 100)
    return image


def test_a_die_found_at_two_scales_is_proposed_once():
    a = Candidate((100.0, 100.0), 60.0, 0.6, (1 / 6,) * 6)
    b = Candidate((104.0, 98.0), 52.0, 0.5, (1 / 6,) * 6)

    class Nets(WhiteSquareNets):
        def detect(self, image, scale, min_score):
            return [a] if scale == 1.0 else [b]

    assert learned_reader.propose(_white_face(), Nets(), ReaderSettings(), 0.2) == [a]


def test_of_two_overlapping_candidates_the_one_most_surely_a_die_stays():
    centred = Candidate((100.0, 100.0), 60.0, 0.6, (1 / 6,) * 6)
    off = Candidate((125.0, 100.0), 40.0, 0.7, (1 / 6,) * 6)  # half on the table
    kept = learned_reader.sized(Pyramid(_white_face()), [off, centred],
                                WhiteSquareNets(off, centred))
    assert [c.centre for c, _ in kept] == [centred.centre]


def test_a_die_is_cut_at_the_size_the_classifier_reads_best():
    """The detector's size is rough: 45 px for a 60 px face is corrected to within a step."""
    rough = Candidate((100.0, 100.0), 45.0, 0.6, (1 / 6,) * 6)
    nets = WhiteSquareNets(rough)
    [(c, _)] = learned_reader.sized(Pyramid(_white_face()), [rough], nets)
    assert c.size == pytest.approx(45.0 * max(SIZES))
    assert abs(c.size - 60) < abs(rough.size - 60)


# A pip count confirms a doubtful value (module docstring, step 5)
COUNTED = {**SURE, "counted_value": 0.5}


def test_a_pip_count_of_the_same_value_confirms_a_value_the_classifier_only_doubts():
    for doubtful in (seen(2, p=0.6, counted=2), seen(2, views=6, counted=2),
                     seen(2, detector=3, counted=2)):
        verdict = decide(doubtful, COUNTED)
        assert isinstance(verdict, Die) and verdict.value == 2


def test_a_pip_count_of_another_value_leaves_the_doubt():
    verdict = decide(seen(2, p=0.6, counted=3), COUNTED)
    assert isinstance(verdict, Unsure) and verdict.reason.startswith(NOT_SURE)


def test_a_pip_count_confirms_no_value_the_classifier_holds_less_sure_than_counted_value():
    assert isinstance(decide(seen(2, p=0.4, counted=2), COUNTED), Unsure)


def test_a_pip_count_never_gives_the_value_of_a_die_cut_by_the_edge():
    verdict = decide(seen(2, cut=True, counted=2), COUNTED)
    assert isinstance(verdict, Unsure) and verdict.reason == CUT_BY_EDGE


def test_by_default_a_pip_count_confirms_nothing():
    """A model folder whose thresholds predate the pip count keeps its own reading."""
    assert isinstance(decide(seen(2, p=0.6, counted=2), SURE), Unsure)


def test_the_pip_count_at_a_place_is_the_nearest_counted_die_within_half_its_size():
    place = Candidate((100.0, 100.0), 40.0, 0.9, (1 / 6,) * 6)
    far = Die(5, (125, 80, 40, 40), 0.9)  # centre 45 px away across
    near = Die(3, (85, 85, 40, 40), 0.9)  # centre 5 px away
    nearer = Die(4, (80, 82, 40, 40), 0.9)  # centre 2 px away
    assert counted_at(place, [far]) is None
    assert counted_at(place, [far, near]) == 3
    assert counted_at(place, [near, nearer, far]) == 4


def test_look_asks_the_pip_count_once_and_keeps_its_value_with_the_place(monkeypatch):
    asked = []

    def count(image):
        asked.append(image.shape)
        return Reading((Die(5, (70, 70, 60, 60), 0.9),), (), image.shape[1], image.shape[0])

    monkeypatch.setattr(learned_reader.pip_count, "read_dice", count)
    face = Candidate((100.0, 100.0), 60.0, 0.9, (1 / 6,) * 6)
    [place] = look(_white_face(), WhiteSquareNets(face), ReaderSettings(), 0.3)
    assert place.counted == 5 and len(asked) == 1


def test_read_dice_counts_pips_only_where_a_count_may_confirm_a_doubtful_value(monkeypatch):
    """Rule 5 of the module docstring: the pip count matters only to a value the networks
    doubt; where none is doubted the reading is the same without it, so it is not run."""
    asked = []

    def count(image):
        asked.append(image.shape)
        return Reading((Die(1, (70, 70, 60, 60), 0.9),), (), image.shape[1], image.shape[0])

    face = Candidate((100.0, 100.0), 60.0, 0.9, (1 / 6,) * 6)

    class Nets(WhiteSquareNets):
        thresholds = {"detect": 0.3, "min_detector_value": 0.0, "counted_value": 0.5}

    monkeypatch.setattr(learned_reader.pip_count, "read_dice", count)
    monkeypatch.setattr(learned_reader, "load", lambda folder: Nets(face))
    sure = learned_reader.read_dice(_white_face(), ReaderSettings(min_value=0.9))
    assert [d.value for d in sure.dice] == [1] and asked == []
    doubted = learned_reader.read_dice(_white_face(), ReaderSettings(min_value=0.995))
    assert [d.value for d in doubted.dice] == [1] and len(asked) == 1  # confirmed by the count


def test_a_face_sized_under_min_die_is_not_read():
    """On Train no face the reader sized under 12 px was read right (nearly all were specks
    or single pips)."""
    image = _white_face()
    image[295:305, 395:405] = 255  # a 10 px white square at (400, 300)
    speck = Candidate((400.0, 300.0), 10.0, 0.9, (1 / 6,) * 6)
    face = Candidate((100.0, 100.0), 60.0, 0.9, (1 / 6,) * 6)

    class Nets(WhiteSquareNets):
        def detect(self, image, scale, min_score):  # the same places at every scale
            return list(self.candidates)

    nets = Nets(face, speck)
    sizes = sorted(s.candidate.size for s in look(image, nets, ReaderSettings(), 0.3))
    assert len(sizes) == 1 and sizes[0] > 40
    finer = look(image, nets, ReaderSettings(min_die=8.0), 0.3)
    assert sorted(s.candidate.centre for s in finer) == [(100.0, 100.0), (400.0, 300.0)]


class RecordingNets(WhiteSquareNets):
    """The fake networks, keeping each stack of crops given to the classifier, in order."""

    def __init__(self, *candidates: Candidate) -> None:
        super().__init__(*candidates)
        self.given: list[np.ndarray] = []

    def classify(self, crops, second=False):
        self.given.append(np.asarray(crops))
        return super().classify(crops, second)


def test_each_view_of_a_place_carries_the_picture_s_up_turned_with_it():
    """The classifier reads the top face of a die seen at an angle only if it knows where up
    lay in the picture, in every turn of the crop (vision.crops.up_channel)."""
    nets = RecordingNets(Candidate((100.0, 100.0), 60.0, 0.9, (1 / 6,) * 6))
    look(_white_face(), nets, ReaderSettings(), 0.3, counted=())
    sizing, views = nets.given
    assert all(np.array_equal(c[..., 3], up_channel()) for c in sizing)
    assert [np.array_equal(v[..., 3], up_channel(a, m)) for v, (a, m) in
            zip(views, learned_reader.VIEWS[1:], strict=True)] == [True] * 7


def test_asked_to_look_above_each_place_is_read_upright_one_face_up():
    """The crops top_above reads (an option: thresholds with an above_value ask for them)."""
    nets = RecordingNets(Candidate((100.0, 100.0), 60.0, 0.9, (1 / 6,) * 6))
    [place] = look(_white_face(), nets, ReaderSettings(), 0.3, counted=(), above=True)
    _, _, above = nets.given
    assert len(above) == len(learned_reader.ABOVE) and place.above.shape == (len(above), 7)
    assert all(np.array_equal(c[..., 3], up_channel()) for c in above)
    # cut above the face, not below it: the white face fills the crops' lower part
    assert all(c[-8:, :, :3].mean() > 100 > c[:8, :, :3].mean() for c in above)
    nets.given.clear()
    [place] = look(_white_face(), nets, ReaderSettings(), 0.3, counted=())
    assert len(nets.given) == 2 and place.above is None  # not asked: not read
