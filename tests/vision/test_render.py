"""The scene renderer: deterministic, truthful boxes, correct pips, every condition it offers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.random_scenes import random_scene
from simulator.render import (
    DICE_COLOURS,
    PIP_LAYOUTS,
    DieSpec,
    Glare,
    SceneSpec,
    TrueDie,
    render_scene,
    scene_backdrop,
    top_face_outline,
)
from simulator.table_scenes import render_table, table_backdrop, table_scene
from vision.zones import Zone, default_zones


def clean(dice, surface="plain", colour=(60, 60, 60), **kw) -> SceneSpec:
    """A scene with nothing but the dice: no noise, no shadow."""
    return SceneSpec(surface=surface, surface_colour=colour, dice=tuple(dice), noise=0.0,
                     shadow=0.0, **kw)


def count_pips(image: np.ndarray, die: DieSpec, pip_is_dark: bool) -> list[tuple[float, float]]:
    """Centroids of pip blobs on the die's top face (inside its outline, past the rim)."""
    outline = top_face_outline(die)
    centre = np.asarray(die.centre)
    inner = np.round(centre + 0.85 * (outline - centre)).astype(np.int32)
    face = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(face, [inner], 255)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    level = (int(grey[face > 0].min()) + int(grey[face > 0].max())) // 2
    pips = (grey < level) if pip_is_dark else (grey > level)
    mask = (pips & (face > 0)).astype(np.uint8)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(mask)
    return [tuple(c) for c, s in zip(centroids[1:], stats[1:], strict=True) if s[4] >= 4]


def test_same_spec_and_seed_give_the_same_image():
    spec = random_scene(7, 6, glare=1, side=0.2)
    a, ta = render_scene(spec, seed=3)
    b, tb = render_scene(spec, seed=3)
    assert np.array_equal(a, b) and ta == tb
    c, _ = render_scene(spec, seed=4)  # another seed: other noise and texture, same dice
    assert not np.array_equal(a, c)


def test_random_scene_is_decided_by_its_seed():
    assert random_scene(11, 5) == random_scene(11, 5)
    assert random_scene(11, 5) != random_scene(12, 5)


def test_image_has_the_requested_size_and_is_bgr_uint8():
    image, _ = render_scene(random_scene(0, 3, size=(320, 240)), 0)
    assert image.shape == (240, 320, 3) and image.dtype == np.uint8


@pytest.mark.parametrize("angle", [0.0, 17.0, 45.0, 80.0])
def test_truth_box_bounds_the_top_face(angle):
    spec = clean([DieSpec(5, (160.3, 120.7), 60, angle)])
    image, [truth] = render_scene(spec)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ys, xs = np.nonzero(grey > 130)
    x, y, w, h = truth.box
    assert abs(xs.min() - x) <= 1 and abs(ys.min() - y) <= 1
    assert abs(xs.max() + 1 - (x + w)) <= 1 and abs(ys.max() + 1 - (y + h)) <= 1


@pytest.mark.parametrize("colour", sorted(DICE_COLOURS))
@pytest.mark.parametrize("value", range(1, 7))
def test_each_face_shows_its_number_of_pips(colour, value):
    body, pips = DICE_COLOURS[colour]
    surface = (200, 200, 200) if colour == "black" else (60, 60, 60)
    spec = clean([DieSpec(value, (100, 100), 80, 30.0, body, pips)], colour=surface)
    image, [truth] = render_scene(spec)
    assert truth.value == value
    found = count_pips(image, spec.dice[0], pip_is_dark=sum(pips) < sum(body))
    assert len(found) == value


def test_six_is_two_columns_of_three():
    spec = clean([DieSpec(6, (100, 100), 90, 0.0)])
    image, _ = render_scene(spec)
    xs = sorted(round(cx) for cx, _ in count_pips(image, spec.dice[0], pip_is_dark=True))
    assert len(xs) == 6
    assert xs[2] - xs[0] <= 2 and xs[5] - xs[3] <= 2 and xs[3] - xs[2] > 20


def test_side_faces_show_beyond_the_top_face_and_leave_its_pips_alone():
    flat, [t_flat] = render_scene(clean([DieSpec(4, (100, 90), 70, 10.0)], size=(200, 200)))
    tilted_spec = clean([DieSpec(4, (100, 90), 70, 10.0, side=0.3, side_dir_deg=90)],
                        size=(200, 200))
    tilted, [t_tilt] = render_scene(tilted_spec)
    x, y, w, h = t_tilt.box
    strip = (slice(y + h + 2, y + h + 12), slice(x + w // 3, x + w - w // 3))
    below = cv2.cvtColor(tilted, cv2.COLOR_BGR2GRAY)[strip]
    assert below.mean() > 90  # the die's side is drawn under the top face, lighter than the table
    assert cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)[strip].mean() < 65
    assert h < t_flat.box[3]  # the top face is foreshortened towards the camera's tilt
    assert len(count_pips(tilted, tilted_spec.dice[0], pip_is_dark=True)) == 4


def test_zero_noise_plain_surface_is_flat():
    image, _ = render_scene(clean([], colour=(10, 20, 30)))
    assert np.all(image == np.array([10, 20, 30], np.uint8))


@pytest.mark.parametrize("surface", ["wood", "felt", "glass", "plain"])
def test_surfaces_differ_and_are_textured_except_plain(surface):
    image, _ = render_scene(SceneSpec(surface=surface, noise=0.0), 1)
    spread = float(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).std())
    assert (spread > 1.0) == (surface != "plain")


