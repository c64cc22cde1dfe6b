"""How a set never trained on reads as a new table: calibrated on its own known throws, then
the rest of the set read as the table reads it.

Why: a pub teaches the table its own dice (``bidou-table calibrate --known-throws``,
:mod:`vision.calibrate.folds`). Each shared set left out of a model's training stands for such
a table: pictures of that set holding about ``--known`` dice (drawn from its Train, seeded)
are given to the calibration as known throws (values only, or with ``--boxes`` each die's box
as the referee console's Dice page marks it), and every other picture
of the set, Train and Valid, is read by the config the calibration wrote
(:func:`vision.reader.open_reader`, what ``read-dice --config`` runs). As at the table,
the reader is the one that read the known throws better (:mod:`vision.calibrate.reader_choice`): the
rule reader, the untaught learned one, or the learned one with the table's own network where
that read the held-out folds better than the untaught table. The rule reader was tuned on
webcam-wood: for that set its figure is not a new table's.

With ``--rest valid`` only the set's Valid is read after the calibration: what a model trained
on the set's Train (the shipped one, as ``DIR/without-SET``) can be measured on, a table of
dice the model has seen, not a new one.

``python -m vision_lab.new_table --sets ../shared/dice --models DIR [--known 60 150]`` prints,
per set whose ``DIR/without-SET`` model exists, the rest read zero-shot (the model trained
without it) and as the calibrated table, a line per count of known dice. Needs the ``learn``
extra (PyTorch). Phantom dice (``extra``) count as wrong where the issue counts them.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import shutil
import sys
import tempfile
import time

import cv2

from vision.calibrate import adapt, folds, reader_choice, teach
from vision.calibrate.adapt import Known
from vision.calibrate.known import Tally
from vision.learned.face_reader import Settings, read_dice
from vision.learned.networks import MODELS
from vision.learned.zone_reader import ZoneReader
from vision.reader import config_vision, face_settings, open_reader
from vision_lab.evaluate import HEADER, SETS, Reader, evaluate, load_labels, pictures, row
from vision_lab.labels import face_dice

#: about this many known dice (about 20 throws of three), then about 50 throws
KNOWN_DICE = (60, 150)


def known_throw(path: pathlib.Path, set_name: str = "", boxes: bool = False) -> Known:
    """A labelled picture as a known throw: its dice's values, and with ``boxes`` each die's
    box as the referee console's Dice page marks it (a square of the die's face size,
    :func:`vision_lab.labels.face_dice`)."""
    image = cv2.imread(str(path))
    h, w = image.shape[:2]
    values = tuple(lab.value for lab in load_labels(path.with_suffix(".txt"), w, h))
    marked = tuple(((d.centre[0] - d.size / 2, d.centre[1] - d.size / 2, d.size, d.size),
                    d.value) for d in face_dice(set_name, path, w, h)) if boxes else None
    return Known(path.name, values, lambda p=path: cv2.imread(str(p)), boxes=marked)


def known_throws(paths: list[pathlib.Path], dice: int, seed: int = 0, set_name: str = "",
                 boxes: bool = False) -> tuple[list[Known], list[pathlib.Path]]:
    """Pictures drawn (seeded) until they hold ``dice`` dice, as known throws
    (:func:`known_throw`); and the rest."""
    order = sorted(paths)
    random.Random(seed).shuffle(order)
    known, count = [], 0
    for path in order:
        if count >= dice:
            break
        known.append(known_throw(path, set_name, boxes))
        count += len(known[-1].values)
    names = {k.name for k in known}
    return known, [p for p in paths if p.name not in names]


def every(seconds: float) -> teach.Progress:
    """A progress callback that prints the stage to stderr at most every ``seconds``."""
    last = [0.0]
    start = time.monotonic()

    def say(stage: str, step: int, steps: int) -> None:
        now = time.monotonic()
        if now - last[0] >= seconds or step == steps:
            last[0] = now
            print(f"  {now - start:6.0f} s  {stage} {step}/{steps}", file=sys.stderr,
                  flush=True)

    return say


def calibrated_config(known: list[Known], model: pathlib.Path, folder: pathlib.Path,
                      steps: int, part: str, progress: teach.Progress | None = None,
                      pasting: bool = False,
                      ) -> tuple[pathlib.Path, folds.Teaching, reader_choice.Choice]:
    """A config in ``folder`` as ``bidou-table calibrate`` leaves a table whose config named
    no reader: the reader that read the known throws better, the table's network when kept."""
    config = folder / "table.toml"
    result = folds.teach_table(known, Settings(model=model), steps=steps, part=part,
                               progress=progress, pasting=pasting)
    learned = result.taught if result.kept else result.untaught
    choice = reader_choice.choose(reader_choice.rule_tally(known), learned, reader_choice.RULES)
    lines = ["[vision]", f'reader = "{choice.chosen}"']
    if result.kept:
        lines.append(f'head = "{folds.save(result, adapt.head_path(config))[0].name}"')
    config.write_text("\n".join(lines) + "\n")
    return config, result, choice


