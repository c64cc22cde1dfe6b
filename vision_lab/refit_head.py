"""Fit the shipped head again on what the reader proposes in the Train pictures.

Why: the face network was trained on crops cut near labelled dice (beside one, on a pip, twice
its size, its side face), never on the other things a detector proposes on a table (a token,
a hole of a tray, a shadow). On the calibration split those came back as phantom dice or as
unsure places, and the wrong budget then held ``min_value`` high. The network's features are
good enough to tell them apart (the head is one linear layer on 256 features), so the head is
fitted again, by numpy, on the features of every proposal of the fit pictures: each matched to
a labelled die is that die's value, each far from every label is "not a die", the rest (near
a die but misplaced) is left out. The temperature is then fitted on the calibration split's
proposals, labelled the same way: the probabilities the reader decides on are calibrated on
the reader's own places, not on training crops.
"""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np

from vision.learned.face_model import Head
from vision.learned.face_reader import Model, Settings, look
from vision_lab.labels import LabelledPicture, split_calibration

#: a proposal within this fraction of a die's size from its centre, and of a size within
#: SAME_SIZE of it, is that die; one farther than FAR sizes from every die is not a die
NEAR, SAME_SIZE, FAR = 0.35, 1.5, 0.9


def place_class(centre: tuple[float, float], size: float, picture: LabelledPicture,
                ) -> int | None:
    """The class a place of ``size`` at ``centre`` teaches: the die's value when it is placed
    and sized like one, 0 when it is far from every die, ``None`` in between (near a die but
    misplaced or mis-sized)."""
    cls: int | None = None
    far = True
    for d in picture.dice:
        dist = math.dist(centre, d.centre)
        if dist < FAR * max(d.size, size):
            far = False
        ratio = max(size, d.size) / max(min(size, d.size), 1e-6)
        if dist < NEAR * d.size and ratio < SAME_SIZE:
            cls = d.value
    if cls is None and far:
        return 0
    return cls


def labelled_places(model: Model, pictures: list[LabelledPicture], min_score: float = 0.2,
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(features, class) of every proposal of the pictures that is clearly a die or clearly
    not one (:func:`place_class`)."""
    feats, classes = [], []
    for p in pictures:
        for place in look(p.load(), model, Settings(), min_score, every_place=True):
            cls = place_class(place.centre, place.size, p)
            if cls is not None:
                feats.append(place.features)
                classes.append(cls)
    return np.array(feats, np.float64), np.array(classes)


def fit(head: Head, x: np.ndarray, y: np.ndarray, steps: int = 300, pull: float = 1e-3,
        rate: float = 0.5) -> Head:
    """Multinomial logistic regression from ``head``, pulled towards it (``pull`` x the squared
    distance), classes weighted to balance dice against the many places that are none."""
    w0, b0 = head.weight.astype(np.float64), head.bias.astype(np.float64)
    w, b = w0.copy(), b0.copy()
    scale = x.std() or 1.0
    xs = x / scale
    w *= scale
    w0s = w0 * scale
    onehot = np.eye(w.shape[0])[y]
    counts = np.bincount(y, minlength=w.shape[0]).astype(np.float64)
    weights = np.where(y == 0, 0.5 * len(y) / max(counts[0], 1),
                       0.5 * len(y) / max(len(y) - counts[0], 1))
    weights /= weights.sum()
    m_w, m_b, v_w, v_b = (np.zeros_like(w), np.zeros_like(b), np.zeros_like(w), np.zeros_like(b))
    for t in range(1, steps + 1):
        z = xs @ w.T + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) * weights[:, None]
        gw = g.T @ xs + 2 * pull * (w - w0s)
        gb = g.sum(axis=0) + 2 * pull * (b - b0)
        m_w, m_b = 0.9 * m_w + 0.1 * gw, 0.9 * m_b + 0.1 * gb  # Adam
        v_w, v_b = 0.999 * v_w + 0.001 * gw ** 2, 0.999 * v_b + 0.001 * gb ** 2
        lr = rate * 0.01
        w -= lr * (m_w / (1 - 0.9 ** t)) / (np.sqrt(v_w / (1 - 0.999 ** t)) + 1e-8)
        b -= lr * (m_b / (1 - 0.9 ** t)) / (np.sqrt(v_b / (1 - 0.999 ** t)) + 1e-8)
    return Head((w / scale).astype(np.float32), b.astype(np.float32), head.temperature)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature (0.3-5) under which ``logits`` give ``labels`` the highest
    likelihood."""
    best, best_nll = 1.0, math.inf
    for t in np.exp(np.linspace(math.log(0.3), math.log(5.0), 80)):
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        nll = float(-(z[np.arange(len(labels)), labels] - np.log(np.exp(z).sum(1))).mean())
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def temperature(head: Head, x: np.ndarray, y: np.ndarray) -> float:
    """:func:`fit_temperature` of the head's logits on features ``x``."""
    return fit_temperature(x @ head.weight.T.astype(np.float64) + head.bias, y)


def refit(folder: pathlib.Path, pictures: list[LabelledPicture], log=print) -> Head:  # noqa: ANN001
    fit_pics, calib = split_calibration(pictures)
    model = Model(folder)
    x, y = labelled_places(model, fit_pics)
    log(f"fit: {len(y)} places, {int((y == 0).sum())} not a die")
    head = fit(model.head, x, y)
    xc, yc = labelled_places(model, calib)
    t = temperature(head, xc, yc)
    head = Head(head.weight, head.bias, t)
    before = (model.head.probabilities(xc).argmax(1) == yc).mean()
    after = (head.probabilities(xc).argmax(1) == yc).mean()
    log(f"calibration split: {len(yc)} places; best class right {100 * before:.1f}% -> "
        f"{100 * after:.1f}%; temperature {t:.2f}")
    head.save(folder / "head.npz")
    return head


if __name__ == "__main__":
    from vision_lab.labels import training_pictures

    folder = pathlib.Path(sys.argv[1])
    leave_out = sys.argv[2] if len(sys.argv) > 2 else None
    refit(folder, training_pictures(pathlib.Path("../shared/dice"), leave_out))
