"""Fine-tune the face network on the places the reader itself cuts (the recipe's second stage).

Why: measured on the calibration split (docs/vision-model.md, "Where the reader lost it"), the
network read at the labels gave the right best value for 95.9% of the dice, yet through the
reader only 81% came out right with 4% wrong, and a third of the right ones stayed under the
0.998 bar. The network had been trained on crops near labelled dice; the reader feeds it the
detector's places, a quarter small on most dice and far off on some, and the things a table
holds besides dice. Fitting the head again (:mod:`vision_lab.refit_head`) cannot change the
features it reads. So the network itself is trained further on exactly those crops:

- the fit pictures' proposals, each cut at the sizes the reader tries
  (:data:`MINED_SIZES`), taught as the die they lie on when they are placed and
  sized like it, as "not a die" when they are far from every die, and left out in between;
- beside them, half of each batch from the first stage's own stream
  (:func:`vision_lab.face_samples.class_sample`), so that what it learned there stays.

Its input is the first stage's ``faces.onnx`` and ``head.npz`` (so this stage reads only what
the recipe wrote, and can be run again alone); ``onnx2torch`` turns the network back into a
trainable PyTorch module (its batch norms folded into the convolutions, as exported). It
writes ``faces.onnx`` and ``head.npz`` again, the temperature fitted on the calibration split's
own places. Valid never enters it.

``python -m vision_lab.train_on_places --model DIR --sets ../shared/dice [--leave-out SET]``
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import cv2
import numpy as np

try:
    import onnx2torch
    import torch
except ImportError:  # pragma: no cover - the table never trains
    sys.exit("Training needs PyTorch: make train-venv, then "
             ".venv-train/bin/python -m vision_lab.train_on_places")

from vision.learned.crops import Pyramid, die_crop
from vision.learned.face_model import FACE_INPUT, Head, face_network, load_head
from vision.learned.face_reader import Model, Settings, propose
from vision_lab import corpus, face_samples
from vision_lab.labels import (
    LabelledPicture,
    add_set_arguments,
    split_calibration,
    training_pictures,
)
from vision_lab.refit_head import labelled_places, place_class, temperature
from vision_lab.schedule import train_classifier
from vision_lab.train_faces import MODELS, to_input

STEPS = 1500
BATCH = 64
LR = 4e-4
WARMUP = 100
#: the stem and the first blocks keep their weights, as in the first stage
FROZEN = ("backbone/_conv_stem", *(f"backbone/_blocks/{i}/" for i in range(3)))
#: the sizes a proposal is mined at, times the detector's (the reader's sizes when the shipped
#: network was trained; the reader has tried 1.6 too since,
#: :data:`vision.learned.face_reader.SIZES`)
MINED_SIZES = (0.8, 1.0, 1.25)
#: proposals per picture at most (the detector's surest first): a busy tray has a hundred
MAX_PLACES = 60


def mine(model: Model, pictures: list[LabelledPicture], min_score: float = 0.2,
         log=print) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    """Crops (N x 64 x 64 x 3, uint8, upright) and classes of every proposal of the pictures
    at each of the reader's sizes, and of every labelled die at its label."""
    crops, classes = [], []
    for p in pictures:
        image = p.load()
        pyramid = Pyramid(image)
        places = [(c.centre, c.size * k) for c in propose(image, model, Settings(), min_score)
                  [:MAX_PLACES] for k in MINED_SIZES]
        places += [(d.centre, d.size) for d in p.dice]
        for centre, size in places:
            cls = place_class(centre, size, p)
            if cls is not None:
                crops.append(die_crop(pyramid, centre, size, 0.0, False, FACE_INPUT))
                classes.append(cls)
    y = np.array(classes)
    log(f"places: {len(y)} crops from {len(pictures)} pictures, {int((y == 0).sum())} not a "
        "die")
    return np.stack(crops), y


class Network(torch.nn.Module):
    """The first stage's network (features) and a linear head, trainable."""

    def __init__(self, folder: pathlib.Path) -> None:
        super().__init__()
        self.trunk = onnx2torch.convert(str(folder / "faces.onnx"))
        head = load_head(folder / "head.npz")
        self.fc = torch.nn.Linear(head.weight.shape[1], head.weight.shape[0])
        with torch.no_grad():
            self.fc.weight.copy_(torch.from_numpy(head.weight / head.temperature))
            self.fc.bias.copy_(torch.from_numpy(head.bias / head.temperature))
        for name, p in self.trunk.named_parameters():
            p.requires_grad = not name.startswith(FROZEN)

    def forward(self, bgr: torch.Tensor) -> torch.Tensor:
        return self.fc(self.trunk(bgr))


