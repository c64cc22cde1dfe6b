"""Invariants of the reader, over many generated pictures (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import VisionError
from simulator.random_scenes import random_scene
from simulator.render import (
    DICE_COLOURS,
    SURFACES,
    DieSpec,
    SceneSpec,
    dice_colours,
    render_scene,
)
from vision.rules.reader import read_dice
from vision_lab.evaluate import Label, score_reading


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.integers(1, 6),
    angle=st.floats(0, 360),
    size=st.floats(34, 70),
    colour=st.sampled_from(sorted(DICE_COLOURS)),
    surface=st.sampled_from(SURFACES),
    seed=st.integers(0, 10_000),
)
def test_a_lone_die_is_never_read_as_another_value(value, angle, size, colour, surface, seed):
    body, pips = dice_colours(colour)
    die = DieSpec(value, (160.0, 120.0), size, angle, body, pips)
    spec = SceneSpec(size=(320, 240), surface=surface, dice=(die,))
    reading = read_dice(render_scene(spec, seed)[0])
    assert all(d.value == value for d in reading.dice), (reading.dice, value)
    assert len(reading.dice) <= 1


@settings(max_examples=40, deadline=None)
@given(
    height=st.integers(16, 200),
    width=st.integers(16, 200),
    seed=st.integers(0, 2**32 - 1),
    blocks=st.integers(1, 12),
)
def test_any_picture_gives_boxes_inside_it_and_confidences_0_to_1(height, width, seed, blocks):
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (blocks, blocks, 3), dtype=np.uint8)
    image = np.kron(small, np.ones((height // blocks + 1, width // blocks + 1, 1), np.uint8))
    image = np.ascontiguousarray(image[:height, :width])
    try:
        reading = read_dice(image)
    except VisionError as err:  # only a uniform picture is refused
        assert "blank" in str(err)
        assert int(image.max()) - int(image.min()) < 8
        return
    assert (reading.width, reading.height) == (width, height)
    for box in [d.box for d in reading.dice] + [u.box for u in reading.unsure]:
        x, y, w, h = box
        assert x >= 0 and y >= 0 and w >= 1 and h >= 1 and x + w <= width and y + h <= height
    assert all(0.0 <= d.confidence <= 1.0 and 1 <= d.value <= 6 for d in reading.dice)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n_dice=st.integers(2, 9),
    colour=st.sampled_from([*sorted(DICE_COLOURS), "mixed"]),
    surface=st.sampled_from(SURFACES),
    side=st.sampled_from([0.0, 0.1, 0.2]),
    noise=st.floats(1.0, 4.0),
    jpeg=st.sampled_from([None, 85]),
    seed=st.integers(0, 10**6),
)
def test_scenes_of_separate_dice_are_never_misread(
    n_dice, colour, surface, side, noise, jpeg, seed
):
    spec = random_scene(
        seed, n_dice, colour=colour, surface=surface, side=side, noise=noise, jpeg_quality=jpeg
    )
    image, truth = render_scene(spec, seed)
    labels = [Label(t.value, tuple(float(v) for v in t.box)) for t in truth]
    score = score_reading(read_dice(image), labels)
    assert score.wrong == 0, score.summary()
