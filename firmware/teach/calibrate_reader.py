"""`bidou-table calibrate --known-throws DIR` / `--from-log DB`: the table learns its own dice.

The model was trained on other tables; this table's light, cloth and dice are not theirs. So
the pub photographs a few dozen throws with the table's camera and writes each picture's values
in ``NAME.txt`` beside it (:mod:`vision.calibrate.known`), and every referee's dice correction
keeps the
camera's picture with the corrected values (:mod:`firmware.teach.correction_pictures`). This command
reads them with both readers and decides two things, each in plain sentences:

- **which reader** the table reads with: the rule reader or the learned one, whichever is
  worth more on the known throws: dice right less 4 for each wrong or extra die, a reader
  reading none right below any other (:mod:`vision.calibrate.reader_choice`; on equal worth
  the table keeps its reader: the one its config names, else the default for its camera,
  :func:`vision.settings.default_reader`, and then nothing is written).
  Changed, ``reader = "..."`` is written under ``[vision]``, even over a reader
  the config named: calibrating is how a pub asks the table to read its dice best.
- **the table's own network**, where the learn extra (PyTorch) is installed: the face network
  taught on the known throws and judged on folds of them held out of its teaching
  (:mod:`vision.calibrate.folds`), kept only when it reads them better than the untaught
  table; kept, ``NAME.faces.onnx``, ``NAME.head.npz`` and ``NAME.reader.json`` are saved
  beside the config ``NAME.toml`` and ``head = "NAME.head.npz"`` is written under
  ``[vision]``. The reader's choice then weighs the taught network's held-out reading.
  Without PyTorch, one sentence says to install the extra, and only **the learned reader's
  own head** is fitted, on two thirds of the pictures and checked on the third held back
  (:mod:`vision.calibrate.adapt`), kept and saved the same way when it reads them better.

The config keeps its comments (:func:`hardware.config_edit.save_vision`). ``--dry-run`` only
prints. A config with only its ``[table]`` section is enough: no zones or camera are needed.

Here rather than in ``hardware/`` because ``--from-log`` reads the controller's log.

One calibration, two callers: the command and the referee console's "Learn these dice"
(:mod:`firmware.teach.learning`) both call :func:`calibrate`, which says its findings through
``say`` (the command prints them), its stages through ``progress`` (the console's progress
bar), and returns a :class:`Calibration`; the console holds it (mode ``"hold"``) until the
referee keeps it (:func:`save_calibration`, which the command's ``"save"`` mode calls too).

Exit 0 when the reader changed or the network or head was kept (and saved, unless
``--dry-run``); 1 when neither (nothing changed), or the config, the model or the log cannot
be read, or the files cannot be saved; 2 for known throws that cannot be used (each case one
sentence naming the file, or too few dice) or a zone option given with them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import tomlkit

from engine.errors import ConfigError, VisionError
from firmware.gamelog.log_guard import LogError
from firmware.teach.calibration_report import (
    CHOICE_RULE,
    NAMES,
    RULE,
    report_choice,
    report_head,
    report_teaching,
)
from firmware.teach.correction_pictures import known_from_log
from firmware.words.phrases import N_
from hardware.config_edit import read_config, save_vision
from vision.calibrate import adapt, folds, known, network, reader_choice, teach
from vision.calibrate.known import KnownThrowsError, Tally
from vision.learned import face_reader
from vision.reader import check, config_vision, face_settings
from vision.settings import VisionSettings

#: the zone calibration's options, which mean nothing with --known-throws
ZONE_OPTIONS = (("image", "--image"), ("camera", "--camera"), ("device", "--device"),
                ("seats", "--seats"), ("annotate", "--annotate"),
                ("default_if_not_found", "--default-if-not-found"))


#: what a calibration is told as it goes: (stage in words, step, steps)
Progress = Callable[[str, int, int], None]
#: how a calibration's result is used: saved ("save"), only printed ("dry-run"), or held for
#: the caller to save or drop (the referee console's "Keep", :func:`save_calibration`)
MODES = ("save", "dry-run", "hold")


@dataclass(frozen=True)
class Request:
    """One calibration: the table's config (None: a table started without one reads with the
    defaults), where its known throws are, the seed of the held-back third, and ``mode``."""

    config: pathlib.Path | None
    known_throws: pathlib.Path | None = None
    from_log: str | None = None
    seed: int = 0
    mode: str = "save"
    #: whether the table's camera is the simulated one, whose dice are drawn (the reader a
    #: config naming none reads with depends on it, :func:`vision.settings.default_reader`);
    #: None: as the config's ``[camera] kind`` says (the running table knows it for sure)
    drawn: bool | None = None


@dataclass
class Calibration:
    """What one calibration found and did: the command's exit status, the sentence it stopped
    with (None when it ran to the end), both judgements, and the files it wrote."""

    status: int = 1
    error: str | None = None
    #: the table's taught network (:class:`folds.Teaching`), or its head fitted alone
    result: adapt.Adaptation | folds.Teaching | None = None
    choice: reader_choice.Choice | None = None
    written: list[pathlib.Path] = field(default_factory=list)

    @property
    def changes(self) -> bool:
        """Whether keeping it changes how the table reads (a head kept or the other reader)."""
        return bool(self.result is not None and self.choice is not None
                    and (self.result.kept or self.choice.changed))


def _silent(line: str) -> None:
    """The default ``say``: a calibration run by a program prints nothing."""


def run_known_throws(args: argparse.Namespace) -> int:
    """The command: adapt the reader and save it (the module docstring); the exit status."""
    given = [flag for name, flag in ZONE_OPTIONS if getattr(args, name, None)]
    if given:
        return _stop("--known-throws and --from-log calibrate the dice reader, not the seat "
                     f"zones: leave out {', '.join(given)}", 2)
    request = Request(pathlib.Path(args.config),
                      None if args.known_throws is None else pathlib.Path(args.known_throws),
                      args.from_log, args.seed, "dry-run" if args.dry_run else "save")
    done = calibrate(request, say=lambda line: print(line, flush=True))
    if done.error is not None:
        return _stop(done.error, done.status)
    return done.status


def calibrate(request: Request, *, say: Callable[[str], None] = _silent,
              progress: Progress | None = None) -> Calibration:
    """The one calibration of the table's reader, for the command and the referee console:
    reads the known throws with both readers, adapts the head, says each finding in
    sentences through ``say`` and each stage through ``progress``, and saves what it kept
    unless ``request.mode`` says otherwise. Never raises for bad input: the sentence and the
    command's exit status are in the :class:`Calibration`."""
    done = Calibration()
    # the stages are English words marked for the catalogues: the console says them (t())
    tell = progress or (lambda stage, step, steps: None)
    config = request.config
    tell(N_("checking the known throws").msgid, 0, 1)
    try:
        document = read_config(config) if config is not None else None  # readable TOML,
        vision = config_vision(config)  # before minutes of reading pictures
    except ConfigError as exc:
        return _failed(done, f"{config}: {exc}; fix the config and try again", 1)
    drawn = request.drawn if request.drawn is not None else _camera_draws(document)
    try:
        items, where = _known(request)
    except KnownThrowsError as exc:
        return _failed(done, str(exc), 2)
    except (LogError, OSError) as exc:
        return _failed(done, f"cannot read the corrections in the log {request.from_log}: "
                             f"{exc}", 1)
    dice = sum(len(item.values) for item in items)
    try:
        adapt.check_enough(dice)
    except KnownThrowsError as exc:
        return _failed(done, str(exc), 2)
    try:
        settings = _settings_now(vision, config, say)
    except VisionError as exc:  # the model itself
        return _failed(done, str(exc), 1)
    say(f"Reading {len(items)} known throws ({dice} dice) {where} with the learned reader "
        "and the rule reader.")
    teaching = network.learn_extra()
    if not teaching:
        say(network.HEAD_ONLY)
    elif os.environ.get(network.NO_TEACHING) == "0":
        teaching = False
        say(network.TOLD_NOT_TO)
    result: adapt.Adaptation | folds.Teaching
    try:
        if teaching:  # the module's constants at call time, so a test may make it short
            result = folds.teach_table(items, settings, folds=folds.FOLDS, seed=request.seed,
                                       steps=teach.STEPS, progress=tell)
        else:
            result = adapt.calibrate(items, settings, seed=request.seed,
                                     progress=lambda step, steps: _reading(tell, step, steps))
        start = time.monotonic()
        left_out = set(result.left_out)
        read = [item for item in items if item.name not in left_out]
        rules = Tally()
        for step, item in enumerate(read, 1):
            rules.add(reader_choice.rule_tally([item]))
            tell(N_("reading the pictures by counting their pips").msgid, step, len(read))
        result.seconds += time.monotonic() - start
    except KnownThrowsError as exc:
        return _failed(done, str(exc), 2)
    except VisionError as exc:
        return _failed(done, str(exc), 1)
    learned = result.after if isinstance(result, folds.Teaching) and result.kept else result.now
    choice = reader_choice.choose(rules, learned, vision.reader_for(drawn=drawn))
    done.result, done.choice = result, choice
    report_choice(result, settings, choice, say)
    if isinstance(result, folds.Teaching):
        report_teaching(result, say)
    else:
        report_head(result, settings, say)
    done.status = _judge(done, request, say)
    if request.mode != "hold" and isinstance(result, folds.Teaching):
        folds.discard(result)  # saved, it was moved already; else a dry run's or not kept
    tell(N_("done").msgid, 1, 1)
    return done


