"""`bidou-table calibrate --known-throws DIR` / `--from-log DB`: the table learns its own dice.

The model was trained on other tables; this table's light, cloth and dice are not theirs. So
the pub photographs a few dozen throws with the table's camera and writes each picture's values
in ``NAME.txt`` beside it (:mod:`vision.calibrate.known`), and every referee's dice correction
keeps the
camera's picture with the corrected values (:mod:`firmware.correction_pictures`). This command
reads them with both readers and decides two things, each in plain sentences:

- **which reader** the table reads with: the rule reader or the learned one, whichever reads
  every known throw better (:mod:`vision.calibrate.reader_choice`; when neither does, the table
  keeps
  its reader). Changed, ``reader = "..."`` is written under ``[vision]``, even over a reader
  the config named: calibrating is how a pub asks the table to read its dice best.
- **the learned reader's own head**: fitted on two thirds of the pictures and checked on the
  third held back (:mod:`vision.calibrate.adapt`), kept only when it reads them better; kept, it
  saves
  ``NAME.head.npz`` and ``NAME.reader.json`` beside the config ``NAME.toml`` and writes
  ``head = "NAME.head.npz"`` under ``[vision]``.

The config keeps its comments (:func:`hardware.config_edit.save_vision`). ``--dry-run`` only
prints. A config with only its ``[table]`` section is enough: no zones or camera are needed.

Here rather than in ``hardware/`` because ``--from-log`` reads the controller's log.

Exit 0 when the reader changed or the head was kept (and saved, unless ``--dry-run``); 1 when
neither (nothing changed), or the config, the model or the log cannot be read, or the files
cannot be saved; 2 for known throws that cannot be used (each case one sentence naming the
file, or too few dice) or a zone option given with them.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys
import time

from engine.errors import ConfigError, VisionError
from firmware.correction_pictures import known_from_log
from firmware.log_guard import LogError
from hardware.config_edit import read_config, save_vision
from vision.calibrate import adapt, known, reader_choice
from vision.calibrate.known import KnownThrowsError, Tally
from vision.learned import face_reader
from vision.reader import check, config_vision, face_settings
from vision.settings import VisionSettings

#: the zone calibration's options, which mean nothing with --known-throws
ZONE_OPTIONS = (("image", "--image"), ("camera", "--camera"), ("device", "--device"),
                ("seats", "--seats"), ("annotate", "--annotate"),
                ("default_if_not_found", "--default-if-not-found"))
#: pictures not read exactly that are named, at most
NAMED = 10
RULE = "more dice right with no more wrong, or as many right with fewer wrong"
#: the readers as a sentence names them
NAMES = {reader_choice.RULES: "rule", reader_choice.LEARNED: "learned"}
#: the reader's choice counts a die read where none was thrown as an error too
CHOICE_RULE = ("more dice right with no more wrong or extra, or as many right with fewer "
               "wrong or extra")


def run_known_throws(args: argparse.Namespace) -> int:
    """Adapt the reader and save it (the module docstring); the exit status."""
    given = [flag for name, flag in ZONE_OPTIONS if getattr(args, name, None)]
    if given:
        return _stop("--known-throws and --from-log calibrate the dice reader, not the seat "
                     f"zones: leave out {', '.join(given)}", 2)
    config = pathlib.Path(args.config)
    try:
        read_config(config)  # readable TOML, before minutes of reading pictures
        vision = config_vision(config)
    except ConfigError as exc:
        return _stop(f"{config}: {exc}; fix the config and try again", 1)
    try:
        items, where = _known(args)
    except KnownThrowsError as exc:
        return _stop(str(exc), 2)
    except (LogError, OSError) as exc:
        return _stop(f"cannot read the corrections in the log {args.from_log}: {exc}", 1)
    dice = sum(len(item.values) for item in items)
    try:
        adapt.check_enough(dice)
    except KnownThrowsError as exc:
        return _stop(str(exc), 2)
    try:
        settings = _settings_now(vision, config)
    except VisionError as exc:  # the model itself
        return _stop(str(exc), 1)
    print(f"Reading {len(items)} known throws ({dice} dice) {where} with the learned reader "
          "and the rule reader.", flush=True)
    try:
        result = adapt.calibrate(items, settings, seed=args.seed)
        start = time.monotonic()
        left_out = set(result.left_out)
        read = [item for item in items if item.name not in left_out]
        rules = reader_choice.rule_tally(read)
        result.seconds += time.monotonic() - start
    except KnownThrowsError as exc:
        return _stop(str(exc), 2)
    except VisionError as exc:
        return _stop(str(exc), 1)
    choice = reader_choice.choose(rules, result.now, vision.reader)
    _report(result, settings, choice)
    return _keep(result, args, config, choice)


def _known(args: argparse.Namespace) -> tuple[list[adapt.Known], str]:
    """The known throws of the folder and of the log's corrections, and where they came from."""
    items: list[adapt.Known] = []
    where = []
    if args.known_throws is not None:
        folder = pathlib.Path(args.known_throws)
        for throw in known.find_throws(folder):
            items.append(adapt.Known(throw.path.name, throw.values,
                                     lambda path=throw.path: known.load_picture(path)))
        where.append(f"in {folder}")
    if args.from_log is not None:
        found = known_from_log(args.from_log)
        if not found:
            raise KnownThrowsError(f"the log {args.from_log} holds no dice correction with its "
                                   "picture: correct a misread throw from the referee console "
                                   "first, or give --known-throws DIR")
        items += found
        count = "1 correction" if len(found) == 1 else f"{len(found)} corrections"
        where.append(f"from {count} in {args.from_log}")
    return items, " and ".join(where)


