"""Calibration judges the reader it will set (vision/thresholds.py), with fake networks.

Rule checked: thresholds are chosen on what the reader reads at them. Which candidates survive
the merging of scales and the sizing depends on the others proposed beside them, so the
calibration reads each picture at every detect threshold of its grid, not once at the loosest
cut down afterwards.
"""

from __future__ import annotations

import numpy as np

from vision import reader
from vision.learned_reader import DEFAULTS, ReaderSettings, look
from vision.networks import Candidate
from vision.reading import Die, Reading
from vision.thresholds import look_at_each, seen_at, verdicts

from .conftest import WhiteSquareNets

UNIFORM = (1 / 6,) * 6
#: thresholds that take any die the fake classifier is sure of
ANY_SURE = {**DEFAULTS, "detect": 0.4, "min_value": 0.5, "min_detector_value": 0.0,
            "min_views": 1, "second_veto": 1.0}


def _two_dice_and_a_weak_cluster() -> tuple[np.ndarray, WhiteSquareNets]:
    image = np.zeros((400, 600, 3), np.uint8)
    image[88:112, 68:92] = 255  # two 24 px faces, centred on (80, 100) and (120, 100)
    image[88:112, 108:132] = 255
    left = Candidate((80.0, 100.0), 24.0, 0.5, UNIFORM)
    right = Candidate((120.0, 100.0), 24.0, 0.5, UNIFORM)
    cluster = Candidate((100.0, 100.0), 70.0, 0.25, UNIFORM)  # both seen as one, weakly
    return image, WhiteSquareNets(cluster, left, right)


def test_calibration_scores_a_threshold_by_the_readers_own_reading_there():
    image, nets = _two_dice_and_a_weak_cluster()
    own, _ = verdicts(look(image, nets, ReaderSettings(), 0.4), ANY_SURE)
    judged, _ = verdicts(look_at_each(image, nets, ReaderSettings()), ANY_SURE)
    assert len(own) == 2
    assert [d.box for d in judged] == [d.box for d in own]


def test_a_threshold_not_read_at_takes_the_nearest_looser_reading():
    seen = {0.2: ("at 0.2",), 0.4: ("at 0.4",)}
    assert seen_at(seen, 0.3) == ("at 0.2",)
    assert seen_at(seen, 0.5) == ("at 0.4",)
    assert seen_at(seen, 0.1) == ("at 0.2",)
    assert seen_at(("plain",), 0.3) == ("plain",)


def test_a_picture_read_at_every_threshold_is_pip_counted_once(monkeypatch):
    """The pip count does not depend on the detect threshold: counting the picture once per
    threshold would only repeat the same work."""
    counts = []

    def count(image):
        counts.append(1)
        return Reading((Die(1, (68, 88, 24, 24), 0.9),), (), image.shape[1], image.shape[0])

    monkeypatch.setattr(reader, "read_dice", count)
    image, nets = _two_dice_and_a_weak_cluster()
    seen = look_at_each(image, nets, ReaderSettings(), detects=(0.2, 0.3, 0.4))
    assert len(counts) == 1
    assert [s.counted for s in seen[0.4] if s.candidate.centre == (80.0, 100.0)] == [1]
