"""Evenings of a make the model never saw: a new table taught once, then teaching itself from
the throws its players settle, evening after evening, judged on pictures it never learns from.

Why: a table taught once on a few dozen known dice cannot show a wrong share of 1 in 500
(split conformal: 1/(n+1)), so it stays careful, and on a new make careful reads little. The
table keeps learning (:mod:`firmware.teach.self_teaching`): every throw it was not sure of is
settled by the players, and its picture and values become known dice. Here a shared set left
out of a model's training (``MODELS/without-SET``) is such a table's evenings, measured with
the lab's labels instead of simulated dice (``benchmarks/bench_evenings.py``):

- **evening 0**: about ``--known`` dice of the set's Train, each die boxed as the referee
  marks it on the Dice page, calibrated as ``bidou-table calibrate --known-throws`` does
  (:func:`vision_lab.new_table.calibrated_config`: the learn extra's teaching, the keep rule,
  the reader choice);
- **each evening after**: the next ``--throws`` pictures of the Train, read by the table's
  config. A picture with a die unsure or missed goes to the players (:func:`goes_to_players`),
  who settle it: its values (no boxes: nobody marks them in play) join the known dice. A die
  read surely and wrong, or read where none lay, nobody sees, and it teaches nothing;
- **at closing**: the table is calibrated again on every known die, as the idle table does.

After each calibration the set's Valid, which no evening reads or learns from, is read by the
table's config: its recall and wrong share are the evening's figures for dice the table has
never seen. ``python -m vision_lab.settled_evenings --sets ../shared/dice --models DIR --only
SET [--known 60] [--throws 30] [--evenings 5]``. Needs the learn extra (PyTorch).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import tempfile
import time

import cv2

from vision.calibrate import teach
from vision.calibrate.adapt import Known
from vision.calibrate.known import Tally, errors
from vision_lab.evaluate import HEADER, SETS, Reader, evaluate, pictures, row
from vision_lab.new_table import calibrated_config, known_throw, known_throws, table_reader


def goes_to_players(score: Tally) -> bool:
    """Whether a throw read so is settled by the players: a die left unsure, a die not found,
    or an unsure place besides the dice (the table asks about it too). Every die read surely,
    right or wrong, and a die read where none lay, pass unseen."""
    return score.unsure > 0 or score.missed > 0 or score.unsure_places > 0


def settled(path: pathlib.Path) -> Known:
    """A settled throw as the table keeps it: its picture and the values the players gave,
    no boxes (nobody marks them in play)."""
    return known_throw(path)


def evening_line(n: int, night: Tally, throws: int, to_players: int, known: int) -> str:
    """What an evening's play read: sure and right, sure and wrong, sent to the players."""
    dice = max(night.dice, 1)
    return (f"evening {n}: {throws} throws, {night.dice} dice: sure and right "
            f"{100 * night.right / dice:5.1f}%, sure and wrong {100 * errors(night) / dice:4.2f}% "
            f"({night.wrong} wrong, {night.extra} phantom), throws settled by the players "
            f"{to_players}/{throws}; known dice now {known}")


def teach_and_judge(n: int, known: list[Known], model: pathlib.Path, top: pathlib.Path,
                    valid: list[pathlib.Path], name: str) -> Reader:
    """Calibrate on every known die as the table does (evening 0: taught once; later: at
    closing), print the calibration and the set's Valid read by the new config; the config's
    reader, which reads the next evening."""
    folder = top / f"evening-{n}"
    folder.mkdir()
    start, cpu = time.monotonic(), time.process_time()
    config, result, choice = calibrated_config(known, model, folder, teach.STEPS, "all")
    seconds, cpu = time.monotonic() - start, time.process_time() - cpu
    print(f"  {'taught once' if n == 0 else 'closing'}: {result.dice} known dice "
          f"({sum(k.boxes is not None for k in known)} throws boxed); held out untaught "
          f"{result.untaught.figures()}, taught {result.taught.figures()}; network "
          f"{'kept' if result.kept else 'not kept'}; reader {choice.chosen}; careful until "
          f"{result.more_throws} more throws; {seconds:.0f} s, {cpu:.0f} s CPU", flush=True)
    reader = table_reader(config, model)
    print("  " + row(f"{name} Valid", choice.chosen, evaluate(reader, valid)), flush=True)
    return reader


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.settled_evenings",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--models", type=pathlib.Path, required=True,
                        help="the folder holding without-SET models")
    parser.add_argument("--only", choices=SETS, required=True)
    parser.add_argument("--known", type=int, default=60, help="known dice at evening 0")
    parser.add_argument("--throws", type=int, default=30, help="pictures an evening")
    parser.add_argument("--evenings", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    print(HEADER)
    model = args.models / f"without-{args.only}"
    if not (model / "head.npz").is_file():
        print(f"{model} is missing: python -m vision_lab.train_reader --leave-out {args.only}",
              file=sys.stderr)
        return 2
    train = pictures([args.sets / args.only / "Train"])
    valid = pictures([args.sets / args.only / "Valid"])
    known, rest = known_throws(train, args.known, seed=args.seed, set_name=args.only,
                               boxes=True)
    random.Random(args.seed + 1).shuffle(rest)
    with tempfile.TemporaryDirectory() as top:
        reader = teach_and_judge(0, known, model, pathlib.Path(top), valid, args.only)
        for n in range(1, args.evenings + 1):
            tonight, rest = rest[:args.throws], rest[args.throws:]
            if not tonight:
                print(f"evening {n}: the set's Train has no pictures left")
                break
            night, to_players = Tally(), 0
            for path in tonight:
                score = evaluate(reader, [path])
                night.add(score)
                if goes_to_players(score):
                    known.append(settled(path))
                    to_players += 1
            print(evening_line(n, night, len(tonight), to_players,
                               sum(len(k.values) for k in known)), flush=True)
            reader = teach_and_judge(n, known, model, pathlib.Path(top), valid, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
