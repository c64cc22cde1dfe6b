"""How long the scene renderer and the annotator take (the simulated camera renders every frame).

Prints medians in milliseconds; measures, never asserts.
"""

from __future__ import annotations

import statistics
import time

from simulator.random_scenes import random_scene
from simulator.render import render_scene
from simulator.table_scenes import render_table
from vision.annotate import annotate
from vision.reading import Die, Reading
from vision.zones import default_zones


def _median_ms(work, repeats: int) -> float:
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        work(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _show(name: str, ms: float) -> None:
    print(f"{name:<55} median {ms:8.1f} ms", flush=True)


def main() -> None:
    cases = [
        ("640x480, 3 dice, wood", (640, 480), 3, {}),
        ("640x480, 12 dice, felt, side faces", (640, 480), 12, {"surface": "felt", "side": 0.2}),
        ("640x480, 30 dice, mixed colours", (640, 480), 30, {"colour": "mixed"}),
        ("1920x1080, 12 dice, glare, jpeg", (1920, 1080), 12, {"glare": 3, "jpeg_quality": 85}),
        ("4000x3000 (12 MP), 12 dice", (4000, 3000), 12, {}),
    ]
    for name, size, n, kw in cases:
        spec = random_scene(1, n, size=size, **kw)
        repeats = 5 if size[0] > 2000 else 20
        ms = _median_ms(lambda i, spec=spec: render_scene(spec, i), repeats)
        _show(f"render_scene {name}", ms)

    zones = default_zones(["Ann", "Bob", "Cat", "Dan"], 640, 480)
    dice = {"Ann": [1, 2, 3], "Bob": [6, 6, 6], "Cat": [4, 5, 6], "Dan": [2, 2, 1]}
    ms = _median_ms(lambda i: render_table(zones, dice, seed=i), 20)
    _show("render_table 640x480, 4 seats x 3 dice", ms)

    image, truth = render_scene(random_scene(1, 12), 1)
    reading = Reading(dice=tuple(Die(t.value, t.box, 0.9) for t in truth))
    ms = _median_ms(lambda i: annotate(image, reading, zones), 20)
    _show("annotate 640x480, 12 dice, 4 zones", ms)


if __name__ == "__main__":
    main()
