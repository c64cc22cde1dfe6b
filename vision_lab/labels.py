"""Labelled photographs as the learned reader sees them: each die as a value, a centre and a size.

Why its own module: training, threshold calibration and the evaluator must agree on what a
labelled die is, and the shared sets do not agree among themselves. ``webcam-wood`` boxes cover
the top face's pip *pattern* (for a one, just the pip), while ``topdown-colour`` and
``oblique-colour`` boxes cover the whole die. The learned reader is trained on one convention,
the die's **face size**: the side of a square that holds the die's top face, estimated here per
picture.

Sets are folders ``SET/Train`` and ``SET/Valid`` of ``NAME.jpg`` + ``NAME.txt`` (YOLO lines,
``CLASS XC YC W H`` normalised, CLASS = value - 1), as ``../shared/dice/README.md`` describes.
"""

from __future__ import annotations

import argparse
import pathlib
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision_lab.label_files import SETS, load_labels, pictures

#: sets whose boxes cover the pip pattern, not the die (see the module docstring)
PATTERN_BOXED = frozenset({"webcam-wood"})
#: a pip pattern spans about 0.72 of the face (two pip centres 0.54 apart plus a pip)
PATTERN_TO_FACE = 1.4
#: the pip of a one is about a quarter of its face
PIP_TO_FACE = 3.6


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: value 1-6, centre (x, y) and face size, in the picture's pixels."""

    value: int
    centre: tuple[float, float]
    size: float


@dataclass(frozen=True)
class LabelledPicture:
    """One photograph, the set it comes from, and its dice."""

    path: pathlib.Path
    set_name: str
    dice: tuple[LabelledDie, ...]

    def load(self) -> np.ndarray:
        image = cv2.imread(str(self.path))
        if image is None:
            raise ValueError(f"{self.path} is not a picture OpenCV can read.")
        return image


def face_dice(set_name: str, path: pathlib.Path, width: int, height: int) -> list[LabelledDie]:
    """The dice of one picture with face sizes in that set's box convention."""
    labels = load_labels(path.with_suffix(".txt"), width, height)
    if set_name not in PATTERN_BOXED:
        return [
            LabelledDie(lab.value, (lab.box[0] + lab.box[2] / 2, lab.box[1] + lab.box[3] / 2),
                        float(np.sqrt(lab.box[2] * lab.box[3])))
            for lab in labels
        ]
    patterns = [max(lab.box[2], lab.box[3]) * PATTERN_TO_FACE for lab in labels if lab.value > 1]
    shared = float(np.median(patterns)) if patterns else None
    dice = []
    for lab in labels:
        if lab.value > 1:
            size = max(lab.box[2], lab.box[3]) * PATTERN_TO_FACE
        else:
            size = shared or max(lab.box[2], lab.box[3]) * PIP_TO_FACE
        dice.append(LabelledDie(lab.value, (lab.box[0] + lab.box[2] / 2,
                                            lab.box[1] + lab.box[3] / 2), size))
    return dice


def load_set(folder: pathlib.Path, set_name: str | None = None) -> list[LabelledPicture]:
    """Every labelled picture of one folder (``SET/Train`` or ``SET/Valid``)."""
    name = set_name or folder.parent.name
    out = []
    for path in pictures([folder]):
        image = cv2.imread(str(path))
        if image is None:
            raise ValueError(f"{path} is not a picture OpenCV can read.")
        h, w = image.shape[:2]
        out.append(LabelledPicture(path, name, tuple(face_dice(name, path, w, h))))
    return out


def split_calibration(
    pictures_: list[LabelledPicture], fraction: float = 0.15, seed: int = 0
) -> tuple[list[LabelledPicture], list[LabelledPicture]]:
    """Cut a calibration split from Train, per set and by picture: (fit, calibration).

    Thresholds are chosen on the calibration split; Valid never is.
    """
    fit, calib = [], []
    by_set: dict[str, list[LabelledPicture]] = {}
    for p in pictures_:
        by_set.setdefault(p.set_name, []).append(p)
    for name in sorted(by_set):
        items = sorted(by_set[name], key=lambda p: p.path.name)
        random.Random(f"{seed}:{name}").shuffle(items)
        k = max(1, round(fraction * len(items)))
        calib.extend(items[:k])
        fit.extend(items[k:])
    return fit, calib


def training_pictures(sets: pathlib.Path, leave_out: str | None) -> list[LabelledPicture]:
    """Every Train picture of the shared sets but ``leave_out``'s (``sets``: their folder)."""
    pictures = []
    for name in SETS:
        if name != leave_out:
            folder = sets / name / "Train"
            if not folder.is_dir():
                raise SystemExit(f"{folder} is not there: give --sets the folder of the shared "
                                 "dice sets.")
            pictures.extend(load_set(folder, name))
    return pictures


def add_set_arguments(parser: argparse.ArgumentParser,
                      leave_out: str = "a set the model was trained without") -> None:
    """``--sets`` (the shared sets' folder) and ``--leave-out SET``, as every step of the
    recipe spells them."""
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"),
                        help="the folder of the shared dice sets (SET/Train, SET/Valid)")
    parser.add_argument("--leave-out", choices=SETS, help=leave_out)
