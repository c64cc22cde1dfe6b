"""`bidou-table calibrate`: find each seat's dice zone in a camera frame and save it in the config.

At the table: every player puts their three dice in the middle of their throwing place, the
referee runs ``bidou-table calibrate --config table.toml``; the frame is read, the dice are
grouped per seat (``hardware.zonefinder``), and ``[zones.SEAT]`` tables are written into the
config with tomlkit, keeping the rest of the file and its comments as the pub wrote them.
``--image`` calibrates from a saved picture; ``--dry-run`` only prints. The dashboard saves
zones the referee drew with :func:`save_zones`.

``--known-throws DIR`` (and ``--from-log DB``) adapts the learned dice reader to the table
instead of the zones (:mod:`firmware.calibrate_reader`, which needs the log; the command is
:mod:`firmware.cmd_calibrate`); :func:`save_vision` names its head under ``[vision]``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence

import cv2
import numpy as np
import tomlkit

from engine.errors import CameraError, ConfigError, VisionError
from hardware.cameras import open_camera, parse_camera
from hardware.cameras.simulated import SimulatedCamera
from hardware.zonefinder import find_zones
from vision.annotate import annotate
from vision.cli import load_image
from vision.reader import read_dice
from vision.zones import Zone, check_overlap, default_zones


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


def read_config(path: str | os.PathLike[str]) -> tomlkit.TOMLDocument:
    """The config as a tomlkit document (comments kept). Raises ConfigError if unreadable."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("--config", str(path), "an existing TOML file; copy "
                          "firmware/table.example.toml and edit it") from None
    except OSError as exc:
        raise ConfigError("--config", str(path), f"a readable file ({exc.strerror})") from None
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as exc:
        raise ConfigError("--config", str(path), f"valid TOML ({exc})") from None


def save_zones(config_path: str | os.PathLike[str], zones: Iterable[Zone]) -> None:
    """Write ``zones`` as the config's ``[zones.SEAT]`` tables, replacing the old ones.

    Everything else in the file, comments included, is kept. The zones are checked first
    (no overlap: ``ConfigError``), and the file is replaced in one step, so a crash never
    leaves half a config.
    """
    zones = list(zones)
    if not zones:
        raise ValueError("save_zones needs at least one zone")
    check_overlap(zones)
    document = read_config(config_path)
    existing = document.get("zones")
    if isinstance(existing, tomlkit.items.Table):  # update in place: comments stay
        wanted = {zone.seat for zone in zones}
        carried = []  # comments at the end of a removed table belong to what follows it
        for seat in [seat for seat in existing if seat not in wanted]:
            old = existing[seat]
            if isinstance(old, tomlkit.items.Table):
                carried += [item for key, item in old.value.body
                            if key is None and isinstance(item, tomlkit.items.Comment)]
            del existing[seat]
        for zone in zones:
            values = {key: int(getattr(zone, key)) for key in ("x", "y", "w", "h")}
            old = existing.get(zone.seat)
            if isinstance(old, tomlkit.items.Table):
                for key in [key for key in old if key not in values]:
                    del old[key]
                for key, value in values.items():
                    old[key] = value
            else:
                table = _zone_table(zone)
                table.add(tomlkit.nl())
                existing.add(zone.seat, table)
        last = existing[list(existing)[-1]]  # the table now just before the next section
        for comment in carried:
            if isinstance(last, tomlkit.items.Table):
                last.add(comment)
    else:
        if existing is not None:
            del document["zones"]
        table = tomlkit.table(is_super_table=True)
        for zone in zones:
            table.add(zone.seat, _zone_table(zone))
        document.add(tomlkit.nl())
        document.add(tomlkit.comment("Seat zones in camera pixels, written by "
                                     "`bidou-table calibrate`."))
        document.add("zones", table)
    _write_config(config_path, document)


def save_vision(config_path: str | os.PathLike[str],
                thresholds: Mapping[str, float | int | str]) -> None:
    """Write ``thresholds`` (keys of ``[vision]``: the table's head, its reader) into the
    config's ``[vision]`` table.

    A key already there keeps its place and its comment; a new one goes after the table's last
    key (not after the comments that end the table: they introduce the next section). The
    table's other keys (``reader``) and the rest of the file, comments included, are kept; the
    file is replaced in one step, as by :func:`save_zones`.
    """
    document = read_config(config_path)
    existing = document.get("vision")
    if isinstance(existing, tomlkit.items.Table):
        for key, value in thresholds.items():
            keys = [k for k, _ in existing.value.body if k is not None]
            if key in existing or not keys:
                existing[key] = value
            else:  # tomlkit's public add would put it after the closing comments
                _insert_after_last_key(existing.value, key, value)
    else:
        table = tomlkit.table()
        if existing is not None:  # an inline table: its keys carried over
            for key, value in existing.items():
                table.add(key, value)
            del document["vision"]
        for key, value in thresholds.items():
            table[key] = value
        document.add(tomlkit.nl())
        document.add(tomlkit.comment("The dice reader, adapted to this table by "
                                     "`bidou-table calibrate --known-throws`."))
        document.add("vision", table)
    _write_config(config_path, document)


def _insert_after_last_key(container: tomlkit.container.Container, key: str,
                           value: object) -> None:
    """Put ``key`` right after the table's last key (private tomlkit API: ``_insert_after``
    before tomlkit 0.14, ``_insert_at`` since; tomlkit has no public way to do this)."""
    body = container.body
    last = max(i for i, (k, _) in enumerate(body) if k is not None)
    if last + 1 >= len(body):  # nothing after it: the public way is the same
        container.append(key, value)
    elif hasattr(container, "_insert_after"):
        container._insert_after(body[last][0], key, value)
    else:
        container._insert_at(last + 1, key, value)


def _write_config(config_path: str | os.PathLike[str], document: tomlkit.TOMLDocument) -> None:
    """Replace the config with ``document`` in one step: a crash never leaves half a config."""
    path = pathlib.Path(config_path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(tomlkit.dumps(document))
        os.replace(temporary, path)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise


def _zone_table(zone: Zone) -> tomlkit.items.Table:
    table = tomlkit.table()
    for key in ("x", "y", "w", "h"):
        table.add(key, int(getattr(zone, key)))
    return table


def seats_of(document: tomlkit.TOMLDocument, choice: str | None) -> list[str]:
    """The seats to calibrate: the config's players, or the first N, or the names given."""
    table = document.get("table", {})
    players = [str(p) for p in table.get("players", [])] if hasattr(table, "get") else []
    if not players:
        players = ["Ann", "Bob"]  # firmware.config's default table
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
    section = dict(document.get("camera", {}))
    if args.camera:
        section["kind"] = args.camera
        section.pop("device", None)
    if args.device is not None:
        section["device"] = int(args.device) if args.device.isdigit() else args.device
    settings = parse_camera(section)
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
        reading = read_dice(frame)
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
