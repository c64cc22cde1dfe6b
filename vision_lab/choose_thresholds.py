"""Choose the face reader's thresholds on the calibration split cut from Train.

Why measured, not assumed: the head's probabilities are calibrated by a temperature on crops,
but the reader decides on the detector's proposals, whose places and sizes differ. The search
reads every calibration picture once (at the loosest ``detect``: a proposal's place does not
depend on weaker ones, :func:`vision.learned.face_reader.propose`) and decides again at each
setting of
the grid: the most dice right while a wrong value or a die where there is none stays within
``WRONG_BUDGET`` of the dice. Valid never enters it.

``python -m vision_lab.choose_thresholds --model DIR`` writes ``DIR/reader.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pathlib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2

from vision.calibrate.known import SHOWS_TARGET, WRONG_TARGET, Tally, needed_dice
from vision.calibrate.thresholds import AGREE, DISSENTS
from vision.learned.decision import PROPOSAL_FLOOR, Place, decide
from vision.learned.face_reader import Model, Settings, look
from vision.learned.networks import MODELS
from vision.learned.opinions import careful
from vision.reading import Reading
from vision_lab.evaluate import Label, load_labels, score_reading
from vision_lab.labels import (
    LabelledPicture,
    add_set_arguments,
    split_calibration,
    training_pictures,
)

#: wrong values and phantom dice, at most this fraction of the calibration dice: the share a
#: table aims under (:data:`vision.calibrate.known.WRONG_TARGET`, 1 in 500): on the 659 dice
#: of the shipped model's calibration split, one error
WRONG_BUDGET = WRONG_TARGET
GRID = {
    "detect": (0.2, 0.3, 0.4),
    # 0: the detector alone proposes; else a place down to PROPOSAL_FLOOR that the network
    # takes for a die this surely is one too (vision.learned.decision.proposed)
    "sure_die": (0.0, 0.001, 0.003, 0.01),
    "not_a_die": (0.3, 0.5, 0.7),
    "min_value": (0.5, 0.7, 0.8, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999),
}


@dataclass(frozen=True)
class Looked:
    places: tuple[Place, ...]
    labels: tuple[Label, ...]
    width: int
    height: int


def look_all(model: Model, pictures: Sequence[pathlib.Path],
             settings: Settings | None = None) -> list[Looked]:
    """Each labelled picture read once, every place down to the loosest ``detect`` any
    choice may leave, with its labels: what every choice of thresholds decides again."""
    settings = settings or Settings()
    loosest = min(*GRID["detect"], PROPOSAL_FLOOR)
    out = []
    for path in pictures:
        image = cv2.imread(str(path))
        if image is None:
            raise ValueError(f"{path} is not a picture OpenCV can read.")
        h, w = image.shape[:2]
        out.append(Looked(tuple(look(image, model, settings, loosest)),
                          tuple(load_labels(path.with_suffix(".txt"), w, h)), w, h))
    return out


def score(looked: Sequence[Looked], thresholds: Mapping[str, float]) -> Tally:
    total = Tally()
    for item in looked:
        dice, unsure = decide(list(item.places), thresholds)
        s = score_reading(Reading(tuple(dice), tuple(unsure), item.width, item.height),
                          list(item.labels))
        s.exact = int(s.right == s.dice and not s.extra)
        total.add(s)
    return total


def best(looked: Sequence[Looked], budget: float = WRONG_BUDGET,
         ) -> tuple[dict[str, float], Tally]:
    """:func:`search`, careful (:func:`vision.learned.opinions.careful`) where the split's
    dice cannot show a wrong share under the table's 1 in 500 at what it chooses
    (:func:`vision.calibrate.known.needed_dice`), as a table's calibration chooses."""
    dice = sum(len(item.labels) for item in looked)
    if dice >= SHOWS_TARGET:
        chosen, s = search(looked, budget, False)
        if needed_dice(s.right + s.wrong + s.extra, s.wrong + s.extra, dice) == 0:
            return chosen, s
    return search(looked, budget, True)


def search(looked: Sequence[Looked], budget: float, few: bool,
           ) -> tuple[dict[str, float], Tally]:
    """The setting of the grid that reads the most dice within the budget (the strictest of
    the grid when none is within it); then ``agree`` (:data:`AGREE`) and each other opinion
    (:data:`vision.calibrate.thresholds.DISSENTS`, the untaught one aside: a model is
    untaught) with ``min_value`` again, the others kept, as a table's calibration chooses
    them (:func:`vision.calibrate.thresholds.choose_thresholds`)."""
    choice = None

    def consider(t: dict[str, float]) -> None:
        nonlocal choice
        if few:  # too few dice to show the target: careful, as a table's calibration,
            # the pips' word giving no value the network's would not
            t.update(careful(t), agree=max(t["agree"], t["min_value"]))
        s = score(looked, t)
        if s.wrong + s.extra > int(budget * s.dice):
            return
        key = (s.right, -s.extra, -s.unsure, t["agree"],
               -sum(t.get(k, 1.0) for k in DISSENTS))
        if choice is None or key > choice[0]:
            choice = (key, t, s)

    for combo in itertools.product(*GRID.values()):
        consider({**dict(zip(GRID, combo, strict=True)), "agree": 1.0})
    if choice is None:
        t = {**{name: values[-1] for name, values in GRID.items()}, "agree": 1.0}
        t = careful(t) if few else t
        return t, score(looked, t)
    first = choice[1]
    for mv, ag in itertools.product(GRID["min_value"], AGREE):
        consider({**first, "min_value": mv, "agree": ag})
    for name in ("turned", "pips"):
        first = choice[1]
        for mv, dissent in itertools.product(GRID["min_value"], DISSENTS[name]):
            consider({**first, "min_value": mv, name: dissent})
    return choice[1], choice[2]


def write_thresholds(folder: pathlib.Path, calib: Sequence[LabelledPicture],
                     log=print) -> dict[str, float]:  # noqa: ANN001
    """Choose the thresholds of the model in ``folder`` on ``calib`` and write them to its
    ``reader.json``, saying what the calibration split reads with them: the last step of
    every way a model is made (``make train``, a quantisation, this module's command)."""
    chosen, s = best(look_all(Model(folder), [p.path for p in calib]))
    chosen.pop("untaught", None)  # a model is untaught: a table's calibration chooses it
    log(f"calibration split: {s.summary()}")
    (folder / "reader.json").write_text(json.dumps(chosen, indent=2) + "\n")
    log(f"thresholds: {json.dumps(chosen)}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision_lab.choose_thresholds",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=pathlib.Path, default=MODELS)
    add_set_arguments(parser)
    args = parser.parse_args(argv)
    _, calib = split_calibration(training_pictures(args.sets, args.leave_out))
    write_thresholds(args.model, calib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
