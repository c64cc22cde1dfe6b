"""Train the die detector: centres, face sizes and values at stride 4, exported to ONNX.

Why on the pretrained backbone (issue 35, 4 December 2026): issue 11's detector, a 109 kB
network trained from random weights, proposed 86.5% of the calibration split's
oblique-colour dice at the reader's ``detect`` 0.3 (62.6% at 0.4), and the reader can read no
die it is not offered. The same stream (:mod:`vision_lab.corpus`: Train photos warped to any
die size, composites of their dice on made-up surfaces, rendered scenes) through the first
five blocks of EfficientNet-Lite0 with its ImageNet weights (:class:`Detector`) proposes
94.8% of them at 0.3 (87.2% at 0.4), all of topdown-colour's, with fewer places that are no
die. It costs more: 28 ms of CPU for a 640x480 picture at one scale on one core, against
6.8 ms (a seat's zone is read at one scale and a few hundred pixels a side). Its own opinion
of the value is trained too but not read.

The sample stream still draws the crops of issue 11's second opinion beside each sample
(:func:`vision_lab.corpus.classifier_samples`), unused, so that a seed gives the same
samples as it always did.
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
from vision_lab.backbone import MEAN, STD, Backbone, load_pretrained
from vision_lab.labels import LabelledPicture
from vision_lab.schedule import lr_at

SAMPLE = 192  # training samples are SAMPLE x SAMPLE
STRIDE = 4
#: the backbone's blocks the detector keeps: 0-4, up to the end of the stride-8 stage
DETECTOR_BLOCKS = 5
#: the stem and blocks 0-2 (stride 4) keep their ImageNet weights: their backward pass, on
#: every pixel, would be most of a step's time
FROZEN_BLOCKS = 3
#: the learning rate of what is trained (blocks 3-4 and the new layers)
LR = 2e-3
WARMUP = 100


def _sep(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, dilation, dilation=dilation, groups=cin, bias=False),
        nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """Die centres, sizes and values at stride 4; input BGR scaled to 0-1 minus 0.5.

    The pretrained backbone's stem and blocks 0-4 (:mod:`vision_lab.backbone`): stride 4
    (block 2, 24 channels) and stride 8 (block 4, 40 channels), two dilated separable
    convolutions on the stride-8 map for the context of a large die, upsampled onto the
    stride-4 map, one head. The input's scaling and channel order are folded into the stem
    (:func:`fold_input`), so the table feeds it as it fed issue 11's detector."""

    def __init__(self, pretrained: bool = True) -> None:
        super().__init__()
        backbone = Backbone(DETECTOR_BLOCKS)
        if pretrained:
            load_pretrained(backbone)
        fold_input(backbone._conv_stem, backbone._bn0)
        self.stem = nn.Sequential(backbone._conv_stem, backbone._bn0, nn.ReLU6(inplace=True))
        self.s4 = nn.Sequential(*backbone._blocks[:FROZEN_BLOCKS])
        self.s8 = nn.Sequential(*backbone._blocks[FROZEN_BLOCKS:],
                                _sep(40, 64, dilation=2), _sep(64, 64, dilation=4))
        self.lateral = nn.Conv2d(24, 64, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = _sep(64, 48)
        self.head = nn.Conv2d(48, 8, 1)  # centre, log size, 6 value logits
        self.frozen = nn.ModuleList([self.stem, self.s4])
        for p in self.frozen.parameters():
            p.requires_grad = False

    def train(self, mode: bool = True) -> Detector:
        """The frozen stem and blocks keep their ImageNet statistics while the rest learns."""
        super().train(mode)
        self.frozen.eval()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        return self.head(self.fuse(self.up(f8) + self.lateral(f4)))


def fold_input(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> None:
    """Make the stem take BGR in -0.5..0.5 (the detector's input since issue 11) where the
    weights expect RGB normalised by ImageNet's mean and deviation: the channel order and
    scale go into the convolution's weights, the shift into the batch norm's running mean.
    Nothing is added to what runs at the table."""
    with torch.no_grad():
        mean = torch.tensor(MEAN)
        std = torch.tensor(STD)
        w = conv.weight.flip(1)  # BGR in, the weights' RGB
        w = w / std.flip(0).view(1, 3, 1, 1)
        # rgb_norm = (x + 0.5 - mean) / std: x's weights w / std, plus a constant per channel
        shift = (conv.weight * ((0.5 - mean) / std).view(1, 3, 1, 1)).sum(dim=(1, 2, 3))
        conv.weight.copy_(w)
        bn.running_mean.sub_(shift)


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
    """uint8 H x W x 3 BGR -> float32 3 x H x W in -0.5..0.5 (as vision.networks feeds it)."""
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
    opt = torch.optim.AdamW([p for p in det.parameters() if p.requires_grad], lr=LR,
                            weight_decay=1e-4)
    loader = torch.utils.data.DataLoader(Samples(pictures, seed), batch_size=16, num_workers=1)
    start = time.monotonic()
    step = 0
    det.train()
    for x, heat, logsize, value, mask in loader:
        if step >= steps:
            break
        for group in opt.param_groups:
            group["lr"] = lr_at(step, steps, LR, WARMUP)
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
