"""Simulated evenings of a table that keeps learning: taught once, then teaching itself from the
dice settled in play, evening after evening; the sure share and the wrong share of each evening.

Through the table's own code (the Dice page's teacher and the table's own teaching,
:mod:`firmware.teach.self_teaching`, on a simulated table whose dice the rule reader cannot
read, red with green pips, seen by a poor camera: out of focus, flat and grainy, so that the
untaught learned reader is sure of about 60% of them; the simulator's clean frames it reads
98-100% right, which leaves a table nothing to learn):

- **evening 0**: the referee takes :data:`TAUGHT_THROWS` known throws and presses Learn, then
  Keep where the calibration changes the reader (the table taught once);
- **each evening after**: :data:`EVENING_THROWS` throws at the seats, each read by the table's
  reader in force. A throw whose three dice are not all read surely goes to the players, who
  settle it: its picture and its dice become known dice (the page's known-throw folder stands
  for the log's settled pictures; the calibration reads both alike). A die read surely and
  wrong is not seen by anyone, so it teaches nothing;
- **at closing** the table is idle (a fake clock: nothing sleeps) and teaches itself again if
  30 new known dice came, keeping the result only by the keep rule.

Printed per evening: the dice thrown, the share read surely and right, the share read surely
and wrong (a wrong value, or a die read where none lay), the share left to the players, the
known dice then, and the teaching (held-out right/wrong before and after, kept or not).

Bounded in time on 2 cores: by default the table's cheaper teaching path, the learned reader's
head fitted alone with numpy (``BIDOU_TABLE_TEACH=0``), a few seconds an evening; with
``--network`` (and the learn extra) the table's network is taught as on the Dice page, minutes
an evening. `.venv/bin/python benchmarks/run_all.py evenings` (part of `make bench`), or
``python benchmarks/bench_evenings.py [--evenings N] [--network] [--dice LOOK]``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import time
from typing import Any

import cv2
import numpy as np

from firmware.settings.config import load_config
from firmware.settings.learning_settings import IDLE_SECONDS, LearningSettings
from firmware.table.house import House, build_house
from firmware.teach.dice_teacher import DiceTeacher, simulated_throw
from firmware.teach.self_teaching import SelfTeaching
from vision.calibrate.network import NO_TEACHING

TAUGHT_THROWS = 20
EVENING_THROWS = 30
EVENINGS = 5
DICE_PER_THROW = 3
#: the longest a teaching is waited for (seconds): a network's, on 2 loaded cores, may pass it
WAIT = 1800
#: the poor camera: Gaussian blur (pixels), contrast kept, grain (standard deviation)
BLUR, CONTRAST, GRAIN = 1.8, 0.5, 10.0
CONFIG = """[table]
players = ["Ann", "Bob"]

[camera]
kind = "simulated"
dice = "{dice}"
"""


class Evening:
    """One evening's dice as the table read them (a plain class: run_all loads this file
    without registering it as a module, which a dataclass needs)."""

    def __init__(self) -> None:
        self.dice = self.right = self.wrong = 0
        self.settled = 0  # dice of the throws the players settled

    def line(self) -> str:
        share = (lambda n: f"{100 * n / self.dice:5.1f}%") if self.dice else (lambda n: "  -  ")
        return (f"{self.dice:4d} dice: sure and right {share(self.right)}, sure and wrong "
                f"{share(self.wrong)} ({self.wrong}), settled by the players "
                f"{share(self.settled)}")


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def poor(frame: np.ndarray) -> np.ndarray:
    """``frame`` as the poor camera sees it; the same frame gets the same grain (so the table
    still sees its dice settle)."""
    f = cv2.GaussianBlur(frame.astype(np.float32), (0, 0), BLUR)
    f = (f - f.mean()) * CONTRAST + f.mean()
    f += np.random.default_rng(int(frame[::37, ::41].sum())).normal(0, GRAIN, f.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


def truth(house: House, seat: str) -> list[dict[str, Any]]:
    """The dice the simulated camera drew in ``seat``'s zone, as the page's places."""
    assert house.watcher is not None and house.dice is not None
    zone = house.watcher.zones[seat]
    return [{"box": [x - zone.x, y - zone.y, w, h], "value": value}
            for where, value, (x, y, w, h) in house.dice.camera.truth() if where == seat]


def judged(places: list[dict[str, Any]], dice: list[dict[str, Any]]) -> tuple[int, int]:
    """(right, wrong) of the reader's sure places against the true dice: a sure place is
    matched to the die its box's centre lies on; one on no die is wrong."""
    right = wrong = 0
    used: set[int] = set()
    for place in places:
        if not place["sure"]:
            continue
        x, y, w, h = place["box"]
        cx, cy = x + w / 2, y + h / 2
        hit = next((i for i, d in enumerate(dice) if i not in used
                    and d["box"][0] <= cx <= d["box"][0] + d["box"][2]
                    and d["box"][1] <= cy <= d["box"][1] + d["box"][3]), None)
        if hit is None or dice[hit]["value"] != place["value"]:
            wrong += 1
        else:
            right += 1
        if hit is not None:
            used.add(hit)
    return right, wrong


