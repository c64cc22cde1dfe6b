"""`bidou-table calibrate --known-throws DIR` / `--from-log DB` adapts the learned reader to the
table (firmware/teach/calibrate_reader.py), and `read-dice --config` then reads as that table.

The known throws are tests/data/dice/webcam-wood's 32 webcam pictures, each with its values
written from its labels. The tests that read them use the shipped model in vision/models.
Here PyTorch is hidden (as on a table without the learn extra), so calibrating fits the
learned reader's head alone; teaching the table's own network is tests/firmware/
test_calibrate_network.py's.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import shutil
import sys
import tomllib

import cv2
import numpy as np
import pytest

import firmware.teach.calibrate_reader as calibrate_reader
from firmware.cli.dispatch import main
from firmware.gamelog.log import GameLog, Picture
from firmware.settings.config import load_config
from vision.calibrate import adapt, network
from vision.calibrate.known import Tally
from vision.learned.face_model import CLASSES, Head, fingerprint
from vision.learned.face_reader import load
from vision.learned.networks import MODELS
from vision_lab.evaluate import load_labels

PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood"
COLOURED = PHOTOS.parent / "topdown-colour"
ONLY_TABLE = """\
# The Red Lion's table: keep this comment
[table]
variant = "two-hand"  # the classic game
players = ["Ann", "Bob"]
"""


def values_of(photo: pathlib.Path) -> list[int]:
    height, width = cv2.imread(str(photo)).shape[:2]
    return [label.value for label in load_labels(photo.with_suffix(".txt"), width, height)]


@pytest.fixture(autouse=True)
def without_the_learn_extra(monkeypatch) -> None:
    """PyTorch cannot be imported, as where the learn extra is not installed."""
    monkeypatch.setitem(sys.modules, "torch", None)


@pytest.fixture(scope="module")
def throws(tmp_path_factory) -> pathlib.Path:
    """A folder of known throws: each photograph with its dice's values in NAME.txt."""
    folder = tmp_path_factory.mktemp("known") / "throws"
    folder.mkdir()
    for photo in sorted(PHOTOS.glob("*.jpg")):
        shutil.copy(photo, folder / photo.name)
        (folder / f"{photo.stem}.txt").write_text(", ".join(map(str, values_of(photo))) + "\n")
    return folder


@pytest.fixture
def config(tmp_path) -> pathlib.Path:
    path = tmp_path / "pub.toml"
    path.write_text(ONLY_TABLE)
    return path


def six_head() -> Head:
    """A head sure that every place is a six: whatever it reads shows it was used."""
    features = load().faces.features
    bias = np.zeros(CLASSES, np.float32)
    bias[6] = 30.0
    return Head(np.zeros((CLASSES, features), np.float32), bias, 1.0)


def kept(head: Head, network: str | None = None) -> adapt.Adaptation:
    """An adaptation that was kept, fitted (by default) for the installed face network, of a
    learned reader that reads every known throw right (so it is the reader chosen). Its
    calibration asked no other opinion (``turned`` 1.0): the model's head, which reads the
    turned views, would speak against a head that reads every die a six; at reading, the
    model's floor asks it all the same (its 9 dice cannot show the target)."""
    return adapt.Adaptation(head, {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9,
                                   "turned": 1.0},
                            Tally(dice=9, right=3, pictures=3), Tally(dice=9, right=8,
                                                                      pictures=3, exact=2),
                            True, ("a.jpg",), ("b.jpg",), 30, 20, 4, seconds=1.5,
                            network=network or fingerprint(MODELS / "faces.onnx"),
                            now=Tally(dice=71, right=71, pictures=32, exact=32))


