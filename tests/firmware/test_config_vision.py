"""The config's ``[vision]``: which dice reader the table uses, its own head and thresholds;
each bad value stops the start with one sentence, and the house wires the reader the config
names, with the table's own head."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import numpy as np
import pytest

from engine.errors import ConfigError, VisionError
from firmware.settings.config import build_config, default_config, load_config
from firmware.table.house import build_house, real_reader
from hardware.cameras.files import FolderSource
from hardware.cameras.simulated import SimulatedCamera
from vision.learned import face_reader
from vision.learned.face_model import CLASSES, Head
from vision.learned.zone_reader import ZoneReader
from vision.reader import WholeFrame
from vision.rules.reader import read_dice as rule_read_dice
from vision.settings import THRESHOLDS, VisionSettings
from vision.zones import default_zones

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "firmware" / "table.example.toml"
PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood"


def _cfg(vision: dict) -> dict:
    return {"table": {"variant": "two-hand", "players": ["Ann", "Bob"]}, "vision": vision}


def test_without_a_vision_section_no_reader_is_named_and_the_camera_decides():
    """A config without [vision] names no reader: the table reads with the default for its
    camera (vision.settings.default_reader)."""
    config = default_config(environ={})
    assert config.vision == VisionSettings()
    assert config.vision.reader is None
    assert config.vision.thresholds == {}
    assert config.vision.reader_for(drawn=False) == "learned"
    assert config.vision.reader_for(drawn=True) == "rules"


def test_the_example_documents_every_vision_key_and_each_one_uncommented_loads(tmp_path):
    """table.example.toml is the pub's reference: every key [vision] takes is in it, and
    uncommenting them gives a config that loads with those values."""
    text = EXAMPLE.read_text()
    # the install copies it: it names no reader, so a Pi's camera reads with the learned one
    assert load_config(str(EXAMPLE), environ={}).vision == VisionSettings()
    section = text.split("[vision]\n", 1)[1].split("\n[", 1)[0]
    uncommented = re.sub(r"^# (\w+ = )", r"\1", section, flags=re.MULTILINE)
    for key in ("reader", *THRESHOLDS, "head"):
        assert re.search(rf"^{key} = ", uncommented, re.MULTILINE), f"{key} is not documented"
    path = tmp_path / "table.toml"
    path.write_text(text.replace(section, uncommented))
    vision = load_config(str(path), environ={}).vision
    assert vision == VisionSettings("learned", min_value=0.9, not_a_die=0.5, detect=0.3,
                                    sure_die=0.003,
                                    head="table.head.npz")


def test_thresholds_are_kept_as_given_and_whole_numbers_count_as_fractions():
    vision = build_config(_cfg({"reader": "learned", "min_value": 1, "detect": 0.25}),
                          environ={}).vision
    assert vision.thresholds == {"min_value": 1.0, "detect": 0.25}
    assert isinstance(vision.thresholds["min_value"], float)


@pytest.mark.parametrize(("vision", "sentence"), [
    ({"reader": "neural"},
     "vision.reader = 'neural' is not allowed: \"rules\" or \"learned\""),
    ({"min_value": 1.5},
     "vision.min_value = 1.5 is not allowed: a number from 0 to 1, e.g. 0.9"),
    ({"min_value": "0.9"},
     "vision.min_value = '0.9' is not allowed: a number from 0 to 1, e.g. 0.9"),
    ({"not_a_die": -0.1},
     "vision.not_a_die = -0.1 is not allowed: a number from 0 to 1, e.g. 0.9"),
    ({"detect": True},
     "vision.detect = True is not allowed: a number from 0 to 1, e.g. 0.9"),
    ({"head": 3},
     "vision.head = 3 is not allowed: the file name of the table's own head, e.g. "
     '"table.head.npz", as bidou-table calibrate --known-throws writes it'),
    ({"head": "table.toml"},
     "vision.head = 'table.toml' is not allowed: the file name of the table's own head, e.g. "
     '"table.head.npz", as bidou-table calibrate --known-throws writes it'),
    ({"min_views": 8},
     "vision.min_views = 8 is not allowed: no longer a key: it was the old learned reader's "
     "threshold; delete the line (bidou-table calibrate --known-throws adapts the new reader)"),
    ({"second_veto": 0.5},
     "vision.second_veto = 0.5 is not allowed: no such key; [vision] takes reader, head, "
     "min_value, not_a_die, detect, sure_die"),
])
def test_each_bad_vision_value_is_one_sentence_naming_key_value_and_what_is_allowed(vision,
                                                                                   sentence):
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(vision), environ={})
    assert str(e.value) == sentence


def test_vision_must_be_a_table():
    with pytest.raises(ConfigError, match=r"^vision = 'learned' is not allowed: a table"):
        build_config({**_cfg({}), "vision": "learned"}, environ={})


def is_rule_reader(reader: object) -> bool:
    return isinstance(reader, WholeFrame) and reader.read is rule_read_dice


def _folder_camera(tmp_path: pathlib.Path) -> FolderSource:
    """A real camera's kind (pictures from a folder), on a webcam photograph."""
    folder = tmp_path / "frames"
    folder.mkdir()
    shutil.copy(PHOTOS / "valid_1.jpg", folder / "valid_1.jpg")
    return FolderSource(folder)