def play(house: House, teacher: DiceTeacher, throws: int, start: int) -> Evening:
    """``throws`` throws at the seats read by the table; the unsure ones settled (known)."""
    evening = Evening()
    for n in range(start, start + throws):
        seat = ("Ann", "Bob")[n % 2]
        draft = teacher.take(seat)
        dice = truth(house, seat)
        right, wrong = judged(draft.places, dice)
        evening.dice += len(dice)
        evening.right += right
        evening.wrong += wrong
        sure = len(draft.places) == len(dice) and all(p["sure"] for p in draft.places)
        if not sure:  # the table is unsure of the throw: the players settle it
            teacher.save(draft.id, dice)  # the players settle it: its dice are known
            evening.settled += len(dice)
    return evening


def taught_line(teacher: DiceTeacher) -> str:
    last = teacher.teachings.last() if teacher.teachings else None
    if last is None or last.before is None or last.after is None:
        return "no teaching"
    b, a = last.before, last.after
    kept = {True: "kept", False: "not kept", None: "the referee's"}[last.kept]
    return (f"taught on {last.dice} known dice ({last.new_dice} new), {last.seconds:.0f} s: "
            f"held out {b['right']}/{b['dice']} right {b['wrong'] + b['extra']} wrong before, "
            f"{a['right']}/{a['dice']} right {a['wrong'] + a['extra']} wrong after; {kept}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evenings", type=int, default=EVENINGS)
    parser.add_argument("--throws", type=int, default=EVENING_THROWS)
    parser.add_argument("--network", action="store_true",
                        help="teach the table's network (the learn extra), not its head alone")
    parser.add_argument("--dice", default="red-green", help="the simulated dice's look")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--clean", action="store_true",
                        help="the simulator's clean frames, not the poor camera's")
    args = parser.parse_args([] if argv is None else argv)  # run_all: the defaults
    os.environ[NO_TEACHING] = "1" if args.network else "0"  # the calibration's process reads it
    path = "the table's network taught" if args.network else "the head fitted alone (numpy)"
    seen = "the simulator's clean frames" if args.clean else (
        f"a poor camera (blur {BLUR} px, contrast x{CONTRAST}, grain {GRAIN})")
    print(f"{args.dice} dice seen by {seen}, {TAUGHT_THROWS} known throws taught once, then "
          f"{args.evenings} evenings of {args.throws} throws; each teaching: {path}")
    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        config = folder / "pub.toml"
        config.write_text(CONFIG.format(dice=args.dice))
        house = build_house(load_config(str(config), environ={}), seed=args.seed,
                            db=str(folder / "table.db"), panels=False, config_path=str(config))
        assert house.dice is not None
        camera = house.dice.camera
        if not args.clean:
            clean = camera.read
            camera.read = lambda: poor(clean())  # type: ignore[method-assign]
        teacher = DiceTeacher(house.log, house.watcher, str(config),
                              throw=simulated_throw(camera, args.seed))
        house.add("dice teacher", teacher.stop)
        clock = FakeClock()
        itself = SelfTeaching(teacher, LearningSettings(), clock=clock, note=lambda line: None)
        start = time.monotonic()
        try:
            first = play(house, teacher, TAUGHT_THROWS, 0)
            print(f"evening 0 (untaught): {first.line()}")
            missing = teacher.tally().total < 30
            if missing:  # the players settled too few: the referee takes the rest
                play_all_known(house, teacher, TAUGHT_THROWS)
            refusal = teacher.learn()
            if refusal is not None or not teacher.learning.wait(WAIT):
                print(f"  the referee's Learn did not end: {refusal or f'over {WAIT} s'}")
                return 1
            outcome = teacher.learning.outcome
            if outcome is not None and outcome.changes:
                teacher.keep()
            else:
                teacher.learning.drop()
            print(f"  taught once by the referee: {taught_line(teacher)}; "
                  f"reads with {teacher.reader_now()}")
            thrown = TAUGHT_THROWS
            for evening_n in range(1, args.evenings + 1):
                evening = play(house, teacher, args.throws, thrown)
                thrown += args.throws
                print(f"evening {evening_n}: {evening.line()}")
                clock.t += IDLE_SECONDS + 1
                did = itself.look()
                if did == "teaching":
                    if not teacher.learning.wait(WAIT):
                        print(f"  closing: the teaching did not end within {WAIT} s")
                        return 1
                    print(f"  closing: {taught_line(teacher)}")
                else:
                    print(f"  closing: no teaching ({did}: "
                          f"{itself.new_dice()[1]} new known dice)")
        finally:
            house.close()
        print(f"{time.monotonic() - start:.0f} s in all")
    return 0


def play_all_known(house: House, teacher: DiceTeacher, throws: int) -> None:
    """The referee's known throws on the Dice page: each saved with its true dice."""
    for n in range(throws):
        seat = ("Ann", "Bob")[n % 2]
        draft = teacher.take(seat)
        teacher.save(draft.id, truth(house, seat))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
