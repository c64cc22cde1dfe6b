"""Teach the table's die finder (the detector) where its own dice lie, from boxed known throws.

Why: on the coloured sets most dice a new table misses were never proposed. The
detector trained without topdown-colour scores that set's dice 0.20-0.33 at their centres
(median 0.29, 30 Train pictures), under the 0.4 its thresholds ask, so the face network never
reads them, however well it is taught. A person marks each die's box on the referee console's
Dice page (``NAME.json``); those boxes say exactly where the table's dice lie, and what lies
around them is no die. So the detector, tiny (109 kB), is fine-tuned on the table's own
pictures: :data:`STEPS` batches of :data:`BATCH` samples, each a known picture turned, mirrored,
scaled so its dice span the sizes the reader reads a picture at
(:data:`vision.learned.face_reader.DETECT_RANGE`), cut to :data:`SAMPLE` pixels and put
through the camera's changes (:func:`vision.calibrate.augment.camera_changes`); the targets
are the recipe's (:func:`targets`: a peak at each die's centre, its log size around it), the
loss CenterNet's focal loss on the peaks and smooth L1 on the sizes.

Only pictures whose every die is boxed teach it: a die without a box would be taught as
background. What is judged and kept is :mod:`vision.calibrate.folds`' business; the table
reads the taught detector from ``NAME.detector.onnx`` beside its config (named in
``NAME.reader.json``).

PyTorch, ``onnx`` and ``onnx2torch`` are imported inside the functions that train (the
``learn`` extra); the samples need numpy and OpenCV only.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from vision.calibrate import network  # noqa: F401 - PyTorch's threads wait asleep (its docs)
from vision.calibrate.augment import camera_changes
from vision.calibrate.teach import Progress, learn_step
from vision.learned.face_reader import DETECT_RANGE

#: training samples are SAMPLE x SAMPLE pixels; the detector's cells are STRIDE pixels
SAMPLE, STRIDE = 128, 4
#: fine-tuning batches, of BATCH samples, and the learning rate at the top of the cosine
STEPS, BATCH, LR = 150, 16, 2e-3
#: a die (centre, face size) in a picture's pixels
Spot = tuple[tuple[float, float], float]


def boxed_dice(boxes: Sequence[tuple[tuple[float, float, float, float], int]]) -> list[Spot]:
    """The dice (value 1-6) of a throw's boxes as (centre, face size); "not a die" boxes are
    background to the finder."""
    return [((x + w / 2, y + h / 2), float(math.sqrt(w * h)))
            for (x, y, w, h), value in boxes if value > 0]


def sample(image: np.ndarray, dice: Sequence[Spot], rng: np.random.Generator,
           ) -> tuple[np.ndarray, list[Spot]]:
    """One training sample of a known picture: turned (any angle: the detector reads dice
    at any turn), mirrored, scaled so its median die is a random size of
    :data:`DETECT_RANGE`, cut to :data:`SAMPLE` around one of its dice (or anywhere, one in
    seven), its light and colour changed; with the dice whose centre lies on it."""
    sizes = [s for _, s in dice] or [30.0]
    low, high = DETECT_RANGE
    target = math.exp(rng.uniform(math.log(low * 0.9), math.log(high)))
    scale = target / float(np.median(sizes))
    if dice and rng.random() < 6 / 7:
        (x, y), s = dice[int(rng.integers(len(dice)))]
        cx, cy = x + rng.normal(0, s), y + rng.normal(0, s)
    else:
        cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    m = cv2.getRotationMatrix2D((cx, cy), float(rng.uniform(0, 360)), scale)
    m[0, 2] += SAMPLE / 2 - cx
    m[1, 2] += SAMPLE / 2 - cy
    if rng.random() < 0.5:
        m[0] = -m[0]
        m[0, 2] += SAMPLE
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    warped = cv2.warpAffine(image, m, (SAMPLE, SAMPLE), flags=interp,
                            borderMode=cv2.BORDER_REPLICATE)
    out = []
    for (x, y), s in dice:
        u, v = m @ np.array([x, y, 1.0])
        if 0 <= u < SAMPLE and 0 <= v < SAMPLE:
            out.append(((float(u), float(v)), s * scale))
    return camera_changes(warped, rng), out


def targets(dice: Sequence[Spot], side: int = SAMPLE,
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The detector's targets on a ``side`` sample, as the recipe trained it: a Gaussian peak
    (1 at the cell) at each die's centre, its log size in the 3 x 3 cells around it, and
    the mask of those cells."""
    g = side // STRIDE
    heat = np.zeros((g, g), np.float32)
    logsize = np.zeros((g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for (x, y), size in dice:
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        sigma = max(0.6, 0.12 * size / STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma ** 2)))
        ix, iy = int(round(cx)), int(round(cy))
        y0, y1, x0, x1 = max(iy - 1, 0), min(iy + 2, g), max(ix - 1, 0), min(ix + 2, g)
        if y0 < y1 and x0 < x1:
            logsize[y0:y1, x0:x1] = math.log(size)
            mask[y0:y1, x0:x1] = 1.0
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
    return heat, logsize, mask


