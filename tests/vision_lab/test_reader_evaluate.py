"""The evaluator's counting rule and the comparison baseline, on hand-made readings."""

from __future__ import annotations

import pathlib

import pytest

from simulator.random_scenes import random_scene
from simulator.render import render_scene
from vision.reading import Die, Reading, Unsure
from vision.rules.reader import read_dice
from vision_lab.baseline import read_dice_baseline
from vision_lab.evaluate import Label, load_labels, main, score_reading

PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood"


def test_labels_are_yolo_lines_scaled_to_pixels(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("0 0.5 0.5 0.1 0.2\n5 0.25 0.75 0.05 0.05\n")
    labels = load_labels(path, 640, 480)
    assert labels == [
        Label(1, (288.0, 192.0, 64.0, 96.0)),
        Label(6, (144.0, 348.0, 32.0, 24.0)),
    ]
    assert load_labels(tmp_path / "missing.txt", 640, 480) == []


def test_a_bad_label_line_names_the_file_and_line(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("0 0.5 0.5 0.1 0.2\n7 0.5 0.5 0.1 0.1\n")
    with pytest.raises(ValueError, match=r"b\.txt:2: class 7 is not a die value 0-5"):
        load_labels(path, 640, 480)


def test_score_counts_right_wrong_unsure_missed_and_extra():
    labels = [
        Label(1, (100, 100, 10, 10)),  # read right
        Label(2, (200, 100, 20, 20)),  # read as a 3: wrong
        Label(3, (300, 100, 20, 20)),  # only an unsure place
        Label(4, (400, 100, 20, 20)),  # nothing
    ]
    reading = Reading(
        dice=(
            Die(1, (95, 95, 20, 20), 0.9),
            Die(3, (200, 100, 20, 20), 0.9),
            Die(5, (10, 400, 20, 20), 0.9),  # no label here: extra
        ),
        unsure=(Unsure((300, 100, 20, 20), "x"), Unsure((500, 400, 20, 20), "y")),
    )
    score = score_reading(reading, labels)
    assert (score.right, score.wrong, score.unsure, score.missed) == (1, 1, 1, 1)
    assert (score.extra, score.unsure_places) == (1, 1)
    assert score.recall == 0.25


def test_each_reader_box_serves_one_label_the_closest_pair_first():
    labels = [Label(2, (100, 100, 20, 20)), Label(5, (125, 100, 20, 20))]
    reading = Reading(dice=(Die(5, (124, 100, 20, 20), 0.9),))
    score = score_reading(reading, labels)
    assert (score.right, score.wrong, score.missed) == (1, 0, 1)


def test_a_flat_label_box_matches_as_far_as_half_its_longer_side_every_way():
    """The matching rule: a die's face is square, so a label box flatter than a face (the pip
    pattern of a 3 in line with an axis, webcam-wood's valid_17) is grown by half its longer
    side every way; a read centred on the face (below the pattern, here 18 px) is right."""
    pattern = Label(3, (290.0, 45.0, 50.0, 16.0))  # centre (315, 53)
    on_face = Reading(dice=(Die(3, (280, 36, 70, 70), 0.9),))  # centre (315, 71)
    score = score_reading(on_face, [pattern])
    assert (score.right, score.missed, score.extra) == (1, 0, 0)
    beyond = Reading(dice=(Die(3, (280, 62, 70, 70), 0.9),))  # centre (315, 97): 26 px below
    score = score_reading(beyond, [pattern])
    assert (score.right, score.missed, score.extra) == (0, 1, 1)


def test_a_one_labelled_at_its_pip_matches_a_reading_of_the_whole_die_around_it():
    """webcam-wood labels a one by its pip; seen from an angle the pip lies off the face's
    centre (valid_46: 40 px in a 90 px die), beyond the pip's margin. The die read whole
    around the pip is that one, not a phantom die; a box that misses the pip is not."""
    pip = Label(1, (380.0, 395.0, 14.0, 14.0))  # centre (387, 402)
    whole = Reading(dice=(Die(1, (315, 370, 125, 125), 0.99),))  # centre (377, 432)
    score = score_reading(whole, [pip])
    assert (score.right, score.missed, score.extra) == (1, 0, 0)
    beside = Reading(dice=(Die(1, (395, 410, 125, 125), 0.99),))
    score = score_reading(beside, [pip])
    assert (score.right, score.missed, score.extra) == (0, 1, 1)


def test_baseline_reads_no_white_pips():
    image, truth = render_scene(random_scene(3, 6, colour="blue", surface="felt"), seed=3)
    assert len(truth) == 6
    assert read_dice_baseline(image).dice == ()
    assert len(read_dice(image).dice) >= 5


def test_evaluate_command_prints_each_reader_per_folder(capsys):
    assert main([str(PHOTOS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["set", "reader", "dice", "recall"]
    assert [line.split()[1:3] for line in out[1:]] == [
        ["rules", "71"], ["learned", "71"], ["baseline", "71"]]
    assert out[1].split()[-2].endswith("/32")  # whole pictures exact, of 32


def test_evaluate_command_refuses_an_unknown_reader(capsys):
    assert main([str(PHOTOS), "--readers", "learned,magic"]) == 2
    assert "unknown reader 'magic'" in capsys.readouterr().err


def test_evaluate_command_refuses_a_missing_folder(tmp_path, capsys):
    assert main([str(tmp_path / "nope")]) == 2
    assert "is not a folder of labelled pictures" in capsys.readouterr().err


def test_at_labels_reads_each_labelled_die_where_its_label_says(capsys):
    """--at-labels: the face network alone at the labels, the reader's ceiling; the test
    photographs' white dice all read right there, at the model's own min_value."""
    assert main([str(PHOTOS), "--readers", "learned", "--at-labels"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith(f"{PHOTOS}") and "at labels    71 dice" in line
    assert "best value right 100.0%" in line and "wrong 0 (  0.0%)" in line
