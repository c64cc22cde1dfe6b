"""How a set never trained on reads as a new table: its own known throws, then the rest.

Why: a pub adapts the reader to its table from about 20 known throws
(``bidou-table calibrate --known-throws``, :mod:`vision.adapt`). Each shared set left out of
a model's training stands for such a table: pictures of that set holding about
:data:`KNOWN_DICE` dice (drawn from its Train, seeded) are given to the same adaptation as
known throws (values only, no boxes), and every other picture of the set, Train and Valid, is
read before and after. The adaptation keeps its head only where it judged it better on the
throws it held back, as at the table.

``python -m vision_lab.new_table --sets ../shared/dice`` prints a line per set whose
``vision/models/without-SET`` model exists.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import tempfile

import cv2

from vision import adapt
from vision.face_reader import Settings, read_dice
from vision.networks import MODELS
from vision_lab.evaluate import HEADER, SETS, Score, evaluate, load_labels, pictures, row

#: about this many known dice (about 20 throws of three)
KNOWN_DICE = 60


def known_throws(paths: list[pathlib.Path], dice: int = KNOWN_DICE, seed: int = 0,
                 ) -> tuple[list[adapt.Known], list[pathlib.Path]]:
    """Pictures drawn (seeded) until they hold ``dice`` dice, as known throws; and the rest."""
    order = sorted(paths)
    random.Random(seed).shuffle(order)
    known, count = [], 0
    for path in order:
        if count >= dice:
            break
        image = cv2.imread(str(path))
        values = tuple(lab.value for lab in load_labels(path.with_suffix(".txt"),
                                                          image.shape[1], image.shape[0]))
        known.append(adapt.Known(path.name, values, lambda p=path: cv2.imread(str(p))))
        count += len(values)
    names = {k.name for k in known}
    return known, [p for p in paths if p.name not in names]


def new_table(sets: pathlib.Path, name: str, model: pathlib.Path,
              ) -> tuple[Score, Score, adapt.Adaptation]:
    """(before, after, the adaptation) for set ``name`` read by ``model`` (trained without
    it)."""
    train = pictures([sets / name / "Train"])
    known, rest = known_throws(train)
    rest += pictures([sets / name / "Valid"])
    settings = Settings(model=model)
    result = adapt.calibrate(known, settings)
    before = evaluate(lambda image: read_dice(image, settings), rest)
    if not result.kept:
        return before, before, result
    with tempfile.TemporaryDirectory() as folder:
        head = pathlib.Path(folder) / "table.head.npz"
        adapt.save(result, head)
        own = Settings(model=model, head=head)
        after = evaluate(lambda image: read_dice(image, own), rest)
    return before, after, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.new_table",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--models", type=pathlib.Path, default=MODELS,
                        help="the folder holding without-SET models")
    args = parser.parse_args(argv)
    print(HEADER)
    missing = 0
    for name in SETS:
        model = args.models / f"without-{name}"
        if not (model / "head.npz").is_file():
            print(f"{model} is missing: python -m vision_lab.train_reader --leave-out {name}",
                  file=sys.stderr)
            missing += 1
            continue
        before, after, result = new_table(args.sets, name, model)
        print(row(f"{name} (left out)", "zero-shot", before), flush=True)
        print(row(f"{name} (new table)", "adapted", after), flush=True)
        print(f"    {result.dice} known dice; {'kept' if result.kept else 'not kept'}: held back "
              f"{result.before.figures()} -> {result.after.figures()}; "
              f"{result.seconds:.1f} s", flush=True)
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
