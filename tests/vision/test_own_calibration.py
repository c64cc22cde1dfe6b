"""The table's own calibration as the evaluator simulates it (vision/own_calibration.py)."""

from __future__ import annotations

import pathlib
import shutil

from vision.labels import load_set, split_calibration
from vision.own_calibration import held_out

DATA = pathlib.Path(__file__).parent.parent / "data" / "dice"


def _sets(tmp_path: pathlib.Path) -> pathlib.Path:
    """Two sets whose Train splits are the test subsets, Valid empty."""
    for name in ("topdown-colour", "webcam-wood"):
        shutil.copytree(DATA / name, tmp_path / name / "Train",
                        ignore=shutil.ignore_patterns("README*", "LICENSE*"))
        (tmp_path / name / "Valid").mkdir()
    return tmp_path


def test_the_own_calibration_uses_only_the_pictures_the_model_held_out_for_calibration(
        tmp_path: pathlib.Path):
    """The model card's rule: Valid never chooses a threshold, and a picture trained on would
    flatter the reader; so the known throws are the set's share of the calibration split."""
    sets = _sets(tmp_path)
    together = load_set(sets / "topdown-colour" / "Train", "topdown-colour") + load_set(
        sets / "webcam-wood" / "Train", "webcam-wood")
    _, calibration = split_calibration(together)
    mine = held_out(sets, "topdown-colour")
    assert mine and {p.path for p in mine} == {
        p.path for p in calibration if p.set_name == "topdown-colour"}
    assert all(p.path.parent.name == "Train" for p in mine)
