"""Dice reader speed (one core) and accuracy: the learned reader against the old rule reader and
the public-recipe baseline, from the same run.

Speed: median milliseconds per frame, with OpenCV held to one thread: real 640x480 webcam
photographs (tests/data), 640x640 coloured-dice photographs, rendered 640x480 scenes and
rendered 12 MP frames. Wall time and process CPU time are both printed: on a shared, loaded
machine the CPU time is the steadier figure of what one core needs.

Accuracy: if the shared photographs are present (``/work/shared/dice`` or ``../shared/dice``
beside the repository), the per-set table of ``python -m vision_lab.evaluate`` for each set's
Valid, then each set scored by the model trained without it (leave one set out). Then the
learned reader on random rendered scenes (fixed seeds): separate dice, blurred dice, touching
dice under glare, and three dice pressed together.
"""

from __future__ import annotations

import importlib.util
import math
import pathlib
import random
import statistics
import time

import cv2
import numpy as np

from simulator.random_scenes import random_scene
from simulator.render import (
    DICE_COLOURS,
    SURFACES,
    DieSpec,
    Glare,
    SceneSpec,
    dice_colours,
    render_scene,
)
from simulator.table_scenes import render_table
from vision.calibrate.known import Tally
from vision.learned.face_reader import read_dice as read_dice_learned
from vision.learned.zone_reader import ZoneReader
from vision.rules.reader import read_dice
from vision.zones import default_zones
from vision_lab import evaluate as evaluation
from vision_lab.baseline import read_dice_baseline
from vision_lab.evaluate import Label, pictures, score_reading

ROOT = pathlib.Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "tests" / "data" / "dice"
SHARED = [pathlib.Path("/work/shared/dice"), ROOT.parent / "shared" / "dice"]


