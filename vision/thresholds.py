"""Choose the reader's thresholds on calibration pictures: as many dice read as possible while
a wrong value stays rarer than 1 in 400 (half the 1 in 200 the table promises, for margin).

Why: a network's confidence is not a probability of being right on a table it has never seen,
so the point where the reader says "not sure" is measured, not assumed. The calibration
pictures are cut from Train (:func:`vision.labels.split_calibration`) when a model is trained,
or are the table's own known throws at installation (``bidou-table calibrate``). Valid never
is.

``python -m vision.thresholds --model DIR --sets ../shared/dice`` chooses again for a model
folder and writes its ``thresholds.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pathlib
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.evaluate import SETS, Label, Score, load_labels, score_reading
from vision.labels import LabelledPicture, load_set, split_calibration
from vision.learned_reader import DEFAULTS, ReaderSettings, Seen, decide, look
from vision.networks import MODELS, Networks
from vision.reading import Die, Reading, Unsure

#: the at most fraction of calibration dice that may be read wrong
WRONG_BUDGET = 0.0025
#: each setting's values, loosest first (the last is the strictest, 1.0 veto = no veto)
GRID = {
    "detect": (0.2, 0.3, 0.4),
    "min_value": (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99),
    "min_detector_value": (0.0, 0.5),
    "min_views": (6, 7, 8),
    "second_veto": (1.0, 0.8, 0.5),
}


@dataclass(frozen=True)
class Looked:
    """One calibration picture: what the reader saw, and the labels (in evaluator form)."""

    seen: tuple[Seen, ...]
    labels: tuple[Label, ...]
    width: int
    height: int


def look_all(nets: Networks, pictures: Iterable[LabelledPicture],
             settings: ReaderSettings | None = None) -> list[Looked]:
    settings = settings or ReaderSettings()
    out = []
    for p in pictures:
        image = p.load()
        seen = look(image, nets, settings, min(GRID["detect"]))
        h, w = image.shape[:2]
        labels = load_labels(p.path.with_suffix(".txt"), w, h)  # as the evaluator counts
        out.append(Looked(tuple(seen), tuple(labels), w, h))
    return out


def score(looked: Sequence[Looked], thresholds: dict[str, float]) -> Score:
    """The evaluator's score of every picture read with these thresholds."""
    total = Score()
    t = {**DEFAULTS, **thresholds}
    for item in looked:
        dice, unsure = [], []
        for s in item.seen:
            if s.candidate.score < t["detect"]:
                continue
            verdict = decide(s, t)
            if isinstance(verdict, Die):
                dice.append(verdict)
            elif isinstance(verdict, Unsure):
                unsure.append(verdict)
        total.add(score_reading(Reading(tuple(dice), tuple(unsure), item.width, item.height),
                                list(item.labels)))
    return total


def best(looked: Sequence[Looked], budget: float = WRONG_BUDGET) -> tuple[dict[str, float], Score]:
    """The thresholds that read the most dice (fewest phantom dice next) within the budget."""
    labels = sum(len(item.labels) for item in looked)
    allowed = int(np.floor(budget * labels))
    choice: tuple[tuple[int, ...], dict[str, float], Score] | None = None
    for combo in itertools.product(*GRID.values()):
        t = dict(zip(GRID, combo, strict=True))
        s = score(looked, t)
        if s.wrong > allowed:
            continue
        # most right, then fewest phantom dice, then the strictest (later combos are stricter)
        key = (s.right - 2 * s.extra, s.right, -s.extra)
        if choice is None or key >= choice[0]:
            choice = (key, t, s)
    if choice is None:  # nothing meets the budget: the strictest there is
        t = {name: values[-1] for name, values in GRID.items()}
        return t, score(looked, t)
    return choice[1], choice[2]


def choose(folder: pathlib.Path, pictures: Sequence[LabelledPicture]) -> dict[str, float]:
    """Thresholds for a model folder, from calibration pictures; prints what they give."""
    looked = look_all(Networks(folder), pictures)
    chosen, s = best(looked)
    print(f"calibration: {s.summary()}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.thresholds", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--model", type=pathlib.Path, default=MODELS)
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--leave-out", choices=SETS, help="a set the model was trained without")
    args = parser.parse_args(argv)
    pictures = []
    for name in SETS:
        if name != args.leave_out:
            pictures.extend(load_set(args.sets / name / "Train", name))
    _, calib = split_calibration(pictures)
    chosen = choose(args.model, calib)
    (args.model / "thresholds.json").write_text(json.dumps(chosen, indent=2) + "\n")
    print("thresholds:", json.dumps(chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
