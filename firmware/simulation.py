"""The simulated table: gpiozero mock pins for the seat panels and a camera that renders dice.

Off the Pi everything else is real -- the seat panels' gpiozero code on ``MockFactory`` pins,
the dice reader on rendered frames, the engine, the SQLite log, the dashboard -- so the
simulation is the table minus the wood. Only the dice are invented: before a throw (or a
captain roll) is read, :meth:`SimulatedTable.before_read` rolls random dice with the table's
RNG (seeded when asked, for repeatable tests) and puts them in that seat's zone on the
simulated camera; then the real reader reads them.

Held dice in round 2 of a two-hand match (T1): the simulated player always rethrows all three
dice. Keeping dice is a player's choice the rules allow but never require, and the record only
holds the three values under the cup after each throw, so this is always a legal game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import Any

from firmware.config import TableConfig, default_config
from firmware.controller import TableController
from firmware.log import GameLog
from firmware.throws import DiceWatcher

FRAME_SIZE = (640, 480)


class SimulatedTable:
    """The simulated camera, the mock-pin panels and the dice RNG of a simulated table."""

    def __init__(self, zones: Iterable[Any], *, seed: int | None = None,
                 size: tuple[int, int] = FRAME_SIZE, bottom_faces: bool = False) -> None:
        from hardware.cameras.simulated import SimulatedCamera

        self.rng = random.Random(seed)
        self.zones = list(zones)
        self.camera = SimulatedCamera(self.zones, size, seed=self.rng.randrange(1 << 30),
                                      bottom_faces=bottom_faces)
        self.panels: Any = None
        self.pin_factory: Any = None
        self.controller: TableController | None = None
        self.thrown: list[tuple[str, str, tuple[int, ...]]] = []

    # --- dice --------------------------------------------------------------------------
    def before_read(self, seat: str, kind: str, again: bool = False) -> None:
        """Throw ``seat``'s dice: three random values for a throw, one for a captain roll.

        ``again`` (a re-read after "needs a look"): the same dice, laid out afresh, as a
        player straightens dice the camera could not read.
        """
        if again and self.thrown and self.thrown[-1][0] == seat:
            values = self.thrown[-1][2]
        else:
            values = tuple(self.rng.randint(1, 6) for _ in range(3 if kind == "throw" else 1))
            self.thrown.append((seat, kind, values))
        self.camera.set_dice(seat, values)

    # --- panels ------------------------------------------------------------------------
    def open_panels(self, pin_map: Any, controller: TableController, *,
                    pin_factory: Any = None, hold_time: float = 0.8,
                    bounce_time: float = 0.03) -> None:
        """Open the seat panels on gpiozero mock pins, putting events on the controller's
        queue; their LEDs follow the controller."""
        from gpiozero.pins.mock import MockFactory

        from hardware.panel import SeatPanels

        self.pin_factory = pin_factory or MockFactory()
        self.controller = controller
        self.panels = SeatPanels(pin_map, controller.events, pin_factory=self.pin_factory,
                                 hold_time=hold_time, bounce_time=bounce_time)

    def set_led(self, seat: str, mode: str) -> None:
        if self.panels is not None:
            self.panels.set_led(seat, mode)

    def press(self, seat: str, button: str, long: bool = False, timeout: float = 10.0) -> None:
        """Press a panel button with a finger on the mock pin, and wait until the controller
        has handled the press (TimeoutError if it does not within ``timeout`` seconds)."""
        assert self.panels is not None and self.controller is not None, "open_panels first"
        pin = self.pin_factory.pin(self.panels.pin_map.button_pin(seat, button))
        before = self.controller.processed
        pin.drive_low()
        if long:
            if not self.controller.wait_processed(before + 1, timeout):
                pin.drive_high()
                raise TimeoutError(f"the long press of {seat}'s {button} was not handled")
            pin.drive_high()
            return
        time.sleep(self.panels.bounce_time * 1.5)  # a finger's press lasts longer than a bounce
        pin.drive_high()
        if not self.controller.wait_processed(before + 1, timeout):
            raise TimeoutError(f"the press of {seat}'s {button} was not handled")

    def close(self) -> None:
        """Close the panels (LEDs off) and the camera; idempotent."""
        if self.panels is not None:
            self.panels.close()
        self.camera.close()


def zones_for(config: TableConfig) -> list[Any]:
    """The config's zones, or the default layout around the camera's frame."""
    if config.zones:
        return list(config.zones)
    from vision.zones import default_zones
    return default_zones(list(config.players), *config.camera.size)


def simulated_controller(db: str = ":memory:", seed: int | None = None,
                         config: TableConfig | None = None, *, panels: bool = True,
                         hold_time: float = 0.8, bounce_time: float = 0.03,
                         ) -> tuple[TableController, SimulatedTable]:
    """A started controller on a simulated table (mock pins, simulated camera, real reader).

    Call ``controller.stop()`` then ``table.close()`` when done.
    """
    config = config or default_config()
    zones = zones_for(config)
    table = SimulatedTable(zones, seed=seed, size=config.camera.size,
                           bottom_faces=config.camera.bottom_faces)
    watcher = DiceWatcher(table.camera, {z.seat: z for z in zones}, frame_pause=0.0,
                          bottom_faces=config.camera.bottom_faces)
    controller = TableController(
        GameLog(db), variant=config.variant, players=config.players, options=config.options,
        watcher=watcher, leds=table.set_led, before_read=table.before_read,
    )
    if panels:
        table.open_panels(config.pins, controller, hold_time=hold_time, bounce_time=bounce_time)
    controller.start()
    return controller, table


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


def random_presses(controller: TableController, rng: random.Random,
                   stand_chance: float = 0.4) -> tuple[str, list[tuple[str, bool]]]:
    """A seat and the presses of one random legal move, chosen from what the game allows."""
    options = controller.game.allowed()
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