def batches(crops: np.ndarray, classes: np.ndarray, patches: list[face_samples.Patch],
            rng: np.random.Generator):  # noqa: ANN201 - a generator of (x, y)
    """Endless batches: a quarter the mined dice, a quarter the mined places that are none,
    half the first stage's stream; mined crops mirrored half the time and lightly changed.
    (Turning them as the reader's views are, up to 20 degrees, read 475 calibration dice
    within the budget where these read 495, 2000 steps against 1500.)"""
    dice, none = np.flatnonzero(classes > 0), np.flatnonzero(classes == 0)
    quarter = BATCH // 4
    while True:
        picks = np.concatenate([rng.choice(dice, quarter), rng.choice(none, quarter)])
        xs, ys = [], []
        for i in picks:
            crop = crops[i][:, ::-1] if rng.random() < 0.5 else crops[i]
            xs.append(to_input(corpus.photometric(np.ascontiguousarray(crop), rng,
                                                  strong=False)))
            ys.append(int(classes[i]))
        for _ in range(BATCH - len(picks)):
            crop, value = face_samples.class_sample(patches, rng, side=FACE_INPUT)
            xs.append(to_input(crop))
            ys.append(value)
        yield torch.from_numpy(np.stack(xs)), torch.tensor(ys)


def train(folder: pathlib.Path, fit: list[LabelledPicture], steps: int, seed: int,
          log=print) -> Network:  # noqa: ANN001
    """``steps`` batches on the fit pictures' places: a short warm-up, then one cosine."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    crops, classes = mine(Model(folder), fit, log=log)
    patches = [q for p in fit for q in face_samples.real_patches(p, p.load())]
    patches += [face_samples.rendered_patch(rng) for _ in range(800)]
    net = Network(folder)
    return train_classifier(net, batches(crops, classes, patches, rng), steps, LR, WARMUP,
                            "places", log)


def export(net: Network, folder: pathlib.Path, calib: list[LabelledPicture],
           log=print) -> Head:  # noqa: ANN001
    """``faces.onnx`` and ``head.npz`` in ``folder``, the temperature fitted on the
    calibration split's own places."""
    with torch.no_grad():
        torch.onnx.export(net.trunk, torch.zeros(8, 3, FACE_INPUT, FACE_INPUT),
                          str(folder / "faces.onnx"), opset_version=13,
                          input_names=["crops"], output_names=["features"],
                          dynamic_axes={"crops": {0: "n"}, "features": {0: "n"}}, dynamo=False)
    Head(net.fc.weight.detach().numpy().astype(np.float32),
         net.fc.bias.detach().numpy().astype(np.float32), 1.0).save(folder / "head.npz")
    return fit_temperature_on_places(folder, calib, log)


def fit_temperature_on_places(folder: pathlib.Path, calib: list[LabelledPicture],
                              log=print) -> Head:  # noqa: ANN001
    """The head's temperature, fitted on the calibration split's places as the table's own
    code reads them from the files in ``folder`` (the network's cache is emptied first: it
    holds a file's network by its path, and this stage has just written a new one there)."""
    face_network.cache_clear()
    model = Model(folder)
    x, y = labelled_places(model, calib)
    t = temperature(model.head, x, y)
    head = Head(model.head.weight, model.head.bias, t)
    head.save(folder / "head.npz")
    right = float((head.probabilities(x).argmax(1) == y).mean())
    log(f"calibration split: {len(y)} places, best class right {100 * right:.1f}%, "
        f"temperature {t:.2f}")
    return head


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.train_on_places",
                                     description=__doc__.split("\n\n")[0])
    add_set_arguments(parser, "a set the model is trained without")
    parser.add_argument("--model", type=pathlib.Path, default=None,
                        help="model folder (default vision/models, or vision/models/without-SET)")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--temperature-only", action="store_true",
                        help="only fit the folder's head's temperature again")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    folder = args.model or MODELS / (f"without-{args.leave_out}" if args.leave_out else "")
    fit, calib = split_calibration(training_pictures(args.sets, args.leave_out))
    if args.temperature_only:
        fit_temperature_on_places(folder, calib)
        return 0
    net = train(folder, fit, args.steps, args.seed)
    export(net, folder, calib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
