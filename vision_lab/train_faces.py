"""Train the face classifier on the pretrained backbone and export it for the table.

Why this recipe: a classifier from random weights is the ceiling of the reader
(docs/vision-model.md); EfficientNet-Lite0's ImageNet features (:mod:`vision_lab.backbone`)
fine-tuned on the same crops read a table none of the training pictures show far better.

``python -m vision_lab.train_faces --sets ../shared/dice`` trains on the Train splits (less the
calibration split cut from them, :func:`vision_lab.labels.split_calibration`), then writes into
the model folder:

- ``faces.onnx``: uint8-valued BGR crops (N x 3 x 64 x 64, float) -> features (N x 256); the
  channel order and the backbone's normalisation are inside the network;
- ``head.npz``: the last linear layer and a temperature fitted on the calibration split
  (:mod:`vision.learned.face_model`), so that its probabilities are calibrated where the network
  was not trained (:func:`vision_lab.refit_head.fit_temperature`; the head and its temperature
  are fitted again on the reader's own proposals after, :mod:`vision_lab.refit_head`).

The crops are the corpus's classifier stream (:func:`vision_lab.face_samples.class_sample`) at
64 px, turned at most 45 degrees either way (:data:`vision_lab.face_samples.TURN`) so that the
picture's up stays up: a side face, below its top face in the crop, is taught as "not a die".
Valid never enters training or the temperature.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import cv2
import numpy as np

try:
    import torch
    import torch.nn as nn
except ImportError:  # pragma: no cover - the table never trains
    sys.exit("Training needs PyTorch: make train-venv, then "
             ".venv-train/bin/python -m vision_lab.train_faces")

from vision.learned.crops import Pyramid, die_crop
from vision.learned.face_model import CLASSES, FACE_INPUT, Head
from vision_lab import face_samples
from vision_lab.backbone import FEATURES, MEAN, STD, Backbone, load_pretrained
from vision_lab.labels import (
    LabelledPicture,
    add_set_arguments,
    split_calibration,
    training_pictures,
)
from vision_lab.refit_head import fit_temperature
from vision_lab.schedule import train_classifier

MODELS = pathlib.Path(__file__).resolve().parent.parent / "vision" / "models"
#: the features the head reads
EMBED = 256
BATCH = 64
STEPS = 4500
#: the stem and blocks 0-2 (stride 2-4: edges and blobs) keep their ImageNet weights; their
#: backward pass is a third of a step's time at 64 px, and what they find is not the table's
FROZEN_BLOCKS = 3
LR = 1.5e-3
WARMUP = 200


class FaceNet(nn.Module):
    """BGR crops in 0-255 -> logits of not-a-die and values 1-6 (``features``: the head's
    input)."""

    def __init__(self, pretrained: bool = True, backbone: str = "lite0") -> None:
        super().__init__()
        self.backbone = Backbone(backbone)
        if pretrained:
            load_pretrained(self.backbone)
            frozen = [self.backbone._conv_stem, self.backbone._bn0,
                      *self.backbone._blocks[:FROZEN_BLOCKS]]
            for part in frozen:
                for p in part.parameters():
                    p.requires_grad = False
        self.neck = nn.Sequential(nn.Conv2d(FEATURES, EMBED, 1, bias=False),
                                  nn.BatchNorm2d(EMBED), nn.ReLU6(inplace=True),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(EMBED, CLASSES)
        mean = torch.tensor(MEAN).view(1, 3, 1, 1) * 255
        std = torch.tensor(STD).view(1, 3, 1, 1) * 255
        self.register_buffer("mean", mean)
        self.register_buffer("std", std)

    def features(self, bgr: torch.Tensor) -> torch.Tensor:
        rgb = bgr.flip(1)
        return self.neck(self.backbone((rgb - self.mean) / self.std))

    def forward(self, bgr: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.features(bgr)))


class _Features(nn.Module):
    def __init__(self, net: FaceNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, bgr: torch.Tensor) -> torch.Tensor:
        return self.net.features(bgr)


def to_input(crop: np.ndarray) -> np.ndarray:
    """uint8 H x W x 3 BGR -> float32 3 x H x W in 0-255 (as :mod:`vision.learned.face_model`
    feeds)."""
    return np.ascontiguousarray(crop.transpose(2, 0, 1), dtype=np.float32)


class Crops(torch.utils.data.IterableDataset):
    """Endless 64 px classifier crops from the fit pictures and rendered dice, from a seed."""

    def __init__(self, pictures: list[LabelledPicture], seed: int, rendered: int = 800) -> None:
        self.pictures = pictures
        self.seed = seed
        self.rendered = rendered

    def __iter__(self):  # noqa: ANN204 - torch's protocol
        rng = np.random.default_rng(self.seed)
        patches = []
        for p in self.pictures:
            patches += face_samples.real_patches(p, p.load())
        patches += [face_samples.rendered_patch(rng) for _ in range(self.rendered)]
        while True:
            crop, value = face_samples.class_sample(patches, rng, side=FACE_INPUT)
            yield to_input(crop), value


def train(pictures: list[LabelledPicture], steps: int, seed: int, pretrained: bool = True,
          log=print, backbone: str = "lite0") -> FaceNet:  # noqa: ANN001
    """``steps`` batches of :data:`BATCH` crops: a short warm-up, then one cosine."""
    torch.manual_seed(seed)
    net = FaceNet(pretrained, backbone)
    loader = torch.utils.data.DataLoader(Crops(pictures, seed), batch_size=BATCH, num_workers=1)
    return train_classifier(net, loader, steps, LR, WARMUP, "faces", log)


def calibration_crops(pictures: list[LabelledPicture], seed: int = 7, per_die: int = 2,
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the calibration split to fit the temperature on: each die at its label
    (upright and mirrored), and as many drawn by the training stream (dice and not-dice,
    turned and mis-sized as the reader's proposals are)."""
    rng = np.random.default_rng(seed)
    crops, labels, patches = [], [], []
    for p in pictures:
        image = p.load()
        pyramid = Pyramid(image)
        for die in p.dice:
            for mirror in (False, True):
                crops.append(die_crop(pyramid, die.centre, die.size, 0.0, mirror, FACE_INPUT))
                labels.append(die.value)
        patches += face_samples.real_patches(p, image)
    for _ in range(per_die * len(patches)):
        crop, value = face_samples.class_sample(patches, rng, side=FACE_INPUT)
        crops.append(crop)
        labels.append(value)
    return np.stack(crops), np.array(labels)


