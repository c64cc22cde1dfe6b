"""`bidou-table calibrate --known-throws DIR`: the learned reader's thresholds chosen on known
throws built from real photographs, written under [vision] with the comments kept; every
folder that cannot be used is one sentence, exit 2, and nothing is written.

The known throws are tests/data/dice/webcam-wood's 32 webcam pictures (one table, one camera),
each with its values written from its labels. The reader reads them once per module (the first
test's real run records what it saw); the other runs reuse that, so only the reading is
skipped, not the checks, the search or the writing.
"""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import re
import shutil
import tomllib

import cv2
import numpy as np
import pytest
from vision.learned_reader import Seen
from vision.thresholds import GRID

import hardware.calibrate_reader as calibrate_reader
from firmware.cli import main
from firmware.config import load_config
from vision.known_throws import Thrown
from vision.networks import MODELS, Candidate
from vision.settings import THRESHOLDS
from vision_lab.evaluate import load_labels

PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood"
CONFIG = """\
# The Red Lion's table: keep this comment
[table]
variant = "two-hand"  # the classic game
players = ["Ann", "Bob"]

[vision]
reader = "rules"  # until the calibration says otherwise

# the dashboard
[server]
port = 8080  # behind the bar
"""


@pytest.fixture(scope="module")
def throws(tmp_path_factory) -> pathlib.Path:
    """A folder of known throws: each photograph with its dice's values in NAME.txt."""
    folder = tmp_path_factory.mktemp("known") / "throws"
    folder.mkdir()
    for photo in sorted(PHOTOS.glob("*.jpg")):
        height, width = cv2.imread(str(photo)).shape[:2]
        values = [label.value for label in load_labels(photo.with_suffix(".txt"), width, height)]
        shutil.copy(photo, folder / photo.name)
        (folder / f"{photo.stem}.txt").write_text(", ".join(map(str, values)) + "\n")
    return folder


@pytest.fixture(scope="module")
def first_run(throws, tmp_path_factory) -> tuple[int, str, pathlib.Path, dict[str, tuple]]:
    """The real command, once: its status, what it printed, the config it wrote and what the
    reader saw in each picture (for the other tests)."""
    config = tmp_path_factory.mktemp("first") / "table.toml"
    config.write_text(CONFIG)
    seen: dict[str, tuple[Seen, ...]] = {}
    real = calibrate_reader.look_throws

    def recording(known, nets, settings=None):
        thrown = real(known, nets, settings)
        seen.update((item.name, item.seen) for item in thrown)
        return thrown

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out):
        mp.setattr(calibrate_reader, "look_throws", recording)
        status = main(["calibrate", "--config", str(config), "--known-throws", str(throws)])
    return status, out.getvalue(), config, seen


@pytest.fixture
def read_before(monkeypatch, first_run) -> None:
    """The reader's sight of each picture as the first run had it (the values from the .txt)."""
    seen = first_run[3]
    monkeypatch.setattr(calibrate_reader, "look_throws", lambda known, nets, settings=None: [
        Thrown(t.path.name, t.values, seen[t.path.name]) for t in known])


@pytest.fixture
def config(tmp_path) -> pathlib.Path:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG)
    return path


def copy_of(throws: pathlib.Path, tmp_path: pathlib.Path) -> pathlib.Path:
    folder = tmp_path / "throws"
    shutil.copytree(throws, folder)
    return folder


def test_known_throws_choose_thresholds_and_write_them_under_vision_keeping_comments(
        first_run) -> None:
    status, out, config, _ = first_run
    assert status == 0, out
    text = config.read_text()
    for line in ("# The Red Lion's table: keep this comment",
                 'reader = "rules"  # until the calibration says otherwise', "# the dashboard",
                 "port = 8080  # behind the bar"):
        assert line in text
    vision = tomllib.loads(text)["vision"]
    assert list(vision) == ["reader", *THRESHOLDS]
    # after [vision]'s last key, not after the comment that introduces the next table
    assert re.search(r"otherwise\n(\w+ = [0-9.]+\n){4}\n# the dashboard\n\[server\]", text), text
    for name in THRESHOLDS:
        assert vision[name] in GRID[name]
    assert load_config(str(config), environ={}).vision.reader == "rules"  # never switched
    chosen = re.search(r"^Chosen: (.*) \(the model's own", out, re.MULTILINE)
    assert chosen is not None
    assert chosen.group(1) == ", ".join(f"{name} {vision[name]:g}" for name in THRESHOLDS)


