"""`bidou-table read-dice`: JSON lines per image, annotated copies, one error line per bad file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli.dispatch import main
from simulator.random_scenes import random_scene
from simulator.render import render_scene
from vision.cli import describe
from vision.learned import face_reader
from vision.learned.zone_reader import ZoneReader
from vision.picture import load_image
from vision.reading import Die, Reading, Unsure
from vision.rules.reader import read_dice as rule_read_dice

ROOT = Path(__file__).resolve().parents[2]
PHOTO_DATA = ROOT / "tests" / "data" / "dice"
DECODE_ERROR = "it is not a picture OpenCV can decode (corrupt or not an image file)"


def read_dice_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware.cli.dispatch", "read-dice", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


def iou(a, b) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ix = max(0, min(ax + aw, bx + bw) - max(ax, bx))
    iy = max(0, min(ay + ah, by + bh) - max(ay, by))
    inter = ix * iy
    return inter / (aw * ah + bw * bh - inter)


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """Two easy scenes (one at twice the webcam size), a corrupt JPEG, an empty file."""
    folder = tmp_path_factory.mktemp("photos")
    truths = {}
    for name, size, seed in (("easy.png", (640, 480), 1), ("large.png", (1280, 960), 2)):
        spec = random_scene(seed, 3, size=size, values=[6, 5, 3], surface="wood", noise=1.5)
        image, truth = render_scene(spec, seed)
        cv2.imwrite(str(folder / name), image)
        truths[name] = truth
    (folder / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a JPEG")
    (folder / "empty.png").write_bytes(b"")
    return folder, truths


def test_json_lines_one_per_image_with_dice_in_input_pixels(photos):
    folder, truths = photos
    paths = [str(folder / "easy.png"), str(folder / "large.png")]
    # rendered dice: the rule reader, which reads drawn dice best; the format is what is tested
    done = read_dice_cmd("--json", "--reader", "rules", *paths)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["image"] for line in lines] == paths
    for line, name in zip(lines, ("easy.png", "large.png"), strict=True):
        assert set(line) == {"image", "dice", "unsure"}
        assert sorted(d["value"] for d in line["dice"]) == [3, 5, 6]
        for d in line["dice"]:
            assert set(d) == {"value", "box", "confidence"} and 0.0 <= d["confidence"] <= 1.0
            # each box lies on the top face of the die with that value, in the input's pixels
            best = max(truths[name], key=lambda t: iou(t.box, d["box"]))
            assert best.value == d["value"] and iou(best.box, d["box"]) > 0.3


def test_a_corrupt_file_among_good_ones_is_one_error_line_and_exit_1(photos):
    folder, _ = photos
    bad, good = str(folder / "corrupt.jpg"), str(folder / "easy.png")
    missing = str(folder / "missing.png")
    done = read_dice_cmd("--json", bad, good, missing)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{bad}: cannot read image: {DECODE_ERROR}",
        f"{missing}: cannot read image: No such file or directory",
    ]
    assert [json.loads(line)["image"] for line in done.stdout.splitlines()] == [good]


def test_annotate_writes_a_png_per_image_read(photos, tmp_path):
    folder, _ = photos
    out = tmp_path / "new" / "annotated"
    empty = folder / "empty.png"
    done = read_dice_cmd("--annotate", str(out), str(folder / "easy.png"), str(empty))
    assert done.returncode == 1
    assert done.stderr == f"{empty}: cannot read image: the file is empty\n"
    assert sorted(p.name for p in out.iterdir()) == ["easy.annotated.png"]
    annotated = cv2.imread(str(out / "easy.annotated.png"))
    original = cv2.imread(str(folder / "easy.png"))
    assert annotated.shape == original.shape and not np.array_equal(annotated, original)


def test_annotate_into_a_directory_that_cannot_exist_is_refused_before_reading(photos, capsys):
    folder, _ = photos
    blocked = folder / "easy.png" / "out"  # a directory under a file
    status = main(["read-dice", "--annotate", str(blocked), str(folder / "easy.png")])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.startswith(
        f"bidou-table read-dice: cannot write annotated images to {blocked}: "
    )
    assert captured.err.endswith("; choose a directory you can write to.\n")


def test_same_stem_twice_gets_two_annotated_files(photos, tmp_path, capsys):
    folder, _ = photos
    copy = tmp_path / "again" / "easy.png"
    copy.parent.mkdir()
    copy.write_bytes((folder / "easy.png").read_bytes())
    out = tmp_path / "out"
    assert main(["read-dice", "--annotate", str(out), str(folder / "easy.png"), str(copy)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["easy-2.annotated.png", "easy.annotated.png"]


def test_without_json_one_line_per_image_for_people(photos, capsys):
    folder, _ = photos
    path = str(folder / "easy.png")
    assert main(["read-dice", "--reader", "rules", path]) == 0  # drawn dice, as above
    line = capsys.readouterr().out
    assert line.startswith(f"{path}: 3 dice: 6 5 3 (lowest confidence ")


def _json_dice(capsys, *args: str) -> list[dict]:
    assert main(["read-dice", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)["dice"]


def test_a_photograph_is_read_with_the_learned_reader_unless_reader_says_otherwise(
        tmp_path, capsys):
    """Files are photographs: the default for them is the learned reader
    (vision.settings.default_reader); --reader, or a config naming a reader, chooses."""
    # a photograph of coloured dice the two readers read apart (the rule reader reads none)
    photo = str(PHOTO_DATA / "topdown-colour" / "IMG_20191208_112209.jpg")
    image = load_image(photo)
    learned = ZoneReader(face_reader.Settings())(image).to_json()["dice"]
    rules = rule_read_dice(image).to_json()["dice"]
    # 7 dice; the one below a die it touches goes to the referee (the model's floor asks
    # where each die lies, vision/learned/opinions.py's side)
    assert learned != rules and len(learned) == 6
    assert _json_dice(capsys, photo) == learned
    assert _json_dice(capsys, "--reader", "learned", photo) == learned
    assert _json_dice(capsys, "--reader", "rules", photo) == rules
    config = tmp_path / "table.toml"
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n[vision]\nreader = "rules"\n')
    assert _json_dice(capsys, "--config", str(config), photo) == rules
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n')  # names none: photographs' default
    assert _json_dice(capsys, "--config", str(config), photo) == learned


def test_describe_names_values_high_first_and_unsure_places():
    reading = Reading(
        dice=(Die(2, (0, 0, 9, 9), 0.9), Die(5, (20, 0, 9, 9), 0.75)),
        unsure=(Unsure((40, 50, 9, 9), "two dice touch"),),
    )
    assert describe("a.jpg", reading) == (
        "a.jpg: 2 dice: 5 2 (lowest confidence 75%); 1 not sure: two dice touch at 40,50"
    )
    assert describe("b.jpg", Reading()) == "b.jpg: no dice read"


def test_load_image_says_why_a_file_is_not_a_picture(tmp_path):
    text = tmp_path / "notes.png"
    text.write_text("hello")
    with pytest.raises(ValueError, match="corrupt or not an image file"):
        load_image(str(text))
    with pytest.raises(IsADirectoryError):
        load_image(str(tmp_path))


def test_needs_at_least_one_image(capsys):
    with pytest.raises(SystemExit) as e:
        main(["read-dice", "--json"])
    assert e.value.code == 2
    assert "the following arguments are required: IMAGE" in capsys.readouterr().err


def test_a_blank_picture_and_a_directory_are_unreadable_too(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    assert main(["read-dice", "--json", str(blank), str(tmp_path)]) == 1
    captured = capsys.readouterr()
    first, second = captured.err.splitlines()
    assert first.startswith(f"{blank}: cannot read image: ") and "blank" in first
    assert second == f"{tmp_path}: cannot read image: Is a directory"
    assert captured.out == ""
