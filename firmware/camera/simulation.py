"""The simulated table's own parts: the dice it throws, and a reader that knows them.

Off the Pi the table is wired exactly as on the Pi (``firmware.table.house``), with gpiozero's mock
pins and a simulated camera in place of the wood. Only the dice are invented: before a throw
(or a captain roll) is read, :meth:`SimulatedDice.before_read` rolls random dice with the
table's RNG (seeded when asked, for repeatable tests) and puts them in that seat's zone on
the simulated camera; then the reader reads the frame -- the real one when the table runs,
or :class:`SceneReader` in the controller and dashboard tests, which reports exactly the
dice the scene holds, so those tests do not depend on how well the real reader reads.

The simulated camera can be told to be unsure of a share of the dice it reads (``unsure``,
the ``[camera] unsure`` config key or ``bidou-table run --unsure``): each die thrown is unsure
with that chance, decided again when the dice are read again at exposure (straightened on the
felt), so the flow of values pending (docs/rules/pending.md) is seen and tested without a bad
reader. :class:`UnsureReads` wraps the table's reader and turns those dice into unsure places.

Held dice in round 2 of a two-hand match (T1): the simulated player always rethrows all three
dice. Keeping dice is a player's choice the rules allow but never require, and the record only
holds the three values under the cup after each throw, so this is always a legal game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import numpy as np

from engine.actions import dice_count
from engine.game import Game
from firmware.table.commands import Settle
from hardware.cameras.simulated import SimulatedCamera
from vision.reader import Reader
from vision.reading import Die, Reading, Unsure
from vision.zones import Zone

FRAME_SIZE = (640, 480)


class SimulatedDice:
    """The simulated camera and the RNG that decides each throw."""

    def __init__(self, zones: Iterable[Zone], *, seed: int | None = None,
                 size: tuple[int, int] = FRAME_SIZE, bottom_faces: bool = False,
                 unsure: float = 0.0, look: str = "white") -> None:
        if not 0.0 <= unsure <= 1.0:
            raise ValueError(f"the share of unsure dice is 0 to 1, not {unsure}")
        self.rng = random.Random(seed)
        self.camera = SimulatedCamera(list(zones), size, seed=self.rng.randrange(1 << 30),
                                      bottom_faces=bottom_faces, dice=look)
        self.thrown: list[tuple[str, str, tuple[int, ...]]] = []
        self.unsure = unsure
        #: seat -> how many of the dice it shows now the camera is unsure of
        self.unsure_dice: dict[str, int] = {}
        self._unsure_rng = random.Random(self.rng.randrange(1 << 30))

    def before_read(self, seat: str, kind: str, again: bool = False) -> None:
        """Throw ``seat``'s dice: three random values for a throw, one for a captain roll.

        ``again`` (the dice read again at exposure): the same dice, laid out afresh, as a
        player straightens dice the camera could not read.
        """
        if seat not in {zone.seat for zone in self.camera.zones}:
            return  # nowhere to put them: the watcher says the seat has no zone
        last = next((t for t in reversed(self.thrown) if t[0] == seat), None)
        if again and last is not None and len(last[2]) == dice_count(kind):
            values = last[2]
        else:
            values = tuple(self.rng.randint(1, 6) for _ in range(dice_count(kind)))
            self.thrown.append((seat, kind, values))
        self.unsure_dice[seat] = sum(self._unsure_rng.random() < self.unsure for _ in values)
        self.camera.set_dice(seat, values)


class UnsureReads:
    """The table's reader (a :class:`vision.reader.Reader`), unsure of the dice
    :class:`SimulatedDice` says it is unsure of: that many dice of each seat's zone (the
    leftmost) become unsure places."""

    def __init__(self, read: Reader, dice: SimulatedDice) -> None:
        self._read = read
        self.dice = dice

    def __call__(self, frame: np.ndarray) -> Reading:
        return self._unsure(self._read(frame))

    def read_zone(self, frame: np.ndarray, zone: Zone, expected: int = 3) -> Reading:
        return self._unsure(self._read.read_zone(frame, zone, expected))

    def _unsure(self, reading: Reading) -> Reading:
        dice, unsure = list(reading.dice), list(reading.unsure)
        for zone in self.dice.camera.zones:
            n = self.dice.unsure_dice.get(zone.seat, 0)
            if not n:
                continue
            mine = sorted((d for d in dice if zone.holds(d.box)), key=lambda d: d.box[0])[:n]
            for d in mine:
                dice.remove(d)
                unsure.append(Unsure(d.box, "the simulated camera is not sure of this die"))
        return Reading(tuple(dice), tuple(unsure), reading.width, reading.height,
                       reading.notes)


class SceneReader:
    """A dice reader for tests: reads exactly the dice the simulated camera was given.

    Each die is reported sure, at the box of its top face where the camera draws it
    (:meth:`SimulatedCamera.truth`), with the face the camera would see (7 - v under a glass
    table), so an annotated picture frames the drawn dice. It never reads the frame's pixels,
    so a test of the controller or the dashboard passes or fails on their own behaviour,
    whatever the real reader (``vision.rules.reader.read_dice``, tested on its own) makes of a
    rendered frame.
    """

    def __init__(self, camera: SimulatedCamera) -> None:
        self.camera = camera

    def __call__(self, frame: np.ndarray) -> Reading:
        dice = [Die(7 - value if self.camera.bottom_faces else value, box, 0.99)
                for _seat, value, box in self.camera.truth()]
        height, width = frame.shape[:2]
        return Reading(tuple(dice), (), width, height)

    def read_zone(self, frame: np.ndarray, zone: Zone, expected: int = 3) -> Reading:
        """A seat's zone is read as the whole frame is (:class:`vision.reader.Reader`)."""
        return self(frame)


def players_settle(controller: Any, dice: SimulatedDice, source: str = "simulation") -> int:
    """Settle every exposed value pending as the players would from their phones: the owner
    says the dice the simulated table shows, every other player shown beside him agrees.
    Returns how many seats were settled (``controller``: a ``TableController``)."""
    settled = 0
    game = controller.game
    while controller.game.unsettled():
        game = controller.game
        seat = game.unsettled()[0]
        values = dice.camera.dice()[seat]
        for player in (seat, *game.settle_witnesses(seat)):
            outcome = controller.submit(Settle(seat, values, player, source))
            if not outcome.ok:
                raise RuntimeError(f"the players could not settle {seat}'s dice: "
                                   f"{outcome.message}")
        settled += 1
    return settled


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
    """A seat and the presses of one random legal move, chosen from what ``game`` allows.

    A settle is said on the phones, not pressed: while exposed dice wait for their values
    (``game.unsettled()``), settle them first (:func:`players_settle`)."""
    options = [a for a in game.allowed() if a.verb != "settle"]
    if not options:
        raise ValueError("only a settle can be played now, and no panel button settles: "
                         "settle the exposed dice first (players_settle)")
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
