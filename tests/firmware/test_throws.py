"""Reading a seat (firmware/camera/throws.py): a value needs two still frames that read the same.

Rule (the module docstring): the reader's value is one opinion; the same value on the next
still frame is the second. Two frames that disagree send the seat to the referee.
"""

from __future__ import annotations

import numpy as np
import pytest

from firmware.camera.throws import DiceWatcher
from vision.reader import WholeFrame
from vision.reading import Die, Reading

from .conftest import ZONES, FakeTable


class Flicker(FakeTable):
    """A table whose reader sees a 5 on even reads and a 6 on odd ones for Ann's last die,
    through a camera with a real sensor's noise: no two frames are the same, byte for byte."""

    reads = 0
    frames = 0

    def read(self) -> np.ndarray:
        frame = super().read()
        self.frames += 1
        frame[0, 0, 0] = self.frames % 256  # noise far below the stillness threshold
        return frame

    def reader(self, frame):
        self.reads += 1
        value = 5 if self.reads % 2 else 6
        dice = (Die(3, (10, 10, 15, 15), 0.99), Die(4, (30, 10, 15, 15), 0.99),
                Die(value, (50, 10, 15, 15), 0.99))
        return Reading(dice, (), 300, 100)


def test_two_still_frames_that_agree_give_the_values(fake):
    fake.put("Ann", (2, 4, 6))
    watcher = DiceWatcher(fake, {"Ann": ZONES["Ann"]}, WholeFrame(fake.reader), frame_pause=0.0)
    assert watcher.read_seat("Ann", 3).values == (6, 4, 2)


def test_two_still_frames_that_disagree_need_a_look():
    table = Flicker({}, {})
    watcher = DiceWatcher(table, {"Ann": ZONES["Ann"]}, WholeFrame(table.reader), frame_pause=0.0)
    read = watcher.read_seat("Ann", 3)
    assert read.values is None
    assert read.reason == "two still frames read differently (5 4 3 and 6 4 3)"
    assert table.reads == 2


def test_a_frame_the_same_as_the_first_byte_for_byte_is_not_read_again():
    """The reader is a function of the pixels: a second read of the same pixels (a simulated
    or still camera) could only repeat the first, so the values stand on one read."""
    table = Flicker({}, {})
    table.read = lambda: np.zeros((100, 300, 3), np.uint8)  # type: ignore[method-assign]
    watcher = DiceWatcher(table, {"Ann": ZONES["Ann"]}, WholeFrame(table.reader), frame_pause=0.0)
    assert watcher.read_seat("Ann", 3).values == (5, 4, 3)
    assert table.reads == 1


def test_one_frame_is_enough_when_the_table_asks_for_one():
    table = Flicker({}, {})
    watcher = DiceWatcher(table, {"Ann": ZONES["Ann"]}, WholeFrame(table.reader), frame_pause=0.0,
                          confirm_frames=1)
    assert watcher.read_seat("Ann", 3).values == (5, 4, 3)


def test_confirm_frames_must_be_at_least_one(fake):
    with pytest.raises(ValueError, match="confirm_frames must be 1 or more, not 0"):
        DiceWatcher(fake, {}, WholeFrame(fake.reader), confirm_frames=0)
