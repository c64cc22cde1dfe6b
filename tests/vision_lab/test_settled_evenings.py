"""Evenings of a left-out make (vision_lab/settled_evenings.py): a throw the table was not sure
of is settled by the players and teaches the table; a die read surely and wrong teaches
nothing, because nobody sees it."""

from __future__ import annotations

import pathlib

from vision.calibrate.known import Tally
from vision_lab.settled_evenings import evening_line, goes_to_players, settled

DATA = pathlib.Path(__file__).parents[1] / "data"


def test_a_throw_with_a_die_unsure_missed_or_an_unsure_place_goes_to_the_players() -> None:
    assert goes_to_players(Tally(dice=3, right=2, unsure=1))
    assert goes_to_players(Tally(dice=3, right=2, missed=1))
    assert goes_to_players(Tally(dice=3, right=3, unsure_places=1))


def test_a_throw_read_surely_passes_unseen_even_when_wrong_or_with_a_phantom_die() -> None:
    assert not goes_to_players(Tally(dice=3, right=3))
    assert not goes_to_players(Tally(dice=3, right=2, wrong=1))
    assert not goes_to_players(Tally(dice=3, right=3, extra=1))


def test_a_settled_throw_keeps_its_picture_and_every_die_s_value_and_no_boxes() -> None:
    path = sorted((DATA / "dice").rglob("*.jpg"))[0]
    throw = settled(path)
    labels = path.with_suffix(".txt").read_text().split("\n")
    assert len(throw.values) == len([line for line in labels if line.strip()])
    assert all(1 <= v <= 6 for v in throw.values)
    assert throw.boxes is None and throw.picture().shape[2] == 3


def test_an_evening_counts_phantom_dice_with_the_wrong_ones() -> None:
    line = evening_line(2, Tally(dice=100, right=90, wrong=1, extra=1, unsure=9), 30, 7, 250)
    assert "sure and right  90.0%" in line and "sure and wrong 2.00%" in line
    assert "7/30" in line and "known dice now 250" in line
