"""Score a dice reader against labelled photographs: right, wrong value, unsure, missed, extra.

Why its own module: the tests, the benchmark and the report must count the same way, and the
comparison baseline (:mod:`vision_lab.baseline`) is scored by this same code.

The labels are read by :mod:`vision_lab.label_files`.

Matching rule: a reader box (a die or an unsure place) matches a label when the reader box's
centre lies inside the label box grown by ``margin`` times its longer side on every side (and
by at least ``min_margin_px`` pixels, since a one's label is often just the pip). The longer
side, both ways: a face is square, and a box flatter than a face is a pip pattern (a 2 or 3 in
line with an axis: webcam-wood boxes the pattern) or a die seen at an angle; grown by its own
short side, a right read centred on the face fell outside it (since 2 December 2026). It
matches too when the label's centre lies inside a reader box larger than the label: where a
one's label is its pip and the die is read whole, seen from an angle the pip lies off the
face's centre by more than the pip's margin (webcam-wood's Valid: three ones read right were
counted as a phantom die and a missed one).

Each label takes the closest matching reader box (closest pairs first), dice before unsure
places, and each reader box serves one label at most. Per label: *right* (a die with the
labelled value), *wrong* (a die with another value), *unsure* (only an unsure place), *missed*
(nothing). Reader dice matching no label are *extra* (false positives); unsure places matching
no label are counted apart.

``python -m vision_lab.evaluate [DIR...]`` prints, per folder (by default each shared set's Valid),
the figures of the table's rule reader, the learned reader and the baseline: recall, wrong
values, unsure, missed, extra dice, whole pictures exact and milliseconds per picture.
``--leave-one-set-out`` adds each set, Train and Valid, scored by the model trained without it
(``vision/models/without-SET``, made by ``python -m vision_lab.train_reader --leave-out SET``):
the figure that predicts a new table (``python -m vision_lab.new_table`` gives the figure
after the table's calibration). ``--at-labels`` adds each set read by the face network alone
at its labels (:mod:`vision_lab.at_labels`): what no placing of the reader can read better.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from collections.abc import Callable, Iterable

import cv2
import numpy as np

from vision.calibrate.known import Tally
from vision.learned.networks import MODELS
from vision.reading import Box, Reading
from vision_lab.label_files import SETS, Label, load_labels, pictures

Reader = Callable[[np.ndarray], Reading]


def score_reading(
    reading: Reading, labels: list[Label], *, margin: float = 0.5, min_margin_px: float = 6.0
) -> Tally:
    """Match one reading to one picture's labels (rule in the module docstring)."""
    score = Tally(dice=len(labels), pictures=1)
    used_dice: set[int] = set()
    used_unsure: set[int] = set()

    def centre(box: Box) -> tuple[float, float]:
        return box[0] + box[2] / 2, box[1] + box[3] / 2

    def matches(label: Label, box: Box) -> float | None:
        x, y, w, h = label.box
        mx = my = max(margin * max(w, h), min_margin_px)
        cx, cy = centre(box)
        lx, ly = x + w / 2, y + h / 2
        inside = box[0] <= lx <= box[0] + box[2] and box[1] <= ly <= box[1] + box[3]
        if (x - mx <= cx <= x + w + mx and y - my <= cy <= y + h + my) or (
                inside and max(w, h) < box[2]):
            return float(np.hypot(cx - lx, cy - ly))
        return None

    # closest pairs first (greedy), dice before unsure places, one reader box per label
    def assign(boxes: list[Box]) -> dict[int, int]:
        pairs = sorted(
            (d, li, bi)
            for li, label in enumerate(labels)
            for bi, box in enumerate(boxes)
            if (d := matches(label, box)) is not None
        )
        chosen: dict[int, int] = {}
        taken: set[int] = set()
        for _, li, bi in pairs:
            if li not in chosen and bi not in taken:
                chosen[li] = bi
                taken.add(bi)
        return chosen

    on_dice = assign([d.box for d in reading.dice])
    used_dice.update(on_dice.values())
    rest = [li for li in range(len(labels)) if li not in on_dice]
    on_unsure = assign([u.box for u in reading.unsure])
    for li, bi in on_dice.items():
        if reading.dice[bi].value == labels[li].value:
            score.right += 1
        else:
            score.wrong += 1
    for li in rest:
        if li in on_unsure:
            used_unsure.add(on_unsure[li])
            score.unsure += 1
        else:
            score.missed += 1
    score.extra = len(reading.dice) - len(used_dice)
    score.unsure_places = len(reading.unsure) - len(used_unsure)
    return score


def evaluate(reader: Reader, paths: Iterable[pathlib.Path]) -> Tally:
    """Run ``reader`` on each labelled picture and add up the score."""
    total = Tally()
    for path in paths:
        image = cv2.imread(str(path))
        if image is None:
            raise ValueError(f"{path} is not a picture OpenCV can read.")
        labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
        start = time.perf_counter()
        reading = reader(image)
        elapsed = time.perf_counter() - start
        score = score_reading(reading, labels)
        score.seconds = elapsed
        score.exact = int(score.right == score.dice and not score.extra)
        if not score.exact:
            score.failures.append(
                f"{path.name}: right {score.right}/{score.dice}, wrong {score.wrong}, "
                f"unsure {score.unsure}, missed {score.missed}, extra {score.extra}"
            )
        total.add(score)
    return total


