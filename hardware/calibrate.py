"""`bidou-table calibrate`: find each seat's dice zone in a camera frame and save it in the config.

At the table: every player puts their three dice in the middle of their throwing place, the
referee runs ``bidou-table calibrate --config table.toml``; the frame is read, the dice are
grouped per seat (``hardware.zonefinder``), and ``[zones.SEAT]`` tables are written into the
config with tomlkit, keeping the rest of the file and its comments as the pub wrote them
(:mod:`hardware.config_edit`, which the dashboard also uses to save the zones the referee
drew). ``--image`` calibrates from a saved picture; ``--dry-run`` only prints.

``--known-throws DIR`` (and ``--from-log DB``) adapts the learned dice reader to the table
instead of the zones (:mod:`firmware.teach.calibrate_reader`, which needs the log; the command is
:mod:`firmware.cli.cmd_calibrate`); :func:`hardware.config_edit.save_vision` names its head under
``[vision]``.

The dice are read with the table's own reader (:func:`table_reader`): on a real camera's
photographs that is the learned reader unless the config names another.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

import cv2
import numpy as np
import tomlkit

from engine.errors import CameraError, ConfigError, VisionError
from hardware.cameras import CameraSettings, open_camera, parse_camera
from hardware.cameras.simulated import SimulatedCamera
from hardware.config_edit import read_config, save_zones
from hardware.zonefinder import find_zones
from vision.annotate import annotate
from vision.picture import load_image
from vision.reader import Reader, config_vision, open_reader
from vision.zones import Zone, default_zones


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="FILE",
                        help="the table's TOML config; [zones.SEAT] tables (or, with "
                             "--known-throws, the [vision] head) are written into it")
    parser.add_argument("--known-throws", metavar="DIR",
                        help="instead of the zones: adapt the learned dice reader to this table "
                             "on DIR's pictures of known throws (NAME.jpg or .png, with "
                             "NAME.txt holding its dice's values, e.g. 2 4 6; at least 30 dice "
                             "in all); its head is saved beside the config")
    parser.add_argument("--camera", metavar="KIND",
                        help="use this camera kind instead of the config's [camera] kind "
                             "(picamera, usb, folder, video, simulated)")
    parser.add_argument("--device", metavar="DEV",
                        help="with --camera: the device (camera number, /dev/videoN, a path)")
    parser.add_argument("--image", metavar="FILE",
                        help="calibrate from a saved picture instead of the camera")
    parser.add_argument("--seats", metavar="N|NAMES",
                        help="how many seats (the first N players of [table] players) or their "
                             "names, comma-separated; default: every player")
    parser.add_argument("--annotate", metavar="FILE",
                        help="also write the frame with the dice and the zones drawn on it")
    parser.add_argument("--default-if-not-found", action="store_true",
                        help="when the dice cannot be grouped, save the default layout instead "
                             "of stopping")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the zones (or the adaptation) found without saving them")


def seats_of(document: tomlkit.TOMLDocument, choice: str | None) -> list[str]:
    """The seats to calibrate: the config's players, or the first N, or the names given."""
    table = document.get("table", {})
    players = [str(p) for p in table.get("players", [])] if hasattr(table, "get") else []
    if not players:
        players = ["Ann", "Bob"]  # firmware.settings.config's default table
    if choice is None:
        return players
    if choice.strip().isdigit():
        n = int(choice)
        if not 1 <= n <= len(players):
            raise ConfigError("--seats", choice,
                              f"a number from 1 to {len(players)} (the players in [table])")
        return players[:n]
    names = [name.strip() for name in choice.split(",") if name.strip()]
    unknown = [name for name in names if name not in players]
    if unknown or not names:
        raise ConfigError("--seats", choice,
                          f"players of [table] players, comma-separated: {', '.join(players)}")
    return names


