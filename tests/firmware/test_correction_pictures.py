"""A referee's dice correction keeps the camera's picture with it in the log
(firmware/camera/seat_reads.py, firmware/gamelog/log.py), and `calibrate --from-log` reads
them back as known throws (firmware/teach/correction_pictures.py)."""

from __future__ import annotations

import pathlib

import cv2
import numpy as np
import pytest

from firmware.camera.throws import DiceWatcher
from firmware.cli.dispatch import main
from firmware.gamelog.log import GameLog
from firmware.table.commands import Correct, EnterDice, Press
from firmware.table.controller import TableController
from firmware.teach.correction_pictures import known_from_log
from vision.reader import WholeFrame
from vision.zones import Zone

ZONES = {"Ann": Zone("Ann", 0, 0, 100, 100), "Bob": Zone("Bob", 100, 0, 100, 100)}


PHOTO = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice" / "webcam-wood" / \
    "valid_45.jpg"


class PaintedTable:
    """The fake table's reading over a frame that is not blank: Ann's zone holds a real
    photograph of dice (shrunk), Bob's a grey."""

    def __init__(self, fake) -> None:
        self.fake = fake
        self.frame = np.zeros((100, 300, 3), np.uint8)
        self.frame[:, :100] = cv2.resize(cv2.imread(str(PHOTO)), (100, 100))
        self.frame[:, 100:200] = 120

    def read(self) -> np.ndarray:
        return self.frame.copy()

    name = "painted"

    def close(self) -> None:
        pass


def controller(fake, db: str, *, bottom_faces: bool = False) -> TableController:
    zones = {p: ZONES[p] for p in ("Ann", "Bob")}
    watcher = DiceWatcher(PaintedTable(fake), zones, WholeFrame(fake.reader), frame_pause=0.0,
                          bottom_faces=bottom_faces)
    return TableController(GameLog(db), variant="two-hand", players=("Ann", "Bob"),
                           watcher=watcher, wall_clock=lambda: "2026-01-01T00:00:00Z").start()


def to_throwing(c, fake, bottom: bool = False) -> None:
    fake.put("Ann", [2 if bottom else 5])  # a glass table: the camera sees 7 - v
    assert c.submit(Press("Ann", "THROW")).ok
    fake.put("Bob", [4 if bottom else 3])
    assert c.submit(Press("Bob", "THROW")).ok


def test_a_fix_dice_of_a_throw_the_camera_read_keeps_its_picture_and_the_right_values(
        tmp_path, fake):
    db = str(tmp_path / "t.db")
    c = controller(fake, db)
    try:
        to_throwing(c, fake)
        fake.put("Ann", [6, 5, 4])
        assert c.submit(Press("Ann", "THROW")).ok
        assert c.submit(Correct("fix-dice", by="Ref", why="a 3 read as 4", seat="Ann",
                                values=(6, 5, 3))).ok
        (kept,) = c.log.pictures()
    finally:
        c.stop()
    assert (kept.kind, kept.text) == ("fix-dice", "3 Ann throw 6 5 3")
    assert (kept.picture.seat, kept.picture.seen) == ("Ann", (6, 5, 3))
    picture = cv2.imdecode(np.frombuffer(kept.picture.image, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (100, 100, 3)  # Ann's zone, not the whole frame

    (throw,) = known_from_log(db)  # what calibrate --from-log learns from
    assert throw.values == (6, 5, 3) and throw.picture().shape == (100, 100, 3)
    assert throw.name == f"game 1 action 3 (Ann, {db})"


def test_dice_the_referee_enters_for_a_throw_with_values_pending_keep_its_picture(
        tmp_path, fake):
    c = controller(fake, str(tmp_path / "t.db"))
    try:
        to_throwing(c, fake)
        fake.put("Ann", [6, 5])
        assert c.submit(Press("Ann", "THROW")).values_pending
        assert c.submit(Press("Ann", "THROW", long=True)).ok
        assert c.submit(EnterDice("Ann", (6, 5, 1), by="ref")).ok
        (kept,) = c.log.pictures()
    finally:
        c.stop()
    assert (kept.kind, kept.text, kept.picture.seen) == ("fix-dice", "3 Ann throw 6 5 1",
                                                         (6, 5, 1))


def test_under_a_glass_table_the_picture_keeps_the_faces_the_camera_sees(tmp_path, fake):
    c = controller(fake, str(tmp_path / "t.db"), bottom_faces=True)
    try:
        to_throwing(c, fake, bottom=True)
        fake.put("Ann", [1, 2, 3])  # seen from below: the table's 6 5 4
        assert c.submit(Press("Ann", "THROW")).ok
        assert c.game.concealed_dice("Ann") == (6, 5, 4)
        assert c.submit(Correct("fix-dice", by="Ref", why="misread", seat="Ann",
                                values=(6, 5, 3))).ok
        (kept,) = c.log.pictures()
    finally:
        c.stop()
    assert kept.picture.seen == (1, 2, 4)


def test_a_fix_of_dice_the_camera_did_not_read_keeps_no_picture(tmp_path, fake):
    """The referee entered the throw by hand, or an undo moved the positions: no picture can
    be trusted to show the corrected throw, so none is kept with the fix."""
    c = controller(fake, str(tmp_path / "t.db"))
    try:
        to_throwing(c, fake)
        fake.put("Ann", [6, 5, 4])
        assert c.submit(Press("Ann", "THROW")).ok
        assert c.submit(Correct("undo", by="Ref", why="pressed twice")).ok
        assert c.submit(Correct("fix-dice", by="Ref", why="x", position=2, values=(2,))).ok
        assert c.log.pictures() == []
    finally:
        c.stop()


@pytest.mark.slow  # the real reader on a dozen photos: 3 minutes under arm64 emulation
def test_a_correction_made_at_the_table_is_learned_from_by_calibrate_from_log(tmp_path, fake,
                                                                            capsys):
    """The whole path: a throw read, the referee's fix, then calibrate --from-log (with a
    folder, as 30 dice are needed) reads that picture with the corrected values."""
    db = str(tmp_path / "t.db")
    c = controller(fake, db)
    try:
        to_throwing(c, fake)
        fake.put("Ann", [6, 5, 4])
        assert c.submit(Press("Ann", "THROW")).ok
        assert c.submit(Correct("fix-dice", by="Ref", why="misread", seat="Ann",
                                values=(3, 2, 1))).ok
    finally:
        c.stop()
    folder = tmp_path / "throws"
    folder.mkdir()
    for i in range(10):
        cv2.imwrite(str(folder / f"t{i}.png"), cv2.imread(str(PHOTO)))
        (folder / f"t{i}.txt").write_text("1 2 3\n")
    config = tmp_path / "pub.toml"
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n')
    status = main(["calibrate", "--config", str(config), "--known-throws", str(folder),
                   "--from-log", db, "--dry-run"])
    out = capsys.readouterr().out
    assert out.startswith(f"Reading 11 known throws (33 dice) in {folder} and from 1 correction "
                          f"in {db} with the learned reader and the rule reader.\n"), out
    assert "Left out" not in out
    assert status in (0, 1)
