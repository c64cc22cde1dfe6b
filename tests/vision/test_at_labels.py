"""The classifier read alone at the labels (vision/at_labels.py): what no placing can mend."""

from __future__ import annotations

import pathlib
import shutil

import cv2
import numpy as np
import pytest

from vision.at_labels import at_labels
from vision.evaluate import SETS, main
from vision.labels import LabelledDie, LabelledPicture

from .conftest import WhiteSquareNets

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


class Nets(WhiteSquareNets):
    """Sure of a 1 where a white face fills a well-sized crop; the model's thresholds."""

    thresholds = {"min_value": 0.9, "min_views": 8}


@pytest.fixture
def white_face(tmp_path: pathlib.Path) -> pathlib.Path:
    """A black table with one white 40 px face centred at (100, 80)."""
    image = np.zeros((200, 240, 3), np.uint8)
    image[60:100, 80:120] = 255
    path = tmp_path / "face.png"
    cv2.imwrite(str(path), image)
    return path


def picture(path: pathlib.Path, *dice: LabelledDie) -> LabelledPicture:
    return LabelledPicture(path, "topdown-colour", dice)


def test_a_face_read_at_its_label_with_the_labels_value_is_right_and_sure(white_face):
    counts = at_labels(Nets(), [picture(white_face, LabelledDie(1, (100.0, 80.0), 40.0))])
    assert (counts.dice, counts.best_right, counts.sure, counts.sure_wrong) == (1, 1, 1, 0)
    assert counts.summary() == "1 dice: best value right 1 (100.0%), sure 1 (0 wrong), no die 0"


def test_a_sure_value_that_is_not_the_labels_counts_as_read_wrong(white_face):
    """The fake reads the face as a 1; labelled 3, the classifier is sure and wrong there."""
    counts = at_labels(Nets(), [picture(white_face, LabelledDie(3, (100.0, 80.0), 40.0))])
    assert (counts.best_right, counts.sure, counts.sure_wrong) == (0, 1, 1)


def test_a_label_on_bare_table_reads_as_no_die(white_face):
    counts = at_labels(Nets(), [picture(white_face, LabelledDie(1, (190.0, 160.0), 40.0))])
    assert (counts.no_die, counts.sure) == (1, 0)


def test_the_labels_size_is_the_crops_size(white_face):
    """Cut at twice the face's size the white fills a quarter of what a die's face would: the
    fake then doubts it (a sizing error the reader makes would show the same way)."""
    counts = at_labels(Nets(), [picture(white_face, LabelledDie(1, (100.0, 80.0), 80.0))])
    assert counts.sure == 0


def test_thresholds_given_override_the_models(white_face):
    face = picture(white_face, LabelledDie(1, (100.0, 80.0), 40.0))
    assert at_labels(Nets(), [face], {"min_value": 1.0}).sure == 0


@pytest.fixture
def sets(tmp_path: pathlib.Path) -> pathlib.Path:
    """Each shared set's Train and Valid: two of the test photographs of that set each."""
    for name in SETS:
        photos = sorted((DATA / name).glob("*.jpg"))[:4]
        for part, chosen in (("Train", photos[:2]), ("Valid", photos[2:])):
            folder = tmp_path / name / part
            folder.mkdir(parents=True)
            for photo in chosen:
                shutil.copy(photo, folder)
                shutil.copy(photo.with_suffix(".txt"), folder)
    return tmp_path


@pytest.mark.slow
def test_evaluate_at_labels_prints_each_sets_valid_and_calibration_split(sets, capsys):
    assert main(["--sets", str(sets), "--readers", "learned", "--at-labels"]) == 0
    out = capsys.readouterr().out
    assert out.count("at the labels") == 1
    at = out.split("at the labels")[1].splitlines()
    for name in SETS:
        for part in ("Valid", "calibration"):
            line = next(x for x in at if x.split()[:1] == [f"{name}/{part}"])
            assert " dice: best value right " in line and " wrong), no die " in line


def test_evaluate_at_labels_names_a_set_it_cannot_find(sets, capsys):
    shutil.rmtree(sets / "oblique-colour" / "Valid")
    for name in ("webcam-wood", "topdown-colour"):  # the others are still read, quickly
        shutil.rmtree(sets / name)
    assert main([str(DATA / "webcam-wood"), "--readers", "baseline", "--sets", str(sets),
                 "--at-labels"]) == 2
    err = capsys.readouterr().err
    assert f"{sets / 'oblique-colour'} has no Train and Valid folders" in err
    assert "give --sets the folder of the shared dice sets" in err
