"""Which second opinion makes a calibrated table's dice sure: the figures behind
"two opinions before a value is sure".

A calibrated table (a folder :mod:`vision_lab.new_table` ``--keep`` wrote: ``table.toml`` and
the table's files) reads the rest of its set once; each die it reads gets, beside its own
value (the table's network and head), two other readings:

- **prototype**: the value whose class mean of the network's features, over the table's known
  dice (the places the network reads on the known pictures, matched to their values), is
  nearest (cosine) to the die's features;
- **pips**: the value the rule reader (pip groups) reads for a die within half a size of it,
  or none when it reads none there.

Each rule below is then scored on the rest (at each ``min_value``): the network alone; and a
die sure only when the network and one other agree (a disagreement, or no second reading,
makes it unsure: the referee decides). ``--lenient``: with no second reading the network's
stands.

``python -m vision_lab.two_opinions --sets ../shared/dice --models DIR --table DIR/SET-60
--set webcam-wood --known 60`` prints a line per rule and ``min_value``.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.calibrate.adapt import Seen, match
from vision.calibrate.known import Tally
from vision.learned import face_reader
from vision.learned.decision import Place, decide, lowest_score
from vision.learned.face_reader import look
from vision.reader import config_vision, face_settings
from vision.reading import Die, Reading, Unsure
from vision.rules.reader import read_dice as rules_read
from vision_lab.evaluate import HEADER, load_labels, pictures, row, score_reading
from vision_lab.new_table import known_throws

MIN_VALUES = (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99)


def unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)


def prototypes(known: Sequence, model: face_reader.Model, settings: face_reader.Settings,
               thresholds: dict[str, float]) -> np.ndarray:
    """Class means (1-6, rows 0-5) of the unit features of the known dice as the network
    reads them (its places matched to each picture's values)."""
    sums = np.zeros((6, model.faces.features))
    counts = np.zeros(6)
    for item in known:
        places = look(item.picture(), model, settings, lowest_score(thresholds),
                      every_place=True)
        seen = Seen(item.name, tuple(item.values), tuple(places))
        for i, cls in match(seen, thresholds):
            if cls > 0 and not places[i].cut:
                sums[cls - 1] += unit(places[i].features)
                counts[cls - 1] += 1
    return unit(sums / np.maximum(counts, 1)[:, None])


def pip_value(die: Die, rules: Reading) -> int | None:
    x, y, w, h = die.box
    centre, size = (x + w / 2, y + h / 2), math.sqrt(w * h)
    near = [r for r in rules.dice
            if math.dist(centre, (r.box[0] + r.box[2] / 2, r.box[1] + r.box[3] / 2)) < 0.5 * size]
    return near[0].value if near else None


Opinion = Callable[[Die, Place], int | None]


def reading(places: Sequence[Place], t: dict[str, float], second: Opinion | None,
            lenient: bool, size: tuple[int, int]) -> Reading:
    """The table's reading at ``t``; with ``second``, a die whose second reading differs
    (or is missing, unless ``lenient``) is unsure instead."""
    dice, unsure = decide(list(places), t)
    if second is None:
        return Reading(tuple(dice), tuple(unsure), *size)
    by_box = {p.box: p for p in places}
    kept: list[Die] = []
    more: list[Unsure] = list(unsure)
    for d in dice:
        other = second(d, by_box[d.box])
        if other == d.value or (other is None and lenient):
            kept.append(d)
        else:
            more.append(Unsure(d.box, f"two readings differ ({d.value}, {other})"))
    return Reading(tuple(kept), tuple(more), *size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.two_opinions",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--models", type=pathlib.Path, required=True)
    parser.add_argument("--table", type=pathlib.Path, required=True,
                        help="a calibrated table's folder (new_table --keep)")
    parser.add_argument("--set", required=True)
    parser.add_argument("--known", type=int, default=60)
    parser.add_argument("--lenient", action="store_true")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    model_dir = args.models / f"without-{args.set}"
    config = args.table / "table.toml"
    settings = face_settings(config_vision(config), config, model=model_dir)
    model = face_reader.load(settings.model, settings.head)
    base_t = face_reader.thresholds_of(model, settings)
    train = pictures([args.sets / args.set / "Train"])
    known, rest = known_throws(train, args.known)
    rest += pictures([args.sets / args.set / "Valid"])
    protos = prototypes(known, model, settings, base_t)
    seen = []
    for path in rest:
        image = cv2.imread(str(path))
        labels = load_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
        places = look(image, model, settings, lowest_score(base_t))
        seen.append((places, rules_read(image), labels, (image.shape[1], image.shape[0])))
    print(f"table {args.table}; thresholds {base_t}", file=sys.stderr)
    print(HEADER)
    for name in ("network", "network+prototype", "network+pips"):
        for mv in MIN_VALUES:
            t = {**base_t, "min_value": mv}
            total = Tally()
            for places, rules, labels, size in seen:
                second: Opinion | None = None
                if name == "network+prototype":
                    def second(d: Die, p: Place) -> int | None:
                        return int(np.argmax(protos @ unit(p.features))) + 1
                elif name == "network+pips":
                    def second(d: Die, p: Place, rules: Reading = rules) -> int | None:
                        return pip_value(d, rules)
                total.add(score_reading(reading(places, t, second, args.lenient, size), labels))
            print(row(f"{args.set} rest", f"{name} {mv}", total), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