def _camera_draws(document: tomlkit.TOMLDocument | None) -> bool:
    """Whether the config's camera is the simulated one (its ``[camera] kind``, "simulated"
    when absent, as :func:`hardware.cameras.parse_camera` has it)."""
    camera = document.get("camera") if document is not None else None
    kind = camera.get("kind", "simulated") if isinstance(camera, dict) else "simulated"
    return bool(kind == "simulated")


def _reading(tell: Progress, step: int, steps: int) -> None:
    """The learned reader's reading of the pictures; the fit follows the last one."""
    tell(N_("reading the pictures with the trained reader").msgid, step, steps)
    if step == steps:
        tell(N_("fitting the table's own head and checking it on the throws held back").msgid,
             0, 1)


def _failed(done: Calibration, sentence: str, status: int) -> Calibration:
    done.error, done.status = sentence, status
    return done


def _known(request: Request) -> tuple[list[adapt.Known], str]:
    """The known throws of the folder and of the log's corrections, and where they came from."""
    items: list[adapt.Known] = []
    where = []
    if request.known_throws is not None:
        folder = request.known_throws
        for throw in known.find_throws(folder):
            items.append(adapt.Known(throw.path.name, throw.values,
                                     lambda path=throw.path: known.load_picture(path),
                                     boxes=throw.boxes))
        where.append(f"in {folder}")
    if request.from_log is not None:
        found = known_from_log(request.from_log)
        if not found:
            raise KnownThrowsError(f"the log {request.from_log} holds no dice correction with its "
                                   "picture: correct a misread throw from the referee console "
                                   "first, or give --known-throws DIR")
        items += found
        count = "1 correction" if len(found) == 1 else f"{len(found)} corrections"
        where.append(f"from {count} in {request.from_log}")
    return items, " and ".join(where)