def test_a_real_camera_table_naming_no_reader_already_reads_with_the_learned_one(
        tmp_path, throws, monkeypatch, capsys) -> None:
    """An untaught table on a real camera reads with the learned reader (the default for
    photographs, vision.settings.default_reader): when the learned reader reads its known
    throws better, the reader stays and no reader line is written; only the head kept is.
    The same table on the simulated camera read with rules, so there the reader changes."""
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: kept(six_head()))
    config = tmp_path / "pub.toml"
    config.write_text(ONLY_TABLE + '\n[camera]\nkind = "usb"\n')
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws)]) == 0
    out = capsys.readouterr().out
    assert "The learned reader, the table's now, reads them better" in out
    assert 'reader = "learned" is under [vision]' not in out
    assert tomllib.loads(config.read_text())["vision"] == {"head": "pub.head.npz"}


@pytest.mark.slow
def test_a_config_with_only_its_table_section_is_calibrated_on_the_throws_held_back(
        config, throws, capsys) -> None:
    """The real calibration on webcam-wood's white dice: both readers read every throw; the
    rule reader reads all 71 dice right with one die where there is none, the learned one,
    no looser than the model's floor for a new make (vision/models/new_make_floor.json), 67
    with none wrong or extra, so the learned reader becomes the table's (an error costs 100
    dice right); the head's adaptation says how the held-back third reads before and after
    and how long it took, and is either kept (saved beside the config, named under
    [vision]) or not, and then only the reader line is written."""
    status = main(["calibrate", "--config", str(config), "--known-throws", str(throws)])
    out = capsys.readouterr().out
    assert out.startswith(f"Reading 32 known throws (71 dice) in {throws} with the learned "
                          "reader and the rule reader.\n")
    assert "Every known throw (71 dice), by the rule reader: 71 of 71 dice read right" in out
    assert ("... by the learned reader (the model's head): 67 of 71 dice read right (94%), "
            "0 wrong, 4 unsure, 0 missed, 0 extra") in out
    assert "The learned reader reads them better" in out
    assert "Before, with the model's head: " in out
    assert "Adapted to this table: " in out
    assert "seconds on this machine, reading the pictures with both readers included." in out
    assert status == 0, out
    vision = tomllib.loads(config.read_text())["vision"]
    assert config.read_text().startswith(ONLY_TABLE)  # the comments kept
    if "Kept: the adapted head reads the held-back throws better" in out:
        assert vision == {"reader": "learned", "head": "pub.head.npz"}
        assert (config.parent / "pub.head.npz").is_file()
    else:
        assert "The adapted head is not kept: it does not read the held-back throws" in out
        assert vision == {"reader": "learned"}
        assert sorted(p.name for p in config.parent.iterdir()) == ["pub.toml"]


@pytest.mark.slow
def test_the_reader_that_reads_the_known_throws_better_becomes_the_table_s(tmp_path,
                                                                          capsys) -> None:
    """Coloured dice (tests/data/dice/topdown-colour): the rule reader reads a few of them,
    the learned one most, so calibrating switches the table to the learned reader, even over
    a reader the config named, and says how to go back."""
    folder = tmp_path / "coloured"
    folder.mkdir()
    for photo in sorted(COLOURED.glob("*.jpg")):
        shutil.copy(photo, folder / photo.name)
        (folder / f"{photo.stem}.txt").write_text(" ".join(map(str, values_of(photo))) + "\n")
    config = tmp_path / "pub.toml"
    config.write_text(ONLY_TABLE + '\n[vision]\nreader = "rules"\n')
    assert main(["calibrate", "--config", str(config), "--known-throws", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "The learned reader reads them better" in out
    assert (f'reader = "learned" is under [vision] in {config}: the table reads with the '
            'learned reader from its next start (write reader = "rules" to go back).') in out
    assert tomllib.loads(config.read_text())["vision"]["reader"] == "learned"
    assert config.read_text().startswith(ONLY_TABLE)


def test_a_kept_adaptation_is_saved_beside_the_config_and_read_dice_config_reads_with_it(
        config, throws, monkeypatch, capsys) -> None:
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: kept(six_head()))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws)]) == 0
    out = capsys.readouterr().out
    head, own = config.parent / "pub.head.npz", config.parent / "pub.reader.json"
    assert (f"Saved the table's own head in {head} and its thresholds in {own}; "
            f'head = "pub.head.npz" is under [vision] in {config}.') in out
    assert f'reader = "learned" is under [vision] in {config}' in out
    assert load_config(str(config), environ={}).vision.head == "pub.head.npz"
    assert json.loads(own.read_text())["calibration"]["after"]["right"] == 8

    photo = str(PHOTOS / "valid_45.jpg")
    assert main(["read-dice", "--json", "--config", str(config), photo]) == 0
    line = json.loads(capsys.readouterr().out)
    # the table's own head read every place a six; its 9 known dice cannot show the target,
    # so the model's floor holds and asks the turned views, which read the real values
    assert line["image"] == photo and line["dice"] == [] and line["unsure"]
    assert all(u["reason"].startswith("not sure of the value (6: turned, it reads otherwise")
               for u in line["unsure"])
    assert main(["read-dice", "--json", photo]) == 0  # without --config: not the table's
    assert {d["value"] for d in json.loads(capsys.readouterr().out)["dice"]} != {6}


