"""`bidou-table read-dice [--json] [--annotate DIR] [--reader R] [--config FILE] IMAGE...`.

Why a command: to check the reader on the table's own camera pictures (or any photograph)
without running the table, and to feed other tools. With ``--json`` each image gives one line:

    {"image": PATH, "dice": [{"value": 5, "box": [x, y, w, h], "confidence": 0.97}],
     "unsure": [{"box": [x, y, w, h], "reason": "..."}]}

(boxes in pixels of the input image, around each die's top face). Without it, one line per
image for people. ``--annotate DIR`` also writes ``DIR/<stem>.annotated.png``.

``--config FILE`` reads as that table does: the reader its ``[vision]`` names, with the
table's own head and thresholds (``bidou-table calibrate --known-throws``,
:mod:`vision.reader`); ``--reader`` chooses another reader, with the table's head still.
Without either, the default reader for photographs (:func:`vision.settings.default_reader`):
the learned reader, on the pretrained network (:mod:`vision.learned.face_reader`), which reads
real dice better than the rule reader (``--reader rules``).

A file that cannot be read (missing, not an image, corrupt, blank) gives one line on stderr,
``PATH: cannot read image: ...``; the other files are still read and the exit status is 1.
Exit 0 when every image was read; 2 when the annotation directory, the config or the table's
own head cannot be used (one sentence saying what to do; no image is read).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

import cv2

from engine.errors import ConfigError, VisionError
from vision.annotate import annotate
from vision.picture import load_image
from vision.reader import config_vision, open_reader
from vision.reading import Reading


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photographs to read")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per line per image, for programs"
    )
    parser.add_argument(
        "--annotate", metavar="DIR",
        help="also write DIR/<stem>.annotated.png with boxes, values and unsure places",
    )
    parser.add_argument(
        "--reader", choices=("rules", "learned"), default=None,
        help="the learned reader on a pretrained network (the default for photographs), or "
             "the rule reader: docs/vision-model.md says how they compare; default with "
             "--config: the config's, if it names one",
    )
    parser.add_argument(
        "--config", metavar="FILE",
        help="read as this table does: the reader its [vision] names, with the table's own "
             "head and thresholds (bidou-table calibrate --known-throws)",
    )


def _cause(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def describe(path: str, reading: Reading) -> str:
    """One line for people: the values read (high first) and what could not be read."""
    dice = sorted(reading.dice, key=lambda d: -d.value)
    unsure = reading.unsure
    if dice:
        values = " ".join(str(d.value) for d in dice)
        lowest = min(d.confidence for d in dice)
        count = "1 die" if len(dice) == 1 else f"{len(dice)} dice"
        text = f"{path}: {count}: {values} (lowest confidence {round(lowest * 100)}%)"
    else:
        text = f"{path}: no dice read"
    if unsure:
        reasons = "; ".join(f"{u.reason} at {u.box[0]},{u.box[1]}" for u in unsure)
        text += f"; {len(unsure)} not sure: {reasons}"
    return text


def _annotation_dir(directory: str) -> Path | None:
    """Create the directory; print why not and return None if it cannot be written to."""
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".read-dice-{os.getpid()}.probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        print(
            f"bidou-table read-dice: cannot write annotated images to {directory}: {_cause(e)}; "
            "choose a directory you can write to.",
            file=sys.stderr,
        )
        return None
    return path


def run(args: argparse.Namespace) -> int:
    try:
        vision = config_vision(args.config)
        if args.reader is not None:
            vision = dataclasses.replace(vision, reader=args.reader)
        read_dice = open_reader(vision, args.config, drawn=False)  # files are photographs
    except ConfigError as e:
        print(f"bidou-table read-dice: {args.config}: {e}. Fix the config and try again.",
              file=sys.stderr)
        return 2
    except VisionError as e:
        print(f"bidou-table read-dice: {e}", file=sys.stderr)
        return 2

    out_dir = None
    if args.annotate is not None:
        out_dir = _annotation_dir(args.annotate)
        if out_dir is None:
            return 2
    used_names: set[str] = set()
    status = 0
    for path in args.images:
        try:
            image = load_image(path)
            reading = read_dice(image)
        except (OSError, ValueError, VisionError, cv2.error) as e:
            print(f"{path}: cannot read image: {_cause(e)}", file=sys.stderr)
            status = 1
            continue
        if args.json:
            print(json.dumps({"image": path, **reading.to_json()}, ensure_ascii=False))
        else:
            print(describe(path, reading))
        sys.stdout.flush()
        if out_dir is not None:
            name = f"{Path(path).stem}.annotated.png"
            n = 2
            while name in used_names:  # two inputs with one stem (a/x.jpg, b/x.jpg)
                name = f"{Path(path).stem}-{n}.annotated.png"
                n += 1
            used_names.add(name)
            target = out_dir / name
            try:
                ok = cv2.imwrite(str(target), annotate(image, reading))
            except cv2.error as e:
                ok, why = False, str(e)
            else:
                why = "OpenCV could not write the file"
            if not ok:
                print(f"{path}: cannot write {target}: {why}", file=sys.stderr)
                status = 1
    return status
