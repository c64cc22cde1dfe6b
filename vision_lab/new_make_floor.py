"""The floor for a new make of dice: thresholds no reader goes looser than, chosen across makes.

Why: a model's thresholds (:mod:`vision_lab.choose_thresholds`) are chosen on a calibration
split of the makes it was trained on, and they do not hold on a make it never saw. Read by
the model trained without it, at that model's own thresholds, topdown-colour's dice were 4.4%
wrong and webcam-wood's 3.4%, against a target of 1 in 500. A wrong sure value decides a
showdown unseen; an unsure die only asks the referee. So the floor is chosen where a new make
is known: each left-out model (``MODELS/without-SET``, trained without one shared set) reads
its left-out set's Train once, and the floor is the setting of :data:`GRID` that reads the
most dice right while the wrong values and phantom dice stay within :data:`BOUND` of the dice
on every left-out make at once. A floor is applied to a model's own thresholds, never used in
their place (:func:`vision.learned.decision.floored`), so it is judged so too: each make at
its own model's thresholds floored.

Judged by leave-one-make-out: the floor used for make S is chosen on the other makes'
readings only, and S's Train and Valid are scored at it, apart; Valid never enters a choice.

``python -m vision_lab.new_make_floor --sets ../shared/dice --models DIR --cache DIR`` prints
the per-set table; ``--write`` stores the floor chosen on every left-out make beside the
shipped model (:data:`vision.learned.table_files.FLOOR_FILE`), ``--left-out`` stores in each
left-out model's folder the floor chosen without its make, ``--shipped`` adds the shipped
model on each set's Valid with and without it. Readings are cached in ``--cache`` (keyed by
the model's networks), so choosing again after a new left-out model costs only its readings.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pathlib
import pickle
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

import cv2

from vision.calibrate.known import WRONG_TARGET, Tally
from vision.learned.decision import (
    DEFAULTS,
    STRICTER_HIGHER,
    floored,
    proposed,
)
from vision.learned.face_model import fingerprint
from vision.learned.face_reader import Model, Settings
from vision.learned.networks import MODELS
from vision.learned.table_files import FLOOR_FILE, read_thresholds
from vision_lab.choose_thresholds import Looked, look_all, score
from vision_lab.label_files import SETS, pictures

#: wrong values and phantom dice, at most this share of each make's dice: a table's target
BOUND = WRONG_TARGET
#: the floors tried. Each key is tightened towards the strict side only (``detect``,
#: ``min_value``, ``agree`` up; ``not_a_die``, ``sure_die`` and the opinions down), so a
#: value looser than a model's own changes nothing there. ``sure_die`` keeps values above 0:
#: at 0 only the detector proposes, and a left-out detector scores a new make's dice under
#: its ``detect`` (topdown-colour read 0.2% of its dice)
GRID: dict[str, tuple[float, ...]] = {
    "min_value": (0.9, 0.95, 0.98, 0.99, 0.995, 0.998),
    "not_a_die": (0.01, 0.02, 0.05, 0.1, 0.2, 0.3),
    "sure_die": (0.0003, 0.001, 0.003, 0.01),
    "detect": (0.3, 0.4, 0.5),
    "agree": (0.9, 1.0),
    "turned": (0.2, 0.5),
    "pips": (0.0, 1.0),
    "side": (0.0, 1.0),
}


def settings_tried(grid: Mapping[str, Sequence[float]] = GRID) -> Iterator[dict[str, float]]:
    """Every setting of ``grid``."""
    for combo in itertools.product(*grid.values()):
        yield dict(zip(grid, combo, strict=True))


def read_folder(folder: pathlib.Path, model_dir: pathlib.Path, cache: pathlib.Path | None,
                ) -> list[Looked]:
    """Every labelled picture of ``folder`` read by the model in ``model_dir`` once, every
    opinion asked, down to the loosest ``detect`` a floor may leave; cached in ``cache``."""
    key = f"{fingerprint(model_dir / 'detector.onnx')}-{fingerprint(model_dir / 'faces.onnx')}"
    path = (cache / f"{folder.parent.name}-{folder.name}-{key}.pkl") if cache else None
    if path is not None and path.is_file():
        cached: list[Looked] = pickle.loads(path.read_bytes())  # noqa: S301 - our own cache
        return cached
    out = look_all(Model(model_dir), pictures([folder]), Settings(model=model_dir))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(out))
    return out


def own_thresholds(model_dir: pathlib.Path) -> dict[str, float]:
    """The thresholds a model chose on its own calibration split (its ``reader.json``), the
    rule's defaults for those it does not give, no floor applied."""
    return {**DEFAULTS, **read_thresholds(model_dir / "reader.json", DEFAULTS)}