def test_without_the_learn_extra_one_sentence_says_to_install_it_and_the_head_is_fitted(
        config, throws, monkeypatch, capsys) -> None:
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: kept(six_head()))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws),
                 "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert network.HEAD_ONLY in out and "make learn" in network.HEAD_ONLY
    assert "Kept: the adapted head reads the held-back throws better" in out


def test_dry_run_prints_and_saves_nothing(config, throws, monkeypatch, capsys) -> None:
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: kept(six_head()))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws),
                 "--dry-run"]) == 0
    assert "Dry run: nothing was saved and the config was not changed." in capsys.readouterr().out
    assert sorted(p.name for p in config.parent.iterdir()) == ["pub.toml"]


def test_a_config_s_reader_stays_when_it_reads_the_throws_better_and_the_head_is_still_saved(
        config, throws, monkeypatch, capsys) -> None:
    config.write_text(ONLY_TABLE + '\n[vision]\nreader = "rules"  # for now\n')
    poor = dataclasses.replace(kept(six_head()), now=Tally(dice=71, right=60, extra=2,
                                                                    pictures=32))
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: poor)
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws)]) == 0
    out = capsys.readouterr().out
    assert "The rule reader, the table's now, reads them better" in out
    assert "The table still reads with the rule reader" in out
    text = config.read_text()
    assert 'reader = "rules"  # for now' in text
    assert tomllib.loads(text)["vision"] == {"reader": "rules", "head": "pub.head.npz"}


def test_fewer_than_30_known_dice_is_one_sentence_and_nothing_is_read(
        config, throws, tmp_path, monkeypatch, capsys) -> None:
    folder = tmp_path / "few"
    shutil.copytree(throws, folder)
    dice = 0
    for photo in sorted(folder.glob("*.jpg")):
        n = len((folder / f"{photo.stem}.txt").read_text().split(","))
        if dice + n >= 30:
            photo.unlink()
            (folder / f"{photo.stem}.txt").unlink()
        else:
            dice += n
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate", lambda *a, **k: pytest.fail("read"))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bidou-table calibrate: the known throws hold {dice} dice; at least "
                          "30 are needed to adapt the reader to this table: take about ")
    assert config.read_text() == ONLY_TABLE


def _no_txt(folder: pathlib.Path) -> str:
    (folder / "valid_7.txt").unlink()
    return ("valid_7.jpg has no valid_7.txt beside it: write the values of its dice there, "
            "e.g. 2 4 6.")


def _bad_txt(folder: pathlib.Path) -> str:
    (folder / "valid_9.txt").write_text("0 0.51 0.5 0.1 0.1\n")  # a YOLO label, not values
    return (f"{folder / 'valid_9.txt'} holds '0 0.51 0.5 0.1 0.1', not the values of the dice "
            "in its picture: write digits 1 to 6 separated by spaces or commas, e.g. 2 4 6 (an "
            "empty file: no dice).")


