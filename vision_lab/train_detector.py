"""Train the die detector: centres, face sizes and values at stride 4, exported to ONNX.

Why its own network and not the backbone's: the detector reads every pixel of a frame at
several scales, so it must be tiny (109 kB, a few ms a 640x480 frame on one core); it only has
to propose places, and the pretrained face classifier (:mod:`vision_lab.train_faces`) decides
what each one is. Trained from random weights on samples of the Train photographs warped to
any die size, composites of their dice on made-up surfaces, and rendered scenes
(:mod:`vision_lab.corpus`). Its own opinion of the value is trained too but no longer read.

The sample stream also draws the crops of a second opinion beside each sample
(:func:`vision_lab.corpus.classifier_samples`), unused, so that the same seed gives the shipped
detector to the bit.
"""

from __future__ import annotations

import math
import pathlib
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F  # noqa: N812

from vision_lab import corpus
from vision_lab.labels import LabelledPicture

SAMPLE = 192  # training samples are SAMPLE x SAMPLE
STRIDE = 4


def _conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _sep(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, dilation, dilation=dilation, groups=cin, bias=False),
        nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """Die centres, sizes and values at stride 4; input BGR scaled to 0-1 minus 0.5."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = _conv(3, 16, 2)
        self.s4 = nn.Sequential(_sep(16, 32, 2), _sep(32, 32))
        self.s8 = nn.Sequential(_sep(32, 64, 2), _sep(64, 64, dilation=2),
                                _sep(64, 64, dilation=4), _sep(64, 64, dilation=2))
        self.lateral = nn.Conv2d(32, 64, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = _sep(64, 48)
        self.head = nn.Conv2d(48, 8, 1)  # centre, log size, 6 value logits

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        return self.head(self.fuse(self.up(f8) + self.lateral(f4)))


class Samples(torch.utils.data.IterableDataset):
    """Endless detector samples with their targets, from a seed."""

    def __init__(self, pictures: list[LabelledPicture], seed: int) -> None:
        self.pictures = pictures
        self.seed = seed

    def __iter__(self):  # noqa: ANN204 - torch's protocol
        rng = np.random.default_rng(self.seed)
        images = {p.path: p.load() for p in self.pictures}
        crops = [c for p in self.pictures for c in corpus.cut_crops(p, images[p.path])]
        while True:
            r = rng.random()
            if r < 0.5:
                p = self.pictures[int(rng.integers(len(self.pictures)))]
                image, dice = corpus.warped_photo(p, images[p.path], rng, SAMPLE)
            elif r < 0.8:
                image, dice = corpus.composite(crops, rng, SAMPLE)
            else:
                image, dice = corpus.rendered(rng, SAMPLE)
            image = corpus.photometric(image, rng)
            dice = corpus.inside(dice, SAMPLE)
            corpus.classifier_samples(image, dice, rng, negatives=2)  # the stream's draws
            yield (to_input(image), *targets(dice))


def to_input(image: np.ndarray) -> np.ndarray:
    """uint8 H x W x 3 BGR -> float32 3 x H x W in -0.5..0.5 (as vision.learned.networks feeds
    it)."""
    return (image.astype(np.float32) / 255.0 - 0.5).transpose(2, 0, 1)


def targets(dice: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap, log-size, value (-1 = none) and a mask of the cells that carry size/value."""
    g = SAMPLE // STRIDE
    heat = np.zeros((g, g), np.float32)
    logsize = np.zeros((g, g), np.float32)
    value = np.full((g, g), -1, np.int64)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for d in dice:
        cx, cy = d.centre[0] / STRIDE - 0.5, d.centre[1] / STRIDE - 0.5
        sigma = max(0.6, 0.12 * d.size / STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma ** 2)))
        ix, iy = int(round(cx)), int(round(cy))
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = ix + dx, iy + dy
                if 0 <= x < g and 0 <= y < g:
                    logsize[y, x] = math.log(d.size)
                    value[y, x] = d.value - 1
                    mask[y, x] = 1.0
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
    return heat, logsize, value, mask


def focal(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heatmap."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - pos)
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def train(pictures: list[LabelledPicture], out_dir: pathlib.Path, steps: int, seed: int,
          log=print) -> None:  # noqa: ANN001
    """``steps`` batches of 16 samples, one cosine learning-rate schedule, then export."""
    torch.manual_seed(seed)
    det = Detector()
    opt = torch.optim.AdamW(det.parameters(), lr=3e-3, weight_decay=1e-4)
    loader = torch.utils.data.DataLoader(Samples(pictures, seed), batch_size=16, num_workers=1)
    start = time.monotonic()
    step = 0
    det.train()
    for x, heat, logsize, value, mask in loader:
        if step >= steps:
            break
        for group in opt.param_groups:  # one cosine from 3e-3 to nothing over the steps
            group["lr"] = 3e-3 * 0.5 * (1 + math.cos(math.pi * step / steps))
        out = det(x)
        l_heat = focal(out[:, 0], heat)
        m = mask.sum().clamp(min=1)
        l_size = (F.smooth_l1_loss(out[:, 1], logsize, reduction="none") * mask).sum() / m
        l_value = F.cross_entropy(out[:, 2:], value, ignore_index=-1)
        l_value = l_value if torch.isfinite(l_value) else out.sum() * 0
        loss = l_heat + l_size + 0.5 * l_value
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 100 == 0:
            log(f"detector step {step} ({100 * step / steps:.0f}%): centre {l_heat.item():.3f} "
                f"size {l_size.item():.3f} value {l_value.item():.3f}")
    log(f"detector: {step} steps in {(time.monotonic() - start) / 60:.1f} minutes")
    out_dir.mkdir(parents=True, exist_ok=True)
    det.eval()
    with torch.no_grad():
        torch.onnx.export(det, torch.zeros(1, 3, SAMPLE, SAMPLE), str(out_dir / "detector.onnx"),
                          opset_version=13, input_names=["image"], output_names=["cells"],
                          dynamic_axes={"image": {2: "h", 3: "w"}, "cells": {2: "gh", 3: "gw"}},
                          dynamo=False)