def camera_settings(args: argparse.Namespace, document: tomlkit.TOMLDocument) -> CameraSettings:
    """The config's ``[camera]``, or the ``--camera`` (and ``--device``) given instead."""
    section = dict(document.get("camera", {}))
    if args.camera:
        section["kind"] = args.camera
        section.pop("device", None)
    if args.device is not None:
        section["device"] = int(args.device) if args.device.isdigit() else args.device
    return parse_camera(section)


def table_reader(args: argparse.Namespace, document: tomlkit.TOMLDocument) -> Reader:
    """The table's own reader (:func:`vision.reader.open_reader`): the one ``[vision]`` names,
    else the default for its camera's pictures, ``--image`` being one of them (the rule reader
    for the simulated camera's drawn dice, the learned reader for a camera's photographs),
    so the zones are found from the dice the table will read."""
    drawn = camera_settings(args, document).kind == "simulated"
    return open_reader(config_vision(args.config), args.config, drawn=drawn)


def capture(args: argparse.Namespace, document: tomlkit.TOMLDocument,
            seats: Sequence[str]) -> np.ndarray:
    """One frame: from ``--image``, or from the configured (or ``--camera``) camera."""

    if args.image:
        try:  # read the bytes first: a missing file is not "not a picture", and no OpenCV WARN
            return load_image(args.image)
        except (OSError, ValueError) as e:
            cause = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise CameraError(f"cannot read the picture {args.image}: {cause}; give the path "
                              "of a JPEG or PNG file") from None
    settings = camera_settings(args, document)
    zones: list[Zone] = []
    if settings.kind == "simulated":  # the simulated players put their dice mid-place
        zones = [_middle(z) for z in default_zones(list(seats), settings.width, settings.height)]
    with open_camera(settings, zones=zones) as camera:
        if isinstance(camera, SimulatedCamera):  # the simulated players put down their dice
            rng = random.Random(settings.seed)
            for seat in seats:
                camera.set_dice(seat, [rng.randint(1, 6) for _ in range(3)])
        return camera.read()


def _middle(zone: Zone, part: float = 0.4) -> Zone:
    """The middle ``part`` of a zone: where a player is asked to put their dice."""
    w, h = max(1, round(zone.w * part)), max(1, round(zone.h * part))
    return Zone(zone.seat, zone.x + (zone.w - w) // 2, zone.y + (zone.h - h) // 2, w, h)


def run(args: argparse.Namespace) -> int:
    try:
        document = read_config(args.config)
        seats = seats_of(document, args.seats)
        frame = capture(args, document, seats)
        height, width = frame.shape[:2]
        reading = table_reader(args, document)(frame)
        try:
            found = find_zones(reading, seats, width, height)
            zones, notes = list(found.zones), list(found.notes)
        except VisionError as exc:
            if not args.default_if_not_found:
                raise
            zones = default_zones(seats, width, height)
            notes = [f"{exc}", "saving the default layout instead (--default-if-not-found)"]
    except (ConfigError, CameraError, VisionError) as exc:
        print(f"bidou-table calibrate: {exc}", file=sys.stderr)
        return 1
    print(f"{len(reading.dice) + len(reading.unsure)} dice found in a {width}x{height} frame.")
    for zone in zones:
        print(f"  {zone.seat}: x={zone.x} y={zone.y} w={zone.w} h={zone.h}")
    for note in notes:
        print(f"Note: {note}.")
    if args.annotate:
        cv2.imwrite(args.annotate, annotate(frame, reading, zones))
        print(f"Wrote {args.annotate} (dice and zones drawn on the frame).")
    if args.dry_run:
        print("Dry run: the config was not changed.")
        return 0
    try:
        save_zones(args.config, zones)
    except (ConfigError, OSError) as exc:
        print(f"bidou-table calibrate: could not save the zones: {exc}", file=sys.stderr)
        return 1
    print(f"Saved {len(zones)} zones as [zones.SEAT] tables in {args.config}.")
    return 0
