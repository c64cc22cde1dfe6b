"""A seat's zone read alone (vision/zone_reader.py): in the frame's pixels, at the scale of the
dice it last read there, and at every scale again when that finds another count."""

from __future__ import annotations

import numpy as np

from vision import zone_reader
from vision.reading import Die, Reading
from vision.zone_reader import ZoneReader
from vision.zones import Zone

ZONE = Zone("Ann", 200, 100, 200, 150)


class Recording:
    """Stands in for face_reader.read_dice: three dice of 30 px in the middle of any part it
    is given (or ``count`` of them), and what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[tuple[int, int], float | None]] = []
        self.count = 3

    def __call__(self, part: np.ndarray, settings) -> Reading:
        self.asked.append((part.shape[:2], settings.die_size))
        h, w = part.shape[:2]
        dice = tuple(Die(v, (w // 2 - 60 + 40 * i, h // 2 - 15, 30, 30), 0.99)
                     for i, v in enumerate((6, 5, 4)[:self.count]))
        return Reading(dice, (), w, h)


def test_a_zone_is_read_alone_and_its_dice_come_back_in_the_frames_pixels(monkeypatch):
    fake = Recording()
    monkeypatch.setattr(zone_reader, "read_dice", fake)
    frame = np.zeros((480, 640, 3), np.uint8)
    reading = ZoneReader().read_zone(frame, ZONE)
    (h, w), size = fake.asked[0]
    assert size is None and h < 480 and w < 640  # the zone and a margin, not the frame
    assert (reading.width, reading.height) == (640, 480)
    assert all(ZONE.holds(d.box) for d in reading.dice) and len(reading.dice) == 3


def test_once_three_dice_are_read_the_zone_is_read_at_their_size(monkeypatch):
    fake = Recording()
    monkeypatch.setattr(zone_reader, "read_dice", fake)
    reader = ZoneReader()
    frame = np.zeros((480, 640, 3), np.uint8)
    reader.read_zone(frame, ZONE)
    assert reader.die_size("Ann") == 30
    reader.read_zone(frame, ZONE)
    assert fake.asked[-1][1] == 30 and len(fake.asked) == 2


def test_another_count_at_the_known_size_reads_the_zone_again_at_every_scale(monkeypatch):
    fake = Recording()
    monkeypatch.setattr(zone_reader, "read_dice", fake)
    reader = ZoneReader()
    frame = np.zeros((480, 640, 3), np.uint8)
    reader.read_zone(frame, ZONE)
    fake.count = 2
    reading = reader.read_zone(frame, ZONE)
    assert [size for _, size in fake.asked[1:]] == [30, None]
    assert len(reading.dice) == 2
