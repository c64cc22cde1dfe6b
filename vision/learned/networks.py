"""The detector, run by onnxruntime from the shipped ONNX file.

Why onnxruntime and not OpenCV's ``cv2.dnn`` (which ran the networks until 1 December 2026):
on one core here it runs the detector 2.3x faster than ``cv2.dnn`` with the same outputs, and
it is a wheel on PyPI for the Pi's aarch64 Python 3.11 too, running with Pi OS's numpy 1.24.
PyTorch trains the networks (:mod:`vision_lab`) and is never imported here.

Threads: as many as OpenCV is allowed (``cv2.getNumThreads()`` when the model is loaded), so
that one setting holds both (the benchmark's one core: ``cv2.setNumThreads(1)``).

A model folder (:mod:`vision.learned.face_reader`) holds ``detector.onnx``, ``faces.onnx``,
``head.npz`` and ``reader.json``; the shipped one is ``vision/models``, the leave-one-set-out
ones ``vision/models/without-SET`` (built, not shipped).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import cv2
import numpy as np
import onnxruntime

from engine.errors import VisionError

MODELS = pathlib.Path(__file__).resolve().parents[1] / "models"
STRIDE = 4


@dataclass(frozen=True)
class Candidate:
    """A place the detector takes for a die, in the picture's pixels.

    ``score`` is the detector's centre score (0-1); ``values`` its own opinion of the value,
    probabilities of 1-6.
    """

    centre: tuple[float, float]
    size: float
    score: float
    values: tuple[float, ...]


def session(path: pathlib.Path) -> onnxruntime.InferenceSession:
    """One network, on the CPU, with OpenCV's thread count; its threads sleep when idle (the
    Pi also runs the camera and the dashboard). A file onnxruntime cannot load is a
    :class:`VisionError` naming it."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, cv2.getNumThreads())
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: a broken file is reported below, once
    try:
        return onnxruntime.InferenceSession(str(path), options,
                                            providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime's errors share no narrower base
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise VisionError(f"onnxruntime cannot load the dice reader's network {path} "
                          f"({reason}); reinstall bidou-table.") from exc


def as_input(images: np.ndarray) -> np.ndarray:
    """uint8 N x H x W x 3 (BGR) -> float32 N x 3 x H x W in -0.5..0.5, as the detector was
    trained (:func:`vision_lab.train_detector.to_input`). OpenCV's blob maker does it in one
    pass: numpy's took a third of a 12 MP frame's detector time."""
    return cv2.dnn.blobFromImages(list(images), 1 / 255.0, mean=(127.5,) * images.shape[-1])


def run(net: onnxruntime.InferenceSession, batch: np.ndarray) -> np.ndarray:
    """The network's (only) output for a batch."""
    return net.run(None, {net.get_inputs()[0].name: batch})[0]


def detect(detector: onnxruntime.InferenceSession, image: np.ndarray, scale: float,
       min_score: float) -> list[Candidate]:
    """Die centres in ``image`` read at ``scale`` x its size, in the image's pixels."""
    h, w = image.shape[:2]
    sw, sh = max(STRIDE * 4, round(w * scale)), max(STRIDE * 4, round(h * scale))
    # pad to a multiple of 8 so that the upsampled stride-8 map lines up with stride 4
    pw, ph = -(-sw // 8) * 8, -(-sh // 8) * 8
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = image if (sw, sh) == (w, h) else cv2.resize(image, (sw, sh), interpolation=interp)
    if (pw, ph) != (sw, sh):
        small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
    cells = run(detector, as_input(small[None]))[0]
    heat = 1 / (1 + np.exp(-cells[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_score)
    found = []
    gh, gw = heat.shape
    sx, sy = sw / w, sh / h
    for iy, ix in zip(*np.nonzero(peaks), strict=True):
        y0, y1, x0, x1 = max(iy - 1, 0), min(iy + 2, gh), max(ix - 1, 0), min(ix + 2, gw)
        patch = heat[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        cx = (float((patch * xx).sum() / patch.sum()) + 0.5) * STRIDE
        cy = (float((patch * yy).sum() / patch.sum()) + 0.5) * STRIDE
        if cx >= sw or cy >= sh:  # a peak on the padding
            continue
        logits = cells[2:, iy, ix].astype(np.float64)
        values = np.exp(logits - logits.max())
        values /= values.sum()
        size = float(np.exp(cells[1, iy, ix]))
        found.append(Candidate((cx / sx, cy / sy), size / scale, float(heat[iy, ix]),
                               tuple(float(v) for v in values)))
    return found