class Make:
    """One left-out make: its readings, its model's own thresholds, and its tallies at each
    floor tried (kept: the leave-one-make-out choices ask each floor of every make again)."""

    def __init__(self, name: str, looked: Sequence[Looked], own: Mapping[str, float]) -> None:
        self.name, self.own = name, dict(own)
        # a floor only tightens: a place the make's own thresholds take for no die, no floor
        # takes for one, and the rule never looks at it again (decide's first cut)
        loosest = {**DEFAULTS, **own}
        self.looked = [replace(item, places=tuple(
            p for p in item.places if proposed(p, loosest) and p.probs[0] < loosest["not_a_die"]))
            for item in looked]
        self.dice = sum(len(item.labels) for item in self.looked)
        self._tallies: dict[tuple[tuple[str, float], ...], Tally] = {}

    def at(self, floor: Mapping[str, float] | None) -> Tally:
        """The make read at its own thresholds made no looser than ``floor``."""
        t = floored(self.own, floor)
        key = tuple(sorted(t.items()))
        if key not in self._tallies:
            self._tallies[key] = score(self.looked, t)
        return self._tallies[key]

    def within(self, s: Tally, bound: float = BOUND) -> bool:
        return s.wrong + s.extra <= bound * self.dice


def strictness(floor: Mapping[str, float]) -> float:
    """How strict a floor is, higher stricter: the tie-break between floors that read alike."""
    return sum(v if k in STRICTER_HIGHER else -v for k, v in floor.items())


def choose_floor(makes: Sequence[Make], grid: Mapping[str, Sequence[float]] = GRID,
                 bound: float = BOUND) -> dict[str, float]:
    """The floor of ``grid`` that reads the most dice right, over ``makes``, while every
    make's wrong values and phantom dice stay within ``bound`` of its dice; on a tie, fewer
    errors, then the stricter. When no floor holds every make, the one whose worst make's
    wrong share is lowest (then the most right): the strictest the grid can do."""
    best: tuple[tuple[float, ...], dict[str, float]] | None = None
    for floor in settings_tried(grid):
        tallies = [m.at(floor) for m in makes]
        held = all(m.within(s, bound) for m, s in zip(makes, tallies, strict=True))
        worst = max((s.wrong + s.extra) / max(m.dice, 1)
                    for m, s in zip(makes, tallies, strict=True))
        right = sum(s.right for s in tallies)
        wrong = sum(s.wrong + s.extra for s in tallies)
        key = (float(held), 0.0 if held else -worst, right, -wrong, strictness(floor))
        if best is None or key > best[0]:
            best = (key, floor)
    assert best is not None  # the grid is not empty
    return best[1]


COLUMNS = (f"{'set':36s} {'thresholds':20s} {'dice':>5s} {'recall':>7s} {'wrong':>5s} "
           f"{'phantom':>7s} {'wrong share':>11s} {'unsure':>6s} {'missed':>6s} {'exact':>9s}")


def line(what: str, at: str, s: Tally) -> str:
    """One row of the per-set table."""
    share = (s.wrong + s.extra) / s.dice if s.dice else 0.0
    return (f"{what:36s} {at:20s} {s.dice:5d} {100 * s.recall:6.1f}% {s.wrong:5d} "
            f"{s.extra:7d} {100 * share:10.2f}% {s.unsure:6d} {s.missed:6d} "
            f"{s.exact:4d}/{s.pictures:<4d}")


