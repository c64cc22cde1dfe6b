"""A boxed known throw teaches the face network at the reader's own places (each matched by
its centre to a boxed die, at the place's centre and size; a place clear of the dice as no
die; a die no place found at its box), and the taught network's certainty is calibrated on
its held-out folds: a temperature fitted by likelihood, and a value given where its
calibrated probability makes it worth more than its error costs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.calibrate import certainty, folds, places
from vision.calibrate.adapt import Known, Seen
from vision.learned.face_model import Head
from vision.learned.face_reader import Place


def place(x: float, y: float, size: float, views: np.ndarray | None = None) -> Place:
    return Place((x, y), size, 0.5, np.full(7, 1 / 7, np.float32), np.zeros(2, np.float32),
                 False, views)


def known(*boxes: tuple[tuple[float, float, float, float], int]) -> Known:
    return Known("a", tuple(v for _, v in boxes if v > 0), lambda: np.zeros((1, 1, 3)),
                 boxes=boxes)


def test_a_place_on_a_boxed_die_is_taught_its_value_at_the_place_not_the_box():
    item = known(((90, 90, 20, 20), 4), ((300, 300, 30, 30), 2))
    seen = Seen("a", (4, 2), (place(103, 100, 27), place(200, 60, 25)))
    taught = places.at_places(item, seen, 0)
    assert places.Example(0, (103, 100), 27, 4) in taught  # the reader's place, not the box
    assert places.Example(0, (200, 60), 25, 0) in taught  # clear of every die: no die
    assert places.Example(0, (315.0, 315.0), 30.0, 2) in taught  # found by no place: its box
    assert len(taught) == 3


def test_a_place_near_a_die_but_not_its_place_is_taught_neither_way():
    item = known(((90, 90, 20, 20), 4),)
    off = place(100 + 0.45 * 20, 100, 20)  # off the centre by 0.45 of the die: not its place
    taught = places.at_places(item, Seen("a", (4,), (off,)), 0)
    assert all(e.cls != 0 for e in taught) and [e.centre for e in taught] == [(100.0, 100.0)]


def test_the_value_is_worth_giving_above_the_cost_of_an_error():
    assert certainty.min_value_for(20) == pytest.approx(20 / 21)
    assert certainty.min_value_for(1) == 0.5


@settings(max_examples=15, deadline=None)
@given(st.sampled_from((0.3, 0.5, 1.0, 1.6)), st.integers(0, 1000))
def test_the_fitted_temperature_is_the_one_the_readings_were_drawn_at(true_t, seed):
    rng = np.random.default_rng(seed)
    logits = rng.normal(0, 3, (3000, 4, 7))
    probs = certainty.probabilities(logits, true_t)
    classes = np.array([rng.choice(7, p=p / p.sum()) for p in probs])
    fitted = certainty.fit_temperature(logits, classes)
    assert abs(np.log(fitted) - np.log(true_t)) < 0.25


def test_a_tempered_reading_keeps_its_value_and_sharpens_its_certainty():
    head = Head(np.eye(7, 3, dtype=np.float32), np.zeros(7, np.float32))
    views = np.tile(np.array([0.0, 0.0, 1.5], np.float32), (4, 1))  # value 2 by its logit
    seen = [Seen("a", (2,), (place(10, 10, 20, views),))]
    soft = certainty.tempered(seen, head, 1.0)[0].places[0].probs
    sharp = certainty.tempered(seen, head, 0.3)[0].places[0].probs
    assert np.argmax(soft) == np.argmax(sharp) == 2 and sharp[2] > soft[2]


def sure_of(value: int, p: float, x: float) -> Place:
    probs = np.full(7, (1 - p) / 6, np.float32)
    probs[value] = p
    return Place((x, 50.0), 30.0, 0.9, probs, np.zeros(2, np.float32), False)


@pytest.mark.parametrize("decision, min_value", [("counted", 0.95), ("fixed", 20 / 21)])
def test_fixed_gives_a_value_where_it_is_worth_its_error_whatever_the_folds_count(
        decision, min_value):
    held = {k: [Seen(f"p{k}", (3,), (sure_of(3, 0.96, 50.0),))] for k in range(2)}
    known_ = [Known(f"p{k}", (3,), lambda: np.zeros((1, 1, 3))) for k in range(2)]
    base = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9, "sure_die": 0.0}
    tally, chosen, temperature = folds.judged(held, {}, known_, base, None, decision)
    assert chosen["min_value"] == pytest.approx(min_value) and temperature == 1.0
    assert tally.right == 2
