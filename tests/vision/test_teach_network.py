"""Teaching a table its own network (vision.calibrate): the shipped 8-bit network turned back
into floats reads as the table reads, what is taught is written as an ONNX file that
onnxruntime reads as PyTorch computed it, and a calibration on the pictures in tests/data
saves files the table then loads. These need PyTorch (the learn extra, make learn): without
it they are skipped, as on a table that only reads."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="teaching the table's network needs the learn "
                            "extra (make learn)")
pytest.importorskip("onnx2torch", reason="the learn extra (make learn) brings onnx2torch")

from vision.calibrate import folds, network, teach  # noqa: E402
from vision.calibrate.known import load_picture  # noqa: E402
from vision.learned import face_reader  # noqa: E402
from vision.learned.face_model import FaceNetwork, load_head  # noqa: E402
from vision.learned.face_reader import MODELS, Settings  # noqa: E402
from vision_lab.new_table import known_throws  # noqa: E402

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


def crops(count: int = 16, seed: int = 0) -> np.ndarray:
    """Crops of a real photograph, where dice and table both show."""
    image = load_picture(sorted((DATA / "webcam-wood").glob("*.jpg"))[0])
    rng = np.random.default_rng(seed)
    h, w = image.shape[:2]
    return np.stack([image[y:y + 64, x:x + 64]
                     for x, y in zip(rng.integers(0, w - 64, count),
                                     rng.integers(0, h - 64, count), strict=True)])


def test_the_8_bit_network_in_floats_reads_as_the_table_reads(tmp_path):
    """Teaching starts from the network the table runs: dequantised, its features are the
    8-bit network's within the rounding of its activations."""
    import onnx

    onnx.save(network.float_graph(MODELS / "faces.onnx"), str(tmp_path / "float.onnx"))
    x = crops()
    int8 = FaceNetwork(MODELS / "faces.onnx").embed(x)
    floats = FaceNetwork(tmp_path / "float.onnx").embed(x)
    assert np.abs(int8 - floats).max() < 0.15 * np.abs(int8).max()
    head = load_head(MODELS / "head.npz")
    agree = (head.probabilities(int8).argmax(1) == head.probabilities(floats).argmax(1)).mean()
    assert agree >= 0.9


def test_the_written_network_is_read_by_onnxruntime_as_pytorch_computed_it(tmp_path):
    net = network.trainable(MODELS / "faces.onnx", load_head(MODELS / "head.npz"))
    with torch.no_grad():  # moved off the shipped weights, so the file must carry the change
        for p in net.trunk.parameters():
            p.add_(0.01 * torch.randn_like(p))
    network.export(net, tmp_path / "t.faces.onnx", tmp_path / "t.head.npz")
    x = crops()
    with torch.no_grad():
        expected = net.trunk(teach.as_input(list(x))).numpy()
    read = FaceNetwork(tmp_path / "t.faces.onnx").embed(x)
    assert np.allclose(read, expected, atol=1e-3)
    saved = load_head(tmp_path / "t.head.npz")
    assert np.allclose(saved.weight, net.fc.weight.detach().numpy())


def test_teaching_moves_only_the_parts_asked_for():
    net = network.trainable(MODELS / "faces.onnx", load_head(MODELS / "head.npz"))
    before = {k: v.clone() for k, v in net.trunk.state_dict().items()}
    pictures = [load_picture(p) for p in sorted((DATA / "webcam-wood").glob("*.jpg"))[:2]]
    examples = [teach.Example(i, (p.shape[1] / 2, p.shape[0] / 2), 40.0, 3)
                for i, p in enumerate(pictures)]
    teach.fine_tune(net, pictures, examples, steps=2, part="first")
    moved = {k for k, v in net.trunk.state_dict().items() if not torch.equal(v, before[k])}
    assert moved and all(k.startswith(teach.FIRST) for k in moved)


@pytest.mark.slow
def test_a_calibration_on_the_pictures_in_tests_data_writes_what_the_table_loads(tmp_path):
    known, _ = known_throws(sorted((DATA / "topdown-colour").glob("*.jpg"))
                            + sorted((DATA / "webcam-wood").glob("*.jpg")), dice=60)
    result = folds.teach_table(known, Settings(), folds=2, steps=3)
    assert result.dice >= 60 and result.examples_dice > 0 and result.examples_not_dice > 0
    assert result.taught.dice == result.untaught.dice == result.dice
    if result.kept:
        head, _ = folds.save(result, tmp_path / "pub.head.npz")
        model = face_reader.load(MODELS, head)
        assert model.faces is face_reader.face_network(tmp_path / "pub.faces.onnx")
    else:
        assert result.folder is None
