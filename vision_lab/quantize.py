"""The model's face network in 8-bit integers: the last step of the recipe, before the thresholds.

Why (:mod:`vision.calibrate.eight_bit`, which quantises a table's taught network the same way):
the face network is most of the reader's time, and static quantisation ran a crop 1.6x faster
on one core here with onnxruntime alone; the calibration split read 508 dice within the wrong
budget against 509 in floats, at the same thresholds (4 December 2026). The detector is not
quantised: its int8 version ran no faster (a small network on a large picture spends its time
moving memory, not multiplying).

The ranges are measured on the detector's proposals in :data:`PICTURES` fit pictures (never
the calibration split, never Valid), cut as :func:`vision.calibrate.eight_bit.proposal_crops`
cuts them: the crops the network meets at the table. Fixed seeds: the same float network
gives the same file.

``python -m vision_lab.quantize --model DIR`` quantises ``DIR/faces.onnx`` in place (a network
already quantised is refused: quantising twice would measure the ranges of rounded values),
fits the head's temperature again on the calibration split and chooses the thresholds again;
``make train`` does it as its last stage. Needs the ``train`` extra (``onnx``).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys

import cv2
import numpy as np

from vision.calibrate import eight_bit
from vision.learned.face_model import face_network
from vision.learned.face_reader import Model
from vision.learned.networks import MODELS
from vision_lab.labels import (
    LabelledPicture,
    add_set_arguments,
    split_calibration,
    training_pictures,
)

#: fit pictures whose proposals measure the activations' ranges
PICTURES = 60


def calibration_crops(model: Model, fit: list[LabelledPicture], seed: int = 0) -> np.ndarray:
    """N x 3 x 64 x 64 float32, as the network takes them: the proposals of ``PICTURES`` fit
    pictures (:func:`vision.calibrate.eight_bit.proposal_crops`)."""
    chosen = random.Random(seed).sample(fit, min(PICTURES, len(fit)))
    return eight_bit.proposal_crops(model, (picture.load() for picture in chosen))


def quantize(folder: pathlib.Path, fit: list[LabelledPicture], log=print) -> None:  # noqa: ANN001
    """``folder/faces.onnx``, float, becomes its int8 version."""
    path = folder / "faces.onnx"
    if eight_bit.quantised(path):
        raise SystemExit(f"{path} is quantised already: quantise the float network the "
                         "training wrote (make train does), not its int8 version.")
    before = path.stat().st_size
    face_network.cache_clear()
    crops = calibration_crops(Model(folder), fit)
    eight_bit.quantise(path, path, crops)
    log(f"face network quantised: {len(crops)} calibration crops, {before // 1024} kB -> "
        f"{path.stat().st_size // 1024} kB")


def main(argv: list[str] | None = None) -> int:
    # lazy: train_on_places needs PyTorch at import; only the command refits, not the tests
    from vision_lab import choose_thresholds, train_on_places

    parser = argparse.ArgumentParser(prog="python -m vision_lab.quantize",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=pathlib.Path, default=MODELS)
    add_set_arguments(parser)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    fit, calib = split_calibration(training_pictures(args.sets, args.leave_out))
    quantize(args.model, fit)
    train_on_places.fit_temperature_on_places(args.model, calib)
    choose_thresholds.write_thresholds(args.model, calib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