def table_reader(config: pathlib.Path, model: pathlib.Path) -> Reader:
    """The config's reader, as ``read-dice --config`` reads (a left-out model in place of
    the shipped one)."""
    vision = config_vision(config)
    if vision.reader_for(drawn=False) == reader_choice.LEARNED:  # the sets are photographs
        return ZoneReader(face_settings(vision, config, model=model))
    return open_reader(vision, config, drawn=False)


def read_as_table(config: pathlib.Path, model: pathlib.Path,
                  rest: list[pathlib.Path]) -> Tally:
    """The rest read by the config's reader (:func:`table_reader`)."""
    return evaluate(table_reader(config, model), rest)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.new_table",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--models", type=pathlib.Path, default=MODELS,
                        help="the folder holding without-SET models")
    parser.add_argument("--only", choices=SETS, action="append", help="only these sets")
    parser.add_argument("--known", type=int, nargs="+", default=list(KNOWN_DICE),
                        help="known dice given to the calibration, one line each")
    parser.add_argument("--steps", type=int, default=teach.STEPS)
    parser.add_argument("--part", choices=teach.PARTS, default="all")
    parser.add_argument("--boxes", action="store_true",
                        help="the known throws carry each die's box (NAME.json), so the "
                             "calibration teaches the die finder too")
    parser.add_argument("--paste", action="store_true",
                        help="the boxed known dice also pasted onto the known pictures' cloth "
                             "to teach more pictures (vision.calibrate.paste)")
    parser.add_argument("--rest", choices=("all", "valid"), default="all",
                        help="the pictures read after the calibration: every other picture "
                             "of the set (a left-out model), or only its Valid (a model "
                             "trained on the set's Train, such as the shipped one, saw the "
                             "others)")
    parser.add_argument("--failures", action="store_true")
    parser.add_argument("--no-zero-shot", action="store_true",
                        help="do not read the rest with the left-out model first")
    parser.add_argument("--keep", type=pathlib.Path, default=None,
                        help="copy each calibrated table's config and files into DIR/SET-N")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    print(HEADER)
    missing = 0
    for name in args.only or SETS:
        model = args.models / f"without-{name}"
        if not (model / "head.npz").is_file():
            print(f"{model} is missing: python -m vision_lab.train_reader --leave-out {name}",
                  file=sys.stderr)
            missing += 1
            continue
        train = pictures([args.sets / name / "Train"])
        valid = pictures([args.sets / name / "Valid"])
        for dice in args.known:
            known, rest = known_throws(train, dice, set_name=name, boxes=args.boxes)
            rest = valid if args.rest == "valid" else rest + valid
            if not args.no_zero_shot:
                before = evaluate(lambda image, m=model: read_dice(image, Settings(model=m)),
                                  rest)
                print(row(f"{name} (left out, rest)", "zero-shot", before), flush=True)
            with tempfile.TemporaryDirectory() as folder:
                start, cpu = time.monotonic(), time.process_time()
                config, result, choice = calibrated_config(known, model, pathlib.Path(folder),
                                                           args.steps, args.part, every(30),
                                                           args.paste)
                seconds, cpu = time.monotonic() - start, time.process_time() - cpu
                after = read_as_table(config, model, rest)
                taught = None
                if result.kept and choice.chosen != reader_choice.LEARNED:
                    learned = config.with_name("learned.toml")
                    learned.write_text(config.read_text().replace(
                        f'reader = "{choice.chosen}"', 'reader = "learned"'))
                    taught = read_as_table(learned, model, rest)
                if args.keep is not None:
                    shutil.copytree(folder, args.keep / f"{name}-{dice}", dirs_exist_ok=True)
            print(row(f"{name} (table, {result.dice})", choice.chosen, after), flush=True)
            if taught is not None:
                print(row(f"{name} (taught, {result.dice})", "learned", taught), flush=True)
            print(f"    {result.dice} known dice in {result.pictures} pictures; rules "
                  f"{choice.rules.figures()}; untaught {result.untaught.figures()}; taught "
                  f"(held-out folds) {result.taught.figures()}; network "
                  f"{'kept' if result.kept else 'not kept'}; thresholds {result.thresholds}; "
                  f"die sizes {result.die_range[0]:.0f}-{result.die_range[1]:.0f} px; "
                  f"{seconds:.0f} s, {cpu:.0f} s CPU "
                  f"({', '.join(f'{s:.0f}' for s in result.fold_seconds)} a fold), "
                  f"{args.part}, {args.steps} steps"
                  f"{', the finder taught on boxes' if args.boxes else ''}"
                  f"{', boxed dice pasted' if args.paste else ''}; careful until "
                  f"{result.more_throws} more throws", flush=True)
            if args.failures:
                for line in (taught or after).failures:
                    print(f"      {line}")
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