def test_an_untaught_table_with_a_real_camera_reads_with_the_learned_reader(tmp_path):
    with _folder_camera(tmp_path) as camera:
        reader = real_reader(camera)
    assert isinstance(reader, ZoneReader)
    assert reader.settings == face_reader.Settings()  # the model's own head and thresholds


def test_the_simulated_cameras_table_reads_with_the_rule_reader():
    camera = SimulatedCamera(default_zones(["Ann", "Bob"], 640, 480), (640, 480))
    try:
        assert is_rule_reader(real_reader(camera))
        assert is_rule_reader(real_reader(camera, VisionSettings(min_value=0.5)))
    finally:
        camera.close()


def test_a_config_naming_a_reader_keeps_it_whatever_the_camera(tmp_path):
    drawn = SimulatedCamera(default_zones(["Ann", "Bob"], 640, 480), (640, 480))
    try:
        with _folder_camera(tmp_path) as photographs:
            assert is_rule_reader(real_reader(photographs, VisionSettings(reader="rules")))
        assert isinstance(real_reader(drawn, VisionSettings(reader="learned")), ZoneReader)
    finally:
        drawn.close()


def test_the_learned_reader_gets_the_tables_own_thresholds_and_the_models_for_the_rest():
    reader = real_reader(None, VisionSettings(reader="learned", min_value=0.8, detect=0.4))
    assert isinstance(reader, ZoneReader)
    assert reader.settings == face_reader.Settings(min_value=0.8, detect=0.4)


def _with_head(tmp_path: pathlib.Path, data: bytes | None) -> pathlib.Path:
    """A config naming its own head pub.head.npz (written with ``data``; None: a real head)."""
    config = tmp_path / "pub.toml"
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n[vision]\nreader = "learned"\n'
                      'head = "pub.head.npz"\n')
    head = tmp_path / "pub.head.npz"
    if data is None:
        features = face_reader.load().faces.features
        Head(np.zeros((CLASSES, features), np.float32), np.zeros(CLASSES, np.float32)).save(head)
    else:
        head.write_bytes(data)
    return config


def test_the_house_reads_the_throws_with_the_reader_and_head_the_config_names(tmp_path):
    """What `bidou-table run` builds: no reader is given, so [vision] decides, and the head
    is found beside the config."""
    config = load_config(str(_with_head(tmp_path, None)), environ={})
    with build_house(config, db=str(tmp_path / "t.db"), seed=1, panels=False) as house:
        assert house.watcher is not None
        read = house.watcher._read
        assert isinstance(read, ZoneReader)
        assert read.settings.head == tmp_path / "pub.head.npz"
    with build_house(default_config(environ={}), db=str(tmp_path / "r.db"), seed=1,
                     panels=False) as house:
        assert house.watcher is not None and is_rule_reader(house.watcher._read)


@pytest.mark.parametrize(("data", "words"), [
    (b"not a head", "is not a dice reader head"),
    (None, "is missing: calibrate the table again"),
])
def test_a_broken_or_missing_head_stops_the_house_with_a_sentence_naming_it(tmp_path, data,
                                                                           words):
    config_path = _with_head(tmp_path, data or b"x")
    if data is None:
        (tmp_path / "pub.head.npz").unlink()
    config = load_config(str(config_path), environ={})
    with pytest.raises(VisionError) as e:
        build_house(config, db=str(tmp_path / "t.db"), seed=1, panels=False)
    assert str(tmp_path / "pub.head.npz") in str(e.value) and words in str(e.value)


def test_run_with_a_broken_head_exits_2_with_one_sentence_naming_it(tmp_path, bidou):
    """`bidou-table run` stops before the table opens, as for a bad config."""
    config = _with_head(tmp_path, b"not a head")
    done = subprocess.run(bidou("run", "--simulate", "--config", str(config), "--db",
                                str(tmp_path / "t.db"), "--port", "0"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"bidou-table run: {tmp_path / 'pub.head.npz'} is not a dice reader "
                           "head")
    assert last.endswith("Then start again.")
