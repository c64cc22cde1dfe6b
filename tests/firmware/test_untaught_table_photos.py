"""An untaught table reads white dice with black pips at least as well as the learned reader.

The promise of the default reader (``vision.settings.default_reader``): a table whose config
names no reader, built as ``bidou-table run`` builds it on a real camera (here a folder of
pictures, a camera kind that photographs its dice), reads the webcam photographs of white
dice with black pips in tests/data (a fixed subset of webcam-wood's held-out Valid split,
with its licence) with the learned reader: at least the dice the learned reader reads right
on its own, and no more wrong values or phantom dice. The learned reader read 68 of the 71
dice right, none wrong, 1 phantom, when it was shipped (tests/vision/test_learned_photos.py
holds its floor: 66, 0, 1).
"""

from __future__ import annotations

import pathlib
import shutil

from firmware.settings.config import build_config
from firmware.table.house import build_house
from vision.learned.face_reader import read_dice as learned_read_dice
from vision.learned.zone_reader import ZoneReader
from vision_lab.evaluate import evaluate, pictures

PHOTOS = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood"
#: the learned reader's floor on these photographs: fewest right, most wrong, most phantom
FLOOR = (66, 0, 1)


def test_an_untaught_table_reads_white_dice_photographs_at_least_as_the_learned_reader(
        tmp_path):
    photos = pictures([PHOTOS])
    assert len(photos) == 32, "the fixed subset of webcam photographs is incomplete"
    frames = tmp_path / "camera"
    frames.mkdir()
    for photo in photos[:2]:  # the camera's pictures; the reader is judged on all of them
        shutil.copy(photo, frames / photo.name)
    config = build_config({"table": {"players": ["Ann", "Bob"]},
                           "camera": {"kind": "folder", "device": str(frames)},
                           "referee": {"pin": "246813"}},
                          simulate=False, environ={})
    assert config.vision.reader is None  # untaught: [vision] names nothing
    with build_house(config, db=str(tmp_path / "t.db"), simulate=False, panels=False) as house:
        assert house.watcher is not None
        table_reader = house.watcher.reader
        assert isinstance(table_reader, ZoneReader)
        table = evaluate(table_reader, photos)
    learned = evaluate(learned_read_dice, photos)
    print(f"\nthe untaught table on {PHOTOS.name}: {table.summary()}")
    print(f"the learned reader on {PHOTOS.name}: {learned.summary()}")
    assert table.dice == learned.dice == 71
    assert table.right >= learned.right
    assert table.wrong <= learned.wrong
    assert table.extra <= learned.extra
    fewest_right, most_wrong, most_extra = FLOOR
    assert table.right >= fewest_right
    assert table.wrong <= most_wrong
    assert table.extra <= most_extra
