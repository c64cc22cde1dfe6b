"""``bidou-table`` as the venue's tests run their tables: the same command and arguments, the
dice read by ``SceneReader`` (exactly the dice the simulated camera drew) instead of the real
reader.

The venue's tests check what a table sends and what the venue keeps, not how dice are read
(tests/vision and tests/firmware/test_e2e.py check the reader). Reading rendered frames with
the real reader was most of a simulated table's CPU, and these tests run up to four tables at
once. ``python tests/venue/scene_table.py run ARGS`` is ``bidou-table run ARGS`` otherwise.
"""

from __future__ import annotations

import sys

from firmware.camera.simulation import SceneReader
from firmware.cli.dispatch import main
from firmware.table import house


def scene_reader(camera: object, vision: object = None, config_path: object = None) -> object:
    """``house.real_reader``'s signature, reading the simulated camera's own dice."""
    return SceneReader(camera)  # type: ignore[arg-type]


if __name__ == "__main__":
    house.real_reader = scene_reader  # type: ignore[assignment]
    sys.exit(main())
