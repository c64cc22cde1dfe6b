"""The floor for a new make, chosen across left-out makes (vision_lab/new_make_floor.py): the
setting that reads the most dice right while every make's wrong share stays within the bound,
a make's own thresholds floored, never replaced."""

from __future__ import annotations

import json

import numpy as np

from vision.learned.decision import DEFAULTS, Place
from vision.learned.table_files import FLOOR_FILE, read_floor
from vision_lab.choose_thresholds import Looked
from vision_lab.label_files import Label
from vision_lab.new_make_floor import Make, choose_floor, judge

GRID = {"min_value": (0.9, 0.95, 0.98, 0.99)}
#: a model's own thresholds, chosen on other makes: looser than any floor tried
OWN = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.5, "sure_die": 0.0}


def make(name: str, dice: list[tuple[int, int, float]]) -> Make:
    """One make of 10 pictures, each holding ``dice`` as (shown, read, probability of the
    value read)."""
    places, labels = [], []
    for k, (shown, read, sure) in enumerate(dice):
        probs = np.full(7, (1 - sure) / 5, np.float32)
        probs[0], probs[read] = 0.0, sure
        places.append(Place((40.0 * k + 20, 20.0), 20.0, 0.9, probs, np.zeros(4, np.float32),
                            False))
        labels.append(Label(shown, (40.0 * k + 10, 10.0, 20.0, 20.0)))
    looked = [Looked(tuple(places), tuple(labels), 40 * len(dice) + 40, 60)] * 10
    return Make(name, looked, OWN)


def test_the_floor_is_the_loosest_setting_that_keeps_every_make_within_the_bound() -> None:
    """Make A's one wrong value is read at 0.96: only a floor of 0.98 or more leaves it
    unsure, and B's dice, all right at 0.96, are given no value there. Chosen on both, the
    floor is 0.98 (A within the bound, 50 dice right; at 0.99 none); chosen on B alone, B's
    dice are read at 0.95 as at 0.9, and the stricter of two floors that read alike is
    kept."""
    a = make("a", [(2, 2, 0.985)] * 5 + [(3, 3, 0.93)] * 4 + [(4, 5, 0.96)])
    b = make("b", [(6, 6, 0.96)] * 5)
    assert choose_floor([a, b], GRID) == {"min_value": 0.98}
    assert a.at({"min_value": 0.98}).right == 50 and a.at({"min_value": 0.98}).wrong == 0
    assert choose_floor([b], GRID) == {"min_value": 0.95}
    assert b.at({"min_value": 0.95}).right == 50


def test_when_no_floor_keeps_a_make_within_the_bound_the_strictest_is_chosen() -> None:
    """A wrong value read at 0.999 cannot be left unsure by the grid: the floor whose worst
    make's wrong share is lowest is chosen, here every floor alike, then the most right."""
    a = make("a", [(2, 2, 0.995)] * 5 + [(4, 5, 0.999)])
    chosen = choose_floor([a], GRID)
    assert chosen == {"min_value": 0.99}  # reads a's right dice, as 0.9 does, and stricter
    assert a.at(chosen).wrong == 10


def test_each_left_out_model_is_given_the_floor_chosen_without_its_make(tmp_path) -> None:
    """A left-out model stands for the shipped model on a make it never saw; the shipped
    model's floor was chosen on every make it was trained on, so the left-out model's must be
    chosen on every make but its own, and stored where its reader finds it."""
    a = make("a", [(2, 2, 0.985)] * 5 + [(3, 3, 0.93)] * 4 + [(4, 5, 0.96)])
    b = make("b", [(6, 6, 0.96)] * 5)
    c = make("c", [(1, 1, 0.999)] * 3)
    for m in (a, b, c):
        (tmp_path / f"without-{m.name}").mkdir()
    judge([a, b, c], {m.name: m for m in (a, b, c)}, tmp_path)
    for m in (a, b, c):
        others = [o for o in (a, b, c) if o is not m]
        stored = json.loads((tmp_path / f"without-{m.name}" / FLOOR_FILE).read_text())
        assert set(stored["chosen_on"]) == {o.name for o in others}
        assert read_floor(tmp_path / f"without-{m.name}", DEFAULTS) == choose_floor(others)
    # without a's wrong value in the choice, b and c's floor is looser than one that has it
    assert (read_floor(tmp_path / "without-a", DEFAULTS)["min_value"]
            < read_floor(tmp_path / "without-b", DEFAULTS)["min_value"])
