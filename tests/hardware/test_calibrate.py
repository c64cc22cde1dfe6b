"""`bidou-table calibrate`: zones found on a rendered table, saved into the TOML, comments kept."""

from __future__ import annotations

import pathlib
import tomllib

import cv2
import pytest

from engine.errors import ConfigError
from firmware.cli.dispatch import main
from hardware.config_edit import save_vision, save_zones
from simulator.render import render_scene
from simulator.table_scenes import table_scene
from vision.zones import Zone, default_zones, parse_zones

SEATS = ["Ann", "Bob", "Cy", "Dee"]
CONFIG = """\
# The Red Lion's table: keep this comment
[table]
variant = "two-hand"  # the classic game
players = ["Ann", "Bob", "Cy", "Dee"]

[camera]
kind = "simulated"
"""


@pytest.fixture
def config(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG)
    return path


@pytest.fixture
def table_picture(tmp_path: pathlib.Path):
    """A rendered 640x480 table with three dice in each default zone, and where they are."""
    zones = default_zones(SEATS, 640, 480)
    dice = {"Ann": [2, 3, 5], "Bob": [4, 4, 6], "Cy": [5, 6, 2], "Dee": [3, 4, 5]}
    image, truth = render_scene(table_scene(zones, dice, seed=3, size=(640, 480)), seed=3)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    owners = [seat for seat, values in dice.items() for _ in values]
    return path, list(zip(owners, truth, strict=True))


def test_calibrate_from_an_image_writes_zones_and_keeps_comments(config, table_picture,
                                                                  capsys) -> None:
    image, truth = table_picture
    assert main(["calibrate", "--config", str(config), "--image", str(image)]) == 0
    text = config.read_text()
    assert text.startswith(CONFIG)  # everything the pub wrote is still there, comments too
    zones = {z.seat: z for z in parse_zones(tomllib.loads(text)["zones"], frame=(640, 480))}
    assert list(zones) == SEATS
    for seat, die in truth:
        x, y, w, h = die.box
        assert zones[seat].contains(x + w / 2, y + h / 2), f"{seat}'s die at {die.box}"
    out = capsys.readouterr().out
    assert "Saved 4 zones as [zones.SEAT] tables in" in out
    assert "  Ann: x=" in out


def test_calibrate_again_replaces_the_old_zones(config, table_picture) -> None:
    image, _ = table_picture
    save_zones(config, [Zone("Zed", 0, 0, 10, 10)])
    assert main(["calibrate", "--config", str(config), "--image", str(image)]) == 0
    data = tomllib.loads(config.read_text())
    assert list(data["zones"]) == SEATS


def test_dry_run_changes_nothing(config, table_picture, capsys) -> None:
    image, _ = table_picture
    assert main(["calibrate", "--config", str(config), "--image", str(image),
                 "--dry-run"]) == 0
    assert config.read_text() == CONFIG
    assert "Dry run: the config was not changed." in capsys.readouterr().out


def test_calibrate_with_the_simulated_camera(config, tmp_path) -> None:
    annotated = tmp_path / "zones.png"
    assert main(["calibrate", "--config", str(config), "--seats", "2",
                 "--annotate", str(annotated)]) == 0
    assert list(tomllib.loads(config.read_text())["zones"]) == ["Ann", "Bob"]
    assert cv2.imread(str(annotated)).shape == (480, 640, 3)


def test_calibrate_on_an_empty_table_stops_without_saving(config, tmp_path, capsys) -> None:
    empty, _ = render_scene(table_scene(default_zones(SEATS, 640, 480), {}, seed=1), seed=1)
    cv2.imwrite(str(tmp_path / "empty.png"), empty)
    assert main(["calibrate", "--config", str(config), "--image",
                 str(tmp_path / "empty.png")]) == 1
    assert config.read_text() == CONFIG
    assert "bidou-table calibrate: found 0 dice but 4 seats need 3 each" in capsys.readouterr().err


def test_default_if_not_found_saves_the_default_layout(config, tmp_path) -> None:
    empty, _ = render_scene(table_scene(default_zones(SEATS, 640, 480), {}, seed=1), seed=1)
    cv2.imwrite(str(tmp_path / "empty.png"), empty)
    assert main(["calibrate", "--config", str(config), "--image", str(tmp_path / "empty.png"),
                 "--default-if-not-found"]) == 0
    zones = parse_zones(tomllib.loads(config.read_text())["zones"])
    assert zones == default_zones(SEATS, 640, 480)


@pytest.mark.parametrize(("args", "message"), [
    (["--image", "/nonexistent.png"],
     "cannot read the picture /nonexistent.png: No such file or directory; give the path of "
     "a JPEG or PNG file"),
    (["--image", __file__],
     f"cannot read the picture {__file__}: it is not a picture OpenCV can decode (corrupt or "
     "not an image file); give the path of a JPEG or PNG file"),
    (["--seats", "9"], "--seats = '9' is not allowed: a number from 1 to 4"),
    (["--seats", "Ann,Zed"], "--seats = 'Ann,Zed' is not allowed: players of [table] players"),
    (["--camera", "usb", "--device", "/dev/video97"], "no USB camera at /dev/video97"),
])
def test_calibrate_errors_are_sentences_and_exit_1(config, capsys, args, message) -> None:
    assert main(["calibrate", "--config", str(config), *args]) == 1
    assert message in capsys.readouterr().err
    assert config.read_text() == CONFIG


