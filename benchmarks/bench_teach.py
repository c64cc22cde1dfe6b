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
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "table_server"))

from teach_table import teach_house, true_places  # noqa: E402  (the tests' table)

THROWS = 20


def take_and_save(house, teacher, count: int) -> list[float]:
    seconds = []
    for n in range(count):
        seat = ("Ann", "Bob")[n % 2]
        start = time.perf_counter()
        draft = teacher.take(seat)
        teacher.save(draft.id, true_places(house, seat))
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        house, teacher, _ = teach_house(pathlib.Path(folder))
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
            print(f"Learn from {outcome.result.dice} dice: {total:.1f} s from the press to the "
                  f"figures (the calibration itself {outcome.result.seconds:.1f} s)")
            for name, spent in stages.items():
                if name and spent >= 0.05:
                    print(f"  {name}: {spent:.1f} s")
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