def _settings_now(vision: VisionSettings, config: pathlib.Path | None,
                  say: Callable[[str], None]) -> face_reader.Settings:
    """The learned reader as the table reads now; a table head that cannot be used is said,
    and the model's own head stands in for it (calibrating again is how to mend it)."""
    try:
        settings = face_settings(vision, config)
        check(settings)
        return settings
    except VisionError as exc:
        if vision.head is None:
            raise
        say(f"Note: {str(exc).rstrip('.')}. Comparing with the model's own head instead.")
        settings = face_settings(dataclasses.replace(vision, head=None), config)
        check(settings)
        return settings


def _judge(done: Calibration, request: Request, say: Callable[[str], None]) -> int:
    """Say whether the head was kept; save what was kept in ``"save"`` mode (the head when it
    reads the held-back throws better, the reader when the other reads every known throw
    better); the exit status: 1 when neither changed."""
    assert done.result is not None and done.choice is not None
    what, where, rule = (("taught network", "the folds held out", CHOICE_RULE) if isinstance(
        done.result, folds.Teaching) else ("adapted head", "the held-back throws", RULE))
    if done.result.kept:
        say(f"Kept: the {what} reads {where} better ({rule}).")
    else:
        say(f"The {what} is not kept: it does not read {where} better ({rule}).")
    if not done.changes:
        say("The table reads as before and the config was not changed; take more throws, "
            "or check the values written for the pictures above.")
        return 1
    if request.mode == "dry-run":
        say("Dry run: nothing was saved and the config was not changed.")
        return 0
    if request.mode == "hold":
        return 0
    try:
        done.written = save_calibration(done, request.config, say)
    except (ConfigError, OSError) as exc:
        done.error = f"could not save the calibration: {exc}"
        return 1
    return 0


def save_calibration(done: Calibration, config: pathlib.Path | None,
                     say: Callable[[str], None] = _silent,
                     head: pathlib.Path | None = None) -> list[pathlib.Path]:
    """Save what ``done`` kept: the table's head (at ``head``, else beside the config) and
    ``[vision]``'s keys in ``config`` (None: a table without a config file, whose reader
    lasts until it stops); the files written. ConfigError or OSError when it cannot be."""
    assert done.result is not None and done.choice is not None
    result, choice = done.result, done.choice
    keys: dict[str, str] = {"reader": choice.chosen} if choice.changed else {}
    written: list[pathlib.Path] = []
    if head is None:
        assert config is not None, "a table without a config names where its head goes"
        head = adapt.head_path(config)
    if result.kept:
        head, own = (folds.save(result, head) if isinstance(result, folds.Teaching)
                     else adapt.save(result, head))
        keys["head"] = head.name
        written += [head, own]
    if config is not None:
        save_vision(config, keys)
        written.append(config)
    where = f"in {config}" if config is not None else "(no config file: until the table stops)"
    if result.kept and isinstance(result, folds.Teaching):
        say(f"Saved the table's own network beside {head}, its head in it and its thresholds "
            f"in {own}; head = \"{head.name}\" is under [vision] {where}.")
    elif result.kept:
        say(f"Saved the table's own head in {head} and its thresholds in {own}; "
            f"head = \"{head.name}\" is under [vision] {where}.")
    if choice.changed:
        say(f'reader = "{choice.chosen}" is under [vision] {where}: the table reads with '
            f'the {NAMES[choice.chosen]} reader from its next start (write reader = '
            f'"{choice.current}" to go back).')
    elif result.kept and choice.chosen != reader_choice.LEARNED:
        say(f"The table still reads with the rule reader, which reads its known throws "
            f'better: the head serves the learned reader (reader = "learned" under [vision] '
            f"{where}).")
    return written


def _stop(sentence: str, status: int) -> int:
    print(f"bidou-table calibrate: {sentence.rstrip('.')}.", file=sys.stderr)
    return status
