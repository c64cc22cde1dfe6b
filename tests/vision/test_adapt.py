"""The table's adaptation (vision/calibrate/adapt.py) on places made by hand: the matching of
places to
known values, the seeded split, the fit, the rule that keeps an adaptation only when it reads
the held-back throws better, and the files it saves. No network: each place's features are
made so that a head's reading of them is known."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from vision.calibrate import adapt, head_fit
from vision.calibrate.known import KnownThrowsError, Tally
from vision.learned.decision import Place
from vision.learned.face_model import CLASSES, Head, load_head
from vision.learned.face_reader import Settings
from vision.learned.table_files import thresholds_path

F = 16
THRESHOLDS = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9}


def features(cls: int, rng: np.random.Generator) -> np.ndarray:
    """Two views of a place of class ``cls``: a bump on feature ``cls``, some noise."""
    base = np.zeros(F)
    base[cls] = 4.0
    return np.stack([base + rng.normal(0, 0.3, F) for _ in range(2)])


def head(strength: float, shift: int = 0) -> Head:
    """A head reading feature c as class (c + shift) mod 7, surer with ``strength``."""
    weight = np.zeros((CLASSES, F), np.float32)
    for c in range(CLASSES):
        weight[(c + shift) % CLASSES, c] = strength
    return Head(weight, np.zeros(CLASSES, np.float32), 1.0)


def seen(name: str, values: tuple[int, ...], reader: Head, rng: np.random.Generator, *,
         shown: tuple[int, ...] | None = None, not_dice: int = 0) -> adapt.Seen:
    """A picture of dice ``shown`` (default: ``values``) and ``not_dice`` places of no die,
    read by ``reader``; its known values are ``values``."""
    places = []
    for i, cls in enumerate([*(shown or values), *[0] * not_dice]):
        views = features(cls, rng)
        places.append(Place((40.0 + 60 * i, 40.0), 30.0, 0.9,
                            reader.probabilities(views).mean(axis=0), views.mean(axis=0),
                            False, views))
    return adapt.Seen(name, values, tuple(places))


def throws(n: int, reader: Head, seed: int = 0, **kw) -> list[adapt.Seen]:
    rng = np.random.default_rng(seed)
    return [seen(f"t{i:02}.jpg", tuple(int(v) for v in rng.integers(1, 7, 3)), reader, rng,
                 **kw) for i in range(n)]


def test_each_known_value_goes_to_the_place_likeliest_that_value_and_the_rest_are_no_die():
    rng = np.random.default_rng(1)
    item = seen("a.jpg", (2, 5), head(3.0), rng, not_dice=1)
    assert sorted(adapt.match(item, THRESHOLDS)) == [(0, 2), (1, 5), (2, 0)]


def test_when_a_value_finds_no_place_the_places_left_teach_nothing_about_no_die():
    rng = np.random.default_rng(2)
    item = seen("a.jpg", (2, 5, 6), head(3.0), rng, shown=(2, 5))  # the 6 was not proposed
    assert sorted(adapt.match(item, THRESHOLDS)) == [(0, 2), (1, 5)]


def test_the_held_back_third_is_chosen_by_picture_with_a_seed_whatever_the_order():
    items = throws(12, head(3.0))
    fitted, held = adapt.split(items, seed=3)
    assert len(held) == 4 and len(fitted) == 8
    again = adapt.split(list(reversed(items)), seed=3)
    assert {s.name for s in again[1]} == {s.name for s in held}
    assert {s.name for s in adapt.split(items, seed=4)[1]} != {s.name for s in held}


def test_fewer_than_30_known_dice_is_one_sentence_saying_how_many_more_to_take():
    with pytest.raises(KnownThrowsError) as e:
        adapt.adapt(throws(9, head(3.0)), head(3.0), THRESHOLDS)  # 27 dice
    assert str(e.value) == ("the known throws hold 27 dice; at least 30 are needed to adapt the "
                            "reader to this table: take about 1 more throw of 3 dice")


def test_an_adaptation_that_reads_the_held_back_throws_better_is_kept():
    """The model is unsure of this table's dice (a weak head): the fit makes it sure."""
    weak = head(0.4)
    result = adapt.adapt(throws(24, weak, not_dice=1), weak, THRESHOLDS)
    assert result.before.right == 0 and result.before.unsure == result.before.dice
    assert result.after.right > result.before.right and result.after.wrong == 0
    assert result.kept
    assert len(result.held_back) == 8 and result.examples_dice == 16 * 3