def test_it_says_how_the_reader_reads_here_with_the_models_thresholds_and_the_chosen(
        first_run) -> None:
    """The pub decides whether to switch readers on these figures: both lines, in words."""
    _, out, config, _ = first_run
    assert "Reading 32 known throws (71 dice) in " in out
    pattern = (r"^With the {} thresholds: (\d+) of 71 dice read right \(\d+%\), (\d+) wrong, "
               r"\d+ unsure, \d+ missed, \d+ extra; (\d+) of 32 pictures exact "
               r"\((\d+) with nothing unsure either\)\.$")
    model = re.search(pattern.format("model's own"), out, re.MULTILINE)
    chosen = re.search(pattern.format("chosen"), out, re.MULTILINE)
    assert model and chosen, out
    assert chosen.group(2) == "0"  # 71 dice: the budget of 1 in 1000 allows none
    assert int(chosen.group(1)) >= int(model.group(1))  # the model's own are in the grid
    assert int(chosen.group(4)) <= int(chosen.group(3))
    assert (f'The table still reads with the rule reader: write reader = "learned" under '
            f"[vision] in {config} to read with the learned one and these thresholds.") in out


def test_71_dice_cannot_show_1_in_200_so_no_threshold_is_looser_than_the_models(
        first_run) -> None:
    """None wrong in 71 dice leaves a rate of 1 in 24 likely (95% sure): the calibration may
    tighten the model's thresholds on so few throws, never loosen them."""
    _, out, config, _ = first_run
    assert ("71 dice read with none wrong cannot show a wrong value rarer than 1 in 200 (95% "
            "sure: under 1 in 24); about 598 dice read with none wrong would. So no threshold was "
            "set looser than the model's own: take more throws to loosen them.") in out
    vision = tomllib.loads(config.read_text())["vision"]
    model = json.loads((MODELS / "thresholds.json").read_text())
    assert all(vision[name] >= model[name] for name in THRESHOLDS), (vision, model)


def test_dry_run_prints_the_same_and_changes_nothing(config, throws, read_before,
                                                      first_run, capsys) -> None:
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws),
                 "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert config.read_text() == CONFIG
    assert "Dry run: the config was not changed." in out
    first = first_run[1]
    for start in ("With the model's own thresholds:", "With the chosen thresholds:", "Chosen:"):
        assert [line for line in out.splitlines() if line.startswith(start)] == \
            [line for line in first.splitlines() if line.startswith(start)]


def test_thresholds_already_there_are_replaced_in_place_and_learned_stays_learned(
        tmp_path, throws, read_before, capsys) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.replace('reader = "rules"  # until the calibration says otherwise',
                                   'reader = "learned"\nmin_value = 0.5  # set by hand'))
    assert main(["calibrate", "--config", str(path), "--known-throws", str(throws)]) == 0
    text = path.read_text()
    assert re.search(r"^min_value = [0-9.]+  # set by hand$", text, re.MULTILINE)
    assert tomllib.loads(text)["vision"]["reader"] == "learned"
    assert "still reads with the rule reader" not in capsys.readouterr().out


def test_a_config_without_vision_gets_the_table_at_its_end(tmp_path, throws,
                                                            read_before) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nplayers = ["Ann", "Bob"]\n')
    assert main(["calibrate", "--config", str(path), "--known-throws", str(throws)]) == 0
    assert sorted(load_config(str(path), environ={}).vision.thresholds) == sorted(THRESHOLDS)
    assert "written by `bidou-table calibrate --known-throws`" in path.read_text()


