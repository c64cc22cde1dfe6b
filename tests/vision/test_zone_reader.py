"""A seat's zone read alone (vision/learned/zone_reader.py): in the frame's pixels, at the scale of
the
dice it last read there, and at every scale again when that finds another count."""

from __future__ import annotations

import numpy as np
import pytest

from vision.learned import zone_reader
from vision.learned.zone_reader import ZoneReader
from vision.reading import Die, Reading, Unsure
from vision.zones import Zone

ZONE = Zone("Ann", 200, 100, 200, 150)


class Recording:
    """Stands in for face_reader.read_dice: three dice of 30 px in the middle of any part it
    is given (or ``count`` of them), and what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[tuple[int, int], float | None]] = []
        self.count = 3
        self.unsure = 0  # how many of the dice are read as unsure places

    def __call__(self, part: np.ndarray, settings) -> Reading:
        self.asked.append((part.shape[:2], settings.die_size))
        h, w = part.shape[:2]
        boxes = [(w // 2 - 60 + 40 * i, h // 2 - 15, 30, 30) for i in range(self.count)]
        values = (6, 5, 4)[self.unsure:self.count]
        dice = tuple(Die(v, box, 0.99) for v, box in zip(values, boxes[self.unsure:], strict=True))
        unsure = tuple(Unsure(box, "not sure of the value") for box in boxes[:self.unsure])
        return Reading(dice, unsure, w, h)


FRAME = np.zeros((480, 640, 3), np.uint8)


@pytest.fixture
def fake(monkeypatch) -> Recording:
    """The zone reader reads through a :class:`Recording` instead of the network."""
    recording = Recording()
    monkeypatch.setattr(zone_reader, "read_dice", recording)
    return recording


def test_a_zone_is_read_alone_and_its_dice_come_back_in_the_frames_pixels(fake):
    reading = ZoneReader().read_zone(FRAME, ZONE)
    (h, w), size = fake.asked[0]
    assert size is None and h < 480 and w < 640  # the zone and a margin, not the frame
    assert (reading.width, reading.height) == (640, 480)
    assert all(ZONE.holds(d.box) for d in reading.dice) and len(reading.dice) == 3


def test_once_three_dice_are_read_the_zone_is_read_at_their_size(fake):
    reader = ZoneReader()
    reader.read_zone(FRAME, ZONE)
    assert reader.die_size("Ann") == 30
    reader.read_zone(FRAME, ZONE)
    assert fake.asked[-1][1] == 30 and len(fake.asked) == 2


def test_another_count_at_the_known_size_reads_the_zone_again_at_every_scale(fake):
    reader = ZoneReader()
    reader.read_zone(FRAME, ZONE)
    fake.count = 2
    reading = reader.read_zone(FRAME, ZONE)
    assert [size for _, size in fake.asked[1:]] == [30, None]
    assert len(reading.dice) == 2


def test_a_value_in_doubt_at_the_known_size_is_not_read_again_at_every_scale(fake):
    """Three places, one of them unsure: the dice are where they were, of the size they were;
    only a value is in doubt, which another scale does not mend (and at 12 MP costs 8 times
    the read)."""
    reader = ZoneReader()
    reader.read_zone(FRAME, ZONE)
    fake.unsure = 1
    reading = reader.read_zone(FRAME, ZONE)
    assert [size for _, size in fake.asked[1:]] == [30]
    assert len(reading.dice) == 2 and len(reading.unsure) == 1
    assert reader.die_size("Ann") == 30


def test_a_seat_whose_values_are_in_doubt_still_learns_its_dice_size(fake):
    """Three places, one unsure, from the first read: the size is learned all the same, so a
    seat whose dice the reader doubts is not read at every scale on every throw."""
    fake.unsure = 1
    reader = ZoneReader()
    reader.read_zone(FRAME, ZONE)
    assert reader.die_size("Ann") == 30
    reader.read_zone(FRAME, ZONE)
    assert [size for _, size in fake.asked] == [None, 30]