def test_light_surface_is_lighter_than_dark_surfaces():
    mean = {s: render_scene(SceneSpec(surface=s), 0)[0].mean() for s in ("wood", "felt", "glass")}
    assert mean["wood"] > 120 > mean["felt"] > mean["glass"]


def test_glare_brightens_its_spot_towards_white():
    spec = clean([], colour=(50, 50, 50), glare=(Glare((100, 100), 20, 0.9),))
    image, _ = render_scene(spec)
    assert image[100, 100].min() > 200 and image[10, 10].max() == 50


def test_lighting_gradient_darkens_one_side():
    image, _ = render_scene(clean([], colour=(150, 150, 150), light=(0.4, 0.0)))
    left, right = image[:, :20].mean(), image[:, -20:].mean()
    assert right - left > 40


def test_blur_noise_and_jpeg_change_the_image_but_keep_the_truth():
    spec = random_scene(2, 4, noise=0.0)
    base, truth = render_scene(spec)
    for kw in ({"blur": 1.5}, {"noise": 6.0}, {"jpeg_quality": 40}):
        other, other_truth = render_scene(SceneSpec(**{**spec.__dict__, **kw}))
        assert not np.array_equal(base, other) and other_truth == truth


def boxes_overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("n", [3, 12, 30])
def test_random_scene_places_dice_inside_without_overlap(n):
    spec = random_scene(n, n, colour="mixed", side=0.15)
    _, truth = render_scene(spec)
    assert len(truth) == n and all(1 <= t.value <= 6 for t in truth)
    for i, a in enumerate(truth):
        x, y, w, h = a.box
        assert x >= 0 and y >= 0 and x + w <= 640 and y + h <= 480
        assert not any(boxes_overlap(a.box, b.box) for b in truth[i + 1 :])


def test_touching_pairs_share_an_edge():
    spec = random_scene(5, 4, touching_pairs=2)
    for a, b in (spec.dice[0:2], spec.dice[2:4]):
        gap = np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
        assert a.angle_deg == b.angle_deg and gap == pytest.approx(a.size_px, rel=1e-6)


def test_random_scene_uses_the_given_values():
    spec = random_scene(3, 3, values=[6, 5, 4])
    assert [d.value for d in spec.dice] == [6, 5, 4]


def test_random_scene_refuses_more_dice_than_fit():
    with pytest.raises(ValueError, match=r"cannot place 40 dice in a 64x48 image without overlap"):
        random_scene(0, 40, size=(64, 48), die_size=20)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"surface": "marble"},
         "surface 'marble' is unknown; use one of wood, felt, glass, plain."),
        ({"size": (8, 8)}, "size must be (width, height) of at least 16 pixels, not (8, 8)."),
        ({"jpeg_quality": 0}, "jpeg_quality must be 1-100 or None, not 0."),
    ],
)
def test_bad_scene_specs_are_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError) as e:
        SceneSpec(**kwargs)
    assert str(e.value) == message


def test_bad_die_specs_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match=r"a die shows 1 to 6 pips, not 7\."):
        DieSpec(7, (0, 0))
    with pytest.raises(ValueError, match=r"dice colour 'pink' is unknown"):
        random_scene(0, 3, colour="pink")


def test_twelve_megapixel_scene():
    spec = random_scene(1, 5, size=(4000, 3000), noise=1.0)
    image, truth = render_scene(spec, 1)
    assert image.shape == (3000, 4000, 3)
    assert all(t.box[2] > 250 for t in truth)  # dice scale with the picture


def test_render_table_puts_each_seats_dice_in_its_zone():
    zones = default_zones(["Ann", "Bob", "Cat"], 640, 480)
    dice = {"Ann": [1, 2, 3], "Bob": [6, 6, 6], "Cat": [4, 5]}
    spec = table_scene(zones, dice, seed=5)
    _, truth = render_scene(spec, 5)
    by_zone = {z.seat: sorted(t.value for t in truth if z.holds(t.box)) for z in zones}
    assert by_zone == {"Ann": [1, 2, 3], "Bob": [6, 6, 6], "Cat": [4, 5]}
    image = render_table(zones, dice, seed=5)
    assert np.array_equal(image, render_scene(spec, 5)[0])


