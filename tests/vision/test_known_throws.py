"""Known throws scored by their values (vision/known_throws.py), without the networks.

Rules checked: a picture of known throws says which values were thrown, not where; so the
reader's sure dice are matched to the known values as a multiset (right = their intersection,
a sure die beyond it standing in for a known die is wrong, dice beyond the known count are
extra, the known dice left are unsure while unsure places last, then missed). The search is the
model's own (vision.thresholds.best): it must refuse thresholds that read a known die wrong.
The calibration may tighten the model's thresholds on a few dozen throws but loosen them only
on enough dice to show a wrong value rarer than 1 in 200, 95% sure.
"""

from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest
from vision.learned_reader import DEFAULTS, Seen
from vision.thresholds import best, within_budget

from vision.known_throws import (
    PROMISE,
    TABLE_GRID,
    KnownThrowsError,
    Throw,
    Thrown,
    by_values,
    calibrate,
    dice_to_show,
    look_throws,
    parse_values,
    taken,
    wrong_bound,
)
from vision.networks import Candidate
from vision.reading import Die, Unsure
from vision.settings import THRESHOLDS

from .conftest import WhiteSquareNets

TXT = pathlib.Path("throws/t1.txt")


def score(known: str, read: str, unsure: int = 0):
    """``by_values`` of a throw ``known`` (values) read as sure dice ``read`` and ``unsure``
    unsure places."""
    item = Thrown("t1.jpg", parse_values(known, TXT), ())
    dice = [Die(v, (10 * i, 0, 8, 8), 0.99) for i, v in enumerate(parse_values(read, TXT))]
    places = [Unsure((0, 10 * i, 8, 8), "not sure") for i in range(unsure)]
    return by_values(item, dice, places)


def figures(s) -> tuple[int, ...]:
    return (s.labels, s.right, s.wrong, s.unsure, s.missed, s.extra, s.extra_unsure, s.exact)


def test_right_is_the_multiset_intersection_in_any_order():
    assert figures(score("2 4 6", "6 2 4")) == (3, 3, 0, 0, 0, 0, 0, 1)


def test_a_repeated_value_is_right_only_as_often_as_it_was_thrown():
    assert figures(score("3 3 5", "3 5 5")) == (3, 2, 1, 0, 0, 0, 0, 0)
    assert figures(score("3", "3 3")) == (1, 1, 0, 0, 0, 1, 0, 0)


def test_a_sure_die_beyond_the_intersection_is_wrong_while_a_known_die_is_left():
    assert figures(score("2 4 6", "2 4 5")) == (3, 2, 1, 0, 0, 0, 0, 0)
    assert figures(score("1 1 1", "6 6")) == (3, 0, 2, 0, 1, 0, 0, 0)


def test_sure_dice_beyond_the_known_count_are_extra_not_wrong():
    assert figures(score("2", "5 6")) == (1, 0, 1, 0, 0, 1, 0, 0)
    assert figures(score("", "4")) == (0, 0, 0, 0, 0, 1, 0, 0)


def test_known_dice_left_are_unsure_while_unsure_places_last_then_missed():
    assert figures(score("2 4 6", "2", unsure=1)) == (3, 1, 0, 1, 1, 0, 0, 0)
    assert figures(score("2 4", "", unsure=5)) == (2, 0, 0, 2, 0, 0, 3, 0)


def test_an_empty_throw_read_empty_is_exact_and_names_no_picture():
    s = score("", "")
    assert figures(s) == (0, 0, 0, 0, 0, 0, 0, 1)
    assert s.failures == []


def test_a_picture_not_read_exactly_is_named_with_what_was_thrown_and_read():
    assert score("6 2 4", "4 2", unsure=1).failures == [
        "t1.jpg: thrown 2 4 6, read 2 4 and 1 unsure"]


@pytest.mark.parametrize(("text", "values"), [
    ("2 4 6", (2, 4, 6)), ("6,1,1", (6, 1, 1)), (" 5 ,\n3\n", (5, 3)), ("", ()), ("\n", ())])
def test_values_are_digits_1_to_6_separated_by_spaces_or_commas(text, values):
    assert parse_values(text, TXT) == values


@pytest.mark.parametrize("text", ["0", "7", "246", "two", "2;4", "0 0.51 0.49 0.1 0.1"])
def test_anything_but_digits_1_to_6_is_one_sentence_naming_file_and_text(text):
    with pytest.raises(KnownThrowsError) as e:
        parse_values(text, TXT)
    assert str(e.value) == (
        f"{TXT} holds {text!r}, not the values of the dice in its picture: write digits 1 to "
        "6 separated by spaces or commas, e.g. 2 4 6 (an empty file: no dice)")


def sure(value: int, p: float) -> Seen:
    """A die both networks take for ``value``, the classifier ``p`` sure, in every view."""
    probs = np.full(7, (1 - p) / 6, np.float32)
    probs[value] = p
    det = np.full(6, 0.0)
    det[value - 1] = 1.0
    return Seen(Candidate((50.0, 50.0), 30.0, 0.99, tuple(det)), probs, 8, False)


