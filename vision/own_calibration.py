"""How a shared set would read after the table's own calibration (``bidou-table calibrate
--known-throws``): the figure a pub with that set's dice, surface and camera would see.

Why: the model's thresholds are chosen on all three sets' calibration pictures at once, so the
set whose dice are read least surely (oblique-colour's side faces) sets them for all. A pub
calibrates on its own table; this runs the same calibration (:func:`vision.known_throws.calibrate`:
values only, the thresholds a table may set, the same wrong budget) on one set's share of the
model's calibration split, as if those pictures were the pub's known throws, then scores that
set's Valid split with the thresholds it chose.

Only the calibration split (cut from Train, never trained on) is used, never Valid; the
pictures are those the model itself held out, so none was seen in training.
"""

from __future__ import annotations

import pathlib
from collections.abc import Sequence
from dataclasses import dataclass

from vision.evaluate import Score, evaluate, pictures
from vision.known_throws import Calibration, Throw, calibrate, look_throws
from vision.labels import LabelledPicture, load_set, split_calibration
from vision.learned_reader import ReaderSettings, read_dice
from vision.networks import MODELS, load


@dataclass(frozen=True)
class OwnCalibration:
    """One set: what its own calibration chose, and its Valid split read with that."""

    name: str
    known_throws: int  # calibration pictures of this set
    calibration: Calibration
    valid: Score


def held_out(sets: pathlib.Path, name: str) -> list[LabelledPicture]:
    """The set's pictures in the model's calibration split, so that none was trained on (the
    split is cut per set, :func:`vision.labels.split_calibration`: the set's own Train gives the
    same pictures as all sets' together)."""
    return split_calibration(load_set(sets / name / "Train", name))[1]


def as_throws(pictures_: Sequence[LabelledPicture]) -> list[Throw]:
    """Labelled pictures as known throws: their values only, as a pub writes them down."""
    return [Throw(p.path, tuple(d.value for d in p.dice)) for p in pictures_]


def own_calibration(sets: pathlib.Path, name: str, model: pathlib.Path = MODELS,
                    ) -> OwnCalibration:
    """Calibrate on the set's held-out Train pictures; read its Valid split with the result."""
    nets = load(model)  # the networks read_dice below uses too
    known = held_out(sets, name)
    result = calibrate(look_throws(as_throws(known), nets, ReaderSettings(model=model)), nets)
    settings = ReaderSettings(model=model, **result.chosen)
    valid = evaluate(lambda image: read_dice(image, settings), pictures([sets / name / "Valid"]))
    return OwnCalibration(name, len(known), result, valid)
