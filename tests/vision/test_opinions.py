"""Opinions that fail in different ways before a value is given (vision/learned/opinions.py):
a strong dissent makes the die unsure, whatever the others say; an opinion whose threshold is
1.0 never dissents; the reader asks them of a real picture's dice."""

from __future__ import annotations

import pathlib

import cv2
import numpy as np

from vision.calibrate.known import needed_dice
from vision.learned.decision import Place, decide, lowest_score, may_be_valued
from vision.learned.face_reader import Settings, load, look
from vision.learned.opinions import TURNS, asked, dissent

T = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9}
PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


def probs(value: int, p: float, no_die: float = 0.0) -> np.ndarray:
    out = np.full(7, (1 - p - no_die) / 5, np.float32)
    out[0], out[value] = no_die, p
    return out


def place(value: int = 4, p: float = 0.99, turned: list[np.ndarray] | None = None,
          untaught: np.ndarray | None = None, pips: int | None = None,
          centre: tuple[float, float] = (100.0, 100.0)) -> Place:
    return Place(centre, 40.0, 0.9, probs(value, p), np.zeros(4, np.float32), False,
                 pips=pips, turned=None if turned is None else np.stack(turned),
                 untaught=untaught)


def test_one_turned_view_reading_another_value_makes_the_die_unsure_however_sure_the_rest():
    """Two turned views agree with the network at 0.99; the third reads a 3 at 0.8: no
    majority outvotes it."""
    turned = [probs(4, 0.99), probs(4, 0.99), probs(3, 0.8)]
    dice, unsure = decide([place(turned=turned)], {**T, "turned": 0.5})
    assert dice == [] and "turned" in unsure[0].reason
    dice, unsure = decide([place(turned=turned)], T)  # turned 1.0: never asked to dissent
    assert [d.value for d in dice] == [4] and unsure == []


def test_a_turned_view_that_agrees_is_no_dissent():
    turned = [probs(4, 0.97)] * 3
    dice, _ = decide([place(turned=turned)], {**T, "turned": 0.05})
    assert [d.value for d in dice] == [4]


def test_the_untaught_network_reading_another_value_makes_the_die_unsure():
    t = {**T, "untaught": 0.5}
    dice, unsure = decide([place(untaught=probs(6, 0.7))], t)
    assert dice == [] and "untaught" in unsure[0].reason
    dice, _ = decide([place(untaught=probs(4, 0.7), centre=(300.0, 100.0))], t)
    assert [d.value for d in dice] == [4]


def test_a_pip_count_of_another_value_vetoes_only_where_chosen_and_no_count_is_no_dissent():
    dice, unsure = decide([place(pips=3)], {**T, "pips": 0.0})
    assert dice == [] and "pips make 3" in unsure[0].reason
    assert [d.value for d in decide([place(pips=None)], {**T, "pips": 0.0})[0]] == [4]
    assert [d.value for d in decide([place(pips=3)], T)[0]] == [4]


def test_a_die_against_another_above_it_is_unsure_where_that_die_s_side_would_show():
    """Seen from an angle, a die's side face lies against its top face, below it: read as a
    die, it is a die where none was thrown. A place less than a face from another above it
    is unsure when ``side`` is asked; the one above, and a die a face away, keep their
    values."""
    top, side = place(6, centre=(100.0, 100.0)), place(2, centre=(105.0, 136.0))
    apart = place(3, centre=(100.0, 141.0))  # a face (40 px) and more below: another die
    dice, unsure = decide([top, side], {**T, "side": 0.0})
    assert [d.value for d in dice] == [6] and "side" in unsure[0].reason
    assert sorted(d.value for d in decide([top, side], T)[0]) == [2, 6]  # side 1.0: never
    assert sorted(d.value for d in decide([top, apart], {**T, "side": 0.0})[0]) == [3, 6]


def test_dissent_names_the_first_opinion_against_and_none_when_all_agree():
    t = {"turned": 0.5, "untaught": 0.5, "pips": 0.0}
    assert dissent(4, np.stack([probs(4, 0.9)] * 3), probs(4, 0.9), 4, t) is None
    assert "pips" in (dissent(4, None, None, 2, t) or "")


def test_only_a_place_that_may_be_a_die_is_asked():
    assert asked(probs(2, 0.6)) and not asked(probs(2, 0.2, no_die=0.75))
    assert asked(probs(2, 0.25, no_die=0.1))


