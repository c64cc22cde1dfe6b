"""The floor for a new make of dice (vision/learned/decision.py's ``floored``, the model's
vision/models/new_make_floor.json): the reader's thresholds are never looser than it, a
table's careful calibration chooses none looser, and a table whose known dice show the
target keeps its own choice."""

from __future__ import annotations

import json
import pathlib

import numpy as np

from vision.calibrate.adapt import Seen
from vision.calibrate.thresholds import choose_thresholds
from vision.learned.decision import DEFAULTS, STRICTER_HIGHER, Place, floored
from vision.learned.face_reader import Settings, load, thresholds_of
from vision.learned.networks import MODELS
from vision.learned.table_files import FLOOR_FILE, floor_of

FLOOR = {"min_value": 0.98, "detect": 0.4, "agree": 1.0, "not_a_die": 0.05, "sure_die": 0.001,
         "turned": 0.5, "pips": 0.0, "side": 0.0}


def test_a_threshold_looser_than_the_floor_is_tightened_and_a_stricter_one_kept() -> None:
    loose = {"min_value": 0.7, "detect": 0.3, "not_a_die": 0.3, "sure_die": 0.01,
             "turned": 1.0, "pips": 1.0}
    t = floored(loose, FLOOR)
    assert (t["min_value"], t["detect"], t["not_a_die"], t["sure_die"]) == (0.98, 0.4, 0.05,
                                                                            0.001)
    assert (t["turned"], t["pips"], t["side"]) == (0.5, 0.0, 0.0)
    strict = {"min_value": 0.999, "detect": 0.5, "not_a_die": 0.01, "sure_die": 0.0,
              "turned": 0.2}
    t = floored(strict, FLOOR)
    assert (t["min_value"], t["detect"], t["not_a_die"], t["sure_die"], t["turned"]) == (
        0.999, 0.5, 0.01, 0.0, 0.2)
    assert floored(loose, None) == {**DEFAULTS, **loose}  # no floor: the thresholds as given


def test_the_shipped_model_reads_its_floor_and_its_thresholds_are_no_looser() -> None:
    """The floor chosen across makes ships beside the model, and neither the model's own
    thresholds nor a config's line goes under it."""
    record = json.loads((MODELS / FLOOR_FILE).read_text())
    model = load(MODELS)
    assert model.floor == record["floor"]
    for settings in (Settings(), Settings(min_value=0.5, not_a_die=0.7, detect=0.1,
                                          sure_die=0.5, agree=0.5)):
        t = thresholds_of(model, settings)
        for key, bar in record["floor"].items():
            assert t[key] >= bar if key in STRICTER_HIGHER else t[key] <= bar, key


def test_a_table_whose_known_dice_show_the_target_keeps_its_own_choice(
        tmp_path: pathlib.Path) -> None:
    """The floor guesses at a new make from other makes; a table's own dice, enough of them
    read with few enough errors, are measured: its thresholds stand. Until they are, the
    floor holds, its ``detect`` aside for a table with its own die finder."""
    (tmp_path / FLOOR_FILE).write_text(json.dumps({"floor": FLOOR}))
    own = tmp_path / "table.reader.json"
    own.write_text(json.dumps({"min_value": 0.7, "calibration": {"shows_target": True}}))
    assert floor_of(tmp_path, own, own_finder=False) is None
    own.write_text(json.dumps({"min_value": 0.7, "calibration": {"shows_target": False}}))
    assert floor_of(tmp_path, own, own_finder=False) == FLOOR
    assert "detect" not in (floor_of(tmp_path, own, own_finder=True) or {})
    assert floor_of(tmp_path / "no-model-floor", own, own_finder=False) is None


def place(value: int, sure: float, x: float) -> Place:
    probs = np.full(7, (1 - sure) / 5, np.float32)
    probs[0], probs[value] = 0.001, sure
    return Place((x, 100.0), 40.0, 0.9, probs, np.zeros(4, np.float32), False)


def test_a_careful_calibration_chooses_no_threshold_looser_than_the_floor() -> None:
    """Sixty known dice read right at 0.95: too few to show 1 wrong in 500, so the careful
    choice keeps the model's floor, though giving values at 0.95 would read every one."""
    seen = [Seen(f"p{k}", (1 + k % 6, 1 + (k + 1) % 6, 1 + (k + 2) % 6),
                 tuple(place(1 + (k + i) % 6, 0.95, 100.0 * (i + 1)) for i in range(3)))
            for k in range(20)]
    base = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9, "sure_die": 0.0}
    chosen = choose_thresholds(seen, base, floor=FLOOR)
    for key, bar in FLOOR.items():
        assert chosen[key] >= bar if key in STRICTER_HIGHER else chosen[key] <= bar, key
    assert choose_thresholds(seen, base)["min_value"] < FLOOR["min_value"]  # what it costs


def test_known_dice_that_show_the_target_keep_their_own_choice_under_the_floor() -> None:
    """504 known dice, all read right at 0.95: enough to show 1 wrong in 500, so the table's
    calibration gives them values at 0.95, under the floor's 0.98."""
    seen = [Seen(f"p{k}", tuple(1 + (k + i) % 6 for i in range(6)),
                 tuple(place(1 + (k + i) % 6, 0.95, 100.0 * (i + 1)) for i in range(6)))
            for k in range(84)]
    base = {"detect": 0.3, "not_a_die": 0.5, "min_value": 0.9, "sure_die": 0.0}
    assert choose_thresholds(seen, base, floor=FLOOR)["min_value"] < FLOOR["min_value"]