def test_a_backdrop_drawn_ahead_gives_the_same_frame():
    """The surface and noise drawn before the dice (the simulated camera does) must make the
    same pixels as a frame drawn in one go, on every surface, with and without noise."""
    zones = default_zones(["Ann", "Bob", "Cat"], 640, 480)
    dice = {"Ann": [1, 2, 3], "Cat": [4, 5, 6]}
    for seed, surface, noise in ((5, "felt", 2.0), (6, "wood", 2.0), (7, "glass", 0.0)):
        ahead = table_backdrop(seed, surface=surface, noise=noise)
        assert np.array_equal(
            render_table(zones, dice, seed, surface=surface, noise=noise, drawn=ahead),
            render_table(zones, dice, seed, surface=surface, noise=noise))
    spec = random_scene(7, 6, glare=1, side=0.2, blur=0.8)
    assert np.array_equal(render_scene(spec, 3, scene_backdrop(spec, 3))[0],
                          render_scene(spec, 3)[0])


def test_a_backdrop_serves_its_own_scene_and_one_frame():
    zones = default_zones(["Ann"], 640, 480)
    with pytest.raises(ValueError, match=r"the backdrop was drawn for .*, not for this scene's"):
        render_table(zones, {"Ann": [1, 2, 3]}, 5, drawn=table_backdrop(6))
    ahead = table_backdrop(5)
    render_table(zones, {"Ann": [1, 2, 3]}, 5, drawn=ahead)
    with pytest.raises(ValueError, match="this backdrop was drawn on already"):
        render_table(zones, {"Ann": [1, 2, 3]}, 5, drawn=ahead)


def test_render_table_draws_bottom_faces_for_a_glass_table():
    zones = [Zone("Ann", 0, 0, 320, 480)]
    spec = table_scene(zones, {"Ann": [1, 2, 6]}, bottom_faces=True)
    assert sorted(d.value for d in spec.dice) == [1, 5, 6]


def test_render_table_refuses_a_seat_without_zone():
    with pytest.raises(ValueError, match="there is no zone for seat 'Zed'; zones: Ann."):
        table_scene([Zone("Ann", 0, 0, 320, 480)], {"Zed": [1, 2, 3]})


def test_truth_rows_unpack_as_value_and_box():
    value, box = TrueDie(3, (1, 2, 3, 4))
    assert value == 3 and box == (1, 2, 3, 4)
    assert set(PIP_LAYOUTS) == {1, 2, 3, 4, 5, 6}


@settings(max_examples=40, deadline=None)
@given(
    value=st.integers(1, 6),
    angle=st.floats(0, 360, allow_nan=False),
    size=st.floats(40, 110),
    cx=st.floats(80, 120),
    cy=st.floats(80, 120),
)
def test_any_rotation_and_size_keeps_pips_and_truth_box_centred(value, angle, size, cx, cy):
    die = DieSpec(value, (cx, cy), size, angle)
    image, [truth] = render_scene(clean([die], size=(200, 200)))
    assert len(count_pips(image, die, pip_is_dark=True)) == value
    x, y, w, h = truth.box
    assert abs(x + w / 2 - cx) <= 1 and abs(y + h / 2 - cy) <= 1
    assert size <= w + 1 <= size * 1.42 + 2  # a square's bounding box, from 0 to 45 degrees


def test_labelled_set_on_disk_matches_the_truth_in_the_photographs_format(tmp_path, capsys):
    from simulator.sets import main
    from vision_lab.evaluate import load_labels

    assert main([str(tmp_path), "--count", "2", "--dice", "4", "--seed", "9"]) == 0
    assert capsys.readouterr().out == f"wrote 2 scenes with labels to {tmp_path}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "scene_00009.png", "scene_00009.txt", "scene_00010.png", "scene_00010.txt"]
    _, truth = render_scene(random_scene(9, 4), 9)
    labels = load_labels(tmp_path / "scene_00009.txt", 640, 480)
    assert [lab.value for lab in labels] == [t.value for t in truth]
    for lab, t in zip(labels, truth, strict=True):
        assert np.allclose(lab.box, t.box, atol=0.01)
    image = cv2.imread(str(tmp_path / "scene_00009.png"))
    assert np.array_equal(image, render_scene(random_scene(9, 4), 9)[0])


def test_labelled_set_refuses_a_bad_size(tmp_path, capsys):
    from simulator.sets import main

    with pytest.raises(SystemExit):
        main([str(tmp_path), "--size", "640by480"])
    err = capsys.readouterr().err
    assert "argument --size: '640by480' is not WIDTHxHEIGHT, e.g. 640x480" in err
