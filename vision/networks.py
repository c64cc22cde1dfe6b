"""The learned reader's networks, run by onnxruntime from the shipped ONNX files.

Why onnxruntime and not OpenCV's ``cv2.dnn`` (which ran them until 1 December 2026): on one
core here it runs the classifier 4.3x and the detector 2.3x faster than ``cv2.dnn`` with the
same outputs (to 4e-6), and the networks are most of a reading's time. It is a wheel on PyPI
for the Pi's aarch64 Python 3.11 too, and runs with Pi OS's numpy 1.24. PyTorch trains the
networks (:mod:`vision.train`) and is never imported here.

Threads: as many as OpenCV is allowed (``cv2.getNumThreads()`` when the model is loaded), so
that one setting holds both (the benchmark's one core: ``cv2.setNumThreads(1)``).

A model folder holds ``detector.onnx``, ``classifier.onnx``, ``second.onnx`` (the second
opinion: a classifier trained beside the detector, on its own crops) and ``thresholds.json``; the
shipped one is ``vision/models``, the leave-one-set-out ones ``vision/models/without-SET``.

The face classifier may be a pair: ``classifier.onnx`` and ``classifier-up.onnx`` (trained with
the picture's up as a fourth channel, :func:`vision.crops.up_channel`), their probabilities
averaged for every crop. Why two: each alone is sure of a few wrong values on the calibration
split, and rarely of the same ones; where they disagree the mean is not sure, and the reader
says so instead of guessing (model card, `docs/vision-model.md`, "The sixth session").
"""

from __future__ import annotations

import functools
import json
import pathlib
from dataclasses import dataclass

import cv2
import numpy as np
import onnxruntime

from engine.errors import VisionError
from vision.crops import with_up

MODELS = pathlib.Path(__file__).with_name("models")
#: the face classifier's members, when present: their probabilities are averaged
CLASSIFIERS = ("classifier.onnx", "classifier-up.onnx")
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
    Pi also runs the camera and the dashboard)."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, cv2.getNumThreads())
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only: a broken file is reported below, once
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def as_input(images: np.ndarray) -> np.ndarray:
    """uint8 N x H x W x C (BGR, and the up channel for the classifier) -> float32 N x C x H x W
    in -0.5..0.5, as the networks were trained (:func:`vision.train.to_input`). OpenCV's blob
    maker does it in one pass: numpy's took a third of a 12 MP frame's detector time."""
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


class Networks:
    """The networks of one model folder, loaded once; safe to call from several threads
    (an onnxruntime session runs concurrent calls)."""

    def __init__(self, folder: pathlib.Path) -> None:
        missing = [n for n in ("detector.onnx", "classifier.onnx") if not (folder / n).is_file()]
        if missing:
            raise VisionError(
                f"the dice reader's model is incomplete: {', '.join(missing)} missing in "
                f"{folder}; reinstall bidou-table or rebuild it with python -m vision.train."
            )
        second = folder / "second.onnx"
        try:
            self._detector = session(folder / "detector.onnx")
            self._classifiers = [session(folder / name) for name in CLASSIFIERS
                                 if (folder / name).is_file()]
            self._second = session(second) if second.is_file() else None
        except Exception as exc:  # onnxruntime's errors share no narrower base
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise VisionError(
                f"onnxruntime cannot load the dice reader's model in {folder} ({reason}); "
                "reinstall bidou-table or rebuild it with python -m vision.train."
            ) from exc
        # each network's input channels, read once: the classifier's members may differ
        self._channels = {net: net.get_inputs()[0].shape[1]
                          for net in [*self._classifiers, self._second] if net is not None}
        path = folder / "thresholds.json"
        self.thresholds: dict[str, float] = json.loads(path.read_text()) if path.is_file() else {}

    def detect(self, image: np.ndarray, scale: float, min_score: float) -> list[Candidate]:
        """Die centres in ``image`` read at ``scale`` x its size (:func:`detect`)."""
        return detect(self._detector, image, scale, min_score)

    @property
    def has_second(self) -> bool:
        return self._second is not None

    def classify(self, crops: np.ndarray, second: bool = False) -> np.ndarray:
        """Probabilities (not a die, 1-6) for a stack of uint8 crops, by the classifier (the
        mean of its members) or by the second opinion (each on its own crop size).

        A member that reads the up channel (4 input channels) gets it from the crops
        (:func:`vision.crops.with_up`; BGR crops alone are read as cut upright); a 3-channel
        member and the second opinion read BGR and ignore a fourth channel."""
        if not len(crops):
            return np.zeros((0, 7), np.float32)
        crops = np.asarray(crops)
        nets = [self._second] if second else self._classifiers
        wants = [self._channels[net] for net in nets]
        if crops.shape[-1] < max(wants):
            crops = with_up(crops)
        # one blob for all members: each channel is scaled on its own, so a member reading
        # fewer channels reads the first ones of it
        blob = as_input(np.ascontiguousarray(crops[..., :max(wants)]))
        total = np.zeros((len(crops), 7), np.float64)
        for net, channels in zip(nets, wants, strict=True):
            logits = run(net, np.ascontiguousarray(blob[:, :channels])).astype(np.float64)
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            total += e / e.sum(axis=1, keepdims=True)
        return (total / len(nets)).astype(np.float32)


@functools.lru_cache(maxsize=8)
def load(folder: pathlib.Path = MODELS) -> Networks:
    """The networks of a model folder, loaded once per process."""
    return Networks(folder)
