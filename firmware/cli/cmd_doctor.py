"""`bidou-table doctor [--config FILE] [--db FILE]`: the table's parts checked from the pub's
shell, one sentence each.

Why: when the table does not start, or plays without its camera or its buttons, the pub has a
shell on the Pi and no developer beside it. This reads what the installed table uses (by
default the service's own config and log) and says, for each part, what it found or what is
wrong and what to do: the config, the log, the camera, the pins, the zones, the reader files
and the venue link. It changes nothing, and opens nothing the running service holds (the log
read-only, the camera only looked for), so it can run beside the service. A part it cannot
check says why; no traceback ever reaches the pub.

Exit 0 when every part is fine; 1 when one is not.
"""

from __future__ import annotations

import argparse
import glob
import os
import socket
import sqlite3
from collections.abc import Callable
from urllib.parse import urlsplit

from engine.errors import ConfigError, VisionError
from firmware.settings.config import TableConfig, load_config
from firmware.settings.machine import PI_DB, on_raspberry_pi

CONFIG = "/etc/bidou-table/table.toml"
#: seconds to wait for the venue's hub to accept a connection
HUB_TIMEOUT = 3.0


class Problem(Exception):
    """What is wrong with a part, as the sentence to print."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default=CONFIG,
                        help=f"the table's config (default: the service's, {CONFIG})")
    parser.add_argument("--db", default=PI_DB,
                        help=f"the game log (default: the service's, {PI_DB})")


def check_log(path: str) -> str:
    if not os.path.exists(path):
        raise Problem(f"there is no log at {path} yet; the table makes it at its first start "
                      "(its folder must be the table user's), or give --db")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            games, last = db.execute("SELECT count(*), max(id) FROM games").fetchone()
            status = db.execute("SELECT status FROM games WHERE id = ?", (last,)).fetchone()
        finally:
            db.close()
    except sqlite3.Error as e:
        raise Problem(f"{path} cannot be read as a game log ({e}); restore it from a copy, "
                      "or move it aside and the table starts a new one") from None
    if not games:
        return f"{path}: no game yet"
    return f"{path}: {games} game{'s' if games > 1 else ''}, the last (game {last}) {status[0]}"


def check_camera(config: TableConfig) -> str:
    camera = config.camera
    if camera.kind == "simulated":
        return "simulated: the table renders and reads its own dice"
    if camera.kind == "picamera":
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise Problem("[camera] kind = \"picamera\" needs python3-picamera2: sudo apt "
                          "install python3-picamera2, in a venv made with "
                          "--system-site-packages (firmware/deploy/install.sh does both)"
                          ) from None
        cameras = Picamera2.global_camera_info()
        number = camera.device if isinstance(camera.device, int) else 0
        if number >= len(cameras):
            raise Problem(f"no Pi camera number {number} is connected ({len(cameras)} found): "
                          "check the ribbon cable and its latch, then rpicam-hello "
                          "--list-cameras")
        return f"Pi camera {number} found ({cameras[number].get('Model', 'unknown model')})"
    if camera.kind == "usb":
        device = camera.device if camera.device is not None else 0
        path = device if isinstance(device, str) else f"/dev/video{device}"
        if not os.path.exists(path):
            raise Problem(f"no USB camera at {path}: plug it in, or set [camera] device "
                          "(v4l2-ctl --list-devices lists them)")
        if not os.access(path, os.R_OK | os.W_OK):
            raise Problem(f"{path} is not readable and writable by this user: the table's "
                          "user must be in the group video")
        return f"USB camera {path} found"
    path = str(camera.device)
    if not os.path.exists(path):
        raise Problem(f"[camera] device {path!r} does not exist ({camera.kind})")
    return f"{camera.kind} {path}"


def check_pins(config: TableConfig) -> str:
    seats = config.pins.seats
    if not seats:
        return "no seat panel: the players use their phones"
    if not on_raspberry_pi():
        return (f"panels of {', '.join(seats)}; not a Raspberry Pi, so the table simulates "
                "them")
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        raise Problem("no /dev/gpiochip*: the Pi's GPIO driver is not loaded")
    shut = [c for c in chips if not os.access(c, os.R_OK | os.W_OK)]
    if shut:
        raise Problem(f"{', '.join(shut)} not readable and writable by this user: the "
                      "table's user must be in the group gpio")
    return f"panels of {', '.join(seats)}; {', '.join(chips)} open to this user"


def check_zones(config: TableConfig) -> str:
    if not config.zones:
        return ("none set: laid around the frame by seat order (bidou-table calibrate, or "
                "the referee console, sets them)")
    width, height = config.camera.size
    outside = [z.seat for z in config.zones if z.x + z.w > width or z.y + z.h > height]
    if outside:
        raise Problem(f"the zones of {', '.join(outside)} reach outside the camera's "
                      f"{width}x{height} frame: run bidou-table calibrate again")
    return (f"{', '.join(z.seat for z in config.zones)}, inside the {width}x{height} frame")


def check_reader(config: TableConfig) -> str:
    from vision.reader import open_reader  # lazy: OpenCV, and onnxruntime for "learned"

    # as bidou-table run opens its camera: the simulated one off the Pi or when the config asks
    drawn = config.simulate or config.camera.kind == "simulated"
    try:
        open_reader(config.vision, config.path, drawn=drawn)
    except (VisionError, OSError) as e:
        raise Problem(f"{str(e).rstrip('.')}") from None
    named = "" if config.vision.reader is not None else \
        f" (the default for {'the simulated camera' if drawn else 'a real camera'})"
    if config.vision.reader_for(drawn=drawn) != "learned":
        return f"the rules reader{named}: no file needed"
    head = config.vision.head or "the model's own head"
    return f"the learned reader{named} opens, with {head}"


def check_venue(config: TableConfig) -> str:
    venue = config.venue
    if venue is None:
        return "none ([venue] absent): the table keeps its games to itself"
    url = urlsplit(venue.url)
    host, port = url.hostname or "", url.port or 4222
    try:
        with socket.create_connection((host, port), timeout=HUB_TIMEOUT):
            pass
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        raise Problem(f"the hub at {venue.url} cannot be reached ({why}): is the hub "
                      f"machine on, and is {host} its address on the pub's network?") from None
    return f"the hub at {venue.url} answers (table {venue.table} of venue {venue.venue})"


def run(args: argparse.Namespace) -> int:
    """Print one line per part; 0 when all are fine, else 1."""
    lines: list[tuple[str, str, bool]] = []

    def part(name: str, check: Callable[[], str]) -> None:
        try:
            lines.append((name, check(), True))
        except Problem as e:
            lines.append((name, str(e), False))
        except Exception as e:  # noqa: BLE001 - the pub gets a sentence, never a traceback
            lines.append((name, f"could not be checked ({type(e).__name__}: {e})", False))

    config: TableConfig | None = None
    try:
        config = load_config(args.config, simulate=not on_raspberry_pi())
        lines.append(("config", f"{args.config}: {config.variant} for "
                                f"{', '.join(config.players)}", True))
    except ConfigError as e:
        lines.append(("config", f"{args.config}: {e}. Fix it and check again", False))
    part("log", lambda: check_log(args.db))
    if config is not None:
        known = config
        part("camera", lambda: check_camera(known))
        part("pins", lambda: check_pins(known))
        part("zones", lambda: check_zones(known))
        part("reader files", lambda: check_reader(known))
        part("venue link", lambda: check_venue(known))
    else:
        for name in ("camera", "pins", "zones", "reader files", "venue link"):
            lines.append((name, "not checked: the config cannot be read", False))
    for name, sentence, fine in lines:
        print(f"{name + ':':<14}{'ok' if fine else 'PROBLEM'}: {sentence.rstrip('.')}.")
    return 0 if all(fine for _, _, fine in lines) else 1
