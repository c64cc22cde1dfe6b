"""A face network in 8-bit integers: the model's (:mod:`vision_lab.quantize`) and a table's own.

Why: the face network is most of the reader's time (four crops a proposal to size it, four
views a place, more for the opinions), and EfficientNet-Lite was made to be quantised (ReLU6,
no squeeze-and-excitation). Static quantisation (QDQ: weights int8 per channel, activations
uint8, ranges measured on crops the reader cuts) runs a crop about twice as fast on one core
with onnxruntime alone. A table's calibration (:mod:`vision.calibrate.folds`) teaches its
network in floats (PyTorch), so the network it saves is quantised here, its ranges measured
on the table's own known pictures, and kept in 8 bits only where it reads the known throws
as the float one did (:func:`keeps`): no more errors, and no more than one die in
:data:`RIGHT_SLACK` fewer right (an unsure die instead).

The ranges are measured on the detector's proposals (score :data:`MIN_SCORE` or more, the
loosest the thresholds may choose, :data:`PROPOSALS` a picture at most), each cut upright at
every size of :data:`vision.learned.face_reader.SIZES`: the crops the network meets at the
table. Needs ``onnx`` (the ``learn`` and ``train`` extras): onnxruntime's quantisation reads
and writes the graph with it; the table reads the result with onnxruntime alone.
"""

from __future__ import annotations

import pathlib
import tempfile
from collections.abc import Callable, Iterable

import numpy as np

from vision.calibrate.known import Tally, errors
from vision.learned import face_reader, table_files
from vision.learned.crops import FACE_INPUT, Pyramid, die_crop
from vision.learned.face_model import face_network
from vision.learned.face_reader import SIZES, Model, Settings, propose

#: proposals a picture whose crops measure the ranges, and the lowest detector score among them
PROPOSALS, MIN_SCORE = 20, 0.2
#: the 8-bit network may read one known die in this many fewer right than the float one (an
#: unsure die instead), never one more wrong or read where none was thrown. Why not none:
#: the known throws are the taught network's own, read near its thresholds, and a die or two
#: there says little of the rest. topdown-colour's table at 64 known dice read 47 of them
#: right in 8 bits against 49 in floats, and the rest of the set 1103 dice right against 1072
#: at the same 8 wrong values and 4 phantom dice (6 December 2026)
RIGHT_SLACK = 20


def proposal_crops(model: Model, pictures: Iterable[np.ndarray]) -> np.ndarray:
    """N x 3 x 64 x 64 float32, as the network takes them: the detector's proposals of each
    picture (module docstring), each cut at every size of :data:`SIZES`."""
    crops = []
    for image in pictures:
        pyramid = Pyramid(image)
        for c in propose(image, model, Settings(), MIN_SCORE)[:PROPOSALS]:
            crops.extend(die_crop(pyramid, c.centre, c.size * k, 0.0, False, FACE_INPUT)
                         for k in SIZES)
    if not crops:
        raise ValueError("no proposal in the pictures: nothing to measure the ranges on")
    return np.ascontiguousarray(np.stack(crops).astype(np.float32).transpose(0, 3, 1, 2))


def quantised(path: pathlib.Path) -> bool:
    """Whether the network at ``path`` is 8-bit already (QDQ)."""
    import onnx  # lazy: the learn and train extras', only where a network is quantised

    return any(node.op_type == "QuantizeLinear" for node in onnx.load(str(path)).graph.node)


def quantise(source: pathlib.Path, target: pathlib.Path, crops: np.ndarray) -> None:
    """``source``'s float network, 8-bit at ``target`` (may be ``source``), its activations'
    ranges measured on ``crops`` (:func:`proposal_crops`). A network quantised already is
    refused: quantising twice would measure the ranges of rounded values."""
    import onnx  # lazy: as above
    from onnxruntime.quantization import (  # lazy: imports onnx
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if quantised(source):
        raise ValueError(f"{source} is quantised already: quantise the float network")
    name = onnx.load(str(source)).graph.input[0].name

    class Crops(CalibrationDataReader):
        """The crops to onnxruntime's calibration, 32 at a time."""

        def __init__(self) -> None:
            self._batches = iter(np.array_split(crops, max(1, len(crops) // 32)))

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self._batches, None)
            return None if batch is None else {name: np.ascontiguousarray(batch)}

    with tempfile.TemporaryDirectory() as tmp:
        prepared = pathlib.Path(tmp) / "prepared.onnx"
        out = pathlib.Path(tmp) / "int8.onnx"
        # onnxruntime's symbolic shape inference cannot follow the exported mean; ONNX's own
        # shape inference (still run) is enough for the convolutions
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(out), Crops(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8)
        out.replace(target)
    face_network.cache_clear()
    face_reader.load.cache_clear()


def keeps(float_read: Tally, int8_read: Tally) -> bool:
    """Whether the 8-bit network reads the known throws as the float one did (module
    docstring)."""
    return (errors(int8_read) <= errors(float_read)
            and int8_read.right >= float_read.right - float_read.dice // RIGHT_SLACK)


def table_network(head: pathlib.Path, settings: Settings, pictures: Iterable[np.ndarray],
                  read: Callable[[], Tally]) -> tuple[Tally, Tally, bool]:
    """The table's taught network (the one its thresholds file beside ``head`` names, as the
    reader finds it: :func:`vision.learned.table_files.table_network`) made 8-bit, its
    ranges measured on the known ``pictures`` through the table's own files, and kept so
    only where it reads the known throws (``read()``: their tally by the files as they are
    now) as the float one did (:func:`keeps`); else the float network is put back. The
    known throws read by the float network and by the 8-bit one, and whether it was kept
    (a head fitted alone names no network: nothing is made 8-bit)."""
    faces = table_files.table_network(table_files.thresholds_path(head), head)
    face_reader.load.cache_clear()
    float_read = read()
    if faces is None:
        return float_read, float_read, False
    try:
        crops = proposal_crops(face_reader.load(settings.model, head), pictures)
    except ValueError:  # nothing to measure the ranges on: the float network stays
        return float_read, float_read, False
    kept_float = faces.with_name(f".{faces.name}.float")
    kept_float.write_bytes(faces.read_bytes())
    try:
        quantise(kept_float, faces, crops)
        int8_read = read()
        kept = keeps(float_read, int8_read)
        if not kept:
            kept_float.replace(faces)
    finally:
        kept_float.unlink(missing_ok=True)
        face_network.cache_clear()
        face_reader.load.cache_clear()
    return float_read, int8_read, kept
