"""Zone finding: the dice each player put down become that seat's zone, clockwise from top-left."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import VisionError
from hardware.zonefinder import clockwise_key, cluster, find_zones
from vision.reading import Die, Reading, Unsure
from vision.zones import Zone

W, H = 640, 480
SEATS = ["Ann", "Bob", "Cy", "Dee"]


def dice_around(*centres: tuple[int, int], size: int = 30) -> Reading:
    """Three dice near each centre, as a reading."""
    dice = []
    for cx, cy in centres:
        for dx, dy in ((-25, -10), (20, -15), (0, 25)):
            dice.append(Die(3, (cx + dx - size // 2, cy + dy - size // 2, size, size), 0.9))
    return Reading(dice=tuple(dice), width=W, height=H)


def holds_centre(zone: Zone, box: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    return zone.contains(x + w / 2, y + h / 2)


def test_four_corners_are_given_clockwise_from_the_top_left() -> None:
    # listed in a scrambled order: the result must not depend on it
    reading = dice_around((500, 380), (140, 100), (140, 380), (500, 100))
    found = find_zones(reading, SEATS, W, H)
    centre = {z.seat: (z.x + z.w / 2, z.y + z.h / 2) for z in found.zones}
    assert centre["Ann"][0] < 320 and centre["Ann"][1] < 240  # top left
    assert centre["Bob"][0] > 320 and centre["Bob"][1] < 240  # top right
    assert centre["Cy"][0] > 320 and centre["Cy"][1] > 240  # bottom right
    assert centre["Dee"][0] < 320 and centre["Dee"][1] > 240  # bottom left
    assert found.dice_per_seat == {seat: 3 for seat in SEATS}
    assert found.notes == ()


def test_every_die_is_inside_its_own_seats_zone_and_zones_do_not_overlap() -> None:
    reading = dice_around((140, 100), (500, 100), (500, 380), (140, 380))
    found = find_zones(reading, SEATS, W, H)
    for i, zone in enumerate(found.zones):
        mine = reading.dice[3 * i: 3 * i + 3]
        assert all(holds_centre(zone, d.box) for d in mine)
        for other in found.zones[i + 1:]:
            assert not zone.overlaps(other)


def test_zones_are_padded_around_the_dice_and_stay_in_the_frame() -> None:
    reading = dice_around((60, 50), (580, 430))
    found = find_zones(reading, ["Ann", "Bob"], W, H)
    ann, bob = found.zones
    assert ann.x == 0 and ann.y == 0  # clamped at the frame's edge
    assert bob.x + bob.w == W and bob.y + bob.h == H
    assert ann.w > 100 and ann.h > 100  # room for a throw that lands a little off


def test_two_seats_side_by_side_left_comes_first() -> None:
    found = find_zones(dice_around((500, 240), (140, 240)), ["Ann", "Bob"], W, H)
    assert found.zones[0].seat == "Ann" and found.zones[0].x < found.zones[1].x


def test_unsure_places_count_as_dice() -> None:
    reading = dice_around((140, 100), (500, 380))
    unsure = Unsure(reading.dice[0].box, "glare")
    reading = Reading(dice=reading.dice[1:], unsure=(unsure,), width=W, height=H)
    found = find_zones(reading, ["Ann", "Bob"], W, H)
    assert found.dice_per_seat == {"Ann": 3, "Bob": 3}


def test_wrong_dice_count_is_noted_not_refused() -> None:
    reading = dice_around((140, 100), (500, 380))
    reading = Reading(dice=reading.dice[:5], width=W, height=H)
    found = find_zones(reading, ["Ann", "Bob"], W, H)
    assert found.notes == (
        "found 5 dice where 2 seats x 3 = 6 were expected: check the zones before playing",
        "Bob's zone holds 2 dice, not 3",
    )


def test_fewer_dice_than_seats_is_a_clear_error() -> None:
    reading = Reading(dice=(Die(2, (10, 10, 20, 20), 0.9),), width=W, height=H)
    with pytest.raises(VisionError) as caught:
        find_zones(reading, SEATS, W, H)
    assert str(caught.value) == (
        "found 1 dice but 4 seats need 3 each: ask every player to put their dice in the "
        "middle of their place, well lit, and try again (or give the zones on the referee "
        "console)"
    )


def test_clockwise_key_goes_left_top_right_bottom() -> None:
    keys = [clockwise_key(x, y, W, H) for x, y in ((0, 240), (320, 0), (640, 240), (320, 480))]
    assert keys == sorted(keys)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 640), st.integers(0, 480)), min_size=2, max_size=20),
       st.integers(1, 5))
def test_cluster_labels_every_point_with_a_used_cluster(points, k) -> None:
    import numpy as np

    if len(points) < k:
        k = len(points)
    labels = cluster(np.array(points, dtype=float), k)
    assert len(labels) == len(points)
    assert set(labels.tolist()) == set(range(k))


def test_cluster_is_deterministic_and_separates_far_groups() -> None:
    import numpy as np

    points = np.array([[10, 10], [12, 14], [600, 400], [603, 398], [15, 9]], dtype=float)
    labels = cluster(points, 2)
    assert labels.tolist() == cluster(points, 2).tolist()
    assert labels[0] == labels[1] == labels[4] != labels[2] == labels[3]
