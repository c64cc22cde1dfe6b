"""`bidou-table calibrate --known-throws DIR` teaches the table its own network where the
learn extra (PyTorch) is installed (firmware/teach/calibrate_reader.py through vision.calibrate.
folds): it says how the taught network read the folds held out of its teaching against the
untaught table, keeps it only when that is better, and what it keeps `read-dice --config`
loads. A short teaching (2 folds, 3 steps) on tests/data's webcam pictures keeps it fast;
without PyTorch these are skipped (tests/firmware/test_calibrate_adapt.py covers that table).
"""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

pytest.importorskip("torch", reason="teaching the table's network needs the learn extra "
                    "(make learn)")
pytest.importorskip("onnx2torch", reason="the learn extra (make learn) brings onnx2torch")

from firmware.cli.dispatch import main  # noqa: E402
from firmware.settings.config import load_config  # noqa: E402
from vision.calibrate import folds, network, teach  # noqa: E402
from vision_lab.evaluate import load_labels  # noqa: E402

PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood"


@pytest.fixture
def throws(tmp_path) -> pathlib.Path:
    """About 35 known dice: webcam-wood's first pictures, each with its values in NAME.txt."""
    import cv2  # lazy: only to size the labels

    folder = tmp_path / "throws"
    folder.mkdir()
    dice = 0
    for photo in sorted(PHOTOS.glob("*.jpg")):
        height, width = cv2.imread(str(photo)).shape[:2]
        values = [lab.value for lab in load_labels(photo.with_suffix(".txt"), width, height)]
        if not values:
            continue
        shutil.copy(photo, folder / photo.name)
        (folder / f"{photo.stem}.txt").write_text(", ".join(map(str, values)) + "\n")
        dice += len(values)
        if dice >= 35:
            return folder
    raise AssertionError("tests/data holds too few webcam-wood dice")


@pytest.mark.slow
def test_calibrate_teaches_the_table_s_network_and_keeps_it_only_when_the_folds_read_better(
        tmp_path, throws, monkeypatch, capsys) -> None:
    monkeypatch.setenv(network.NO_TEACHING, "1")  # the suite's default is "0" (conftest)
    monkeypatch.setattr(teach, "STEPS", 3)
    monkeypatch.setattr(folds, "FOLDS", 2)
    config = tmp_path / "pub.toml"
    config.write_text("[table]\nplayers = [\"Ann\", \"Bob\"]\n")
    status = main(["calibrate", "--config", str(config), "--known-throws", str(throws)])
    out = capsys.readouterr().out
    assert network.HEAD_ONLY not in out
    assert "The table's own network, taught 2 times" in out
    untaught = next(line for line in out.splitlines() if line.startswith("Untaught"))
    taught = next(line for line in out.splitlines() if line.startswith("Taught"))
    assert "dice read right" in untaught and "dice read right" in taught
    # 35 known dice cannot show 1 wrong die in 500: the table stays careful and says how
    # many more throws would show it
    assert "the table stays careful: about" in out and "more known throws" in out
    faces = tmp_path / "pub.faces.onnx"
    if "Kept: the taught network reads the folds held out better" in out:
        assert status == 0 and faces.is_file()
        record = json.loads((tmp_path / "pub.reader.json").read_text())
        assert record["faces"] == "pub.faces.onnx" and record["calibration"]["folds"] == 2
        assert load_config(str(config), environ={}).vision.head == "pub.head.npz"
        photo = str(PHOTOS / "valid_45.jpg")
        assert main(["read-dice", "--json", "--config", str(config), photo]) == 0
        assert json.loads(capsys.readouterr().out)["image"] == photo
    else:
        assert "The taught network is not kept" in out and not faces.exists()
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.slow
def test_known_throws_with_every_die_boxed_teach_the_die_finder_too(tmp_path, throws,
                                                                     monkeypatch, capsys) -> None:
    """Boxes beside the pictures (NAME.json, as the Dice page writes them): the calibration
    says the die finder was taught on them, and, kept, saves it as NAME.detector.onnx, named
    in NAME.reader.json, which read-dice --config reads with."""
    import cv2  # lazy: only to size the labels

    from vision.calibrate import finder  # lazy: with the learn extra, as this module's
    from vision_lab.labels import face_dice  # lazy: the boxes as the Dice page marks them

    for photo in sorted(throws.glob("*.jpg")):
        height, width = cv2.imread(str(photo)).shape[:2]
        boxes = [{"box": [d.centre[0] - d.size / 2, d.centre[1] - d.size / 2, d.size, d.size],
                  "value": d.value} for d in face_dice("webcam-wood", PHOTOS / photo.name, width,
                                                   height)]
        photo.with_suffix(".json").write_text(json.dumps(boxes))
    monkeypatch.setenv(network.NO_TEACHING, "1")
    monkeypatch.setattr(teach, "STEPS", 3)
    monkeypatch.setattr(finder, "STEPS", 3)
    monkeypatch.setattr(folds, "FOLDS", 2)
    config = tmp_path / "pub.toml"
    config.write_text("[table]\nplayers = [\"Ann\", \"Bob\"]\n")
    main(["calibrate", "--config", str(config), "--known-throws", str(throws)])
    out = capsys.readouterr().out
    pictures = len(list(throws.glob("*.jpg")))
    assert f"Its die finder was taught too, on the {pictures} pictures whose every die" in out
    if "Kept: the taught network reads the folds held out better" in out:
        record = json.loads((tmp_path / "pub.reader.json").read_text())
        assert record["detector"] == "pub.detector.onnx"
        assert (tmp_path / "pub.detector.onnx").is_file()
        photo = str(PHOTOS / "valid_45.jpg")
        assert main(["read-dice", "--json", "--config", str(config), photo]) == 0
        assert json.loads(capsys.readouterr().out)["image"] == photo
    else:
        assert not (tmp_path / "pub.detector.onnx").exists()
