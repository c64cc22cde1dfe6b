"""Rebuild the dice reader's model from the shared sets: detector, face classifier, its head
fitted again on the reader's own proposals (:mod:`vision_lab.refit_head`), the network trained
further on the places the reader cuts (:mod:`vision_lab.train_on_places`), quantised to 8 bits
(:mod:`vision_lab.quantize`), thresholds.

``python -m vision_lab.train_reader --sets ../shared/dice`` (``make train``) rebuilds
``vision/models/`` from the Train splits and fixed seeds; ``--leave-out SET`` the same recipe
on a shorter schedule without any picture of that set, into ``vision/models/without-SET/``
(what ``python -m vision_lab.evaluate --leave-one-set-out`` reads). Each stage says how long it
took. Valid never enters training or a threshold.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import cv2

try:
    import torch
except ImportError:  # pragma: no cover - the table never trains
    sys.exit("Training needs PyTorch: make train-venv, then "
             ".venv-train/bin/python -m vision_lab.train_reader")

from vision_lab import (
    choose_thresholds,
    quantize,
    refit_head,
    train_detector,
    train_faces,
    train_on_places,
)
from vision_lab.backbone import VARIANTS
from vision_lab.labels import add_set_arguments, split_calibration, training_pictures
from vision_lab.train_faces import STEPS

MODELS = train_faces.MODELS
#: the detector's batches of 16 samples: the shipped model's, and a left-out one's
DETECTOR_STEPS, DETECTOR_STEPS_LEFT_OUT = 3000, 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.train_reader",
                                     description=__doc__.split("\n\n")[0])
    add_set_arguments(parser, "train without this set")
    parser.add_argument("--out", type=pathlib.Path, default=None)
    parser.add_argument("--stage", choices=("all", "faces", "places"), default="all",
                        help="faces: keep the folder's detector, train the rest; places: keep "
                        "its detector and first-stage face network (faces.onnx as "
                        "train_faces exported it), fit the head again and train on places")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backbone", choices=sorted(VARIANTS), default="lite0",
                        help="the face network's pretrained backbone (vision_lab.backbone)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--short", type=int, default=1, metavar="K",
                        help="the face network's and the places' steps divided by K more (a "
                             "quick left-out model to try a table's calibration on; its "
                             "figures are not the recipe's)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    out = args.out or MODELS / (f"without-{args.leave_out}" if args.leave_out else "")
    fit, calib = split_calibration(training_pictures(args.sets, args.leave_out))
    left_out = args.leave_out is not None
    start = time.monotonic()
    if args.stage == "all":
        steps = DETECTOR_STEPS_LEFT_OUT if left_out else DETECTOR_STEPS
        print(f"detector: {len(fit)} pictures, {steps} steps, into {out}", flush=True)
        train_detector.train(fit, out, steps, args.seed)
    if args.stage != "places":
        steps = (STEPS // 3 if left_out else STEPS) // args.short
        print(f"face classifier: {len(fit)} pictures ({len(calib)} kept for calibration), "
              f"{steps} steps", flush=True)
        net = train_faces.train(fit, steps, args.seed, backbone=args.backbone)
        train_faces.export(net, calib, out)
    refit_head.refit(out, fit + calib)  # the head again, on the reader's own proposals
    steps = (train_on_places.STEPS // 3 if left_out else train_on_places.STEPS) // args.short
    print(f"the network on the reader's places: {steps} steps", flush=True)
    net = train_on_places.train(out, fit, steps, args.seed)
    train_on_places.export(net, out, calib)
    quantize.quantize(out, fit)
    train_on_places.fit_temperature_on_places(out, calib)  # on the int8 network's features
    choose_thresholds.write_thresholds(out, calib)
    print(f"all in {(time.monotonic() - start) / 60:.1f} minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
