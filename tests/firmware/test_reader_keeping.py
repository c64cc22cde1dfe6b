"""Going back to the reader set aside at the last keep restores every file of it: the head,
the table's own face network and die finder, and the thresholds file that names them
(firmware/teach/reader_keeping.py); a file the reader in force did not have leaves no older copy
to come back. A calibration held and not kept leaves no taught files
(firmware/teach/learning.py)."""

from __future__ import annotations

import pathlib
import tomllib

from firmware.teach.calibrate_reader import Calibration
from firmware.teach.learning import Learning
from firmware.teach.reader_keeping import ReaderFiles
from vision.calibrate import folds
from vision.calibrate.known import Tally

FILES = ("pub.head.npz", "pub.faces.onnx", "pub.detector.onnx", "pub.reader.json")


def test_go_back_restores_the_head_its_networks_and_its_thresholds(tmp_path) -> None:
    config = tmp_path / "pub.toml"
    config.write_text('[vision]\nreader = "learned"\nhead = "pub.head.npz"\n')
    for name in FILES:
        (tmp_path / name).write_bytes(f"before {name}".encode())
    files = ReaderFiles(config, tmp_path / "unused.toml", drawn=False)
    files.put_aside()
    for name in FILES:  # a calibration kept over them
        (tmp_path / name).write_bytes(f"after {name}".encode())
    config.write_text('[vision]\nreader = "rules"\nhead = "pub.head.npz"\n')
    files.go_back()
    assert {name: (tmp_path / name).read_bytes().decode() for name in FILES} == {
        name: f"before {name}" for name in FILES}
    assert tomllib.loads(config.read_text())["vision"] == {"reader": "learned",
                                                             "head": "pub.head.npz"}


def test_going_back_to_a_table_that_named_no_reader_names_none_again(tmp_path) -> None:
    """An untaught table reads with the default for its camera; a calibration kept wrote a
    reader, and going back takes it out again rather than naming the default of the day."""
    config = tmp_path / "pub.toml"
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n')
    files = ReaderFiles(config, tmp_path / "unused.toml", drawn=False)
    files.put_aside()
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n[vision]\nreader = "rules"\n')
    files.go_back()
    assert tomllib.loads(config.read_text()).get("vision", {}) == {}
    assert files.vision().reader_for(drawn=files.drawn) == "learned"


def test_a_file_the_reader_did_not_have_leaves_no_older_copy_to_come_back(tmp_path) -> None:
    config = tmp_path / "pub.toml"
    config.write_text('[vision]\nreader = "learned"\nhead = "pub.head.npz"\n')
    (tmp_path / "pub.head.npz").write_bytes(b"head")
    (tmp_path / "pub.reader.json").write_bytes(b"{}")
    (tmp_path / "pub.previous.detector.onnx").write_bytes(b"a finder of long ago")
    files = ReaderFiles(config, tmp_path / "unused.toml", drawn=False)
    files.put_aside()
    assert not (tmp_path / "pub.previous.detector.onnx").exists()
    (tmp_path / "pub.detector.onnx").write_bytes(b"the kept calibration's finder")
    files.go_back()
    assert (tmp_path / "pub.detector.onnx").read_bytes() == b"the kept calibration's finder"


def held(tmp_path) -> tuple[Calibration, pathlib.Path]:
    """A calibration held for the referee, its taught network in a temporary folder."""
    folder = tmp_path / "bidou-table-net-held"
    folder.mkdir()
    (folder / "table.faces.onnx").write_bytes(b"taught")
    teaching = folds.Teaching(Tally(), Tally(), True, {}, (20.0, 60.0), 60, 20, 60, 300,
                              folder=folder)
    return Calibration(status=0, result=teaching), folder


def test_a_calibration_dropped_or_replaced_or_left_at_the_stop_leaves_no_taught_files(
        tmp_path) -> None:
    """The console's Learn holds the taught network in a temporary folder until Keep; going
    back, a new Learn, or the table stopping removes it."""
    learning = Learning()
    learning.outcome, folder = held(tmp_path)
    learning.drop()
    assert learning.outcome is None and not folder.exists()
    learning.outcome, folder = held(tmp_path)
    learning.stop()
    assert not folder.exists()