def test_when_no_thresholds_keep_within_the_budget_nothing_is_written(
        config, throws, monkeypatch, capsys) -> None:
    """A reader sure of a six where a one was thrown, in every picture: wrong at any threshold
    (as a .txt written for another picture would be)."""
    probs = np.array([0, 0, 0, 0, 0, 0, 1.0], np.float32)
    six = Seen(Candidate((50.0, 50.0), 30.0, 0.99, (0, 0, 0, 0, 0, 1.0)), probs, 8, False)
    monkeypatch.setattr(calibrate_reader, "look_throws", lambda known, nets, settings=None: [
        Thrown(t.path.name, (1,), (six,)) for t in known])
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws)]) == 1
    out = capsys.readouterr().out
    assert config.read_text() == CONFIG
    assert ("No thresholds keep the wrong values within 1 in 1000 dice on these throws (even the "
            "strictest read 32 values wrong): check the values written for the pictures above, "
            "or take more throws. The config was not changed.") in out
    assert "  valid_1.jpg: thrown 1, read 6" in out


def _unreadable(folder: pathlib.Path) -> str:
    (folder / "valid_1.jpg").write_bytes(b"not a JPEG at all")
    return (f"{folder / 'valid_1.jpg'} is not a picture OpenCV can read (corrupt or not an image "
            "file): take it again or remove it with its .txt.")


def _no_txt(folder: pathlib.Path) -> str:
    (folder / "valid_7.txt").unlink()
    return ("valid_7.jpg has no valid_7.txt beside it: write the values of its dice there, "
            "e.g. 2 4 6.")


def _bad_txt(folder: pathlib.Path) -> str:
    (folder / "valid_9.txt").write_text("0 0.51 0.5 0.1 0.1\n")  # a YOLO label, not values
    return (f"{folder / 'valid_9.txt'} holds '0 0.51 0.5 0.1 0.1', not the values of the dice "
            "in its picture: write digits 1 to 6 separated by spaces or commas, e.g. 2 4 6 (an "
            "empty file: no dice).")


def _few(folder: pathlib.Path) -> str:
    for picture in sorted(folder.glob("*.jpg"))[3:]:
        picture.unlink()
    return "a few dozen known throws are needed: found 3; take at least 20."


def _none(folder: pathlib.Path) -> str:
    for picture in folder.glob("*.jpg"):
        picture.unlink()
    return f"{folder} holds no pictures (.jpg or .png) of known throws."


def _missing(folder: pathlib.Path) -> str:
    shutil.rmtree(folder)
    return (f"there is no folder {folder}: give the folder that holds the pictures of the known "
            "throws and their .txt files.")


@pytest.mark.parametrize("spoil", [_missing, _none, _few, _no_txt, _bad_txt, _unreadable],
                         ids=["missing", "no pictures", "fewer than 20", "no .txt", "bad .txt",
                              "unreadable picture"])
def test_a_folder_that_cannot_be_used_is_one_sentence_exit_2_and_nothing_written(
        config, throws, tmp_path, monkeypatch, capsys, spoil) -> None:
    """Checked before any picture is read: a bad file is found in a second, not after minutes."""
    folder = copy_of(throws, tmp_path)
    sentence = spoil(folder)
    monkeypatch.setattr(calibrate_reader, "look_throws", lambda *a, **k: pytest.fail("read"))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"bidou-table calibrate: {sentence}\n"
    assert captured.out == ""
    assert config.read_text() == CONFIG


def test_a_zone_option_with_known_throws_is_refused(config, throws, capsys) -> None:
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws),
                 "--seats", "2"]) == 2
    assert capsys.readouterr().err == ("bidou-table calibrate: --known-throws calibrates the "
                                       "dice reader, not the seat zones: leave out --seats.\n")
    assert config.read_text() == CONFIG
