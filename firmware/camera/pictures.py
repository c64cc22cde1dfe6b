"""Zones and camera pictures for the referee: the JPEG, the zones read now, new zones checked.

The referee sees what the camera sees (annotated with what the reader made of it) and may
redraw the seats' zones. Both only look at the :class:`~firmware.camera.throws.DiceWatcher`; nothing
here changes the game, so the controller's command worker is not needed for them.
"""

from __future__ import annotations

from typing import Any

import cv2

from engine.errors import CameraError, ConfigError
from firmware.camera.throws import DiceWatcher
from firmware.table.commands import Refusal
from firmware.words.phrases import N_, Phrase
from vision.annotate import annotate
from vision.zones import Zone, parse_zones, read_seats

ZONES_EXAMPLE = ('{"Ann": {"x": 10, "y": 10, "w": 300, "h": 200}, ...}')


def camera_jpeg(watcher: DiceWatcher | None, annotated: bool = False) -> bytes:
    """The latest camera frame as JPEG, with the last reading drawn on it when ``annotated``.

    Raises CameraError when there is no camera or no frame can be had.
    """
    if watcher is None:
        raise CameraError("This table has no camera; the referee enters the dice.")
    frame = watcher.snapshot()
    if annotated and watcher.last_reading is not None:
        zones = list(watcher.zones.values())
        # The seat verdicts carry the table's values: 7 - pips seen under a glass table.
        verdicts = read_seats(watcher.last_reading, zones, bottom_faces=watcher.bottom_faces)
        frame = annotate(frame, watcher.last_reading, zones, seat_readings=verdicts)
    ok, buf = cv2.imencode(".jpg", frame)
    if not ok:
        raise CameraError("The camera frame could not be encoded as JPEG.")
    return bytes(buf)


def zones_table(watcher: DiceWatcher | None) -> dict[str, dict[str, int]]:
    """The zones read now, ``{seat: {x, y, w, h}}`` (empty without a camera)."""
    if watcher is None:
        return {}
    return {seat: {"x": z.x, "y": z.y, "w": z.w, "h": z.h} for seat, z in watcher.zones.items()}


def check_zones(table: Any, seats: list[str], watcher: DiceWatcher | None
                ) -> list[Zone] | Refusal:
    """The referee's zones (``{seat: {x, y, w, h}}``, one per seat) as Zones, checked as the
    config's ``[zones]`` is (and inside the camera frame when one can be had), or a Refusal
    naming the key, the value and what is allowed."""
    if watcher is None:
        return Refusal("This table has no camera, so it has no zones; the referee enters the "
                       "dice.")
    if not isinstance(table, dict):
        return Refusal(f"The zones must be an object such as {ZONES_EXAMPLE}, one per seat.")
    missing = [seat for seat in seats if seat not in table]
    unknown = [str(seat) for seat in table if seat not in seats]
    if missing or unknown:
        return Refusal(f"Give one zone for each seat ({', '.join(seats)}); "
                       + (f"missing: {', '.join(missing)}" if missing else
                          f"not seats here: {', '.join(unknown)}") + ".")
    size = frame_size(watcher)
    problem = zone_problem(table, seats, size)
    if problem:
        return Refusal.said(unchanged(problem))
    try:  # every check above is parse_zones's, said for people; this one is its last word
        return parse_zones(table, frame=size)
    except ConfigError as e:
        return Refusal(f"{e}; nothing was changed.")


def frame_size(watcher: DiceWatcher) -> tuple[int, int] | None:
    """The camera frame's (width, height), or None when no frame can be had."""
    try:
        frame = watcher.snapshot()
    except CameraError:
        return None
    return int(frame.shape[1]), int(frame.shape[0])


def unchanged(problem: Phrase) -> Phrase:
    """The sentence of zones refused for ``problem``."""
    return N_("%(problem)s Nothing was changed.", problem=problem)


#: each number of a zone, as the referee's console names it
ZONE_WORDS = {"x": N_("left edge (x)"), "y": N_("top edge (y)"), "w": N_("width (w)"),
              "h": N_("height (h)")}


def zone_problem(table: dict[str, Any], seats: list[str], size: tuple[int, int] | None
                 ) -> Phrase | None:
    """What is wrong with the referee's zones, as a sentence naming the seat, the number and
    what it may be (never a config key or a Python dict), or None."""
    boxes: list[Zone] = []
    for seat in seats:
        zone = table[seat]
        if not isinstance(zone, dict):
            return N_("Give %(seat)s's zone as its left edge, top edge, width and height in "
                      "pixels.", seat=seat)
        unknown = [str(k) for k in zone if k not in ZONE_WORDS]
        if unknown:
            return N_("%(seat)s's zone has %(keys)s; a zone has only x, y, w and h, in pixels.",
                      seat=seat, keys=", ".join(unknown))
        numbers: dict[str, int] = {}
        for key, words in ZONE_WORDS.items():
            value, least = zone.get(key), 0 if key in "xy" else 1
            if value is None or value == "":
                return N_("%(seat)s's %(number)s is empty; give a whole number of pixels.",
                          seat=seat, number=words)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                return N_("%(seat)s's %(number)s must be a whole number of pixels, %(least)s or "
                          "more, not “%(value)s”.", seat=seat, number=words, least=least,
                          value=value)
            numbers[key] = value
        box = Zone(seat, numbers["x"], numbers["y"], numbers["w"], numbers["h"])
        if size is not None and box.x + box.w > size[0]:
            return N_("%(seat)s's zone runs past the right edge of the %(width)s by %(height)s "
                      "picture: it ends at %(end)s pixels, and may end at %(most)s at most.",
                      seat=seat, width=size[0], height=size[1], end=box.x + box.w,
                      most=size[0])
        if size is not None and box.y + box.h > size[1]:
            return N_("%(seat)s's zone runs past the bottom edge of the %(width)s by "
                      "%(height)s picture: it ends at %(end)s pixels, and may end at %(most)s "
                      "at most.", seat=seat, width=size[0], height=size[1], end=box.y + box.h,
                      most=size[1])
        other = next((b for b in boxes if b.overlaps(box)), None)
        if other is not None:
            return N_("%(other)s's zone and %(seat)s's overlap, so a die there would belong to "
                      "both seats; move one of them.", other=other.seat, seat=seat)
        boxes.append(box)
    return None