def _unreadable(folder: pathlib.Path) -> str:
    (folder / "valid_1.jpg").write_bytes(b"not a JPEG at all")
    return (f"{folder / 'valid_1.jpg'} is not a picture OpenCV can read (corrupt or not an image "
            "file): take it again or remove it with its .txt.")


def _missing(folder: pathlib.Path) -> str:
    shutil.rmtree(folder)
    return (f"there is no folder {folder}: give the folder that holds the pictures of the known "
            "throws and their .txt files.")


@pytest.mark.parametrize("spoil", [_missing, _no_txt, _bad_txt, _unreadable],
                         ids=["missing", "no .txt", "bad .txt", "unreadable picture"])
def test_a_folder_that_cannot_be_used_is_one_sentence_exit_2_and_nothing_written(
        config, throws, tmp_path, monkeypatch, capsys, spoil) -> None:
    """Checked before any picture is read: a bad file is found in a second, not after minutes."""
    folder = tmp_path / "throws"
    shutil.copytree(throws, folder)
    sentence = spoil(folder)
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate", lambda *a, **k: pytest.fail("read"))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"bidou-table calibrate: {sentence}\n"
    assert captured.out == ""
    assert config.read_text() == ONLY_TABLE


def test_a_zone_option_with_known_throws_is_refused(config, throws, capsys) -> None:
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws),
                 "--seats", "2"]) == 2
    assert capsys.readouterr().err == (
        "bidou-table calibrate: --known-throws and --from-log calibrate the dice reader, not the "
        "seat zones: leave out --seats.\n")


def log_of_corrections(db: pathlib.Path, photos: list[pathlib.Path]) -> int:
    """A table log where the referee fixed the dice of each photo's throw (the camera's
    picture kept with each fix); the dice in all."""
    log = GameLog(str(db))
    game = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    dice = 0
    for i, photo in enumerate(photos, 1):
        values = tuple(values_of(photo))
        dice += len(values)
        log.append(game, "action", f"Ann throw {i % 6 + 1} 1 1", "panel", "t")
        log.append(game, "fix-dice", f"{i} Ann throw 6 5 4", "Ref", "t", "misread",
                   picture=Picture("Ann", values, photo.read_bytes()))
    log.close()
    return dice


@pytest.mark.slow
def test_calibrate_from_log_learns_from_the_referee_s_corrections(config, tmp_path,
                                                                   capsys) -> None:
    db = tmp_path / "table.db"
    photos = sorted(PHOTOS.glob("*.jpg"))
    dice = log_of_corrections(db, photos)
    status = main(["calibrate", "--config", str(config), "--from-log", str(db)])
    out = capsys.readouterr().out
    assert out.startswith(f"Reading {len(photos)} known throws ({dice} dice) from "
                          f"{len(photos)} corrections in {db} with the learned reader and the "
                          "rule reader.\n")
    assert "Adapted to this table: " in out
    assert status in (0, 1)


def test_calibrate_from_a_log_without_pictured_corrections_says_what_to_do(
        config, tmp_path, capsys) -> None:
    db = tmp_path / "table.db"
    GameLog(str(db)).close()
    assert main(["calibrate", "--config", str(config), "--from-log", str(db)]) == 2
    assert capsys.readouterr().err == (
        f"bidou-table calibrate: the log {db} holds no dice correction with its picture: "
        "correct a misread throw from the referee console first, or give --known-throws DIR.\n")
    assert main(["calibrate", "--config", str(config), "--from-log", str(tmp_path / "no.db")]) == 2
    assert "there is no table log" in capsys.readouterr().err