def test_the_reader_asks_every_opinion_of_a_real_die() -> None:
    image = cv2.imread(str(PHOTOS / "webcam-wood" / "valid_1.jpg"))
    model = load(Settings().model)
    places = [p for p in look(image, model, Settings(), lowest_score(model.thresholds))
              if asked(p.probs)]
    assert places and all(p.turned is not None and p.turned.shape == (len(TURNS), 7)
                          for p in places)
    assert all(p.untaught is None for p in places)  # the model is untaught


def test_the_known_dice_needed_to_show_one_wrong_in_500() -> None:
    """Split conformal: n values with e wrong bound the wrong share of new dice by
    (e + 1) / (n + 1); 499 values with none wrong show 0.2%."""
    assert needed_dice(given=499, wrong=0, known=600) == 0
    assert needed_dice(given=50, wrong=0, known=60) == 599 - 60
    assert needed_dice(given=30, wrong=1, known=60) == 1998 - 60


def test_a_few_known_dice_keep_the_table_careful_whatever_they_read() -> None:
    """Sixty known dice read right at 0.8: the folds would give values at 0.8, but 60 dice
    cannot show 1 wrong in 500, so no value is given under the untaught model's min_value
    and every opinion is asked: the turned views, the untaught network and where each die
    lies."""
    from vision.calibrate.adapt import Seen
    from vision.calibrate.thresholds import choose_thresholds

    seen = [Seen(f"p{k}", (1 + k % 6, 1 + (k + 1) % 6, 1 + (k + 2) % 6),
                 tuple(place(1 + (k + i) % 6, 0.8, centre=(100.0 * (i + 1), 100.0))
                       for i in range(3))) for k in range(20)]
    base = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.95, "sure_die": 0.0}
    chosen = choose_thresholds(seen, base)
    assert chosen["min_value"] >= 0.95
    assert chosen["turned"] <= 0.5 and chosen["untaught"] <= 0.5 and chosen["side"] == 0.0


def test_a_place_the_thresholds_could_give_no_value_gets_none_whatever_its_opinions() -> None:
    """The reader asks the opinions only of the places that may be valued
    (vision.learned.decision.may_be_valued): of any other, no reading of any opinion, pips
    agreeing included, gives a value, so they need not be asked."""
    rng = np.random.default_rng(0)
    grid = [{**T, "min_value": m, "agree": a, "not_a_die": n, "sure_die": s}
            for m in (0.8, 0.95) for a in (0.6, 1.0) for n in (0.2, 0.5) for s in (0.0, 0.01)]
    valued = unvalued = 0
    for _ in range(400):
        p = rng.dirichlet(np.full(7, 0.3)).astype(np.float32)
        score, cut = float(rng.choice([0.2, 0.5])), bool(rng.random() < 0.1)
        value = int(np.argmax(p[1:])) + 1
        for t in grid:
            here = Place((100.0, 100.0), 40.0, score, p, np.zeros(4, np.float32), cut,
                         pips=value)
            dice, _ = decide([here], t)
            if may_be_valued(score, p, cut, t):
                valued += 1
            else:
                unvalued += 1
                assert dice == [], (p, score, cut, t)
    assert valued > 100 and unvalued > 100  # both kinds were met


def test_asking_only_the_places_that_may_be_valued_reads_every_photo_alike() -> None:
    """The reader's shortcut (read_places with the thresholds) asks fewer places their
    opinions and reads the same dice and unsure places as asking every place."""
    model = load(Settings().model)
    t = {**model.thresholds, "turned": 0.5, "pips": 0.0, "side": 0.0}
    asked_all = asked_valued = 0
    for path in sorted(PHOTOS.glob("*/*.jpg"))[:6]:
        image = cv2.imread(str(path))
        every = look(image, model, Settings(), lowest_score(t))
        valued = look(image, model, Settings(), lowest_score(t), thresholds=t)
        assert decide(every, t) == decide(valued, t), path.name
        asked_all += sum(p.turned is not None for p in every)
        asked_valued += sum(p.turned is not None for p in valued)
    assert asked_valued < asked_all


def test_an_opinion_whose_threshold_never_dissents_is_not_read() -> None:
    image = cv2.imread(str(PHOTOS / "webcam-wood" / "valid_1.jpg"))
    model = load(Settings().model)
    t = {**model.thresholds, "turned": 1.0, "pips": 0.0}
    places = look(image, model, Settings(), lowest_score(t), thresholds=t)
    assert places and all(p.turned is None for p in places)
