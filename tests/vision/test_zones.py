"""Seat zones: config parsing, overlap, which dice belong to a seat, and the seat's verdict."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ConfigError
from vision.reading import Die, Reading, Unsure
from vision.zones import (
    SeatReading,
    Zone,
    check_overlap,
    default_zones,
    parse_zones,
    read_seat,
    read_seats,
)

ANN = Zone("Ann", 0, 0, 300, 200)
BOB = Zone("Bob", 320, 0, 300, 200)


def die(value: int, cx: int, cy: int, size: int = 40, confidence: float = 0.95) -> Die:
    return Die(value, (cx - size // 2, cy - size // 2, size, size), confidence)


def test_parse_zones_reads_seat_tables_in_order():
    section = {"Ann": {"x": 0, "y": 0, "w": 300, "h": 200}, "Bob": {"x": 320, "y": 0, "w": 300,
                                                                    "h": 200}}
    assert parse_zones(section) == [ANN, BOB]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"x": 0, "y": 0, "w": 0, "h": 10},
         "zones.Ann.w = 0 is not allowed: a whole number of pixels, 1 or more"),
        ({"x": 0, "y": 0, "w": "wide", "h": 10},
         "zones.Ann.w = 'wide' is not allowed: a whole number of pixels, 1 or more"),
        ({"x": -1, "y": 0, "w": 5, "h": 10},
         "zones.Ann.x = -1 is not allowed: a whole number of pixels, 0 or more"),
        ({"x": 0, "y": 2.5, "w": 5, "h": 10},
         "zones.Ann.y = 2.5 is not allowed: a whole number of pixels, 0 or more"),
        ({"x": True, "y": 0, "w": 5, "h": 10},
         "zones.Ann.x = True is not allowed: a whole number of pixels, 0 or more"),
        ({"x": 0, "y": 0, "w": 5},
         "zones.Ann.h = None is not allowed: h is missing; give x, y, w and h in pixels"),
        ({"x": 0, "y": 0, "w": 5, "h": 5, "r": 3},
         "zones.Ann.r = 3 is not allowed: a zone has only x, y, w and h (pixels)"),
    ],
)
def test_parse_zones_names_the_bad_key(table, message):
    with pytest.raises(ConfigError) as e:
        parse_zones({"Ann": table})
    assert str(e.value) == message
    assert e.value.key.startswith("zones.Ann.")


def test_parse_zones_refuses_a_zone_that_is_not_a_table():
    with pytest.raises(ConfigError) as e:
        parse_zones({"Ann": 12})
    assert str(e.value) == "zones.Ann = 12 is not allowed: a table with x, y, w and h in pixels"


def test_parse_zones_refuses_overlapping_zones():
    section = {"Ann": {"x": 0, "y": 0, "w": 300, "h": 200},
               "Bob": {"x": 299, "y": 0, "w": 300, "h": 200}}
    with pytest.raises(ConfigError) as e:
        parse_zones(section)
    assert e.value.key == "zones.Bob"
    assert str(e.value).endswith("it overlaps Ann's zone; seat zones must not overlap")


def test_touching_zones_do_not_overlap():
    check_overlap([Zone("Ann", 0, 0, 100, 100), Zone("Bob", 100, 0, 100, 100)])


def test_parse_zones_refuses_a_zone_outside_the_frame():
    with pytest.raises(ConfigError) as e:
        parse_zones({"Ann": {"x": 600, "y": 0, "w": 100, "h": 100}}, frame=(640, 480))
    assert str(e.value) == (
        "zones.Ann.w = 100 is not allowed: the zone must end inside the 640x480 frame "
        "(x + w at most 640)"
    )


def test_three_sure_dice_give_values_high_first():
    reading = Reading(dice=(die(2, 50, 50), die(6, 120, 60), die(4, 200, 150), die(1, 400, 100)))
    seat = read_seat(reading, ANN)
    assert seat == SeatReading("Ann", (6, 4, 2), reading.dice[:3], (), None)
    assert seat.ok


def test_a_die_belongs_to_the_zone_holding_its_box_centre():
    # the box straddles the border between Ann and Bob; its centre (330, 50) is in Bob's zone
    straddling = Die(5, (290, 30, 80, 40), 0.9)
    reading = Reading(dice=(straddling,))
    assert read_seat(reading, ANN).dice == ()
    assert read_seat(reading, BOB).dice == (straddling,)


def test_two_dice_are_not_a_throw():
    reading = Reading(dice=(die(2, 50, 50), die(6, 120, 60)))
    seat = read_seat(reading, ANN)
    assert seat.values is None
    assert seat.reason == "2 dice in Ann's zone; 3 are needed"


@pytest.mark.parametrize(
    ("n", "reason"),
    [(0, "no dice in Bob's zone; 3 are needed"), (1, "1 die in Bob's zone; 3 are needed"),
     (4, "4 dice in Bob's zone; 3 are needed")],
)
def test_a_throw_needs_exactly_three_dice(n, reason):
    reading = Reading(dice=tuple(die(3, 340 + 60 * i, 100) for i in range(n)))
    assert read_seat(reading, BOB).reason == reason


def test_an_unsure_die_blocks_the_throw_and_says_why():
    reading = Reading(
        dice=(die(2, 340, 50), die(6, 420, 60), die(1, 500, 100)),
        unsure=(Unsure((560, 100, 40, 40), "glare hides the pips"),),
    )
    seat = read_seat(reading, BOB)
    assert seat.values is None
    assert seat.reason == "a die in Bob's zone cannot be read: glare hides the pips"
    assert read_seat(reading, ANN).reason == "no dice in Ann's zone; 3 are needed"


def test_two_unsure_places_are_both_named():
    reading = Reading(unsure=(Unsure((10, 10, 40, 40), "blurred"),
                              Unsure((100, 10, 40, 40), "two dice touch")))
    assert read_seat(reading, ANN).reason == (
        "2 dice in Ann's zone cannot be read: blurred; two dice touch"
    )


def test_bottom_faces_turn_each_value_into_seven_minus_it():
    reading = Reading(dice=(die(1, 50, 50), die(6, 120, 60), die(3, 200, 150)))
    seat = read_seat(reading, ANN, bottom_faces=True)
    assert seat.values == (6, 4, 1)
    assert [d.value for d in seat.dice] == [6, 1, 4]


def test_a_captains_roll_needs_exactly_one_die():
    one = Reading(dice=(die(4, 50, 50),))
    assert read_seat(one, ANN, needed=1).values == (4,)
    two = Reading(dice=(die(4, 50, 50), die(2, 150, 50)))
    assert read_seat(two, ANN, needed=1).reason == "2 dice in Ann's zone; 1 is needed"


def test_read_seats_reads_every_zone_in_order():
    reading = Reading(dice=(die(2, 50, 50),))
    assert [s.seat for s in read_seats(reading, [BOB, ANN])] == ["Bob", "Ann"]


@given(
    st.lists(st.tuples(st.integers(1, 6), st.integers(0, 639), st.integers(0, 479),
                       st.floats(0.5, 1.0)), max_size=12)
)
def test_every_die_belongs_to_at_most_one_seat_and_values_need_three(dice):
    zones = default_zones(["Ann", "Bob", "Cat", "Dan"], 640, 480)
    reading = Reading(dice=tuple(Die(v, (x - 10, y - 10, 20, 20), c) for v, x, y, c in dice))
    seats = read_seats(reading, zones)
    assert sum(len(s.dice) for s in seats) <= len(reading.dice)
    for s in seats:
        assert (s.values is not None) == (len(s.dice) == 3)
        assert (s.reason is None) == (s.values is not None)
        if s.values is not None:
            assert list(s.values) == sorted((d.value for d in s.dice), reverse=True)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 8])
def test_default_zones_fit_the_frame_without_overlap(n):
    seats = [f"P{i}" for i in range(n)]
    zones = default_zones(seats, 640, 480)
    assert [z.seat for z in zones] == seats
    check_overlap(zones)
    for z in zones:
        assert z.x >= 0 and z.y >= 0 and z.x + z.w <= 640 and z.y + z.h <= 480
        assert z.w >= 60 and z.h >= 60


def test_default_zones_go_clockwise_from_top_left():
    a, b, c, d = default_zones(["A", "B", "C", "D"], 640, 480)
    assert a.x < b.x and a.y == b.y  # top row, left to right
    assert c.y > b.y and c.x > d.x  # bottom row, right to left


def test_default_zones_refuse_repeated_seats():
    with pytest.raises(ValueError, match="seat names must differ: Ann, Ann"):
        default_zones(["Ann", "Ann"], 640, 480)