def timed(reader, frames: list[np.ndarray], repeats: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds per frame."""
    wall, cpu = [], []
    for _ in range(repeats):
        for frame in frames:
            w0, c0 = time.perf_counter(), time.process_time()
            reader(frame)
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
    return 1000 * statistics.median(wall), 1000 * statistics.median(cpu)


def scene_sweep(count: int, mode: str, reader=read_dice) -> Tally:  # noqa: ANN001
    """``reader`` (the rule reader by default) on ``count`` random rendered scenes of 2-9
    dice, any colour and surface, side faces 0-0.2, noise, JPEG or not; ``mode`` "blur" adds
    a 0.5-2.5 px blur, "hard" touching pairs and glare spots. Scene k is the same on every run."""
    total = Tally()
    for k in range(count):
        rnd = random.Random(k)
        kwargs = dict(
            colour=rnd.choice([*sorted(DICE_COLOURS), "mixed"]),
            surface=rnd.choice(SURFACES),
            side=rnd.choice([0.0, 0.1, 0.2]),
            noise=rnd.uniform(1.0, 4.0),
            jpeg_quality=rnd.choice([None, 85]),
        )
        n_dice, seed = rnd.randint(2, 9), rnd.randint(0, 10**6)
        if mode == "blur":
            kwargs["blur"] = rnd.uniform(0.5, 2.5)
        if mode == "hard":
            kwargs["touching_pairs"] = rnd.randint(0, min(2, n_dice // 2))
            kwargs["glare"] = rnd.randint(0, 2)
        image, truth = render_scene(random_scene(seed, n_dice, **kwargs), seed)
        labels = [Label(t.value, tuple(float(v) for v in t.box)) for t in truth]
        total.add(score_reading(reader(image), labels))
    return total


def cluster_scene(k: int) -> SceneSpec:
    """Scene k of three dice of one colour pressed together (a row, an L, a bent row), each
    turned a little from the last, on any surface, maybe a glare on one, side faces, blur."""
    rnd = random.Random(k)
    body, pips = dice_colours(rnd.choice(sorted(DICE_COLOURS)))
    size, angle = rnd.uniform(34, 60), rnd.uniform(0, 90)
    ux, uy = size * math.cos(math.radians(angle)), size * math.sin(math.radians(angle))
    cx, cy = 320 + rnd.uniform(-80, 80), 240 + rnd.uniform(-60, 60)
    shape = rnd.choice(
        [[(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (0.5, 1)],
         [(0, 0), (1, 0.3), (2, -0.2)]]
    )
    side = rnd.choice([0.0, 0.0, 0.1, 0.2])
    dice = [
        DieSpec(rnd.randint(1, 6), (cx + i * ux - j * uy, cy + i * uy + j * ux), size,
                angle + rnd.uniform(-8, 8) * (i + j), body, pips, side, 90.0)
        for i, j in shape
    ]
    glare = tuple(
        Glare((d.centre[0] + rnd.uniform(-0.3, 0.3) * size,
               d.centre[1] + rnd.uniform(-0.3, 0.3) * size), 0.3 * size, 0.75)
        for d in rnd.sample(dice, rnd.randint(0, 1))
    )
    return SceneSpec(surface=rnd.choice(SURFACES), dice=tuple(dice), noise=rnd.uniform(1, 4),
                     glare=glare, blur=rnd.choice([0.0, 0.0, 1.0]),
                     jpeg_quality=rnd.choice([None, 85]))


def cluster_sweep(count: int, reader=read_dice) -> Tally:  # noqa: ANN001
    """``reader`` on ``count`` scenes of :func:`cluster_scene` (scene k is the same on every
    run)."""
    total = Tally()
    for k in range(count):
        image, truth = render_scene(cluster_scene(k), k)
        labels = [Label(t.value, tuple(float(v) for v in t.box)) for t in truth]
        total.add(score_reading(reader(image), labels))
    return total


def zone_times() -> None:
    """The table's own path: each seat's zone read alone at the size its dice were last read
    (vision.learned.zone_reader), on simulated 640x480 and 12 MP tables of four seats."""
    seats = ["Ann", "Bob", "Cy", "Di"]
    for size in ((640, 480), (4000, 3000)):
        zones = default_zones(seats, *size)
        frames = [render_table(zones, {z.seat: (1 + (k + i) % 6, 1 + (k + 2 * i) % 6, 3)
                                       for i, z in enumerate(zones)}, k, size)
                  for k in range(3)]
        reader = ZoneReader()
        for zone in zones:  # the first read finds the dice's size
            reader.read_zone(frames[0], zone)
        def read_seats(frame: np.ndarray, reader: ZoneReader = reader,
                       zones: list = zones) -> None:
            for zone in zones:
                reader.read_zone(frame, zone)

        wall, cpu = timed(read_seats, frames, 2)
        n = len(zones)
        print(f"{'learned':12s} {'zone of ' + 'x'.join(map(str, size)):15s} median "
              f"{wall / n:7.1f} ms wall, {cpu / n:7.1f} ms CPU per seat zone")


def new_tables(shared: pathlib.Path) -> None:
    """Each shared set as a new table (``vision_lab.new_table``: about 60 and 150 known dice
    given to the calibration, the rest read as the calibrated table reads), where PyTorch
    (the learn extra) and the left-out models (``make train``) are there."""
    if importlib.util.find_spec("torch") is None:
        print("new tables skipped: calibrating needs the learn extra (make learn)")
        return
    from vision_lab import new_table  # lazy: only with PyTorch installed

    new_table.main(["--sets", str(shared), "--boxes"])  # boxes, as the Dice page marks them


def main() -> None:
    cv2.setNumThreads(1)
    webcam = [cv2.imread(str(p)) for p in pictures([PHOTOS / "webcam-wood"])]
    colour = [cv2.imread(str(p)) for p in pictures([PHOTOS / "topdown-colour"])]
    scenes = [
        render_scene(random_scene(seed, 6, colour="mixed", surface=s), seed)[0]
        for seed, s in enumerate(("wood", "felt", "glass", "wood", "felt", "glass"))
    ]
    big = [
        render_scene(random_scene(s, 8, size=(4000, 3000), surface="felt"), s)[0] for s in (1, 2)
    ]
    read_dice_learned(webcam[0])  # warm up: the networks load once
    for name, reader in (("rules", read_dice), ("learned", read_dice_learned),
                         ("baseline", read_dice_baseline)):
        for label, frames, repeats in (
            ("640x480 photo", webcam, 2),
            ("640x640 colour", colour, 2),
            ("640x480 scene", scenes, 3),
            ("12 MP scene", big, 1),
        ):
            wall, cpu = timed(reader, frames, repeats)
            print(f"{name:12s} {label:15s} median {wall:7.1f} ms wall, {cpu:7.1f} ms CPU per frame")
    zone_times()
    shared = next((p for p in SHARED if p.is_dir()), None)
    if shared is None:
        print("shared photographs not found: the per-set table is skipped")
    else:
        evaluation.main(["--sets", str(shared), "--readers", "rules,learned,baseline",
                         "--leave-one-set-out"])
        new_tables(shared)
    for name, reader in (("rules", read_dice), ("learned", read_dice_learned)):
        for mode in ("separate", "blur", "hard"):
            print(f"rendered {mode:8s} {name} {scene_sweep(200, mode, reader).summary()}")
        print(f"rendered clusters of three {name} {cluster_sweep(200, reader).summary()}")


if __name__ == "__main__":
    main()
