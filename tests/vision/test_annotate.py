"""The annotated frame: boxes and labels where the reading says, on a copy, legible at any size."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import VisionError
from vision.annotate import GREEN, RED, ZONE_OK, ZONE_WAITING, annotate
from vision.reading import Die, Reading, Unsure
from vision.zones import SeatReading, Zone, read_seat

BLANK = np.full((480, 640, 3), 90, np.uint8)
ANN = Zone("Ann", 10, 10, 300, 220)
DICE = (Die(5, (60, 100, 40, 40), 0.97), Die(2, (140, 110, 40, 40), 0.91),
        Die(6, (220, 150, 40, 40), 0.88))


def colour_at(image, x, y):
    return tuple(int(v) for v in image[y, x])


def rows_of(image, colour, x0, x1, y0, y1):
    """How many rows of the region hold at least one pixel of exactly this colour."""
    region = image[y0:y1, x0:x1]
    return int(np.all(region == np.array(colour, np.uint8), axis=2).any(axis=1).sum())


def test_annotate_returns_a_copy_and_leaves_the_frame_alone():
    frame = BLANK.copy()
    out = annotate(frame, Reading(dice=DICE))
    assert out is not frame and out.shape == frame.shape and out.dtype == np.uint8
    assert np.array_equal(frame, BLANK)


def test_read_dice_get_a_green_box_with_a_label_above():
    out = annotate(BLANK, Reading(dice=DICE[:1]))
    assert colour_at(out, 60, 125) == GREEN  # left edge of the box, clear of the label
    assert colour_at(out, 80, 120) == (90, 90, 90)  # inside the box: the die stays visible
    assert rows_of(out, GREEN, 60, 120, 70, 100) >= 12  # filled label above the box


def test_unsure_places_get_a_red_box_with_a_question_mark_and_the_reason_below():
    out = annotate(BLANK, Reading(unsure=(Unsure((300, 200, 50, 50), "glare hides the pips"),)))
    assert colour_at(out, 300, 225) == RED
    assert rows_of(out, RED, 300, 330, 170, 200) >= 12  # the "?" label above
    assert rows_of(out, (0, 150, 255), 300, 500, 251, 280) >= 10  # the reason below


def test_a_zone_with_a_throw_is_outlined_as_ready():
    reading = Reading(dice=DICE)
    out = annotate(BLANK, reading, zones=[ANN])
    assert read_seat(reading, ANN).ok
    assert colour_at(out, 160, 229) == ZONE_OK  # bottom edge of the zone


def test_a_zone_without_a_throw_is_outlined_as_waiting():
    out = annotate(BLANK, Reading(dice=DICE[:2]), zones=[ANN])
    assert colour_at(out, 160, 229) == ZONE_WAITING


def test_given_seat_readings_decide_the_zone_verdict():
    reading = Reading(dice=DICE[:2])
    told = SeatReading("Ann", (6, 5, 2), DICE, (), None)
    out = annotate(BLANK, reading, zones=[ANN], seat_readings=[told])
    assert colour_at(out, 160, 229) == ZONE_OK


def test_a_grey_frame_comes_back_in_colour():
    out = annotate(np.full((240, 320), 50, np.uint8), Reading(dice=DICE[:1]))
    assert out.shape == (240, 320, 3) and colour_at(out, 60, 125) == GREEN


def test_labels_grow_with_the_frame():
    small = annotate(BLANK, Reading(dice=(Die(4, (300, 300, 40, 40), 0.9),)))
    big_frame = np.full((3000, 4000, 3), 90, np.uint8)
    big = annotate(big_frame, Reading(dice=(Die(4, (2000, 2000, 250, 250), 0.9),)))
    small_rows = rows_of(small, GREEN, 300, 360, 250, 300)
    big_rows = rows_of(big, GREEN, 2000, 2300, 1800, 2000)
    assert big_rows > 3 * small_rows


@pytest.mark.parametrize("frame", [None, np.zeros((0, 0, 3), np.uint8), "frame.png"])
def test_no_picture_is_refused_with_a_sentence(frame):
    with pytest.raises(VisionError) as e:
        annotate(frame, Reading())
    assert str(e.value) == (
        "There is no picture to annotate: pass the frame the dice were read from as a BGR "
        "numpy array."
    )
