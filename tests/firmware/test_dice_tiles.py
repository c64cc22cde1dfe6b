"""The settle's picture for the pub's screen (firmware/camera/dice_tiles.py): a square tile a
die, sure dice first framed green, then the unsure ones framed red, each die enlarged from its
own square of the zone, so a die is a tile's size whatever its size in the camera's frame."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from firmware.camera.dice_tiles import SURE, TILE, UNSURE, dice_tiles


def zone_with_dice(boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """A grey zone 300x120 (whose corner is (10, 20) in the frame) with a white square at each
    box (frame coordinates)."""
    picture = np.full((120, 300, 3), 60, dtype=np.uint8)
    for x, y, w, h in boxes:
        picture[y - 20:y - 20 + h, x - 10:x - 10 + w] = 255
    return picture


def place(box: tuple[int, int, int, int]) -> SimpleNamespace:
    return SimpleNamespace(box=box)


def test_each_die_is_one_square_tile_in_the_order_sure_then_unsure() -> None:
    sure, unsure = [(40, 50, 30, 30)], [(150, 60, 20, 20), (250, 90, 40, 40)]
    tiles = dice_tiles(zone_with_dice(sure + unsure), [place(b) for b in sure],
                       [place(b) for b in unsure], origin=(10, 20))
    assert tiles.shape == (TILE, 3 * TILE, 3)
    for i, colour in enumerate((SURE, UNSURE, UNSURE)):
        tile = tiles[:, i * TILE:(i + 1) * TILE]
        # the die, white, fills the middle; its frame is in its colour, the margin is not white
        assert (tile[TILE // 2, TILE // 2] == 255).all()
        framed = np.all(tile == np.array(colour, dtype=np.uint8), axis=2)
        assert framed.sum() > TILE, f"tile {i} has no {colour} frame"
        assert (tile[3, 3] != 255).any()


def test_a_small_die_comes_out_as_large_as_a_big_one() -> None:
    small, big = (40, 50, 12, 12), (150, 40, 60, 60)
    tiles = dice_tiles(zone_with_dice([small, big]), [place(small), place(big)], [],
                       origin=(10, 20))
    white = [(np.all(tiles[:, i * TILE:(i + 1) * TILE] == 255, axis=2)).sum()
             for i in range(2)]
    assert abs(white[0] - white[1]) < 0.15 * white[1], white


def test_a_die_at_the_zone_edge_is_padded_not_cut_or_shifted() -> None:
    edge = (10, 20, 30, 30)  # the zone's top left corner
    tiles = dice_tiles(zone_with_dice([edge]), [], [place(edge)], origin=(10, 20))
    assert tiles.shape == (TILE, TILE, 3)
    assert (tiles[TILE // 2, TILE // 2] == 255).all()  # still centred
    assert (tiles[2, 2] == 0).all()  # the padding outside the zone is black


def test_a_zone_with_no_die_found_is_shown_whole_at_a_tiles_height() -> None:
    picture = zone_with_dice([])
    tiles = dice_tiles(picture, [], [], origin=(10, 20))
    assert tiles.shape == (TILE, round(300 * TILE / 120), 3)
    assert cv2.imencode(".jpg", tiles)[0]
