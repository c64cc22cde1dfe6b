"""The learned reader's two networks, run by OpenCV's ``cv2.dnn`` from the shipped ONNX files.

Why ``cv2.dnn`` and not onnxruntime: OpenCV is already a dependency, on the Pi too (Pi OS's
numpy 1.x with OpenCV 4.x), so the table gains no package; both networks are plain
convolutions, pooling and nearest upsampling, which every OpenCV 4.8+ runs. PyTorch trains
them (:mod:`vision.train`) and is never imported here.

A model folder holds ``detector.onnx``, ``classifier.onnx``, ``second.onnx`` (the second
opinion: a classifier trained beside the detector, on its own crops) and ``thresholds.json``; the
shipped one is ``vision/models``, the leave-one-set-out ones ``vision/models/without-SET``.
"""

from __future__ import annotations

import functools
import json
import pathlib
import threading
from dataclasses import dataclass

import cv2
import numpy as np

from engine.errors import VisionError

MODELS = pathlib.Path(__file__).with_name("models")
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


class Networks:
    """Both networks of one model folder, loaded once; safe to call from several threads."""

    def __init__(self, folder: pathlib.Path) -> None:
        missing = [n for n in ("detector.onnx", "classifier.onnx") if not (folder / n).is_file()]
        if missing:
            raise VisionError(
                f"the dice reader's model is incomplete: {', '.join(missing)} missing in "
                f"{folder}; reinstall bidou-table or rebuild it with python -m vision.train."
            )
        try:
            self._detector = cv2.dnn.readNetFromONNX(str(folder / "detector.onnx"))
            self._classifier = cv2.dnn.readNetFromONNX(str(folder / "classifier.onnx"))
            second = folder / "second.onnx"
            self._second = cv2.dnn.readNetFromONNX(str(second)) if second.is_file() else None
        except cv2.error as exc:
            raise VisionError(
                f"OpenCV cannot load the dice reader's model in {folder} ({exc.msg.strip()}); "
                "reinstall bidou-table or rebuild it with python -m vision.train."
            ) from exc
        path = folder / "thresholds.json"
        self.thresholds: dict[str, float] = json.loads(path.read_text()) if path.is_file() else {}
        self._lock = threading.Lock()  # a cv2.dnn.Net is not safe to run from two threads

    def detect(self, image: np.ndarray, scale: float, min_score: float) -> list[Candidate]:
        """Die centres in ``image`` read at ``scale`` x its size, in the image's pixels."""
        h, w = image.shape[:2]
        sw, sh = max(STRIDE * 4, round(w * scale)), max(STRIDE * 4, round(h * scale))
        # pad to a multiple of 8 so that the upsampled stride-8 map lines up with stride 4
        pw, ph = -(-sw // 8) * 8, -(-sh // 8) * 8
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        small = image if (sw, sh) == (w, h) else cv2.resize(image, (sw, sh), interpolation=interp)
        if (pw, ph) != (sw, sh):
            small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
        blob = cv2.dnn.blobFromImage(small, 1 / 255.0, mean=(127.5, 127.5, 127.5))
        with self._lock:
            self._detector.setInput(blob)
            cells = self._detector.forward()[0]
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

    @property
    def has_second(self) -> bool:
        return self._second is not None

    def classify(self, crops: np.ndarray, second: bool = False) -> np.ndarray:
        """Probabilities (not a die, 1-6) for a stack of uint8 BGR crops, by the classifier or
        by the second opinion (each on its own crop size)."""
        if not len(crops):
            return np.zeros((0, 7), np.float32)
        net = self._second if second else self._classifier
        blob = cv2.dnn.blobFromImages(list(crops), 1 / 255.0, mean=(127.5, 127.5, 127.5))
        with self._lock:
            net.setInput(blob)
            logits = net.forward().astype(np.float64)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


@functools.lru_cache(maxsize=8)
def load(folder: pathlib.Path = MODELS) -> Networks:
    """The networks of a model folder, loaded once per process."""
    return Networks(folder)