def test_missing_config_file_is_named(tmp_path, capsys) -> None:
    assert main(["calibrate", "--config", str(tmp_path / "none.toml")]) == 1
    assert "--config = " in capsys.readouterr().err


def test_save_zones_refuses_overlapping_zones_and_keeps_the_file(config) -> None:
    with pytest.raises(ConfigError, match=r"overlaps Ann's zone"):
        save_zones(config, [Zone("Ann", 0, 0, 100, 100), Zone("Bob", 50, 50, 100, 100)])
    assert config.read_text() == CONFIG


RECALIBRATE = """\
[table]
players = ["Ann", "Bob"]

# zones measured on opening night
[zones.Ann]
x = 1  # left edge of Ann's tray
y = 1
w = 5
h = 5

[zones.Zed]
x = 100
y = 1
w = 5
h = 5

# the dashboard
[server]
port = 8080  # behind the bar
"""


def test_save_zones_updates_zones_in_place_keeping_every_comment(tmp_path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(RECALIBRATE)
    save_zones(path, [Zone("Ann", 0, 0, 10, 10), Zone("Bob", 20, 0, 10, 10)])
    text = path.read_text()
    for comment in ("# zones measured on opening night", "x = 0  # left edge of Ann's tray",
                    "# the dashboard", "port = 8080  # behind the bar"):
        assert comment in text
    data = tomllib.loads(text)
    assert data["zones"] == {"Ann": {"x": 0, "y": 0, "w": 10, "h": 10},
                             "Bob": {"x": 20, "y": 0, "w": 10, "h": 10}}
    assert data["server"] == {"port": 8080}


def test_save_zones_replaces_an_inline_zones_table(tmp_path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('zones = { Ann = { x = 1, y = 1, w = 5, h = 5 } }\n'
                    '[table]\nplayers = ["Ann"]\n')
    save_zones(path, [Zone("Ann", 0, 0, 10, 10)])
    data = tomllib.loads(path.read_text())
    assert data["zones"] == {"Ann": {"x": 0, "y": 0, "w": 10, "h": 10}}
    assert data["table"] == {"players": ["Ann"]}


def test_save_vision_puts_a_new_key_after_the_last_one_keeping_every_comment(tmp_path):
    """The table's head goes under [vision] as a pub would write it: after the table's last
    key, before the comments that introduce the next section (tomlkit 0.15 too)."""
    path = tmp_path / "table.toml"
    path.write_text('[table]\nplayers = ["Ann", "Bob"]\n\n[vision]\nreader = "learned"  # ours\n'
                    '\n# the dashboard\n[server]\nport = 8080\n')
    save_vision(path, {"head": "table.head.npz"})
    assert path.read_text() == ('[table]\nplayers = ["Ann", "Bob"]\n\n[vision]\n'
                                'reader = "learned"  # ours\nhead = "table.head.npz"\n'
                                '\n# the dashboard\n[server]\nport = 8080\n')
    save_vision(path, {"head": "other.head.npz"})  # a key already there keeps its place
    assert 'reader = "learned"  # ours\nhead = "other.head.npz"\n' in path.read_text()
    bare = tmp_path / "bare.toml"
    bare.write_text('[table]\nplayers = ["Ann", "Bob"]\n')
    save_vision(bare, {"reader": "learned", "head": "bare.head.npz"})
    assert bare.read_text().startswith('[table]\nplayers = ["Ann", "Bob"]\n')
    assert '[vision]\nreader = "learned"\nhead = "bare.head.npz"\n' in bare.read_text()


@pytest.mark.parametrize(("camera", "vision", "learned"), [
    ('[camera]\nkind = "usb"\n', "", True),  # a camera's photographs, --image one of them
    ('[camera]\nkind = "simulated"\n', "", False),  # drawn dice
    ("", "", False),  # no [camera]: the simulated one
    ('[camera]\nkind = "usb"\n', '[vision]\nreader = "rules"\n', False),  # named: kept
    ('[camera]\nkind = "simulated"\n', '[vision]\nreader = "learned"\n', True),
])
def test_the_zones_are_found_with_the_reader_the_table_reads_with(tmp_path, camera, vision,
                                                                  learned) -> None:
    """The zone calibration reads the dice as the table will (vision.settings.default_reader
    when the config names no reader), --image or not."""
    import argparse

    from hardware.calibrate import table_reader
    from hardware.config_edit import read_config
    from vision.learned.zone_reader import ZoneReader

    path = tmp_path / "table.toml"
    path.write_text('[table]\nplayers = ["Ann", "Bob"]\n' + camera + vision)
    for image in (None, "frame.jpg"):
        args = argparse.Namespace(config=str(path), camera=None, device=None, image=image)
        reader = table_reader(args, read_config(path))
        assert isinstance(reader, ZoneReader) is learned
