"""Dice reader speed (one core) and accuracy, ours vs the public-recipe baseline.

Speed: median milliseconds of ``read_dice`` per 640x480 frame (real webcam photographs from
tests/data, and rendered scenes) and per 12 MP frame (rendered 4000x3000), with OpenCV held to
one thread. Wall time and process CPU time are both printed: on a shared, loaded machine the
CPU time is the steadier figure of what one core needs.

Accuracy: if the shared photographs are present (``/work/shared/dice`` or ``../shared/dice``
beside the repository), the figures on the tuning split (``Train/``) and on the held-out split
(``Valid/``), for ours and for the baseline; see docs/vision.md.
"""

from __future__ import annotations

import pathlib
import statistics
import time

import cv2
import numpy as np

from vision.baseline import read_dice_baseline
from vision.evaluate import evaluate, pictures
from vision.reader import read_dice
from vision.render import random_scene, render_scene

ROOT = pathlib.Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "tests" / "data" / "dice" / "webcam-wood"
SHARED = [
    pathlib.Path("/work/shared/dice/webcam-wood"),
    ROOT.parent / "shared" / "dice" / "webcam-wood",
]


def _timed(reader, frames: list[np.ndarray], repeats: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds per frame."""
    wall, cpu = [], []
    for _ in range(repeats):
        for frame in frames:
            w0, c0 = time.perf_counter(), time.process_time()
            reader(frame)
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
    return 1000 * statistics.median(wall), 1000 * statistics.median(cpu)


def main() -> None:
    cv2.setNumThreads(1)
    photos = [cv2.imread(str(p)) for p in pictures([PHOTOS])]
    scenes = [
        render_scene(random_scene(seed, 6, colour="mixed", surface=s), seed)[0]
        for seed, s in enumerate(("wood", "felt", "glass", "wood", "felt", "glass"))
    ]
    big = [
        render_scene(random_scene(s, 8, size=(4000, 3000), surface="felt"), s)[0] for s in (1, 2)
    ]
    read_dice(photos[0])  # warm up
    for name, reader in (("ours", read_dice), ("baseline", read_dice_baseline)):
        for label, frames, repeats in (
            ("640x480 photo", photos, 3),
            ("640x480 scene", scenes, 5),
            ("12 MP scene", big, 3),
        ):
            wall, cpu = _timed(reader, frames, repeats)
            print(f"{name:9s} {label:14s} median {wall:6.2f} ms wall, {cpu:6.2f} ms CPU per frame")
    shared = next((p for p in SHARED if p.is_dir()), None)
    if shared is None:
        print("shared photographs not found: accuracy on Train/Valid skipped")
        return
    for split in ("Train", "Valid"):
        paths = pictures([shared / split])
        for name, reader in (("ours", read_dice), ("baseline", read_dice_baseline)):
            print(f"{split:5s} {name:9s} {evaluate(reader, paths).summary()}")


if __name__ == "__main__":
    main()