def left_out(sets: pathlib.Path, models: pathlib.Path, cache: pathlib.Path | None,
             ) -> tuple[list[Make], dict[str, Make]]:
    """The left-out makes present (a model ``without-SET`` with its ``reader.json``): their
    Train readings, and their Valid's apart."""
    train, valid = [], {}
    for name in SETS:
        folder = models / f"without-{name}"
        if not (folder / "reader.json").is_file():
            print(f"{name}: no left-out model in {folder} (or it is still training): left out "
                  "of the floor", file=sys.stderr)
            continue
        own = own_thresholds(folder)
        train.append(Make(name, read_folder(sets / name / "Train", folder, cache), own))
        valid[name] = Make(name, read_folder(sets / name / "Valid", folder, cache), own)
    return train, valid


def judge(train: Sequence[Make], valid: Mapping[str, Make],
          models: pathlib.Path | None = None) -> dict[str, float]:
    """Print each left-out make, Train and Valid, at its model's own thresholds, at the floor
    chosen without it and at the floor chosen on every make; the last, returned. With
    ``models``, each left-out model is given the floor chosen without its make, as the
    shipped model is given the one chosen on every make: a left-out model then reads its
    make as the shipped model reads a make it never saw (:mod:`vision_lab.new_table`)."""
    on_all = choose_floor(train)
    print(f"floor chosen on {', '.join(m.name for m in train)}: {json.dumps(on_all)}")
    print(COLUMNS)
    for make in train:
        others = [m for m in train if m is not make]
        without = choose_floor(others) if others else None
        if without is not None:
            print(f"  (without {make.name}: {json.dumps(without)})")
            if models is not None:
                write_floor(models / f"without-{make.name}", without, others)
        for part, m in (("Train", make), ("Valid", valid[make.name])):
            what = f"{make.name}/{part} (left out)"
            print(line(what, "model's own", m.at(None)))
            if without is not None:
                print(line(what, "floor chosen without", m.at(without)))
            print(line(what, "floor chosen on all", m.at(on_all)))
    return on_all


def shipped(sets: pathlib.Path, model: pathlib.Path, floor: Mapping[str, float],
            cache: pathlib.Path | None) -> None:
    """Print the shipped model on each set's Valid at its own thresholds and floored."""
    own = own_thresholds(model)
    print(COLUMNS)
    for name in SETS:
        make = Make(name, read_folder(sets / name / "Valid", model, cache), own)
        print(line(f"{name}/Valid (shipped model)", "model's own", make.at(None)))
        print(line(f"{name}/Valid (shipped model)", "floored", make.at(floor)))


def write_floor(model: pathlib.Path, floor: Mapping[str, float], train: Sequence[Make]) -> None:
    """Store ``floor`` beside the model (:data:`vision.learned.table_files.FLOOR_FILE`), with
    the makes it was chosen on and what each read at it."""
    record = {"floor": dict(floor),
              "chosen_on": {m.name: m.at(floor).figures() for m in train},
              "bound": BOUND}
    (model / FLOOR_FILE).write_text(json.dumps(record, indent=1) + "\n")
    print(f"written: {model / FLOOR_FILE}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.new_make_floor",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=pathlib.Path, default=pathlib.Path("../shared/dice"))
    parser.add_argument("--models", type=pathlib.Path, default=MODELS,
                        help="the folder holding the left-out models without-SET")
    parser.add_argument("--model", type=pathlib.Path, default=MODELS,
                        help="the shipped model (--write, --shipped)")
    parser.add_argument("--cache", type=pathlib.Path, default=None,
                        help="a folder outside the repository to keep the readings in")
    parser.add_argument("--write", action="store_true",
                        help=f"store the floor chosen on every left-out make as "
                             f"MODEL/{FLOOR_FILE}")
    parser.add_argument("--left-out", action="store_true",
                        help=f"store in each left-out model's folder the floor chosen without "
                             f"its make (MODELS/without-SET/{FLOOR_FILE})")
    parser.add_argument("--shipped", action="store_true",
                        help="also score the shipped model on each set's Valid, with the "
                             "floor and without")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    train, valid = left_out(args.sets, args.models, args.cache)
    if not train:
        print(f"no left-out model in {args.models}: make one with python -m "
              "vision_lab.train_reader --leave-out SET", file=sys.stderr)
        return 2
    floor = judge(train, valid, args.models if args.left_out else None)
    if args.shipped:
        shipped(args.sets, args.model, floor, args.cache)
    if args.write:
        write_floor(args.model, floor, train)
    return 0


if __name__ == "__main__":
    sys.exit(main())
