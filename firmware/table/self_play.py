"""A simulated table that plays by itself at a person's pace (``bidou-table run --autoplay``).

For ``make venue`` and the venue's tests: each simulated table must make real entries in its
own log, through the same commands a seat's phone sends (``Act``), so the forwarder sees what
a pub's table makes. Every ``pace`` seconds (with some jitter, as people are) it plays one of
the actions the public state allows, at random; a throw reads the simulated camera like a
THROW press (a throw the camera is unsure of counts, its values pending), exposed dice the
camera still cannot read are entered as the referee would (docs/rules/pending.md), and a finished
game is followed by a new one. Given roster ids (``make league``), it seats players drawn from
them before each game's first action, as a league's referee does. It runs in its own thread
and only calls ``submit``.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from firmware.table.commands import Act, Correct, EnterDice
from firmware.table.controller import TableController
from firmware.table.roster_seating import Seat

CHIP_VERBS = ("bet", "raise")


def choose(state: dict[str, Any], rng: random.Random) -> Act | EnterDice | Correct | None:
    """The next command of a table playing itself, from its public state (None: wait)."""
    if state.get("status") != "playing":
        return Correct("new-game", by="table", why="the simulated table plays on")
    for waiting in state.get("settling", []):  # the camera's sure dice, the rest at random
        values = tuple(v if v is not None else rng.randint(1, 6) for v in waiting["guess"])
        return EnterDice(waiting["seat"], values)
    options = [(p, v) for p, verbs in (state.get("allowed") or {}).items() for v in verbs]
    if not options:
        return None
    stands = [o for o in options if o[1] == "stand"]
    player, verb = stands[0] if stands and rng.random() < 0.4 else rng.choice(options)
    return Act(player, verb, chips=1 if verb in CHIP_VERBS else None, source="autoplay")


class SelfPlay:
    """The thread playing ``controller`` every ``pace`` seconds; ``stop()`` ends it."""

    def __init__(self, controller: TableController, pace: float, seed: int | None = None,
                 roster: tuple[str, ...] = ()):
        self.controller = controller
        self.roster = roster
        self.pace = pace
        self.rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="self-play", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=35)

    def _run(self) -> None:
        while not self._stop.wait(self.pace * self.rng.uniform(0.5, 1.5)):
            state = self.controller.public_state()
            command = self._seating(state) or choose(state, self.rng)
            if command is not None:
                self.controller.submit(command)

    def _seating(self, state: dict[str, Any]) -> Seat | None:
        """Players drawn from the roster ids for a game not begun nor seated yet."""
        if not self.roster or state.get("status") != "playing" or state.get("actions"):
            return None
        if any(self.controller.seating().values()):
            return None
        seats = list(state.get("players") or [])
        drawn = self.rng.sample(list(self.roster), min(len(seats), len(self.roster)))
        return Seat(dict(zip(seats, drawn, strict=False)), by="autoplay")
