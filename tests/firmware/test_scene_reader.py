"""The scene reader (the controller and dashboard tests' reader) reports the dice the simulated
camera holds, framed where the camera draws them, so an annotated picture in simulation boxes
the drawn dice and not empty felt beside them."""

from __future__ import annotations

from firmware.camera.simulation import SceneReader
from hardware.cameras.simulated import SimulatedCamera
from vision.zones import default_zones


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = max(0, min(ax + aw, bx + bw) - max(ax, bx))
    h = max(0, min(ay + ah, by + bh) - max(ay, by))
    return w * h / float(aw * ah + bw * bh - w * h)


def test_scene_reader_frames_each_drawn_die_with_its_value() -> None:
    camera = SimulatedCamera(default_zones(["Ann", "Bob", "Cid"], 640, 480), seed=3)
    camera.set_dice("Ann", (1, 2, 3))
    camera.set_dice("Cid", (6, 6, 4))
    reading = SceneReader(camera)(camera.read())
    truth = camera.truth()
    assert sorted(d.value for d in reading.dice) == sorted(v for _, v, _ in truth)
    for _seat, value, box in truth:
        best = max(reading.dice, key=lambda d: _overlap(d.box, box))
        assert best.value == value
        assert _overlap(best.box, box) > 0.9


def test_under_glass_the_scene_reader_reports_the_bottom_faces() -> None:
    camera = SimulatedCamera(default_zones(["Ann", "Bob"], 640, 480), bottom_faces=True)
    camera.set_dice("Bob", (1, 5, 6))
    reading = SceneReader(camera)(camera.read())
    assert sorted(d.value for d in reading.dice) == [1, 2, 6]
