"""A table's taught network in 8 bits (vision.calibrate.eight_bit): the saved network is 8-bit
and reads the crops the table cuts as the float one did, within the rounding; it is kept so
only where the known throws read no worse, else the float network is put back as it was.

Quantising needs ``onnx`` (the learn and train extras), not PyTorch: the float network here
is the shipped one turned back into floats (vision.calibrate.network.float_graph), as a
table's taught one is written. Without onnx those tests are skipped; the rule that keeps or
refuses the 8-bit network is tested everywhere."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import shutil

import cv2
import numpy as np
import pytest

from vision.calibrate import eight_bit
from vision.calibrate.known import Tally
from vision.learned import face_reader
from vision.learned.face_model import FaceNetwork, fingerprint, load_head
from vision.learned.face_reader import MODELS, Settings, load

PHOTOS = sorted((pathlib.Path(__file__).resolve().parents[1] / "data" / "dice").glob("*/*.jpg"))
needs_onnx = pytest.mark.skipif(importlib.util.find_spec("onnx") is None,
                                reason="quantising needs onnx (the learn extra, make learn)")


def read(right: int, wrong: int = 0, extra: int = 0, dice: int = 100) -> Tally:
    return Tally(dice=dice, right=right, wrong=wrong, extra=extra,
                 unsure=dice - right - wrong)


def test_the_8_bit_network_is_kept_only_without_a_wrong_die_more_and_few_right_less():
    assert eight_bit.keeps(read(90, wrong=1), read(90, wrong=1))
    assert eight_bit.keeps(read(90, wrong=1), read(85, wrong=0))  # five unsure more in 100
    assert not eight_bit.keeps(read(90), read(90, wrong=1))
    assert not eight_bit.keeps(read(90), read(91, extra=1))  # a die read where none was
    assert not eight_bit.keeps(read(90), read(84))  # six unsure more in 100


def float_faces(path: pathlib.Path) -> pathlib.Path:
    import onnx

    from vision.calibrate import network

    onnx.save(network.float_graph(MODELS / "faces.onnx"), str(path))
    return path


@pytest.mark.slow
@needs_onnx
def test_the_saved_network_is_8_bit_and_reads_the_crops_as_the_float_one_did(tmp_path):
    """Ranges measured on an eighth of the photographs' proposals; on another quarter's, every
    value the float network reads at 0.9 or more is read the same, and whether a crop is a
    die the same for 97 in 100 or more."""
    source = float_faces(tmp_path / "float.onnx")
    model = load(MODELS)
    pictures = [cv2.imread(str(p)) for p in PHOTOS]
    eight_bit.quantise(source, tmp_path / "int8.onnx",
                       eight_bit.proposal_crops(model, pictures[::8]))
    assert eight_bit.quantised(tmp_path / "int8.onnx") and not eight_bit.quantised(source)
    assert (tmp_path / "int8.onnx").stat().st_size < source.stat().st_size / 2
    crops = eight_bit.proposal_crops(model, pictures[1::4]).transpose(0, 2, 3, 1)
    head = load_head(MODELS / "head.npz")
    floats = head.probabilities(FaceNetwork(source).embed(crops))
    ints = head.probabilities(FaceNetwork(tmp_path / "int8.onnx").embed(crops))
    sure = floats[:, 1:].max(axis=1) >= 0.9
    assert sure.sum() >= 50
    assert np.array_equal(floats[sure, 1:].argmax(axis=1), ints[sure, 1:].argmax(axis=1))
    assert ((floats[:, 0] < 0.5) == (ints[:, 0] < 0.5)).mean() >= 0.97
    with pytest.raises(ValueError, match="quantised already"):
        eight_bit.quantise(tmp_path / "int8.onnx", tmp_path / "twice.onnx", crops)


def table_folder(folder: pathlib.Path) -> pathlib.Path:
    """``pub.head.npz``, ``pub.reader.json`` and a float ``pub.faces.onnx``, as a table's
    calibration writes them; the head's path."""
    shutil.copyfile(MODELS / "head.npz", folder / "pub.head.npz")
    float_faces(folder / "pub.faces.onnx")
    (folder / "pub.reader.json").write_text(json.dumps(
        {"network": fingerprint(MODELS / "faces.onnx"), "faces": "pub.faces.onnx"}))
    return folder / "pub.head.npz"


@needs_onnx
@pytest.mark.parametrize("worse", [False, True])
def test_the_table_s_network_stays_8_bit_only_where_the_known_throws_read_as_well(
        tmp_path, worse):
    head = table_folder(tmp_path)
    faces = tmp_path / "pub.faces.onnx"
    before = faces.read_bytes()
    reads = iter([read(60, dice=60), read(60, wrong=int(worse), dice=60)])
    floats, ints, kept = eight_bit.table_network(
        head, Settings(), [cv2.imread(str(p)) for p in PHOTOS[::8]], lambda: next(reads))
    assert kept is not worse and ints.wrong == int(worse) and floats.wrong == 0
    assert eight_bit.quantised(faces) is not worse
    if worse:
        assert faces.read_bytes() == before  # the float network, as it was
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    model = face_reader.load(MODELS, head)  # the table loads what was left
    assert model.faces is face_reader.face_network(faces)