def _settings_now(vision: VisionSettings, config: pathlib.Path) -> face_reader.Settings:
    """The learned reader as the table reads now; a table head that cannot be used is said,
    and the model's own head stands in for it (calibrating again is how to mend it)."""
    try:
        settings = face_settings(vision, config)
        check(settings)
        return settings
    except VisionError as exc:
        if vision.head is None:
            raise
        print(f"Note: {str(exc).rstrip('.')}. Comparing with the model's own head instead.")
        settings = face_settings(dataclasses.replace(vision, head=None), config)
        check(settings)
        return settings


def _report(result: adapt.Adaptation, settings: face_reader.Settings,
            choice: reader_choice.Choice) -> None:
    """Both readers on every known throw and which the table reads with; the held-back
    throws before and after the head's adaptation; in sentences, and what it cost."""
    if result.left_out:
        shown = ", ".join(result.left_out[:NAMED]) + (", ..." if len(result.left_out) > NAMED
                                                      else "")
        print(f"Left out {len(result.left_out)} pictures kept with corrections that cannot hold "
              f"dice (blank or covered): {shown}.")
    own = (f"the table's own head {settings.head.name}" if settings.head
           else "the model's head")
    print(f"Every known throw ({choice.rules.dice} dice), by the rule reader: "
          f"{_reads(choice.rules)}.")
    print(f"... by the learned reader ({own}): {_reads(choice.learned)}.")
    chosen = NAMES[choice.chosen]
    if choice.changed:
        print(f"The {chosen} reader reads them better ({CHOICE_RULE}): the table reads with it "
              "from now on.")
    elif choice.reads_better:
        print(f"The {chosen} reader, the table's now, reads them better ({CHOICE_RULE}): it "
              "stays.")
    else:
        print(f"Neither reader reads them better ({CHOICE_RULE}): the table keeps the "
              f"{chosen} reader.")
    fitted, held = len(result.fitted), len(result.held_back)
    print(f"The learned reader's head, fitted on {fitted} of the pictures "
          f"({result.examples_dice} dice matched, and {result.examples_not_dice} places that "
          f"are no die), checked on the {held} held back ({result.before.dice} dice):")
    print(f"Before, with {own}: {_reads(result.before)}.")
    print(f"Adapted to this table: {_reads(result.after)}.")
    print("(At the table a throw with anything unsure in its zone goes to the referee.)")
    if result.after.failures:
        print("Not read exactly after the adaptation:")
        for line in result.after.failures[:NAMED]:
            print(f"  {line}")
        if len(result.after.failures) > NAMED:
            print(f"  and {len(result.after.failures) - NAMED} more.")
    print(f"The calibration took {result.seconds:.1f} seconds on this machine, reading the "
          "pictures with both readers included.")


def _keep(result: adapt.Adaptation, args: argparse.Namespace, config: pathlib.Path,
          choice: reader_choice.Choice) -> int:
    """Save what was kept: the table's head when it reads the held-back throws better, the
    reader when the other reads every known throw better; exit 1 when neither changed."""
    if result.kept:
        print(f"Kept: the adapted head reads the held-back throws better ({RULE}).")
    else:
        print(f"The adapted head is not kept: it does not read the held-back throws better "
              f"({RULE}).")
    if not result.kept and not choice.changed:
        print("The table reads as before and the config was not changed; take more throws, "
              "or check the values written for the pictures above.")
        return 1
    if args.dry_run:
        print("Dry run: nothing was saved and the config was not changed.")
        return 0
    keys: dict[str, str] = {"reader": choice.chosen} if choice.changed else {}
    head = adapt.head_path(config)
    try:
        if result.kept:
            head, own = adapt.save(result, head)
            keys["head"] = head.name
        save_vision(config, keys)
    except (ConfigError, OSError) as exc:
        return _stop(f"could not save the calibration: {exc}", 1)
    if result.kept:
        print(f"Saved the table's own head in {head} and its thresholds in {own}; "
              f"head = \"{head.name}\" is under [vision] in {config}.")
    if choice.changed:
        print(f'reader = "{choice.chosen}" is under [vision] in {config}: the table reads with '
              f'the {NAMES[choice.chosen]} reader from its next start (write reader = '
              f'"{choice.current}" to go back).')
    elif result.kept and choice.chosen != reader_choice.LEARNED:
        print(f"The table still reads with the rule reader, which reads its known throws "
              f'better: the head serves the learned reader (reader = "learned" under [vision] '
              f"in {config}).")
    return 0


def _stop(sentence: str, status: int) -> int:
    print(f"bidou-table calibrate: {sentence.rstrip('.')}.", file=sys.stderr)
    return status


def _reads(s: Tally) -> str:
    """One sentence's worth of figures: what a pub needs to judge the reader here."""
    share = f" ({100 * s.right / s.dice:.0f}%)" if s.dice else ""
    return (f"{s.right} of {s.dice} dice read right{share}, {s.wrong} wrong, {s.unsure} unsure, "
            f"{s.missed} missed, {s.extra} extra; {s.exact} of {s.pictures} pictures exact")
