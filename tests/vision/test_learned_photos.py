"""The learned reader (not yet the table's) on real photographs it never trained on: a fixed
subset of each shared set's Valid split (tests/data/dice/*, each with its licence and a README
saying how it was chosen).

The figures are printed (``pytest -s``). What the shipped model must keep: no more wrong values
than when it was shipped (none, but one on the oblique subset: a wrong value moves chips), and
at least the dice it read then, less two for OpenCV version differences (docs/vision-model.md
has the figures; they are far from the table's needs, which is why it is not the table's
reader yet). The floors went down once, with the wrong-value ceilings, when the thresholds
were chosen again by a calibration that judges the reader it sets (it had judged a reading at
the loosest threshold cut down, which undercounted the wrong values); they went up again with
the classifier trained without label smoothing, clusters of dice no longer hiding the dice in
them, and a side face below a die left unsure; and again with the pip count confirming values
the networks only doubt. The topdown-colour floor went down by two with the wider classifier
and the stricter calibration budget (1 in 1000): it reads 50 of this subset where the narrower
one read 52 at 1 in 400. The topdown subset holds one label the source leaves out (its README).
With the classifier trained half as long again (10800 steps) topdown and oblique went up by 12
and 10; webcam-wood's floor went down by two (it reads 67 where it read 69).
"""

from __future__ import annotations

import pathlib

import pytest
from vision.learned_reader import read_dice

from vision_lab.evaluate import Score, evaluate, pictures

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"

#: set -> (pictures, dice, fewest dice right, most wrong values); measured 67, 62 and 41 right
#: with 0, 0 and 1 wrong (oblique-colour's: dice_385, a side face read with its top)
FLOORS = {
    "webcam-wood": (32, 71, 65, 0),
    "topdown-colour": (12, 91, 60, 0),
    "oblique-colour": (16, 116, 39, 1),
}


@pytest.fixture(scope="module", params=sorted(FLOORS))
def scored(request) -> tuple[str, Score]:
    paths = pictures([DATA / request.param])
    return request.param, evaluate(read_dice, paths)


def test_each_subset_keeps_its_recall_floor_and_wrong_value_ceiling(scored):
    name, score = scored
    n_pictures, n_dice, fewest_right, most_wrong = FLOORS[name]
    print(f"\nlearned on {name} (held-out subset): {score.summary()}")
    for line in score.failures:
        print(f"    {line}")
    assert (score.pictures, score.labels) == (n_pictures, n_dice)
    assert score.right >= fewest_right
    assert score.wrong <= most_wrong


def test_each_subset_carries_its_licence():
    assert (DATA / "webcam-wood" / "LICENSE").read_text().startswith("Copyright (c) 2021")
    assert "BSD" in (DATA / "topdown-colour" / "LICENSE").read_text()
    assert "CC BY 4.0" in (DATA / "oblique-colour" / "README.dataset.txt").read_text()
