"""Speed of a table's own network (``bidou-table calibrate`` taught it) against the readers it
may replace, from the same run: one core, a seat's zone and a 640x480 photograph.

Why apart from ``bench_vision``: a table's network exists only once a table was calibrated
(PyTorch, the ``learn`` extra), so this bench takes the config a calibration wrote:

    python benchmarks/bench_table_network.py CONFIG [--model DIR] [--own DIR]

``--model``: the model folder the table was calibrated on (default the shipped one; a
left-out model for ``vision_lab.new_table``'s tables). Prints median wall and CPU
milliseconds for the rule reader, the learned reader with the model's network, and the
table's: whole 640x480 photographs (tests/data webcam-wood) and each seat's zone of simulated
640x480 tables of four seats, read at the size of the dice last read there. The simulated dice
are not a taught table's: its zone reader finds other counts at their size and reads them again
at every scale, an upper bound. ``--own DIR``: the table's own pictures (its set's Valid) too,
read whole, then at the size of the dice read there, as a seat's zone is read once its dice's
size is known (the whole picture for a zone: an upper bound again).
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import statistics
import sys

import cv2
import numpy as np
from bench_vision import timed  # a script beside this one: python benchmarks/...

from simulator.table_scenes import render_table
from vision.learned.face_reader import MODELS, Settings, read_dice
from vision.learned.zone_reader import ZoneReader
from vision.reader import Reader, config_vision, face_settings, rule_reader
from vision.zones import default_zones
from vision_lab.evaluate import pictures

ROOT = pathlib.Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "tests" / "data" / "dice" / "webcam-wood"
SEATS = ["Ann", "Bob", "Cy", "Di"]


def zone_time(reader: Reader) -> tuple[float, float]:
    """Median milliseconds a seat's zone, read as the table reads a throw (the rule reader
    reads the whole frame for it)."""
    zones = default_zones(SEATS, 640, 480)
    frames = [render_table(zones, {z.seat: (1 + (k + i) % 6, 1 + (k + 2 * i) % 6, 3)
                                   for i, z in enumerate(zones)}, k, (640, 480))
              for k in range(3)]
    for zone in zones:  # the first read finds the dice's size
        reader.read_zone(frames[0], zone)

    def seats(frame: np.ndarray) -> None:
        for zone in zones:
            reader.read_zone(frame, zone)

    wall, cpu = timed(seats, frames, 2)
    return wall / len(zones), cpu / len(zones)


def own_times(table: Settings, folder: pathlib.Path) -> None:
    """Median milliseconds of the table's own pictures read whole, and at their dice's size."""
    photos = [cv2.imread(str(p)) for p in pictures([folder])]
    read_dice(photos[0], table)  # the networks load once
    wall, cpu = timed(lambda image: read_dice(image, table), photos, 1)
    print(f"table's own  its own picture  median {wall:7.1f} ms wall, {cpu:7.1f} ms CPU "
          f"({len(photos)} of {folder})")
    sized = []
    for image in photos:
        reading = read_dice(image, table)
        boxes = [d.box for d in reading.dice] + [u.box for u in reading.unsure]
        if boxes:
            sized.append((image, statistics.median(b[2] for b in boxes)))
    times = [timed(lambda image, s=size: read_dice(image, dataclasses.replace(table, die_size=s)),
                   [image], 1) for image, size in sized]
    print(f"table's own  at its dice size median {statistics.median(t[0] for t in times):7.1f} "
          f"ms wall, {statistics.median(t[1] for t in times):7.1f} ms CPU ({len(sized)} pictures)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=pathlib.Path)
    parser.add_argument("--model", type=pathlib.Path, default=MODELS)
    parser.add_argument("--own", type=pathlib.Path, default=None,
                        help="the table's own pictures, read whole and at their dice's size")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    vision = config_vision(args.config)
    if vision.head is None:
        print(f"{args.config} names no table network (no head under [vision]): calibrate "
              "the table first", file=sys.stderr)
        return 2
    table = face_settings(vision, args.config, model=args.model)
    photos = [cv2.imread(str(p)) for p in pictures([PHOTOS])]
    readers: tuple[tuple[str, Reader], ...] = (
        ("rules", rule_reader()), ("learned", ZoneReader(Settings(model=args.model))),
        ("table's own", ZoneReader(table)))
    for name, read in readers:
        read(photos[0])  # the networks load once
        wall, cpu = timed(read, photos, 2)
        print(f"{name:12s} 640x480 photo   median {wall:7.1f} ms wall, {cpu:7.1f} ms CPU")
    for name, read in readers:
        wall, cpu = zone_time(read)
        print(f"{name:12s} seat zone       median {wall:7.1f} ms wall, {cpu:7.1f} ms CPU")
    if args.own is not None:
        own_times(table, args.own)
    faces = args.config.with_name(f"{args.config.stem}.faces.onnx")
    if faces.is_file():
        print(f"the table's network {faces.name}: {faces.stat().st_size // 1024} kB; the "
              f"model's faces.onnx {(args.model / 'faces.onnx').stat().st_size // 1024} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
