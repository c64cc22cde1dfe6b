"""The face classifier at the table: a pretrained network's features, and a head that may be
the table's own.

Why two parts: the network (``faces.onnx``, run by onnxruntime) turns a crop of a die into a
feature vector; the head (``head.npz``: a linear layer and a temperature, run with numpy)
turns the features into probabilities of "not a die" and of each value. The network is what
was learned from many tables and ImageNet before them; the head is cheap to fit again. A
pub's own known throws (``bidou-table calibrate --known-throws``) fit a head for that table
on the Pi's CPU in seconds (:mod:`vision.calibrate.adapt`), with no PyTorch, and the reader then
reads
with it. Shipped and adapted heads have one format, so one code path reads both.

The temperature makes the probabilities calibrated: chosen on pictures the network was not
trained on, so that a value read at 0.99 is right about 99 times in 100 there.
"""

from __future__ import annotations

import functools
import hashlib
import pathlib
from dataclasses import dataclass

import numpy as np

from engine.errors import VisionError
from vision.learned.crops import FACE_INPUT
from vision.learned.networks import session

#: classes: 0 = not a die (or not one top face), 1-6 = the value
CLASSES = 7


@dataclass(frozen=True)
class Head:
    """Logits = features @ weight.T + bias, probabilities = softmax(logits / temperature)."""

    weight: np.ndarray  # CLASSES x features
    bias: np.ndarray  # CLASSES
    temperature: float = 1.0

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        logits = (features.astype(np.float64) @ self.weight.T.astype(np.float64)
                  + self.bias) / self.temperature
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    def save(self, path: pathlib.Path) -> None:
        np.savez(path, weight=self.weight.astype(np.float32), bias=self.bias.astype(np.float32),
                 temperature=np.float32(self.temperature))


def with_model_die(model: np.ndarray, table: np.ndarray) -> np.ndarray:
    """A place's probabilities under a table's own head (:mod:`vision.calibrate.adapt`): whether it
    is a
    die is the model's head's ("not a die", first column, of ``model``), its value the table's
    (``table``'s values, given a die). Why: the table's head learns "not a die" from a few
    dozen places, and on topdown-colour as a new table (4 December 2026, the first head ever
    kept) it took places for dice the model's head does not: the rest read 58.1% with 1.5%
    wrong values and 31 phantom dice; with the model's "not a die" 34.9%, 3 wrong, 2 phantom
    (zero-shot 31.9%, 2 wrong, 2 phantom). Rows are places; each row sums to one."""
    values = table[..., 1:] / np.maximum(table[..., 1:].sum(axis=-1, keepdims=True), 1e-12)
    die = model[..., :1]
    return np.concatenate([die, (1 - die) * values], axis=-1).astype(np.float32)


def load_head(path: pathlib.Path, features: int | None = None) -> Head:
    """A head saved by :meth:`Head.save`; a broken or mismatched file is a clear error."""
    try:
        with np.load(path) as data:
            head = Head(np.asarray(data["weight"], np.float32),
                        np.asarray(data["bias"], np.float32), float(data["temperature"]))
    except (OSError, ValueError, KeyError) as exc:
        raise VisionError(f"{path} is not a dice reader head ({exc}); calibrate the table again "
                          "(bidou-table calibrate --known-throws) or delete the file.") from exc
    shape_ok = head.weight.ndim == 2 and head.weight.shape[0] == CLASSES and \
        head.bias.shape == (CLASSES,) and head.temperature > 0
    if not shape_ok or (features is not None and head.weight.shape[1] != features):
        raise VisionError(f"{path} does not fit the dice reader's network (a head of shape "
                          f"{head.weight.shape}); calibrate the table again or delete the file.")
    return head


__all__ = ["CLASSES", "FACE_INPUT", "FaceNetwork", "Head", "face_network", "load_head"]


class FaceNetwork:
    """``faces.onnx``: uint8 BGR crops, N x 64 x 64 x 3 -> features, N x F."""

    def __init__(self, path: pathlib.Path) -> None:
        self._net = session(path)
        self._input = self._net.get_inputs()[0].name
        self.features = int(self._net.get_outputs()[0].shape[1])

    def embed(self, crops: np.ndarray) -> np.ndarray:
        if not len(crops):
            return np.zeros((0, self.features), np.float32)
        blob = np.ascontiguousarray(np.asarray(crops, np.float32).transpose(0, 3, 1, 2))
        return self._net.run(None, {self._input: blob})[0]


@functools.lru_cache(maxsize=8)
def face_network(path: pathlib.Path) -> FaceNetwork:
    """The face network of a model folder, loaded once per process."""
    return FaceNetwork(path)


@functools.lru_cache(maxsize=8)
def fingerprint(path: pathlib.Path) -> str:
    """A short digest of a face network's file: what a table's own head was fitted on."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "absent"
