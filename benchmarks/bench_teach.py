"""What teaching the table its dice costs, through the console's own code (the Dice page's
teacher on a simulated table with red-green dice, which the rule reader cannot read):

- a known throw taken at a seat and saved (the picture of its zone, read with the table's
  reader, then written beside the log), with the rule reader and then with the kept one;
- "Learn these dice" from 60 dice (20 throws): the calibration in its child process, from the
  press to the figures, and each stage's share as the progress bar names it.

`.venv/bin/python benchmarks/run_all.py teach` (part of `make bench`).
"""

from __future__ import annotations

import pathlib
import statistics
import tempfile
import time

from firmware.settings.config import load_config
from firmware.table.house import House, build_house
from firmware.teach.dice_teacher import DiceTeacher, simulated_throw

THROWS = 20
CONFIG = """[table]
players = ["Ann", "Bob"]

[camera]
kind = "simulated"
dice = "red-green"
"""


def take_and_save(house: House, teacher: DiceTeacher, count: int) -> list[float]:
    """Seconds for each of ``count`` known throws taken and saved with their true dice."""
    assert house.dice is not None and house.watcher is not None
    seconds = []
    for n in range(count):
        seat = ("Ann", "Bob")[n % 2]
        start = time.perf_counter()
        draft = teacher.take(seat)
        zone = house.watcher.zones[seat]
        places = [{"box": [x - zone.x, y - zone.y, w, h], "value": value}
                  for where, value, (x, y, w, h) in house.dice.camera.truth() if where == seat]
        teacher.save(draft.id, places)
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        (folder / "pub.toml").write_text(CONFIG)
        house = build_house(load_config(str(folder / "pub.toml"), environ={}), seed=3,
                            db=str(folder / "table.db"), panels=False,
                            config_path=str(folder / "pub.toml"))
        assert house.dice is not None
        teacher = DiceTeacher(house.log, house.watcher, str(folder / "pub.toml"),
                              throw=simulated_throw(house.dice.camera, 3))
        house.add("dice teacher", teacher.stop)
        try:
            rules = take_and_save(house, teacher, THROWS)
            print(f"a known throw taken and saved, rule reader: median "
                  f"{statistics.median(rules) * 1000:.0f} ms, max {max(rules) * 1000:.0f} ms "
                  f"({THROWS} throws, {teacher.tally().dice} dice)")
            stages: dict[str, float] = {}
            start = time.monotonic()
            assert teacher.learn() is None
            last, stage = start, ""
            while teacher.learning.running:
                now = time.monotonic()
                stages[stage] = stages.get(stage, 0.0) + now - last
                last, stage = now, teacher.learning.progress.stage
                time.sleep(0.05)
            total = time.monotonic() - start
            outcome = teacher.learning.outcome
            assert outcome is not None and outcome.result is not None, teacher.learning.failure
            assert outcome.choice is not None
            print(f"Learn from {outcome.result.dice} dice: {total:.1f} s from the press to the "
                  f"figures (the calibration itself {outcome.result.seconds:.1f} s)")
            for stage_name, spent in stages.items():
                if stage_name and spent >= 0.05:
                    print(f"  {stage_name}: {spent:.1f} s")
            print(f"  reader chosen: {outcome.choice.chosen}; every known throw, rule reader "
                  f"{outcome.choice.rules.right}/{outcome.choice.rules.dice} right, learned "
                  f"{outcome.choice.learned.right}/{outcome.choice.learned.dice}")
            teacher.keep()
            kept = take_and_save(house, teacher, 6)
            print(f"a known throw taken and saved, the kept reader: median "
                  f"{statistics.median(kept) * 1000:.0f} ms")
        finally:
            house.close()


if __name__ == "__main__":
    main()
