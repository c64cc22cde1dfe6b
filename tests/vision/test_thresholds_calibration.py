"""Calibration judges the reader it will set (vision/thresholds.py), with fake networks.

Rule checked: thresholds are chosen on what the reader reads at them. Which candidates survive
the merging of scales and the sizing depends on the others proposed beside them, so the
calibration reads each picture at every detect threshold of its grid, not once at the loosest
cut down afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import reader
from vision.evaluate import Score
from vision.learned_reader import DEFAULTS, ReaderSettings, Seen, look
from vision.networks import Candidate
from vision.reading import Die, Reading
from vision.thresholds import (
    GRID,
    LOOK_ABOVE,
    best,
    look_at_each,
    seen_at,
    verdicts,
    within_budget,
)

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


def test_with_look_above_the_search_may_make_a_side_face_unsure_rather_than_wrong():
    """thresholds --look-above: oblique-colour's dice_370, a front 6 read as surely as a true
    4 elsewhere, with its top (a 3) read only by the crop above it. No threshold of the plain
    grid reads the 4 without the wrong 6, so it reads neither; with LOOK_ABOVE the search
    makes the 6 unsure and reads the 4."""
    def place(value: int, top: np.ndarray) -> Seen:
        probs = np.full(7, 0.002, np.float32)
        probs[value] = 0.988
        return Seen(Candidate((100.0, 140.0), 40.0, 0.9, (1 / 6,) * 6), probs, 8, False,
                    above=np.stack([top, top]))

    table = np.array([0.98, 0.004, 0.004, 0.004, 0.004, 0.004, 0.0], np.float32)
    three = np.array([0.05, 0.01, 0.02, 0.85, 0.03, 0.02, 0.02], np.float32)
    pictures = [Item((place(6, three),), 3), Item((place(4, table),), 4)]

    def judge(item: Item, dice: list[Die], unsure: list) -> Score:
        right = sum(d.value == item.value for d in dice)
        return Score(labels=1, pictures=1, right=right, wrong=len(dice) - right,
                     unsure=len(unsure))

    _, plain = best(pictures, judge=judge)
    assert (plain.right, plain.wrong) == (0, 0)
    chosen, looked_above = best(pictures, judge=judge, grid={**GRID, **LOOK_ABOVE})
    assert within_budget(looked_above) and looked_above.right == 1
    assert chosen["above_value"] <= 0.85


@dataclass(frozen=True)
class Item:
    seen: tuple[Seen, ...]
    value: int