def test_from_log_and_known_throws_together_count_both(config, throws, tmp_path, monkeypatch,
                                                       capsys) -> None:
    db = tmp_path / "table.db"
    log_of_corrections(db, sorted(PHOTOS.glob("*.jpg"))[:4])
    got = {}

    def recording(known, settings, seed=0, progress=None):
        got["names"] = [k.name for k in known]
        got["values"] = [k.values for k in known]
        got["pictures"] = [k.picture().shape for k in known]
        return kept(six_head())

    monkeypatch.setattr(calibrate_reader.adapt, "calibrate", recording)
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws),
                 "--from-log", str(db), "--dry-run"]) == 0
    assert len(got["names"]) == 32 + 4
    assert got["names"][-4:][0] == f"game 1 action 1 (Ann, {db})"
    assert got["values"][32] == tuple(values_of(sorted(PHOTOS.glob("*.jpg"))[0]))
    assert all(len(shape) == 3 for shape in got["pictures"])
    assert f"in {throws} and from 4 corrections in {db}" in capsys.readouterr().out


def test_a_broken_saved_head_is_a_sentence_naming_it_for_read_dice_and_calibrate_goes_on(
        config, throws, monkeypatch, capsys) -> None:
    config.write_text(ONLY_TABLE + '\n[vision]\nreader = "learned"\nhead = "pub.head.npz"\n')
    head = config.parent / "pub.head.npz"
    photo = str(PHOTOS / "valid_45.jpg")
    assert main(["read-dice", "--config", str(config), photo]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bidou-table read-dice: the table's own dice reader head {head} ")
    assert "is missing: calibrate the table again" in err
    head.write_bytes(b"not a head")
    assert main(["read-dice", "--config", str(config), photo]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bidou-table read-dice: {head} is not a dice reader head")
    assert "calibrate the table again" in err

    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: kept(six_head()))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Note: {head} is not a dice reader head")
    assert "Comparing with the model's own head instead." in out
    assert main(["read-dice", "--config", str(config), photo]) == 0  # mended by calibrating


def test_a_head_fitted_for_another_face_network_is_refused_with_a_sentence(
        config, throws, monkeypatch, capsys) -> None:
    """A model update changes the features a head reads: the old head would read noise."""
    monkeypatch.setattr(calibrate_reader.adapt, "calibrate",
                        lambda known, settings, seed=0, progress=None: kept(six_head(),
                                                                            network="0123"))
    assert main(["calibrate", "--config", str(config), "--known-throws", str(throws)]) == 0
    capsys.readouterr()
    assert main(["read-dice", "--config", str(config), str(PHOTOS / "valid_45.jpg")]) == 2
    head = config.parent / "pub.head.npz"
    assert capsys.readouterr().err.startswith(
        f"bidou-table read-dice: {head} was fitted for another face network than the one "
        "installed in ")


@pytest.mark.slow
def test_an_adaptation_fitted_on_wrong_values_is_not_kept_and_nothing_changes(
        config, throws, tmp_path, capsys) -> None:
    """The values written for the pictures it fits on are all wrong (each one off by one), the
    held-back ones right: what it learned reads them no better, so the table keeps reading as
    before and the config is untouched."""
    folder = tmp_path / "lies"
    shutil.copytree(throws, folder)
    names = sorted(p.name for p in folder.glob("*.jpg"))
    fitted, _ = adapt.split([adapt.Seen(name, (), ()) for name in names])
    for item in fitted:
        txt = folder / f"{pathlib.Path(item.name).stem}.txt"
        values = [int(v) for v in txt.read_text().replace(",", " ").split()]
        txt.write_text(" ".join(str(v % 6 + 1) for v in values) + "\n")
    main(["calibrate", "--config", str(config), "--known-throws", str(folder)])
    assert "The adapted head is not kept: it does not read the held-back throws better" in \
        capsys.readouterr().out
    # the lies make both readers err on every throw; the one with fewer errors may be chosen,
    # but no head is named and none is written
    assert "head" not in config.read_text() and config.read_text().startswith(ONLY_TABLE)
    assert sorted(p.name for p in config.parent.iterdir()) == ["lies", "pub.toml"]
