"""`bidou-table calibrate --known-throws DIR`: the learned dice reader's thresholds for this table.

The model's thresholds were chosen on the training sets' pictures; this table's light, cloth
and dice are not theirs. So the pub photographs a few dozen throws with the table's camera and
writes each picture's values in ``NAME.txt`` beside it (:mod:`vision.known_throws`); this
command reads every picture once, chooses the thresholds that read the most dice while wrong
values stay within the model's own budget (no looser than the model's unless the throws are
enough to show a wrong value rarer than 1 in 200, :func:`vision.known_throws.calibrate`), says
in plain sentences how the reader reads here with the model's thresholds and with the chosen
ones, and writes the chosen ones under
``[vision]`` (comments kept, :func:`hardware.config_edit.save_thresholds`). It never changes
``reader``: switching to the learned reader is the pub's decision. ``--dry-run`` only prints.

Exit 0 when the thresholds were chosen (and saved); 1 when none keeps the wrong values within
the budget, or the config or the model cannot be read; 2 for a folder of known throws that
cannot be used (each case one sentence naming the file) or a zone option given with it.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

from engine.errors import ConfigError, VisionError
from hardware.config_edit import read_config, save_thresholds
from vision.evaluate import Score
from vision.known_throws import (
    CONFIDENCE,
    PROMISE,
    Calibration,
    KnownThrowsError,
    calibrate,
    dice_to_show,
    find_throws,
    look_throws,
)
from vision.networks import load
from vision.settings import THRESHOLDS
from vision.thresholds import WRONG_BUDGET

#: the zone calibration's options, which mean nothing with --known-throws
ZONE_OPTIONS = (("image", "--image"), ("camera", "--camera"), ("device", "--device"),
                ("seats", "--seats"), ("annotate", "--annotate"),
                ("default_if_not_found", "--default-if-not-found"))
#: pictures not read exactly that are named, at most
NAMED = 10


def run_known_throws(args: argparse.Namespace) -> int:
    """Choose and save the thresholds (the module docstring); the exit status."""
    given = [flag for name, flag in ZONE_OPTIONS if getattr(args, name, None)]
    if given:
        return _stop("--known-throws calibrates the dice reader, not the seat zones: leave out "
                     f"{', '.join(given)}", 2)
    try:
        document = read_config(args.config)
    except ConfigError as exc:
        return _stop(str(exc), 1)
    section = document.get("vision", {})
    reader = str(section.get("reader", "rules")) if hasattr(section, "get") else "rules"
    folder = pathlib.Path(args.known_throws)
    try:
        throws = find_throws(folder)
        dice = sum(len(throw.values) for throw in throws)
        print(f"Reading {len(throws)} known throws ({dice} dice) in {folder} with the learned "
              "reader.", flush=True)
        nets = load()
        thrown = look_throws(throws, nets)
    except KnownThrowsError as exc:
        return _stop(str(exc), 2)
    except VisionError as exc:  # the model itself
        return _stop(str(exc), 1)
    result = calibrate(thrown, nets)
    print(f"With the model's own thresholds: {_reads(result.model_score, result.model_taken)}.")
    print(f"With the chosen thresholds: {_reads(result.chosen_score, result.chosen_taken)}.")
    print("(At the table a throw with anything unsure in its zone goes to the referee.)")
    _name_failures(result.chosen_score)
    if not result.within_budget:
        print(f"No thresholds keep the wrong values within 1 in {round(1 / WRONG_BUDGET)} dice "
              f"on these throws (even the strictest read {_count(result.chosen_score.wrong)} "
              "wrong): check the values written for the pictures above, or take more throws. "
              "The config was not changed.")
        return 1
    chosen = {name: result.chosen[name] for name in THRESHOLDS}  # in the config's order
    print(f"Chosen: {_thresholds(chosen)} (the model's own: {_thresholds(result.model)}).")
    print(_promise(result))
    if args.dry_run:
        print("Dry run: the config was not changed.")
    else:
        try:
            save_thresholds(args.config, chosen)
        except (ConfigError, OSError) as exc:
            return _stop(f"could not save the thresholds: {exc}", 1)
        print(f"Saved them under [vision] in {args.config}.")
    if reader != "learned":
        print(f'The table still reads with the rule reader: write reader = "learned" under '
              f"[vision] in {args.config} to read with the learned one and these thresholds.")
    return 0


def _promise(result: Calibration) -> str:
    """Whether the throws show the table's promise kept, and what follows when they do not."""
    s = result.chosen_score
    surely = f"{CONFIDENCE:.0%} sure: under 1 in {math.floor(1 / result.bound)}"
    if result.shown:
        return (f"These {s.labels} dice show a wrong value rarer than 1 in {round(1 / PROMISE)} "
                f"at the chosen thresholds ({surely}).")
    wrong = "none" if not s.wrong else str(s.wrong)
    return (f"{s.labels} dice read with {wrong} wrong cannot show a wrong value rarer "
            f"than 1 in {round(1 / PROMISE)} ({surely}); about {dice_to_show()} dice read with "
            "none wrong would. So no threshold was set looser than the model's own: take more "
            "throws to loosen them.")


def _stop(sentence: str, status: int) -> int:
    print(f"bidou-table calibrate: {sentence.rstrip('.')}.", file=sys.stderr)
    return status


def _count(wrong: int) -> str:
    return "1 value" if wrong == 1 else f"{wrong} values"


def _reads(s: Score, taken: int) -> str:
    """One sentence's worth of figures: what a pub needs to judge the reader here."""
    return (f"{s.right} of {s.labels} dice read right ({100 * s.recall:.0f}%), {s.wrong} wrong, "
            f"{s.unsure} unsure, {s.missed} missed, {s.extra} extra; {s.exact} of "
            f"{s.pictures} pictures exact ({taken} with nothing unsure either)")


def _name_failures(s: Score) -> None:
    if not s.failures:
        return
    print("Not read exactly with the chosen thresholds:")
    for line in s.failures[:NAMED]:
        print(f"  {line}")
    if len(s.failures) > NAMED:
        print(f"  and {len(s.failures) - NAMED} more.")


def _thresholds(values: dict[str, float]) -> str:
    return ", ".join(f"{name} {values[name]:g}" for name in THRESHOLDS)
