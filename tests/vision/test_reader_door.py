"""The one door (vision/reader.py): every part reads through a ``Reader``, and a reader's
dependencies load only when that reader is chosen."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from vision.reader import Reader, WholeFrame, open_reader
from vision.reading import Reading
from vision.zones import Zone


def _loaded_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter has loaded after running ``code``."""
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\n"
                          "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_a_table_reading_with_rules_never_loads_onnxruntime():
    """The simulated camera's untaught table, and a real camera's naming the rule reader."""
    loaded = _loaded_after("from vision.reader import open_reader\n"
                           "from vision.settings import VisionSettings\n"
                           "import numpy as np\n"
                           "rng = np.random.default_rng(1)\n"
                           "frame = rng.integers(0, 255, (120, 160, 3), np.uint8)\n"
                           "open_reader(drawn=True)(frame)\n"
                           "open_reader(VisionSettings(reader='rules'), drawn=False)(frame)")
    assert "vision" in loaded and "onnxruntime" not in loaded


def test_the_learned_reader_loads_onnxruntime_when_chosen():
    """Named, or by default for a camera's photographs."""
    for call in ("open_reader(VisionSettings(reader='learned'), drawn=True)",
                 "open_reader(drawn=False)"):
        loaded = _loaded_after("from vision.reader import open_reader\n"
                               f"from vision.settings import VisionSettings\n{call}")
        assert "onnxruntime" in loaded, call


def test_both_readers_read_a_frame_and_a_seats_zone():
    frame = np.random.default_rng(2).integers(0, 255, (240, 320, 3), np.uint8)
    zone = Zone("Ann", 20, 20, 120, 100)
    for reader in (open_reader(drawn=True), open_reader(drawn=False)):
        assert isinstance(reader(frame), Reading)
        reading = reader.read_zone(frame, zone)
        assert isinstance(reading, Reading)
        assert (reading.width, reading.height) == (320, 240)


def test_a_function_of_a_frame_reads_a_zone_as_the_whole_frame():
    seen: list[tuple[int, ...]] = []

    def read(frame: np.ndarray) -> Reading:
        seen.append(frame.shape)
        return Reading((), (), frame.shape[1], frame.shape[0])

    reader: Reader = WholeFrame(read)
    reader.read_zone(np.zeros((50, 60, 3), np.uint8), Zone("Bob", 0, 0, 10, 10))
    assert seen == [(50, 60, 3)]
