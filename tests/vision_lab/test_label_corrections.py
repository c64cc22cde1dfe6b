"""A label found wrong by eye is read as the picture shows it, and only while the label file
still says what was corrected (vision/label_corrections.py)."""

from __future__ import annotations

import pathlib

from vision_lab import label_corrections
from vision_lab.evaluate import load_labels
from vision_lab.label_corrections import Correction


def _labels(tmp_path: pathlib.Path, *classes: int) -> pathlib.Path:
    folder = tmp_path / "some-set" / "Train"
    folder.mkdir(parents=True)
    path = folder / "pic.txt"
    path.write_text("".join(f"{c} 0.5 0.5 0.1 0.1\n" for c in classes))
    return path


def test_a_corrected_label_reads_as_the_picture_shows(tmp_path, monkeypatch):
    path = _labels(tmp_path, 0, 1)  # a 1 and a 2
    monkeypatch.setitem(label_corrections.CORRECTIONS, ("some-set", "Train", "pic.txt", 2),
                        Correction(2, 3, "three pips"))
    assert [lab.value for lab in load_labels(path, 100, 100)] == [1, 3]


def test_a_correction_of_a_label_since_changed_is_not_applied(tmp_path, monkeypatch):
    path = _labels(tmp_path, 0, 4)  # the second label now says 5, not the corrected 2
    monkeypatch.setitem(label_corrections.CORRECTIONS, ("some-set", "Train", "pic.txt", 2),
                        Correction(2, 3, "three pips"))
    assert [lab.value for lab in load_labels(path, 100, 100)] == [1, 5]


def test_corrections_touch_train_only():
    """Valid's figures stay on the labels as shared."""
    assert all(split == "Train" for _, split, _, _ in label_corrections.CORRECTIONS)
