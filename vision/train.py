"""Train the learned dice reader: a die detector and a face classifier, exported to ONNX.

Why PyTorch here and never at the table: training needs autograd, the table only the forward
pass, which onnxruntime runs from the exported ONNX files on the Pi as well. PyTorch
lives in its own training venv (``make train-venv``), never in what ``make run`` or
``make test`` installs.

``python -m vision.train --sets ../shared/dice`` rebuilds ``vision/models/`` from the Train
splits of the shared sets and fixed seeds: the detector and classifier weights, then the
thresholds chosen on a calibration split cut from Train (:mod:`vision.thresholds`). Valid
never enters training or the choice of a threshold. ``--leave-out SET`` trains the same
recipe without any picture of that set (nor composites cut from it), with ``--steps``
usually shorter, into ``vision/models/without-SET/``: the leave-one-set-out figure of
``python -m vision.evaluate --leave-one-set-out``. ``--mine`` adds hard negatives to the
classifiers' crops (:mod:`vision.mining`); ``--composed`` cuts some from dice moved onto
made-up surfaces (:func:`vision.corpus.composed_patch`). Neither is the recipe of the shipped
weights (the model card says why).

The two networks (the model card, ``docs/vision-model.md``, has their sizes and figures):

- **detector**: fully convolutional, stride 4; per cell a die-centre score, the log of the
  die's face size, and the die's value (its own opinion, used as the second opinion);
- **classifier**: a 40x40 crop of 1.5 x the face size around each centre gives "not a die" or
  a value 1-6. Stage 2 trains two, one after the other, from the same seed (:data:`MEMBERS`):
  ``classifier.onnx`` on the BGR crop, ``classifier-up.onnx`` with the picture's up as a fourth
  channel (:func:`vision.crops.up_channel`) and side faces taught as "not a die"; the reader
  averages them. The one trained beside
  the detector, on 32x32 crops of 1.6 x, is kept as the second opinion.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys
import time

import cv2
import numpy as np

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F  # noqa: N812
except ImportError:  # pragma: no cover - the table never trains
    sys.exit("Training needs PyTorch: make train-venv, then .venv-train/bin/python -m vision.train")
try:  # torch.onnx.export needs it at the very end: say so before an hour of training, not after
    import onnx  # noqa: F401
except ImportError:  # pragma: no cover - the table never trains
    sys.exit("Training exports ONNX and needs the onnx package: make train-venv (or pip install "
             "onnx in the training venv), then run again.")

from vision import corpus, mining
from vision.crops import CLASS_INPUT, SECOND_INPUT
from vision.evaluate import SETS
from vision.labels import LabelledPicture, load_set, split_calibration
from vision.networks import Networks

MODELS = pathlib.Path(__file__).with_name("models")
SAMPLE = 192  # detector training samples are SAMPLE x SAMPLE
STRIDE = 4
#: stage 2's label smoothing: none, so that the classifier's probabilities spread up to 1 and the
#: calibration's ``min_value`` has room (at 0.05 its surest mean was about 0.96)
LABEL_SMOOTHING = 0.0
#: channels of the face classifier (stage 2) and of the second opinion (stage 1)
FACE_WIDTHS = (24, 48, 96, 128)
SECOND_WIDTHS = (16, 32, 64, 96)


# ---------------------------------------------------------------------------------------------
# networks


def _conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _sep(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """Depthwise-separable 3x3: cheap enough for a full frame on one core."""
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


#: stage 2's steps of 128 crops. 10800 since 1 December 2026 (was 7200): trained half as long
#: again, the calibration split read 374 dice with none wrong where it read 328
#: (docs/vision-model.md)
CLASSIFIER_STEPS = 10800


class Classifier(nn.Module):
    """A square BGR crop -> logits of not-a-die and values 1-6.

    ``widths`` are the channels of its four stages (each stage halves the crop). The face
    classifier of stage 2 is the wide one (:data:`FACE_WIDTHS`): at 16-96 channels its training
    loss was still 0.2 after 3600 steps (underfit); the second opinion, trained beside the
    detector, keeps the narrow one (:data:`SECOND_WIDTHS`).
    """

    def __init__(self, widths: tuple[int, int, int, int] = SECOND_WIDTHS,
                 deep_last: bool = False, channels: int = 3) -> None:
        super().__init__()
        a, b, c, d = widths
        last = [_conv(c, d), _conv(d, d)] if deep_last else [_conv(c, d)]
        self.channels = channels
        self.body = nn.Sequential(
            _conv(channels, a), nn.MaxPool2d(2),
            _conv(a, b), _conv(b, b), nn.MaxPool2d(2),
            _conv(b, c), _conv(c, c), nn.MaxPool2d(2),
            *last, nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            nn.Dropout(0.1), nn.Linear(d, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def face_classifier(upright: bool = True) -> Classifier:
    """Stage 2's classifier: the wide one, reading BGR and, when ``upright``, the picture's up
    (:func:`vision.crops.up_channel`)."""
    return Classifier(FACE_WIDTHS, deep_last=True, channels=4 if upright else 3)


#: stage 2's classifiers, each its own ONNX file: does it read the picture's up (and learn
#: side faces as "not a die", :data:`vision.corpus.SIDE_FACE`)? The reader averages them
#: (:data:`vision.networks.CLASSIFIERS`)
MEMBERS = {"classifier.onnx": False, "classifier-up.onnx": True}


# ---------------------------------------------------------------------------------------------
# samples


class Samples(torch.utils.data.IterableDataset):
    """Endless detector samples with their targets and classifier crops, from a seed."""

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
            yield (to_input(image), *targets(dice),
                   *stack_crops(corpus.classifier_samples(image, dice, rng, negatives=2)))


def to_input(image: np.ndarray) -> np.ndarray:
    """uint8 HxWxC (BGR, maybe the up channel) -> float32 CxHxW in -0.5..0.5 (the same as the
    table's reader)."""
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


def stack_crops(samples: list[tuple[np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    if not samples:
        return (np.zeros((0, 3, SECOND_INPUT, SECOND_INPUT), np.float32),
                np.zeros((0,), np.int64))
    return (np.stack([to_input(c) for c, _ in samples]),
            np.array([v for _, v in samples], np.int64))


def collate(batch: list) -> tuple[torch.Tensor, ...]:
    x, heat, logsize, value, mask, crops, labels = zip(*batch, strict=True)
    return (torch.from_numpy(np.stack(x)), torch.from_numpy(np.stack(heat)),
            torch.from_numpy(np.stack(logsize)), torch.from_numpy(np.stack(value)),
            torch.from_numpy(np.stack(mask)), torch.from_numpy(np.concatenate(crops)),
            torch.from_numpy(np.concatenate(labels)))


# ---------------------------------------------------------------------------------------------
# losses and training


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
    det, cls = Detector(), Classifier()
    params = list(det.parameters()) + list(cls.parameters())
    opt = torch.optim.AdamW(params, lr=3e-3, weight_decay=1e-4)
    loader = torch.utils.data.DataLoader(Samples(pictures, seed), batch_size=16,
                                         num_workers=1, collate_fn=collate)
    start = time.monotonic()
    step = 0
    det.train()
    cls.train()
    for x, heat, logsize, value, mask, crops, labels in loader:
        done = step / steps
        if done >= 1:
            break
        for group in opt.param_groups:  # one cosine from 3e-3 to nothing over the steps
            group["lr"] = 3e-3 * 0.5 * (1 + math.cos(math.pi * min(done, 1.0)))
        out = det(x)
        l_heat = focal(out[:, 0], heat)
        m = mask.sum().clamp(min=1)
        l_size = (F.smooth_l1_loss(out[:, 1], logsize, reduction="none") * mask).sum() / m
        l_value = F.cross_entropy(out[:, 2:], value, ignore_index=-1)
        l_value = l_value if torch.isfinite(l_value) else out.sum() * 0
        l_cls = F.cross_entropy(cls(crops), labels, label_smoothing=0.05)
        loss = l_heat + l_size + 0.5 * l_value + l_cls
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 100 == 0:
            log(f"step {step} ({100 * done:.0f}%): centre {l_heat.item():.3f} size "
                f"{l_size.item():.3f} value {l_value.item():.3f} face {l_cls.item():.3f}")
    log(f"{step} steps in {(time.monotonic() - start) / 60:.1f} minutes")
    export(det, cls, out_dir)


class Crops(torch.utils.data.IterableDataset):
    """Endless classifier crops (:func:`vision.corpus.class_sample`) from a seed."""

    def __init__(self, pictures: list[LabelledPicture], seed: int, rendered: int = 800,
                 upright: bool = True, mine_with: pathlib.Path | None = None,
                 composed: bool = False) -> None:
        self.pictures = pictures
        self.composed = composed
        self.seed = seed
        self.rendered = rendered
        self.upright = upright
        self.mine_with = mine_with

    def __iter__(self):  # noqa: ANN204 - torch's protocol
        rng = np.random.default_rng(self.seed)
        # mined here, in the loader's process (the patches are too large to send over), from
        # the same loaded picture as its dice
        nets = Networks(self.mine_with) if self.mine_with else None
        patches, negatives = [], []
        for p in self.pictures:
            image = p.load()
            patches += corpus.real_patches(p, image)
            if nets:
                negatives += mining.mined_patches(p, image, nets)
        patches += [corpus.rendered_patch(rng, self.upright) for _ in range(self.rendered)]
        composed = [corpus.composed_patch(patches[int(i)], rng) for i in
                    rng.integers(len(patches), size=corpus.COMPOSED_POOL)] if self.composed else []
        while True:
            crop, value = corpus.class_sample(patches, rng, self.upright, negatives,
                                              composed)
            yield to_input(crop), value


def train_classifier(pictures: list[LabelledPicture], out_dir: pathlib.Path, steps: int,
                     seed: int, log=print,  # noqa: ANN001
                     name: str = "classifier-up.onnx", mine: bool = False,
                     composed: bool = False) -> None:
    """Stage 2: one face classifier (``name``, one of :data:`MEMBERS`) alone, on its own stream
    of crops, replacing stage 1's. ``mine``: a tenth of the crops are hard negatives, what the
    folder's detector proposes away from every labelled die (:mod:`vision.mining`).
    ``composed``: a quarter of the other crops are dice moved onto made-up surfaces
    (:func:`vision.corpus.composed_patch`).

    Why a stage of its own: a crop costs a twentieth of a detector sample, so the classifier
    sees many more dice here than beside the detector.
    """
    upright = MEMBERS[name]
    torch.manual_seed(seed)
    cls = face_classifier(upright)
    opt = torch.optim.AdamW(cls.parameters(), lr=3e-3, weight_decay=1e-4)
    loader = torch.utils.data.DataLoader(Crops(pictures, seed, upright=upright,
                                               mine_with=out_dir if mine else None,
                                               composed=composed),
                                         batch_size=128,
                                         num_workers=1)
    start = time.monotonic()
    step = 0
    cls.train()
    for x, labels in loader:
        if step >= steps:
            break
        for group in opt.param_groups:
            group["lr"] = 3e-3 * 0.5 * (1 + math.cos(math.pi * step / steps))
        loss = F.cross_entropy(cls(x), labels, label_smoothing=LABEL_SMOOTHING)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 100 == 0:
            log(f"{name} step {step} ({100 * step / steps:.0f}%): face {loss.item():.3f}")
    log(f"{name}: {step} steps in {(time.monotonic() - start) / 60:.1f} minutes")
    export_classifier(cls, out_dir / name)


def export_classifier(cls: Classifier, path: pathlib.Path) -> None:
    cls.eval()
    with torch.no_grad():
        torch.onnx.export(cls, torch.zeros(8, cls.channels, CLASS_INPUT, CLASS_INPUT),
                          str(path), opset_version=13,
                          input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)


def export(det: Detector, second: Classifier, out_dir: pathlib.Path) -> None:
    """Stage 1's networks as ONNX files that onnxruntime runs (opset 13, any frame size): the
    detector, and the classifier trained beside it, kept as the reader's second opinion."""
    out_dir.mkdir(parents=True, exist_ok=True)
    det.eval()
    second.eval()
    with torch.no_grad():
        torch.onnx.export(det, torch.zeros(1, 3, SAMPLE, SAMPLE), str(out_dir / "detector.onnx"),
                          opset_version=13, input_names=["image"], output_names=["cells"],
                          dynamic_axes={"image": {2: "h", 3: "w"}, "cells": {2: "gh", 3: "gw"}},
                          dynamo=False)
        torch.onnx.export(second, torch.zeros(8, 3, SECOND_INPUT, SECOND_INPUT),
                          str(out_dir / "second.onnx"), opset_version=13,
                          input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"),
                        help="folder holding SET/Train for each shared set")
    parser.add_argument("--leave-out", choices=SETS, help="train without this set")
    parser.add_argument("--steps", type=int, default=None,
                        help="batches of 16 samples (default 3000, or 1000 with --leave-out)")
    parser.add_argument("--classifier-steps", type=int, default=None,
                        help=f"batches of 128 crops for stage 2 (default {CLASSIFIER_STEPS}, "
                             "or 2400 with --leave-out)")
    parser.add_argument("--stage", choices=("all", "classifier"), default="all",
                        help="classifier: only stage 2 (and the thresholds), on a model folder "
                             "whose detector is already trained")
    parser.add_argument("--mine", action="store_true",
                        help="train the classifiers on hard negatives too: what the detector "
                             "proposes away from every labelled die (not yet the shipped recipe)")
    parser.add_argument("--composed", action="store_true",
                        help="cut a quarter of the classifiers' crops from dice moved onto "
                             "made-up surfaces (not the shipped recipe: left out, each set "
                             "read fewer dice; docs/vision-model.md)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    pictures = []
    for name in SETS:
        if name != args.leave_out:
            folder = args.sets / name / "Train"
            if not folder.is_dir():
                print(f"{folder} is not there: give --sets the folder of the shared dice sets.",
                      file=sys.stderr)
                return 2
            pictures.extend(load_set(folder, name))
    fit, calib = split_calibration(pictures)
    out_dir = MODELS / (f"without-{args.leave_out}" if args.leave_out else "")
    steps = args.steps or (1000 if args.leave_out else 3000)
    cls_steps = args.classifier_steps or (2400 if args.leave_out else CLASSIFIER_STEPS)
    detector = f"{steps} detector steps, " if args.stage == "all" else ""
    print(f"training on {len(fit)} pictures ({len(calib)} kept for calibration): {detector}"
          f"{cls_steps} classifier steps, into {out_dir}")
    if args.stage == "all":
        train(fit, out_dir, steps, args.seed)
    for name in MEMBERS:
        train_classifier(fit, out_dir, cls_steps, args.seed, name=name, mine=args.mine,
                         composed=args.composed)
    from vision.thresholds import choose  # after export: it reads the ONNX files just written

    chosen = choose(out_dir, calib)
    (out_dir / "thresholds.json").write_text(json.dumps(chosen, indent=2) + "\n")
    print("thresholds:", json.dumps(chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
