"""What each dice reader costs a table at start: opening it, its memory, and its first read.

Why: a table whose config names no reader reads a real camera's photographs with the learned
reader (:func:`vision.settings.default_reader`), so ``bidou-table run`` on the Pi loads
onnxruntime and the model before the first throw, where the rule reader loaded OpenCV alone.
This measures that cost as a table pays it, each run in a fresh interpreter:

    python benchmarks/bench_reader_start.py [--runs 5]

Prints, per reader, the median over the runs of: the seconds from a fresh interpreter to the
reader opened (``vision.reader.open_reader``, its imports included), the process's peak
resident memory once opened (MiB), and the seconds of its first read of a 640x480 photograph
(tests/data webcam-wood ``valid_1.jpg``), which pays what opening left lazy.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PHOTO = ROOT / "tests" / "data" / "dice" / "webcam-wood" / "valid_1.jpg"

#: one run, in a fresh interpreter: the reader opened as a table opens it, then one read
CHILD = """
import json, resource, sys, time
start = time.perf_counter()
from vision.reader import open_reader
from vision.settings import VisionSettings
reader = open_reader(VisionSettings(reader=sys.argv[1]), drawn=False)
opened = time.perf_counter() - start
peak_opened = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
from vision.picture import load_image
image = load_image(sys.argv[2])
start = time.perf_counter()
reader(image)
first = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"open_s": opened, "opened_mib": peak_opened / 1024, "first_read_s": first,
                  "read_mib": peak / 1024}))
"""


def run_once(reader: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, reader, str(PHOTO)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'reader':8} {'open s':>7} {'MiB open':>9} {'1st read s':>10} {'MiB read':>9}"
          f"   (medians of {args.runs} fresh interpreters)")
    for reader in ("rules", "learned"):
        runs = [run_once(reader) for _ in range(args.runs)]

        def median(key: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        print(f"{reader:8} {median('open_s'):7.2f} {median('opened_mib'):9.0f} "
              f"{median('first_read_s'):10.2f} {median('read_mib'):9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