def test_a_worse_adaptation_is_not_kept():
    """The values written for the fitted throws are wrong (each one off by one), so the head
    fitted on them reads the held-back throws, whose values are right, worse: refused."""
    good = head(3.0)
    rng = np.random.default_rng(5)
    items = throws(24, good)
    fitted, held = adapt.split(items)
    lying = [seen(s.name, tuple(v % 6 + 1 for v in s.values), good, rng, shown=s.values)
             for s in fitted]
    result = adapt.adapt(lying + held, good, THRESHOLDS)
    assert result.before.right == result.before.dice
    assert result.after.right < result.before.right
    assert not result.kept


@pytest.mark.parametrize(("before", "after", "kept"), [
    (Tally(right=10, wrong=1), Tally(right=11, wrong=1), True),   # more right, no more wrong
    (Tally(right=10, wrong=1), Tally(right=10, wrong=0), True),   # as many right, fewer wrong
    (Tally(right=10, wrong=1), Tally(right=12, wrong=2), False),  # more right but more wrong
    (Tally(right=10, wrong=1), Tally(right=10, wrong=1), False),  # no better
    (Tally(right=10, wrong=0), Tally(right=9, wrong=0), False),   # fewer right
])
def test_the_rule_more_right_without_more_wrong(before, after, kept):
    assert adapt.better(before, after) is kept


def test_the_fit_stays_near_the_models_head_with_few_dice():
    """Pulled towards the model's head, a handful of contradicting dice cannot rewrite it."""
    good = head(3.0)
    rng = np.random.default_rng(7)
    few = [seen("x.jpg", (2,), good, rng, shown=(3,))]  # one die, labelled wrongly
    ex = adapt.examples(few, THRESHOLDS)
    w, b = head_fit.fit(ex, good, prior=head_fit.PRIORS[0])
    fitted = Head(w.astype(np.float32), b.astype(np.float32))
    probe = features(3, rng)
    assert int(np.argmax(fitted.probabilities(probe).mean(axis=0))) == 3


def test_saved_head_and_thresholds_load_back_beside_each_other(tmp_path):
    weak = head(0.4)
    result = adapt.adapt(throws(24, weak), weak, THRESHOLDS, network="abc")
    path, own = adapt.save(result, adapt.head_path(tmp_path / "pub.toml"))
    assert (path.name, own.name) == ("pub.head.npz", "pub.reader.json")
    assert thresholds_path(path) == own
    loaded = load_head(path, F)
    np.testing.assert_allclose(loaded.weight, result.head.weight)
    record = json.loads(own.read_text())
    assert record["network"] == "abc" and record["min_value"] == 0.9
    assert record["calibration"]["after"]["right"] == result.after.right
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pub.head.npz", "pub.reader.json"]



def test_a_corrections_picture_that_cannot_hold_dice_is_left_out_and_named_a_folders_stops():
    """Nobody can take a correction's picture again, so a blank one is named and skipped; a
    folder's picture can be taken again, so it stops the calibration with a sentence."""
    blank = adapt.Known("game 1 action 3", (1, 2, 3), lambda: np.zeros((50, 50, 3), np.uint8),
                        optional=True)
    left: list[str] = []
    assert adapt.read_known([blank], None, Settings(), THRESHOLDS, left_out=left) == []
    assert left == ["game 1 action 3"]
    with pytest.raises(KnownThrowsError, match=r"^a\.jpg: .*: take it again or leave it out$"):
        adapt.read_known([replace(blank, name="a.jpg", optional=False)], None, Settings(),
                         THRESHOLDS, left_out=[])
