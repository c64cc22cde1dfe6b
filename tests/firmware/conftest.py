"""Fixtures for the controller tests: a fake dice camera (exact dice, no rendering), a log
with a finished match, and ``bidou-table run`` as a child process (``run_table``)."""

from __future__ import annotations

import pathlib
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from engine import Game, new_game
from engine.autoplay import random_action
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import GameLog
from firmware.table.controller import TableController
from vision.reader import WholeFrame
from vision.reading import Die, Reading, Unsure
from vision.zones import Zone

ZONES = {"Ann": Zone("Ann", 0, 0, 100, 100), "Bob": Zone("Bob", 100, 0, 100, 100),
         "Cid": Zone("Cid", 200, 0, 100, 100)}


@dataclass
class FakeTable:
    """A camera + reader pair whose reading is set by the test: what each zone shows."""

    shown: dict[str, list[Die]]
    unsure: dict[str, list[Unsure]]
    fail: Exception | None = None

    def read(self) -> np.ndarray:
        if self.fail is not None:
            raise self.fail
        return np.zeros((100, 300, 3), np.uint8)

    name = "fake"

    def close(self) -> None:
        pass

    def reader(self, frame: np.ndarray) -> Reading:
        dice = tuple(d for ds in self.shown.values() for d in ds)
        unsure = tuple(u for us in self.unsure.values() for u in us)
        return Reading(dice, unsure, 300, 100)

    def put(self, seat: str, values, at: int = 10, unsure: tuple[str, ...] = ()) -> None:
        """Lay ``values`` in ``seat``'s zone starting ``at`` pixels in (positions differ by
        ``at``, so a new throw lands elsewhere unless the same ``at`` is given)."""
        x0 = ZONES[seat].x
        self.shown[seat] = [Die(v, (x0 + at + 20 * i, 10 + at, 15, 15), 0.99)
                            for i, v in enumerate(values)]
        self.unsure[seat] = [Unsure((x0 + 5, 70, 15, 15), why) for why in unsure]


@pytest.fixture
def fake() -> FakeTable:
    return FakeTable({}, {})


def make_controller(fake: FakeTable, db: str = ":memory:", *, variant: str = "two-hand",
                    players=("Ann", "Bob"), leds=None, before_read=None) -> TableController:
    zones = dict(ZONES)  # the camera sees three places, whoever sits at them
    watcher = DiceWatcher(fake, zones, WholeFrame(fake.reader), frame_pause=0.0)
    return TableController(GameLog(db), variant=variant, players=players, watcher=watcher,
                           leds=leds, before_read=before_read,
                           wall_clock=lambda: "2026-01-01T00:00:00Z").start()


@pytest.fixture
def make():
    """``make(fake, db=":memory:", **kw)`` -> a started controller over the fake camera."""
    return make_controller


@pytest.fixture
def controller(fake: FakeTable) -> Iterator[TableController]:
    c = make_controller(fake)
    yield c
    c.stop()


def write_finished_log(path, *, then_playing: bool = False) -> Game:
    """A log at ``path`` holding one finished two-hand match (random legal play, seed 2) and,
    with ``then_playing``, a second game just started. Returns the finished game."""
    log = GameLog(str(path))
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    game, rng = new_game("two-hand", ["Ann", "Bob"]), random.Random(2)
    while not game.over:
        action = random_action(game, rng)
        game.apply(action)
        log.append(gid, "action", str(action), "panel", "t")
    log.finish_game(gid, "over", game.state(), "t9")
    if then_playing:
        log.start_game("two-hand", ("Ann", "Bob"), {}, "t10")  # a game still being played
    log.close()
    return game


@pytest.fixture
def finished_log() -> Callable[..., Game]:
    """``finished_log(path, then_playing=False)``: see :func:`write_finished_log`."""
    return write_finished_log


ROOT = pathlib.Path(__file__).resolve().parents[2]


def bidou_command(*args: str) -> list[str]:
    """The argv of ``bidou-table ARGS`` run from this checkout."""
    return [sys.executable, "-m", "firmware.cli.dispatch", *args]


@pytest.fixture
def bidou() -> Callable[..., list[str]]:
    """``bidou(*args)``: the argv of ``bidou-table ARGS`` (``python -m firmware.cli.dispatch``)."""
    return bidou_command


class RunningTable:
    """``bidou-table run --simulate ARGS`` in a child process, reading its output as text."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(bidou_command("run", "--simulate", *args), cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)

    def stop(self, *signals: int) -> tuple[str, str]:
        """Send ``signals`` (SIGTERM by default) and wait for the end: (stdout, stderr)."""
        for sig in signals or (signal.SIGTERM,):
            self.proc.send_signal(sig)
        return self.proc.communicate(timeout=30)

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode


@pytest.fixture
def run_table() -> Iterator[Callable[..., RunningTable]]:
    """``run_table(*args)`` starts ``bidou-table run --simulate ARGS``; whatever the test
    left running is killed at its end."""
    started: list[RunningTable] = []

    def start(*args: str) -> RunningTable:
        started.append(RunningTable(*args))
        return started[-1]

    yield start
    for table in started:
        if table.proc.poll() is None:
            table.proc.kill()
            table.proc.communicate()