def test_the_search_refuses_thresholds_that_read_a_known_die_wrong():
    """A 3 the classifier takes for a 2, 0.85 sure, is read wrong at min_value 0.8 or less:
    the search must go to 0.9 at least, and takes the strictest that still reads the 6."""
    thrown = [Thrown("a.jpg", (6,), (sure(6, 0.97),)), Thrown("b.jpg", (3,), (sure(2, 0.85),))]
    chosen, s = best(thrown, judge=by_values, grid=TABLE_GRID, base=DEFAULTS)
    assert chosen == {"detect": 0.4, "min_value": 0.97, "min_detector_value": 0.5,
                      "min_views": 8}
    assert (s.right, s.wrong, s.unsure, s.exact) == (1, 0, 1, 1)
    assert within_budget(s)


def test_when_even_the_strictest_reads_wrong_the_budget_says_so():
    thrown = [Thrown("a.jpg", (1,), (sure(6, 0.999),))]
    chosen, s = best(thrown, judge=by_values, grid=TABLE_GRID, base=DEFAULTS)
    assert chosen == {name: values[-1] for name, values in TABLE_GRID.items()}
    assert s.wrong == 1 and not within_budget(s)


def test_the_table_searches_only_the_thresholds_its_config_can_hold():
    assert set(TABLE_GRID) == set(THRESHOLDS)


def test_a_throw_the_table_takes_has_every_die_right_and_nothing_unsure():
    """Exact is not enough at the table: an unsure place in a zone sends the throw to the
    referee, even where no die was thrown."""
    six = Thrown("a.jpg", (6,), (sure(6, 0.97),))
    with_doubt = Thrown("b.jpg", (6,), (sure(6, 0.97), sure(1, 0.6)))
    t = {**DEFAULTS, "min_value": 0.9}
    assert taken([six, with_doubt], t) == 1
    assert taken([six], {**t, "min_value": 0.98}) == 0


class Model:
    """Networks as the calibration sees them: only their thresholds."""

    def __init__(self, **thresholds: float) -> None:
        self.thresholds = thresholds


MODEL = {"detect": 0.3, "min_value": 0.99, "min_detector_value": 0.0, "min_views": 8}


def test_none_wrong_in_71_dice_leaves_a_rate_of_1_in_24_likely():
    """The one-sided Clopper-Pearson bound: with none wrong it is 1 - 0.05 ** (1 / dice)."""
    assert wrong_bound(0, 71) == pytest.approx(1 - 0.05 ** (1 / 71), rel=1e-6)
    assert wrong_bound(1, 659) == pytest.approx(0.00718, abs=1e-5)
    assert wrong_bound(0, 0) == 1.0 and wrong_bound(3, 3) == 1.0


def test_about_600_dice_read_with_none_wrong_show_the_tables_promise():
    assert dice_to_show() == 598
    assert wrong_bound(0, 598) <= PROMISE < wrong_bound(0, 597)


def test_a_few_dozen_throws_never_loosen_the_models_thresholds():
    """Every die read right at 0.95 would choose min_value 0.95 or less; 30 dice read with
    none wrong cannot show 1 in 200, so the model's 0.99 stays (nothing is read here)."""
    thrown = [Thrown(f"{i}.jpg", (6,), (sure(6, 0.95),)) for i in range(30)]
    result = calibrate(thrown, Model(**MODEL))
    assert all(result.chosen[name] >= MODEL[name] for name in THRESHOLDS), result.chosen
    assert result.chosen_score.right == 0 and not result.shown


def test_enough_throws_read_with_none_wrong_may_loosen_them():
    thrown = [Thrown(f"{i}.jpg", (6, 6, 6), (sure(6, 0.95),) * 3) for i in range(200)]
    result = calibrate(thrown, Model(**MODEL))
    assert result.chosen["min_value"] <= 0.95 and result.chosen_score.right == 600
    assert result.shown


def test_a_few_dozen_throws_may_tighten_the_models_thresholds():
    """A 3 the reader takes for a 2, 0.95 sure, at the model's 0.9: evidence enough to go
    stricter, however few the throws."""
    thrown = [Thrown(f"{i}.jpg", (6,), (sure(6, 0.99),)) for i in range(20)]
    thrown.append(Thrown("b.jpg", (3,), (sure(2, 0.95),)))
    result = calibrate(thrown, Model(**{**MODEL, "min_value": 0.9}))
    assert result.model_score.wrong == 1
    assert result.chosen["min_value"] > 0.95 and result.chosen_score.wrong == 0
    assert result.chosen_score.right == 20


def test_known_throws_are_read_with_the_crops_above_when_the_model_s_thresholds_use_them(
        tmp_path: pathlib.Path):
    """above_value stays the model's: a model chosen with it (thresholds --look-above) is
    calibrated on readings that carry the crops above each place; one without it is not."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[70:130, 70:130] = 255
    cv2.imwrite(str(tmp_path / "one.png"), image)
    throws = [Throw(tmp_path / "one.png", (1,))]

    class Nets(WhiteSquareNets):
        thresholds: dict[str, float] = {}

    nets = Nets(Candidate((100.0, 100.0), 60.0, 0.9, (1 / 6,) * 6))
    [plain] = look_throws(throws, nets)
    nets.thresholds = {"above_value": 0.7}
    [above] = look_throws(throws, nets)
    assert all(s.above is None for seen in plain.seen.values() for s in seen)
    assert all(s.above is not None for seen in above.seen.values() for s in seen)
    assert any(above.seen.values())