def reader_named(name: str, model: pathlib.Path | None = None) -> Reader:
    """``learned`` (the table's reader; optionally another model folder), ``rules`` (issue
    11's rule reader, while it is still there) or ``baseline``."""
    if name == "rules":
        from vision.rules.reader import read_dice as rules  # lazy: only when asked for

        return rules
    if name == "baseline":
        from vision_lab.baseline import read_dice_baseline  # lazy: only when asked for

        return read_dice_baseline
    from vision.learned.face_reader import Settings, read_dice  # lazy: onnxruntime, only to read

    settings = Settings() if model is None else Settings(model=model)
    return lambda image: read_dice(image, settings)


def row(what: str, reader: str, score: Tally) -> str:
    """One line of the per-set table."""
    ms = 1000 * score.seconds / max(score.pictures, 1)
    return (f"{what:28s} {reader:9s} {score.dice:5d} {100 * score.recall:6.1f}% "
            f"{score.wrong:5d} ({100 * score.wrong_rate:4.2f}%) {score.unsure:5d} "
            f"{score.missed:5d} {score.extra:5d} {score.exact:4d}/{score.pictures:<4d} "
            f"{ms:6.1f}")


def print_failures(score: Tally, wanted: bool) -> None:
    """The pictures not all right, indented under their row (``--failures``)."""
    if wanted:
        for line in score.failures:
            print(f"    {line}")


HEADER = (f"{'set':28s} {'reader':9s} {'dice':>5s} {'recall':>7s} {'wrong':>13s} "
          f"{'unsure':>6s} {'missed':>5s} {'extra':>5s} {'exact':>9s} {'ms/pic':>6s}")


def at_labels(groups: list[tuple[str, list[pathlib.Path]]], sets: pathlib.Path | None) -> None:
    """The ``--at-labels`` lines: each group by the shipped model, and with ``sets`` each
    shared set (Train and Valid) by the model trained without it, where that model exists."""
    # lazy: only --at-labels reads with the face network alone
    from vision_lab.at_labels import read_at_labels
    from vision_lab.labels import load_set  # lazy: the same

    runs = [(what, dirs, MODELS) for what, dirs in groups]
    if sets is not None:
        runs += [(f"{name} (left out)", [sets / name / "Train", sets / name / "Valid"],
                  MODELS / f"without-{name}") for name in SETS
                 if (MODELS / f"without-{name}").is_dir()]
    for what, dirs, model in runs:
        found = read_at_labels([p for d in dirs  # a set's folder, or its Train or Valid
                                for p in load_set(d, d.name if d.name in SETS else None)], model)
        print(found.line(what), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision_lab.evaluate",
        description="Score dice readers on folders of labelled pictures, or per shared set.",
    )
    parser.add_argument("dirs", nargs="*", type=pathlib.Path,
                        help="folders of NAME.jpg + NAME.txt (default: each set's Valid)")
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"),
                        help="the folder of the shared sets (SET/Train, SET/Valid)")
    parser.add_argument("--readers", default="rules,learned,baseline",
                        help="comma-separated: rules (the table's reader), learned, baseline")
    parser.add_argument("--leave-one-set-out", action="store_true",
                        help="also score each set, Train and Valid, with the model trained "
                             "without it (vision/models/without-SET)")
    parser.add_argument("--at-labels", action="store_true",
                        help="also read each set's dice at their labels with the face network "
                             "alone (and each left-out set with its model)")
    parser.add_argument("--failures", action="store_true", help="list every picture not all right")
    parser.add_argument("--ours-only", action="store_true", help="only the table's reader")
    args = parser.parse_args(argv)
    readers = ["rules"] if args.ours_only else args.readers.split(",")
    for name in readers:
        if name not in ("learned", "rules", "baseline"):
            print(f"unknown reader {name!r}: use learned, rules or baseline.", file=sys.stderr)
            return 2
    if args.dirs:
        groups = [(str(d), [d]) for d in args.dirs]
    else:
        groups = [(f"{name}/Valid", [args.sets / name / "Valid"]) for name in SETS]
    for _, dirs in groups:
        for d in dirs:
            if not d.is_dir():
                print(f"{d} is not a folder of labelled pictures.", file=sys.stderr)
                return 2
    print(HEADER)
    for what, dirs in groups:
        for name in readers:
            score = evaluate(reader_named(name), pictures(dirs))
            print(row(what, name, score), flush=True)
            print_failures(score, args.failures)
    if args.at_labels:
        at_labels(groups, args.sets if args.leave_one_set_out else None)
    if args.leave_one_set_out:
        missing = []
        for name in SETS:
            model = MODELS / f"without-{name}"
            if not model.is_dir():  # the others are still scored; the exit status says so
                print(f"{model} is missing: python -m vision_lab.train_reader --leave-out {name}",
                      file=sys.stderr)
                missing.append(name)
                continue
            dirs = [args.sets / name / "Train", args.sets / name / "Valid"]
            score = evaluate(reader_named("learned", model), pictures(dirs))
            print(row(f"{name} (left out)", "learned", score), flush=True)
            print_failures(score, args.failures)
        if missing:
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
