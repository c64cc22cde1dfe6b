"""A table's own network (``bidou-table calibrate`` taught it, vision.calibrate.folds) as the
table loads it with onnxruntime alone: named in its thresholds file beside the head, read
instead of the model's; a missing network is one
sentence saying to calibrate again, and a config calibrated before (a head alone) still
loads. No PyTorch here: the network file is the shipped one, copied as a table's would be."""

from __future__ import annotations

import json
import pathlib
import shutil

import numpy as np
import pytest

from engine.errors import VisionError
from vision.calibrate.known import load_picture
from vision.learned import face_reader
from vision.learned.face_model import fingerprint
from vision.learned.face_reader import MODELS, Settings, load, read_dice

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


def table_files(folder: pathlib.Path, *, faces: bool = True, sizes: bool = True,
                head_scale: float = 1.0) -> pathlib.Path:
    """``pub.head.npz`` and ``pub.reader.json`` (and ``pub.faces.onnx``) as calibrate writes
    them; the head's path."""
    head = folder / "pub.head.npz"
    with np.load(MODELS / "head.npz") as data:
        np.savez(head, weight=data["weight"] * head_scale, bias=data["bias"],
                 temperature=data["temperature"])
    record = {"min_value": 0.9, "not_a_die": 0.5, "detect": 0.3, "sure_die": 0.0,
              "network": fingerprint(MODELS / "faces.onnx")}
    if faces:
        shutil.copyfile(MODELS / "faces.onnx", folder / "pub.faces.onnx")
        record["faces"] = "pub.faces.onnx"
    if sizes:
        record.update(die_sizes=[20.0, 90.0])
    (folder / "pub.reader.json").write_text(json.dumps(record))
    face_reader.load.cache_clear()
    return head


def test_a_table_network_named_beside_its_head_is_the_one_read_and_sizes_the_places(tmp_path):
    head = table_files(tmp_path)
    model = load(MODELS, head)
    assert model.faces is face_reader.face_network(tmp_path / "pub.faces.onnx")
    assert model.sizer is model.head  # a taught network's head says what is a die too


def test_a_head_fitted_alone_still_loads_with_the_model_network_sizing(tmp_path):
    """The promise to configs calibrated before the table's own network: they load as they
    did."""
    head = table_files(tmp_path, faces=False, sizes=False)
    model = load(MODELS, head)
    assert model.faces is face_reader.face_network(MODELS / "faces.onnx")
    assert model.sizer is not model.head


def test_a_missing_table_network_is_one_sentence_saying_to_calibrate_again(tmp_path):
    head = table_files(tmp_path)
    (tmp_path / "pub.faces.onnx").unlink()
    with pytest.raises(VisionError) as err:
        load(MODELS, head)
    message = str(err.value)
    assert "pub.faces.onnx" in message and "calibrate the table again" in message
    assert message.count(". ") == 0


def test_a_table_network_reads_a_photograph_through_read_dice(tmp_path):
    """The same network file under the table's name reads as the model does: the loading
    path, not the network, is what differs."""
    head = table_files(tmp_path, sizes=False)
    photo = sorted((DATA / "webcam-wood").glob("*.jpg"))[0]
    image = load_picture(photo)
    own = read_dice(image, Settings(head=head))
    assert sorted(d.value for d in own.dice) == sorted(d.value for d in read_dice(
        image, Settings(head=head, min_value=0.9, not_a_die=0.5, detect=0.3,
                        sure_die=0.0)).dice)
    assert own.dice, f"{photo.name}: the table's network read no die"


def test_a_table_reads_only_places_of_its_own_dice_sizes(tmp_path):
    """The calibration records the table's dice sizes (``die_sizes``); the reader reads no
    place outside them, so a pip or a patch of several dice is never read as a die."""
    head = table_files(tmp_path)
    photo = sorted((DATA / "webcam-wood").glob("*.jpg"))[0]
    image = load_picture(photo)
    places = face_reader.look(image, load(MODELS, head), Settings(head=head), 0.15,
                              every_place=True)
    assert places and all(20.0 <= p.size <= 90.0 for p in places)
    model = load(MODELS, head)  # the same places as sizing every proposal, then keeping those
    spots, _ = face_reader.sized(image, face_reader.propose(image, model, Settings(), 0.15), model)
    assert [(p.centre, p.size) for p in places] == [
        (centre, size) for centre, size, _ in spots if 20.0 <= size <= 90.0]
    record = json.loads((tmp_path / "pub.reader.json").read_text())
    (tmp_path / "pub.reader.json").write_text(json.dumps({**record, "die_sizes": [500, 900]}))
    face_reader.load.cache_clear()
    assert not read_dice(image, Settings(head=head)).dice
