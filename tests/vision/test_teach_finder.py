"""Teaching a table's die finder (vision/calibrate/finder.py) on its boxed known throws: each
sample carries its dice where they lie, the taught finder scores the boxed dice higher than
the model's did, onnxruntime reads the written file as PyTorch computed it, and a table's
thresholds file that names a finder makes the reader read with it (one missing or broken is
a sentence). The teaching needs PyTorch (the learn extra) and is skipped without it."""

from __future__ import annotations

import importlib.util
import json
import math
import pathlib
import shutil

import numpy as np
import pytest

from engine.errors import VisionError
from vision.calibrate import finder
from vision.calibrate.known import load_picture
from vision.learned import face_reader
from vision.learned.face_reader import MODELS, Settings, propose
from vision.learned.networks import session

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"
LEARN = all(importlib.util.find_spec(m) for m in ("torch", "onnx", "onnx2torch"))
needs_learn = pytest.mark.skipif(not LEARN, reason="teaching the finder needs the learn extra "
                                                   "(make learn)")


def boxed_pictures(count: int) -> tuple[list[np.ndarray], list[list[finder.Spot]]]:
    """topdown-colour pictures of tests/data with their dice as the Dice page boxes them."""
    pictures, dice = [], []
    for path in sorted((DATA / "topdown-colour").glob("*.jpg"))[:count]:
        image = load_picture(path)
        h, w = image.shape[:2]
        boxes = []
        for line in path.with_suffix(".txt").read_text().split("\n"):
            if line.strip():
                cls, xc, yc, bw, bh = line.split()
                boxes.append(((float(xc) * w - float(bw) * w / 2, float(yc) * h - float(bh) * h / 2,
                               float(bw) * w, float(bh) * h), int(cls) + 1))
        pictures.append(image)
        dice.append(finder.boxed_dice(boxes))
    return pictures, dice


def test_a_sample_carries_each_die_where_it_lies_on_it(monkeypatch) -> None:
    """White squares on black, turned, scaled and cut at random: every die the sample says
    it holds is a bright place of the sample, at a size the reader reads (the light's
    changes left out: uneven light may darken a die below its felt)."""
    monkeypatch.setattr(finder, "camera_changes", lambda image, rng, **_: image)
    image = np.zeros((400, 400, 3), np.uint8)
    dice = []
    for cx, cy in ((100, 100), (250, 140), (180, 300)):
        image[cy - 15:cy + 15, cx - 15:cx + 15] = 255
        dice.append(((float(cx), float(cy)), 30.0))
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(30):
        out, spots = finder.sample(image, dice, rng)
        assert out.shape == (finder.SAMPLE, finder.SAMPLE, 3)
        grey = out.mean(axis=2)
        for (x, y), size in spots:
            assert 0.9 * 12 <= size <= 60
            if size > 14 and 3 < x < finder.SAMPLE - 3 and 3 < y < finder.SAMPLE - 3:
                assert grey[int(y), int(x)] > np.median(grey)
                seen += 1
    assert seen >= 10


def test_the_targets_peak_at_each_die_and_carry_its_size() -> None:
    heat, logsize, mask = finder.targets([((42.0, 62.0), 24.0)])
    iy, ix = np.unravel_index(heat.argmax(), heat.shape)
    assert heat[iy, ix] == 1.0 and (ix, iy) == (10, 15)
    assert math.isclose(float(logsize[iy, ix]), math.log(24.0), rel_tol=1e-6)
    assert mask.sum() == 9


@needs_learn
def test_the_taught_finder_scores_the_table_s_dice_higher_and_is_written_as_computed(
        tmp_path) -> None:
    import torch  # lazy: the learn extra's, skipped without it

    pictures, dice = boxed_pictures(4)
    net = finder.trainable(MODELS / "detector.onnx")
    finder.fine_tune(net, pictures, dice, steps=40, seed=0)
    finder.export(net, tmp_path / "t.detector.onnx")
    x = torch.rand(1, 3, 96, 128) - 0.5
    with torch.no_grad():
        expected = net(x).numpy()
    read = session(tmp_path / "t.detector.onnx")
    got = read.run(None, {read.get_inputs()[0].name: x.numpy()})[0]
    assert np.allclose(got, expected, atol=1e-4)

    def scores(detector: pathlib.Path) -> float:
        model = face_reader.load(MODELS)
        found = []
        for image, spots in zip(pictures, dice, strict=True):
            taught = face_reader.Model.__new__(face_reader.Model)
            taught.__dict__.update(model.__dict__, detector=session(detector))
            places = propose(image, taught, Settings(), 0.05)
            for centre, size in spots:
                near = [p.score for p in places if math.dist(p.centre, centre) < 0.35 * size]
                found.append(max(near, default=0.0))
        return float(np.mean(found))

    assert scores(tmp_path / "t.detector.onnx") > scores(MODELS / "detector.onnx") + 0.05


def table_files(tmp_path, finder_file: bytes | None) -> pathlib.Path:
    head = tmp_path / "pub.head.npz"
    shutil.copyfile(MODELS / "head.npz", head)
    (tmp_path / "pub.reader.json").write_text(json.dumps({"detector": "pub.detector.onnx"}))
    if finder_file is not None:
        (tmp_path / "pub.detector.onnx").write_bytes(finder_file)
    face_reader.load.cache_clear()
    return head


def test_a_table_s_finder_named_in_its_thresholds_is_the_one_read_with(tmp_path) -> None:
    head = table_files(tmp_path, (MODELS / "detector.onnx").read_bytes())
    assert face_reader.load(MODELS, head).detector is not None
    head = table_files(tmp_path, b"not a network")
    with pytest.raises(VisionError, match="pub.detector.onnx"):
        face_reader.load(MODELS, head)


def test_a_table_s_finder_that_is_missing_says_to_calibrate_again(tmp_path) -> None:
    head = table_files(tmp_path, None)
    with pytest.raises(VisionError, match=r"the table's own die finder .*pub\.detector\.onnx.* "
                                          r"is missing: calibrate the table again"):
        face_reader.load(MODELS, head)
