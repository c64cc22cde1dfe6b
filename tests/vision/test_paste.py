"""More examples from the same known throws (vision/calibrate/paste.py): each boxed die pasted
onto the table's cloth, clear of every die, with every die of the made picture listed; a
fold pastes only the dice it is taught."""

from __future__ import annotations

import math

import numpy as np

from vision.calibrate import boxed_pictures, paste
from vision.calibrate.adapt import Known


def cloth(seed: int, dice: list[tuple[tuple[float, float], float, int]]) -> np.ndarray:
    """A green cloth with white squares (dice) at ``dice``."""
    rng = np.random.default_rng(seed)
    image = np.zeros((240, 320, 3), np.uint8)
    image[:] = (40, 120, 40)
    image = np.clip(image + rng.normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    for (x, y), s, _ in dice:
        image[int(y - s / 2):int(y + s / 2), int(x - s / 2):int(x + s / 2)] = 230
    return image


DICE = [[((60.0, 60.0), 30.0, 2), ((200.0, 150.0), 30.0, 5)], [((100.0, 180.0), 28.0, 6)]]


def test_made_pictures_keep_their_own_dice_and_paste_others_clear_of_every_die() -> None:
    pictures = [cloth(i, d) for i, d in enumerate(DICE)]
    made = paste.paste_pictures(pictures, list(enumerate(DICE)), seed=3)
    assert len(made) == paste.PER_PICTURE * len(DICE)
    for m in made:
        assert m.image.shape == pictures[0].shape and m.image.dtype == np.uint8
        for i, (c, s, v) in enumerate(m.dice):
            assert 1 <= v <= 6
            for c2, s2, _ in m.dice[i + 1:]:
                assert math.dist(c, c2) > min(s, s2)  # no die pasted onto another
    pasted_here = [d for m in made for d in m.dice if d not in DICE[0] and d not in DICE[1]]
    assert pasted_here
    (x, y), _, _ = pasted_here[0]
    m = next(m for m in made if pasted_here[0] in m.dice)
    assert m.image[int(y), int(x)].mean() > 150  # a white die where it was pasted


def test_an_empty_cloth_is_a_background_too_and_no_boxed_die_makes_no_picture() -> None:
    pictures = [cloth(0, DICE[0])]
    empty = cloth(9, [])
    made = paste.paste_pictures(pictures, [(0, DICE[0])], backgrounds=[empty], seed=1,
                                per_picture=6)
    assert any(len(m.dice) <= paste.DICE_EACH[1] and all(d not in DICE[0] for d in m.dice)
               for m in made)
    assert paste.paste_pictures(pictures, [(0, [])], seed=1) == []


def test_a_fold_pastes_only_the_dice_of_the_pictures_it_is_taught() -> None:
    pictures = [cloth(i, d) for i, d in enumerate(DICE)]
    known = [Known(f"p{i}", tuple(v for _, _, v in d), lambda i=i: pictures[i],
                   boxes=tuple(((c[0] - s / 2, c[1] - s / 2, s, s), v) for c, s, v in d))
             for i, d in enumerate(DICE)]
    made, ex = boxed_pictures.pasted(known, pictures, [1], [], seed=0)
    assert made and {e.cls for e in ex if e.cls > 0} == {6}
    assert all(e.picture >= len(pictures) for e in ex)
