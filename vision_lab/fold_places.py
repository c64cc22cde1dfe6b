"""Where the table's taught face network is sure and right: at the known dice's boxes, or at
the reader's own places, on the held-out folds of a calibration.

Why: the calibration (:mod:`vision.calibrate.folds`) teaches the face network and judges it
on held-out folds; the network reads the finder's proposals, sized by the reader and read in
its four views, not the boxes it may be taught at. This measures, for each known die of each
held-out fold, the taught network's reading at the die's box and at the reader's place on it
(the place :func:`vision.learned.face_reader.decide` would keep: the surest die within half
the die's size of its centre), for each way of choosing what the network is taught
(:data:`vision.calibrate.folds.WAYS`), and the cross-fitted tally the calibration judges by.

``python -m vision_lab.fold_places --sets ../shared/dice --models DIR --only SET --known N``
(the ``learn`` extra; the known throws drawn as :mod:`vision_lab.new_table` draws them).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import tempfile
from collections.abc import Sequence

import cv2
import numpy as np

from vision.calibrate import folds, network, teach, thresholds
from vision.calibrate.adapt import Known, Seen
from vision.calibrate.known import Tally
from vision.learned import face_reader
from vision.learned.face_model import fingerprint
from vision.learned.face_reader import Settings, look, lowest_score, read_places
from vision_lab.evaluate import SETS, pictures
from vision_lab.new_table import every, known_throws

SURE = 0.95


def at_boxes(head: pathlib.Path, settings: Settings, items: Sequence[tuple[Known, np.ndarray]],
             ) -> list[tuple[int, np.ndarray]]:
    """(value, probabilities) of every boxed die, read at its box in the reader's views."""
    model = face_reader.load(settings.model, head)
    out = []
    for k, image in items:
        spots = [((x + w / 2, y + h / 2), math.sqrt(w * h), 1.0)
                 for (x, y, w, h), _ in k.boxes or ()]
        for place, (_, value) in zip(read_places(image, spots, model), k.boxes or (), strict=True):
            if value > 0:
                out.append((value, place.probs))
    return out


def at_places(seen: Sequence[Seen], items: Sequence[tuple[Known, np.ndarray]],
              ) -> list[tuple[int, np.ndarray | None]]:
    """(value, probabilities) of every boxed die at the reader's surest place on it (None:
    no place within half its size)."""
    out: list[tuple[int, np.ndarray | None]] = []
    for s, (k, _) in zip(seen, items, strict=True):
        for (x, y, w, h), value in k.boxes or ():
            if value <= 0:
                continue
            centre, size = (x + w / 2, y + h / 2), math.sqrt(w * h)
            near = [p for p in s.places if math.dist(p.centre, centre) < 0.5 * size]
            best = min(near, key=lambda p: float(p.probs[0])) if near else None
            out.append((value, None if best is None else best.probs))
    return out


def summary(rows: Sequence[tuple[int, np.ndarray | None]]) -> str:
    n = len(rows)
    found = [(v, p) for v, p in rows if p is not None]
    right = [p for v, p in found if int(np.argmax(p[1:])) + 1 == v]
    sure_right = sum(float(p[int(np.argmax(p[1:])) + 1]) >= SURE for p in right)
    wrong = [p for v, p in found if int(np.argmax(p[1:])) + 1 != v]
    sure_wrong = sum(float(p[int(np.argmax(p[1:])) + 1]) >= SURE for p in wrong)
    die = sum(float(p[0]) < 0.5 for _, p in found)
    q = np.percentile([float(p[int(np.argmax(p[1:])) + 1]) for p in right], [10, 25, 50]) \
        if right else [0, 0, 0]
    return (f"{n} dice: {len(found)} with a place, taken for a die {die}, right {len(right)} "
            f"(sure {sure_right}), wrong {len(wrong)} (sure {sure_wrong}); p(value) of the "
            f"right at 10/25/50%: {q[0]:.3f}/{q[1]:.3f}/{q[2]:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.fold_places",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--models", type=pathlib.Path, required=True)
    parser.add_argument("--only", choices=SETS, required=True)
    parser.add_argument("--known", type=int, default=60)
    parser.add_argument("--ways", nargs="+", choices=folds.WAYS, default=list(folds.WAYS))
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    model_dir = args.models / f"without-{args.only}"
    settings = Settings(model=model_dir)
    known, _ = known_throws(pictures([args.sets / args.only / "Train"]), args.known,
                            set_name=args.only, boxes=True)
    images = folds.load_pictures(known)
    model = face_reader.load(model_dir)
    base_t = face_reader.thresholds_of(model, settings)
    seen_now = [Seen(k.name, tuple(k.values), tuple(look(im, model, settings,
                                                         lowest_score(base_t), every_place=True)))
                for k, im in zip(known, images, strict=True)]
    every_ex = folds.examples_of(known, seen_now, images, base_t, 0)
    fold = folds.fold_of(known, folds.FOLDS, 0)
    base_print = fingerprint(model_dir / "faces.onnx")
    say = every(60)
    with tempfile.TemporaryDirectory() as tmp:
        for way in args.ways:
            held, without, boxes_rows, place_rows = {}, {}, [], []
            heads = {}
            for k in range(folds.FOLDS):
                inside = [i for i, item in enumerate(known) if fold[item.name] != k]
                out = [i for i, item in enumerate(known) if fold[item.name] == k]
                det = folds.teach_finder(settings, known, images, inside, k, say)
                ex = folds.fold_examples(way, known, images, seen_now, every_ex, inside,
                                         settings, det, base_t, pathlib.Path(tmp), k)
                net = network.trainable(model_dir / "faces.onnx", model.head)
                teach.fine_tune(net, images, ex, seed=k, progress=say)
                head = folds.write_network(net, pathlib.Path(tmp), f"{way}{k}", base_t,
                                           folds.die_range(ex), base_print, detector=det)
                items = [(known[i], images[i]) for i in out]
                held[k] = folds.read_with(head, settings, items)
                heads[k] = teach.head_of(net)
                boxes_rows += at_boxes(head, settings, items)
                plain = folds.write_network(net, pathlib.Path(tmp), f"{way}{k}plain", base_t,
                                            folds.die_range(ex), base_print)
                without[k] = folds.read_with(plain, settings, items)
                place_rows += at_places(held[k], items)
            taught = Tally()
            for k in sorted(held):
                others = [s for j in sorted(held) if j != k for s in held[j]]
                taught.add(thresholds.tally(held[k], thresholds.choose_thresholds(others, base_t,
                                                                        thresholds.FINDER_DETECT)))
            chosen = thresholds.choose_thresholds([s for k in held for s in held[k]], base_t,
                                             thresholds.FINDER_DETECT)
            print(f"{args.only} {len(known)} pictures, way {way!r}:")
            print(f"  at the boxes:         {summary(boxes_rows)}")
            print(f"  at the reader's places: {summary(place_rows)}")
            print(f"  held-out folds, cross-fitted: {taught.figures()}; chosen {chosen}",
                  flush=True)
            for label, reading in (("the finder taught", held), ("the model's finder", without)):
                tallied, chosen, t = folds.judged(reading, heads, known, base_t,
                                                  thresholds.FINDER_DETECT, "calibrated")
                print(f"  calibrated, {label}: {tallied.figures()}; {chosen}, T {t:.2f}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
