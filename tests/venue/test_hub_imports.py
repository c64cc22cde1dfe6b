"""A hub is no table: importing the venue's and the league's modules loads no GPIO code.

The venue's hub and the league's servers run on machines with no seat panels; they read the
table's log entries and judge their concealment (``firmware.gamelog``), and the config's names
(``firmware.settings``). If one of their modules reached the controller (whose presses know the
panel's buttons), it would load ``hardware`` and gpiozero, and a hub would depend on the
table's wiring. Each package is imported whole in a fresh interpreter, so what an earlier test
imported cannot hide it.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
print(json.dumps(sorted(m for m in sys.modules
                        if m == "gpiozero" or m.startswith("gpiozero.")
                        or m == "hardware" or m.startswith("hardware."))))
"""


@pytest.mark.parametrize("package", ["venue", "league"])
def test_a_hub_package_loads_neither_gpiozero_nor_hardware(package: str) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, package], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"importing every module of {package} failed:\n{done.stderr}"
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == [], (f"importing {package}'s modules loaded {loaded}: a hub must import "
                          "from firmware only the log's entries, their concealment and the "
                          "settings' names")
