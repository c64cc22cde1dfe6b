"""How a set never trained on reads as a new table: its own known throws, then the rest.

Why: a pub adapts the reader to its table from about 20 known throws
(``bidou-table calibrate --known-throws``, :mod:`vision.calibrate.adapt`). Each shared set left out
of
a model's training stands for such a table: pictures of that set holding about
:data:`KNOWN_DICE` dice (drawn from its Train, seeded) are given to the same adaptation as
known throws (values only, no boxes), and every other picture of the set, Train and Valid, is
read before and after. As at the table (``bidou-table calibrate``), the table then reads with
the reader that read the known throws better (:mod:`vision.calibrate.reader_choice`), and the
learned
one with its own head only where that read the throws it held back better. The rule reader
was tuned on webcam-wood: for that set its figure is not a new table's.

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

from vision.calibrate import adapt, reader_choice
from vision.learned.face_reader import Settings, read_dice
from vision.learned.networks import MODELS
from vision.rules.reader import read_dice as rule_reader
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
              ) -> tuple[Score, Score, adapt.Adaptation, reader_choice.Choice]:
    """(zero-shot, as calibrated, the adaptation, the reader's choice) for set ``name`` read by
    ``model`` (trained without it): the rest read by the learned reader with the model's head,
    then as ``bidou-table calibrate`` leaves a table whose config named no reader (the rule
    reader or the learned one, whichever read the known throws better; the learned one with
    the table's head when that was kept)."""
    train = pictures([sets / name / "Train"])
    known, rest = known_throws(train)
    rest += pictures([sets / name / "Valid"])
    settings = Settings(model=model)
    result = adapt.calibrate(known, settings)
    choice = reader_choice.choose(reader_choice.rule_tally(known), result.now,
                                  reader_choice.RULES)
    before = evaluate(lambda image: read_dice(image, settings), rest)
    if choice.chosen == reader_choice.RULES:
        return before, evaluate(rule_reader, rest), result, choice
    if not result.kept:
        return before, before, result, choice
    with tempfile.TemporaryDirectory() as folder:
        head = pathlib.Path(folder) / "table.head.npz"
        adapt.save(result, head)
        own = Settings(model=model, head=head)
        after = evaluate(lambda image: read_dice(image, own), rest)
    return before, after, result, choice


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
        before, after, result, choice = new_table(args.sets, name, model)
        print(row(f"{name} (left out)", "zero-shot", before), flush=True)
        print(row(f"{name} (new table)", choice.chosen, after), flush=True)
        print(f"    {result.dice} known dice, read right by the rule reader "
              f"{choice.rules.right}, by the learned reader {choice.learned.right}: "
              f"{choice.chosen} chosen; its head {'kept' if result.kept else 'not kept'}: "
              f"held back {result.before.figures()} -> {result.after.figures()}; "
              f"{result.seconds:.1f} s", flush=True)
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
