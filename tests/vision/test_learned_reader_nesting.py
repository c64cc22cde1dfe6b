"""The learned reader's rules for places inside or beside other places: a die's pips, a cluster
of dice taken for one die, and the side face of a die seen at an angle."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.crops import Pyramid
from vision.learned_reader import SIDE_FACE, Seen, decide_all, sized, unnested
from vision.networks import Candidate

from .conftest import WhiteSquareNets, seen

SURE = {"not_a_die": 0.5, "min_value": 0.9, "min_detector_value": 0.0, "min_views": 8}
EVEN = (1 / 6,) * 6


def ranked(centre: tuple[float, float], size: float, value_p: float, not_die: float = 0.0):
    """One sized candidate as :func:`sized` ranks it: its upright reading sure of a 2 at
    ``value_p``."""
    probs = np.full(7, (1 - value_p - not_die) / 5, np.float32)
    probs[0], probs[2] = not_die, value_p
    return (1 - not_die, Candidate(centre, size, 0.5, EVEN), probs)


def test_pips_read_less_surely_than_their_die_are_dropped_as_its_pips():
    die = ranked((100, 100), 60, 0.99)
    pips = [ranked((88, 88), 12, 0.4), ranked((112, 112), 12, 0.5)]
    apart = ranked((300, 100), 12, 0.6)
    assert unnested([die, *pips, apart]) == [die, apart]


def test_a_cluster_read_less_surely_than_two_dice_in_it_is_no_die():
    """Read coarsely, dice lying together look like one large die with pips; the dice in it,
    read finely, each read more surely than that 'die' does."""
    cluster = ranked((300, 300), 300, 0.3)
    dice = [ranked((250, 280), 30, 0.95), ranked((330, 320), 30, 0.9), ranked((300, 200), 28, 0.2)]
    assert unnested([cluster, *dice]) == dice


def test_what_the_classifier_takes_for_no_die_drops_nothing_inside_it():
    not_a_die = ranked((100, 100), 60, 0.1, not_die=0.8)
    small = ranked((110, 100), 20, 0.3)
    assert unnested([not_a_die, small]) == [not_a_die, small]


def test_a_pip_proposed_on_a_die_is_not_a_die_of_its_own():
    """The rule through the sizing: one die, one reading, however sure the detector is of the
    pip; a small die elsewhere stays."""
    image = np.zeros((400, 600, 3), np.uint8)
    image[70:130, 70:130] = 255
    image[94:106, 294:306] = 255
    die = Candidate((100.0, 100.0), 60.0, 0.6, EVEN)
    pip = Candidate((112.0, 92.0), 12.0, 0.9, EVEN)
    apart = Candidate((300.0, 100.0), 12.0, 0.5, EVEN)
    kept = sized(Pyramid(image), [pip, die, apart], WhiteSquareNets(pip, die, apart))
    assert sorted(c.centre for c, _ in kept) == [die.centre, apart.centre]


def face(value: int, centre: tuple[float, float], size: float = 40.0, p: float = 0.99) -> Seen:
    return seen(value, p, centre=centre, size=size)


def test_a_face_just_below_a_die_of_another_value_may_be_its_side():
    """A die seen at an angle: its top (a 6, unsure here) and below it a side (a 3, sure)."""
    top = face(6, (200.0, 100.0), 50.0, p=0.6)
    side = face(3, (204.0, 142.0), 40.0)
    dice, unsure = decide_all([top, side], SURE)
    assert dice == []
    assert sorted(u.reason for u in unsure) == sorted(
        [f"{SIDE_FACE} (3 below a 6)", "not sure of the value (perhaps 6, 0.60 sure)"])


def test_the_face_above_and_dice_apart_are_read():
    top = face(6, (200.0, 100.0))
    side = face(3, (204.0, 136.0))
    beside = face(2, (260.0, 100.0))  # beside the top, not below it
    far_below = face(5, (200.0, 200.0))  # more than a face below the side
    dice, unsure = decide_all([top, side, beside, far_below], SURE)
    assert sorted(d.value for d in dice) == [2, 5, 6]
    assert [u.reason for u in unsure] == [f"{SIDE_FACE} (3 below a 6)"]


def test_two_faces_of_one_value_are_not_one_die():
    """Adjacent faces of a die never show the same value: two 4s one above the other are two
    dice."""
    dice, unsure = decide_all([face(4, (200.0, 100.0)), face(4, (200.0, 140.0))], SURE)
    assert [d.value for d in dice] == [4, 4] and unsure == []


LOOK_ABOVE = {**SURE, "above_value": 0.7}


def above(value: int, p: float = 0.9, not_die: float = 0.05) -> np.ndarray:
    """The classifier's upright reading of a crop just above a place: ``value`` at ``p``."""
    probs = np.full(7, (1 - p - not_die) / 5, np.float32)
    probs[0], probs[value] = not_die, p
    return probs


def front_six(*readings_above: np.ndarray) -> Seen:
    """oblique-colour's dice_370: a red die's front 6 read surely; its top face (a 3) is no
    place of its own, only the crops above the 6 (one per ABOVE) see it."""
    return replace(face(6, (200.0, 140.0)), above=np.stack(readings_above))


def test_a_sure_face_under_a_crop_reading_another_value_may_be_its_side():
    """Rule 6: the value below a crop read as a face of another value is unsure."""
    dice, unsure = decide_all([front_six(above(2, 0.4), above(3, 0.82))], LOOK_ABOVE)
    assert dice == []
    assert [u.reason for u in unsure] == [f"{SIDE_FACE} (6 below a 3)"]


def test_above_the_same_value_no_die_or_a_doubt_the_value_is_read():
    """Rule 6 asks for a face of another value, read at above_value or more by a crop the
    classifier takes for a die: a 6 above a 6 is two dice, table is table, a doubt is not
    evidence."""
    for reading in (above(6, 0.95), above(3, 0.35, not_die=0.6), above(3, 0.6)):
        dice, unsure = decide_all([front_six(reading, reading)], LOOK_ABOVE)
        assert [d.value for d in dice] == [6] and unsure == []


def test_by_default_what_lies_above_a_face_makes_nothing_unsure():
    """A model whose thresholds predate rule 6 (no above_value) reads as it did."""
    dice, _ = decide_all([front_six(above(3, 0.99), above(3, 0.99))], SURE)
    assert [d.value for d in dice] == [6]
