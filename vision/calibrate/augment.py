"""The camera's changes to a picture, drawn at random: the one augmentation of light and colour
that both the model's training (:mod:`vision_lab.corpus`) and a table's teaching
(:mod:`vision.calibrate.teach`, :mod:`vision.calibrate.finder`) put their samples through.

Why one: a crop taught at the table and a sample of the recipe's corpus meet the same cameras,
so they are changed alike: contrast, light, uneven light, gamma, blur, motion blur, noise and
JPEG. ``wide`` adds what only a model of every table needs, any colour: hue turns, channel
swaps, grey, and (``strong``) inverted colours. Without ``wide`` (a table's own dice keep their
colours) each channel's gain changes a little instead, as a camera's white balance does.

numpy and OpenCV only; the draws of ``wide`` are those the shipped model was trained with, in
the same order, so the recipe's seed still gives the shipped networks.
"""

from __future__ import annotations

import cv2
import numpy as np

#: a table's white balance: each channel's gain, at most this far from 1 (``wide`` False)
BALANCE = 0.15


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells: tuple[int, int]) -> np.ndarray:
    """Smooth random shading: a ``cells`` grid of normal draws, resized to h x w."""
    small = rng.standard_normal(cells).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def camera_changes(img: np.ndarray, rng: np.random.Generator, *, wide: bool = True,
                   strong: bool = True) -> np.ndarray:
    """Light, colour and camera changes on a uint8 BGR image (returns a new uint8 image)."""
    out: np.ndarray = img.astype(np.float32)
    if wide:
        if rng.random() < 0.5:  # turn the hue: any die colour, any felt
            hsv = cv2.cvtColor(np.clip(out, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
            hsv[:, :, 0] = (hsv[:, :, 0].astype(np.int32) + int(rng.integers(180))) % 180
            sat = hsv[:, :, 1].astype(np.float32) * rng.uniform(0.3, 1.6)
            hsv[:, :, 1] = np.clip(sat, 0, 255).astype(np.uint8)
            out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
        if rng.random() < 0.3:
            out = out[:, :, rng.permutation(3)]
        if strong and rng.random() < 0.3:  # white pips on dark dice, light felt to dark felt
            out = 255 - out
        if rng.random() < 0.15:
            grey = out.mean(axis=2, keepdims=True)
            out = np.repeat(grey, 3, axis=2)
    else:
        out *= rng.uniform(1 - BALANCE, 1 + BALANCE, 3).astype(np.float32)
    contrast = rng.uniform(0.5, 1.4)
    bright = rng.uniform(-60, 60)
    out = (out - 128) * contrast + 128 + bright
    if rng.random() < 0.4:  # uneven light
        h, w = out.shape[:2]
        out *= (1 + rng.uniform(0.1, 0.5) * smooth_noise(rng, h, w, (2, 2)))[:, :, None]
    out = np.clip(out, 0, 255)
    if rng.random() < 0.4:
        gamma = float(rng.uniform(0.6, 1.6))
        out = 255 * (out / 255) ** gamma
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.5))
    if rng.random() < 0.1:  # motion blur
        k = int(rng.integers(3, 8))
        kernel: np.ndarray = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.5:
        out += rng.standard_normal(out.shape).astype(np.float32) * rng.uniform(1, 10)
    out8: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out8 = decoded
    return out8