def export(net: FaceNet, calib: list[LabelledPicture], out_dir: pathlib.Path,
           log=print) -> None:  # noqa: ANN001
    """``faces.onnx`` and ``head.npz`` (temperature from the calibration split) in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    net.eval()
    with torch.no_grad():
        torch.onnx.export(_Features(net), torch.zeros(8, 3, FACE_INPUT, FACE_INPUT),
                          str(out_dir / "faces.onnx"), opset_version=13,
                          input_names=["crops"], output_names=["features"],
                          dynamic_axes={"crops": {0: "n"}, "features": {0: "n"}}, dynamo=False)
        crops, labels = calibration_crops(calib)
        feats = torch.cat([net.features(torch.from_numpy(np.stack([to_input(c) for c in
                                                                   crops[i:i + 256]])))
                           for i in range(0, len(crops), 256)]).numpy()
    weight, bias = net.fc.weight.detach().numpy(), net.fc.bias.detach().numpy()
    logits = feats @ weight.T + bias
    t = fit_temperature(logits, labels)
    right = float((logits.argmax(1) == labels).mean())
    log(f"calibration crops: {len(labels)}, best class right {100 * right:.1f}%, "
        f"temperature {t:.2f}")
    Head(weight, bias, t).save(out_dir / "head.npz")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.train_faces",
                                     description=__doc__.split("\n\n")[0])
    add_set_arguments(parser, "train without this set")
    parser.add_argument("--steps", type=int, default=None,
                        help=f"batches of {BATCH} crops (default {STEPS}, a third with "
                             "--leave-out)")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="model folder (default vision/models, or vision/models/without-SET)")
    parser.add_argument("--scratch", action="store_true",
                        help="random initial weights instead of ImageNet's (for comparison)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    fit, calib = split_calibration(training_pictures(args.sets, args.leave_out))
    out = args.out or MODELS / (f"without-{args.leave_out}" if args.leave_out else "")
    steps = args.steps or (STEPS // 3 if args.leave_out else STEPS)
    print(f"face classifier: {len(fit)} pictures ({len(calib)} kept for calibration), "
          f"{steps} steps, into {out}")
    net = train(fit, steps, args.seed, pretrained=not args.scratch)
    export(net, calib, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
