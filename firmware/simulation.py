"""The simulated table's own parts: the dice it throws, and a reader that knows them.

Off the Pi the table is wired exactly as on the Pi (``firmware.house``), with gpiozero's mock
pins and a simulated camera in place of the wood. Only the dice are invented: before a throw
(or a captain roll) is read, :meth:`SimulatedDice.before_read` rolls random dice with the
table's RNG (seeded when asked, for repeatable tests) and puts them in that seat's zone on
the simulated camera; then the reader reads the frame -- the real one when the table runs,
or :class:`SceneReader` in the controller and dashboard tests, which reports exactly the
dice the scene holds, so those tests do not depend on how well the real reader reads.

Held dice in round 2 of a two-hand match (T1): the simulated player always rethrows all three
dice. Keeping dice is a player's choice the rules allow but never require, and the record only
holds the three values under the cup after each throw, so this is always a legal game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import numpy as np

from engine.actions import dice_count
from engine.game import Game
from hardware.cameras.simulated import SimulatedCamera
from vision.reading import Die, Reading
from vision.zones import Zone

FRAME_SIZE = (640, 480)


class SimulatedDice:
    """The simulated camera and the RNG that decides each throw."""

    def __init__(self, zones: Iterable[Zone], *, seed: int | None = None,
                 size: tuple[int, int] = FRAME_SIZE, bottom_faces: bool = False) -> None:
        self.rng = random.Random(seed)
        self.camera = SimulatedCamera(list(zones), size, seed=self.rng.randrange(1 << 30),
                                      bottom_faces=bottom_faces)
        self.thrown: list[tuple[str, str, tuple[int, ...]]] = []

    def before_read(self, seat: str, kind: str, again: bool = False) -> None:
        """Throw ``seat``'s dice: three random values for a throw, one for a captain roll.

        ``again`` (a re-read after "needs a look"): the same dice, laid out afresh, as a
        player straightens dice the camera could not read.
        """
        if seat not in {zone.seat for zone in self.camera.zones}:
            return  # nowhere to put them: the watcher says the seat has no zone (needs a look)
        if again and self.thrown and self.thrown[-1][0] == seat:
            values = self.thrown[-1][2]
        else:
            values = tuple(self.rng.randint(1, 6) for _ in range(dice_count(kind)))
            self.thrown.append((seat, kind, values))
        self.camera.set_dice(seat, values)


class SceneReader:
    """A dice reader for tests: reads exactly the dice the simulated camera was given.

    Each seat's dice are reported sure, side by side in the middle of its zone, with the face
    the camera would see (7 - v under a glass table). It never looks at the frame, so a test
    of the controller or the dashboard passes or fails on their own behaviour, whatever the
    real reader (``vision.rules.reader.read_dice``, tested on its own) makes of a rendered frame.
    """

    def __init__(self, camera: SimulatedCamera) -> None:
        self.camera = camera

    def __call__(self, frame: np.ndarray) -> Reading:
        zones = {z.seat: z for z in self.camera.zones}
        dice: list[Die] = []
        for seat, values in self.camera.dice().items():
            zone = zones[seat]
            side = max(4, min(zone.w // (len(values) + 1), zone.h // 2, 40))
            for i, value in enumerate(values):
                cx = zone.x + zone.w * (i + 1) // (len(values) + 1)
                cy = zone.y + zone.h // 2
                shown = 7 - value if self.camera.bottom_faces else value
                dice.append(Die(shown, (cx - side // 2, cy - side // 2, side, side), 0.99))
        height, width = frame.shape[:2]
        return Reading(tuple(dice), (), width, height)

    def read_zone(self, frame: np.ndarray, zone: Zone, expected: int = 3) -> Reading:
        """A seat's zone is read as the whole frame is (:class:`vision.reader.Reader`)."""
        return self(frame)


def presses_for(verb: str, chips: int | None = None) -> list[tuple[str, bool]]:
    """The panel presses (button, long) that play ``verb`` (with ``chips`` for bet/raise).

    THROW plays a throw or captain roll, a long THROW stands; BET x N then CALL bets or raises
    N; CALL calls; PASS passes (or drops once betting has begun); a long BET bets or calls the
    pot (Montevideo). ``drop`` is PASS: a pass after betting has begun is a drop.
    """
    if verb in ("throw", "roll"):
        return [("THROW", False)]
    if verb == "stand":
        return [("THROW", True)]
    if verb in ("bet", "raise"):
        return [("BET", False)] * (chips or 1) + [("CALL", False)]
    if verb == "call":
        return [("CALL", False)]
    if verb in ("pass", "drop"):
        return [("PASS", False)]
    if verb in ("betpot", "callpot"):
        return [("BET", True)]
    raise ValueError(f"{verb!r} is not a verb a panel can play")


def random_presses(game: Game, rng: random.Random,
                   stand_chance: float = 0.4) -> tuple[str, list[tuple[str, bool]]]:
    """A seat and the presses of one random legal move, chosen from what ``game`` allows."""
    options = game.allowed()
    stands = [a for a in options if a.verb == "stand"]
    if stands and rng.random() < stand_chance:
        choice = stands[0]
    else:
        pool = [a for a in options if a.verb != "stand"] or options
        choice = rng.choice(pool)  # pass and drop are both PASS: it drops once betting began
    chips = None
    if choice.min_chips is not None and choice.max_chips is not None:
        chips = rng.randint(choice.min_chips, min(choice.max_chips, choice.min_chips + 2))
    return choice.player, presses_for(choice.verb, chips)
