"""What a table's calibration teaches, before any PyTorch: the boxes of NAME.json read or
refused in one sentence, background crops clear of every die, side faces beside their die,
augmented crops of the network's size, thresholds that never buy a right die with an error,
and the die sizes a table reads at."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.calibrate import folds, teach, thresholds
from vision.calibrate.adapt import Seen
from vision.calibrate.known import KnownThrowsError, find_throws, load_boxes
from vision.learned.crops import FACE_INPUT, Pyramid
from vision.learned.decision import Place

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


def test_boxes_beside_a_known_throw_are_read_with_its_values(tmp_path):
    photo = sorted((DATA / "webcam-wood").glob("*.jpg"))[0]
    (tmp_path / "a.jpg").write_bytes(photo.read_bytes())
    (tmp_path / "a.txt").write_text("2 5")
    (tmp_path / "a.json").write_text(json.dumps([
        {"box": [10, 20, 30, 30], "value": 5}, {"box": [100, 20, 30, 31], "value": 2},
        {"box": [200, 200, 30, 30], "value": 0}]))
    (throw,) = find_throws(tmp_path)
    assert throw.boxes == (((10.0, 20.0, 30.0, 30.0), 5), ((100.0, 20.0, 30.0, 31.0), 2),
                           ((200.0, 200.0, 30.0, 30.0), 0))


@pytest.mark.parametrize("content, says", [
    ("not json", "is not a list of dice boxes"),
    (json.dumps([{"box": [1, 2, 3], "value": 2}]), "a box is [x, y, w, h]"),
    (json.dumps([{"box": [1, 2, 3, 4], "value": 7}]), "a value 1-6 or 0"),
    (json.dumps([{"box": [1, 2, 3, 4], "value": 3}]), "make the two agree"),
])
def test_boxes_that_cannot_be_used_are_one_sentence_naming_the_file(tmp_path, content, says):
    path = tmp_path / "a.json"
    path.write_text(content)
    with pytest.raises(KnownThrowsError) as err:
        load_boxes(path, (2,))
    assert str(path) in str(err.value) and says in str(err.value)


def test_a_throw_without_boxes_has_none():
    assert load_boxes(DATA / "nothing-here.json") is None


dice_strategy = st.lists(st.tuples(st.floats(20, 600), st.floats(20, 440), st.floats(15, 60)),
                         min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(dice_strategy, st.integers(0, 2 ** 16))
def test_background_crops_hold_no_die(dice, seed):
    examples = [teach.Example(0, (x, y), s, 3) for x, y, s in dice]
    rng = np.random.default_rng(seed)
    for b in teach.background((480, 640, 3), examples, 0, rng, 12):
        assert b.cls == 0
        assert all(math.dist(b.centre, d.centre) > teach.CLEAR_OF_DICE * max(b.size, d.size)
                   for d in examples)


@settings(max_examples=40, deadline=None)
@given(dice_strategy, st.integers(0, 2 ** 16))
def test_side_faces_lie_on_their_die_s_edge_and_on_no_other_die(dice, seed):
    examples = [teach.Example(0, (x, y), s, 4) for x, y, s in dice]
    for side in teach.side_faces(examples, np.random.default_rng(seed)):
        assert side.cls == 0
        owners = [d for d in examples
                  if math.isclose(math.dist(side.centre, d.centre), teach.SIDE_OFFSET * d.size,
                                  rel_tol=1e-6)]
        assert owners
        assert all(math.dist(side.centre, o.centre) > 0.7 * o.size for o in examples
                   if o not in owners)


def test_augmented_crops_are_the_network_s_input():
    image = np.full((120, 160, 3), 90, np.uint8)
    ex = teach.Example(0, (80.0, 60.0), 40.0, 2)
    crops, classes = teach.draws([Pyramid(image)], [ex], np.random.default_rng(0), 8)
    assert all(c.shape == (FACE_INPUT, FACE_INPUT, 3) and c.dtype == np.uint8 for c in crops)
    assert classes == [2] * 8  # no "not a die" example: dice stand in


def place(value: int, sure: float, die: float = 0.01, pips: int | None = None) -> Place:
    probs = np.zeros(7, np.float32)
    probs[0] = die
    probs[value] = sure * (1 - die)
    probs[1 if value != 1 else 2] = (1 - sure) * (1 - die)
    return Place((50.0 * value, 50.0), 30.0, 0.9, probs, np.zeros(4, np.float32), False,
                 pips=pips)


def test_thresholds_never_buy_right_dice_with_a_wrong_one():
    """Two dice read surely right and one read wrong at 0.97: the chosen min_value leaves the
    wrong one unsure, since an error costs more than a right die."""
    seen = [Seen("a", (2, 3, 4), (place(2, 0.999), place(3, 0.999), place(6, 0.97)))]
    chosen = thresholds.choose_thresholds(seen, {"detect": 0.3})
    tally = thresholds.tally(seen, chosen)
    assert (tally.right, tally.wrong) == (2, 0)
    assert chosen["min_value"] > 0.97


def pips_agreeing(copies: int) -> list[Seen]:
    """Dice the network reads right but unsure (0.6-0.8), whose pips agree, and a die read
    wrong at 0.75 whose pips say otherwise; ``copies`` pictures of them."""
    return [Seen(f"a{i}", (2, 3, 4, 5), (place(2, 0.6, pips=2), place(3, 0.7, pips=3),
                                         place(4, 0.8, pips=4), place(6, 0.75, pips=5)))
            for i in range(copies)]


def test_the_pips_word_is_taken_where_it_reads_more_dice_and_no_wrong_one():
    """Where the known dice can show a wrong share under 1 in 500 (here 510 values given,
    none wrong), the dice whose pips agree are given their values at the ``agree`` chosen;
    the die read wrong whose pips say otherwise stays unsure."""
    seen = pips_agreeing(170)
    chosen = thresholds.choose_thresholds(seen, {"detect": 0.3})
    tally = thresholds.tally(seen, chosen)
    assert (tally.right, tally.wrong, tally.unsure) == (3 * 170, 0, 170)
    assert chosen["agree"] <= 0.6 < 0.8 < chosen["min_value"]


def test_too_few_known_dice_take_no_value_on_the_pips_word_under_the_untaught_bar():
    """Careful: 4 known dice cannot show 1 wrong in 500, so the pips' word, like the
    network's, gives no value under the untaught model's ``min_value`` (0.95 here)."""
    seen = pips_agreeing(1)
    chosen = thresholds.choose_thresholds(seen, {"detect": 0.3, "min_value": 0.95})
    tally = thresholds.tally(seen, chosen)
    assert (tally.right, tally.wrong, tally.unsure) == (0, 0, 4)
    assert chosen["agree"] >= 0.95 and chosen["min_value"] >= 0.95


def test_the_die_sizes_read_leave_out_a_stray_place():
    sizes = [30.0] * 40 + [600.0]
    low, high = folds.die_range([teach.Example(0, (0.0, 0.0), s, 2) for s in sizes])
    assert low == pytest.approx(30 / folds.SIZE_MARGIN)
    assert high < 600