def focal(logit: Any, heat: Any) -> Any:
    """CenterNet's penalty-reduced focal loss on the centre heatmap (the recipe's)."""
    import torch  # lazy: the learn extra's, only when a table is taught

    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos)
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def trainable(detector: pathlib.Path) -> Any:
    """The model's detector (a float ONNX network) as a trainable ``torch.nn.Module``."""
    import onnx  # lazy: the learn extra's, only when a table is taught
    import onnx2torch  # type: ignore[import-untyped]  # lazy: as above

    return onnx2torch.convert(onnx.load(str(detector)))


def fine_tune(net: Any, pictures: Sequence[np.ndarray], dice: Sequence[Sequence[Spot]], *,
              steps: int = STEPS, seed: int = 0, progress: Progress | None = None) -> Any:
    """Teach ``net`` (:func:`trainable`) where the dice of ``pictures`` lie (``dice[i]``:
    every die of picture i): ``steps`` batches of :data:`BATCH` samples (:func:`sample`),
    AdamW along one cosine from :data:`LR`. ``net`` in eval mode after."""
    import torch  # lazy: the learn extra's, only when a table is taught
    import torch.nn.functional as F  # noqa: N812  # lazy: as above

    if not pictures:
        raise ValueError("no boxed picture to teach the finder")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(net.parameters(), lr=LR, weight_decay=1e-4)
    net.train()
    for step in range(steps):
        images, heats, sizes, masks = [], [], [], []
        for _ in range(BATCH):
            i = int(rng.integers(len(pictures)))
            image, spots = sample(pictures[i], dice[i], rng)
            heat, logsize, mask = targets(spots)
            images.append(image)
            heats.append(heat)
            sizes.append(logsize)
            masks.append(mask)
        x = torch.from_numpy(np.stack(images).astype(np.float32).transpose(0, 3, 1, 2)
                             / 255.0 - 0.5)
        heat_t, size_t, mask_t = (torch.from_numpy(np.stack(a)) for a in (heats, sizes, masks))
        out = net(x)
        size_loss = (F.smooth_l1_loss(out[:, 1], size_t, reduction="none") * mask_t).sum()
        learn_step(opt, (LR,), step, steps,
                   focal(out[:, 0], heat_t) + size_loss / mask_t.sum().clamp(min=1))
        if progress is not None:
            progress("teaching the finder where the table's dice lie", step + 1, steps)
    return net.eval()


def export(net: Any, path: pathlib.Path) -> None:
    """``net`` as a float ONNX detector at ``path`` (any input size, as the model's), written
    aside and put in place."""
    import torch  # lazy: the learn extra's, only when a table is taught

    net.eval()
    aside = path.with_name(f".{path.name}.tmp")
    try:
        with torch.no_grad():
            torch.onnx.export(net, (torch.zeros(1, 3, SAMPLE, SAMPLE),), str(aside),
                              opset_version=13, input_names=["image"], output_names=["cells"],
                              dynamic_axes={"image": {2: "h", 3: "w"},
                                            "cells": {2: "gh", 3: "gw"}}, dynamo=False)
        aside.replace(path)
    finally:
        aside.unlink(missing_ok=True)
