"""The face network in 8-bit integers: the last step of the recipe, before the thresholds.

Why: the face network is most of the reader's time (eight crops a place: four sizes, four
views), and EfficientNet-Lite was made to be quantised (ReLU6, no squeeze-and-excitation).
Static quantisation (weights int8 per channel, activations uint8, ranges measured on crops the
reader cuts) runs a crop 1.6x faster on one core here with onnxruntime alone; the calibration
split read 508 dice within the wrong budget against 509 in floats, at the same thresholds
(4 December 2026). The detector is not quantised: its int8 version ran no faster (a small
network on a large picture spends its time moving memory, not multiplying).

The ranges are measured on the detector's proposals in fit pictures (never the calibration
split, never Valid), cut at every size of :data:`vision.learned.face_reader.SIZES`, upright: the
crops
the network meets at the table. Fixed seeds: the same float network gives the same file.

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
import tempfile

import cv2
import numpy as np
import onnx
from onnxruntime.quantization import (
    CalibrationDataReader,
    QuantFormat,
    QuantType,
    quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

from vision.learned.crops import FACE_INPUT, Pyramid, die_crop
from vision.learned.face_model import face_network
from vision.learned.face_reader import SIZES, Model, Settings, propose
from vision.learned.networks import MODELS
from vision_lab.labels import (
    LabelledPicture,
    add_set_arguments,
    split_calibration,
    training_pictures,
)

#: fit pictures whose proposals measure the activations' ranges, and proposals a picture
PICTURES, PROPOSALS = 60, 20


def calibration_crops(model: Model, fit: list[LabelledPicture], seed: int = 0) -> np.ndarray:
    """N x 3 x 64 x 64 float32, as the network takes them: the detector's proposals (score 0.2
    or more, the loosest the thresholds may choose) of ``PICTURES`` fit pictures, each cut at
    every size of :data:`SIZES`."""
    crops = []
    for picture in random.Random(seed).sample(fit, min(PICTURES, len(fit))):
        image = picture.load()
        pyramid = Pyramid(image)
        for c in propose(image, model, Settings(), 0.2)[:PROPOSALS]:
            crops.extend(die_crop(pyramid, c.centre, c.size * k, 0.0, False, FACE_INPUT)
                         for k in SIZES)
    return np.ascontiguousarray(np.stack(crops).astype(np.float32).transpose(0, 3, 1, 2))


class _Crops(CalibrationDataReader):
    """The crops to onnxruntime's calibration, 32 at a time."""

    def __init__(self, name: str, crops: np.ndarray) -> None:
        self._batches = iter(np.array_split(crops, max(1, len(crops) // 32)))
        self._name = name

    def get_next(self) -> dict[str, np.ndarray] | None:
        batch = next(self._batches, None)
        return None if batch is None else {self._name: np.ascontiguousarray(batch)}


def quantize(folder: pathlib.Path, fit: list[LabelledPicture], log=print) -> None:  # noqa: ANN001
    """``folder/faces.onnx``, float, becomes its int8 version."""
    path = folder / "faces.onnx"
    graph = onnx.load(str(path)).graph
    if any(node.op_type == "QuantizeLinear" for node in graph.node):
        raise SystemExit(f"{path} is quantised already: quantise the float network the "
                         "training wrote (make train does), not its int8 version.")
    before = path.stat().st_size
    face_network.cache_clear()
    crops = calibration_crops(Model(folder), fit)
    with tempfile.TemporaryDirectory() as tmp:
        source, prepared = pathlib.Path(tmp) / "float.onnx", pathlib.Path(tmp) / "prepared.onnx"
        source.write_bytes(path.read_bytes())
        # onnxruntime's symbolic shape inference cannot follow the exported mean; ONNX's own
        # shape inference (still run) is enough for the convolutions
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(path), _Crops(graph.input[0].name, crops),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    face_network.cache_clear()
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
