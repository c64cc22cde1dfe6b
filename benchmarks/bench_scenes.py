"""The reader on rendered conditions the photographs lack: right / wrong value / unsure / missed.

Figures for docs/vision-scenes.md; measures, never asserts. Scenes are `random_scene` seeds
0-11 (6 dice each unless said; the throws of 3 dice use seeds 0-59), scored with
`vision_lab.evaluate.score_reading`.
"""

from __future__ import annotations

import time

from simulator.random_scenes import random_scene
from simulator.render import render_scene
from vision.calibrate.known import Tally
from vision.rules.reader import read_dice
from vision_lab.evaluate import Label, score_reading

CONDITIONS: dict[str, dict[str, object]] = {
    "white dice, wood": {},
    "white dice, felt": {"surface": "felt"},
    "white dice, glass": {"surface": "glass"},
    "blue dice, felt": {"colour": "blue", "surface": "felt"},
    "red dice, wood": {"colour": "red"},
    "green dice, plain": {"colour": "green", "surface": "plain"},
    "black dice, wood": {"colour": "black"},
    "black dice, felt": {"colour": "black", "surface": "felt"},
    "touching pairs (2)": {"touching_pairs": 2},
    "a throw: 3 dice, a touching pair, white": {"n": 3, "touching_pairs": 1, "scenes": 60},
    "a throw: 3 dice, a touching pair, blue": {
        "n": 3,
        "touching_pairs": 1,
        "colour": "blue",
        "scenes": 60,
    },
    "a throw: 3 dice, a touching pair, black": {
        "n": 3,
        "touching_pairs": 1,
        "colour": "black",
        "scenes": 60,
    },
    "glare on dice (2)": {"glare": 2},
    "side faces 0.2, tilted camera": {"side": 0.2},
    "side faces 0.25, wide lens": {"side": 0.25, "side_dir_deg": None},
    "light 0.4 + blur 1 + JPEG 70": {"light": (0.4, 30.0), "blur": 1.0, "jpeg_quality": 70},
    "30 dice, mixed colours": {"colour": "mixed", "n": 30},
    "1920x1080, 12 dice": {"size": (1920, 1080), "n": 12},
    "4000x3000 (12 MP), 3 scenes": {"size": (4000, 3000), "scenes": 3},
}


def main() -> None:
    for name, options in CONDITIONS.items():
        kw = dict(options)
        n = int(kw.pop("n", 6))  # type: ignore[arg-type]
        scenes = int(kw.pop("scenes", 12))  # type: ignore[arg-type]
        total = Tally()
        start = time.perf_counter()
        for seed in range(scenes):
            image, truth = render_scene(random_scene(seed, n, **kw), seed)  # type: ignore[arg-type]
            total.add(score_reading(read_dice(image), [Label(t.value, t.box) for t in truth]))
        seconds = time.perf_counter() - start
        print(f"{name:<32} {total.summary()} ({seconds:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
