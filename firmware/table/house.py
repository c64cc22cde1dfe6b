"""The composition root: the one place a table is built from its config.

``bidou-table run`` (on the Pi and in simulation), the benchmarks and the tests all call
:func:`build_house`, so the wiring a Pi runs is the wiring the tests exercise. It opens, in
order, the log, the camera (real, or simulated with its dice), the dice watcher, the seat
panels (real pins, or gpiozero's mock pins) and the controller, and wires them without a
cycle: the panels put their events on a queue made first, and the controller is given that
queue and the panels' LEDs. :class:`House` closes everything in reverse order, once.

The choices are arguments, gpiozero-style: ``simulate`` picks mock pins and the simulated
camera, ``reader`` the dice reader (the one ``[vision]`` names unless a test gives a fake),
``pin_factory`` a factory the test drives.
"""

from __future__ import annotations

import functools
import queue
import time
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory

from engine.errors import CameraError
from firmware.camera.simulation import SimulatedDice, UnsureReads
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import GameLog
from firmware.settings.config import TableConfig
from firmware.table.controller import TableController
from hardware.cameras import FrameSource, open_camera
from hardware.cameras.simulated import SimulatedCamera
from hardware.config_edit import save_zones
from hardware.panel import SeatPanels
from vision.reader import Reader, open_reader
from vision.settings import VisionSettings
from vision.zones import Zone, default_zones


def real_reader(camera: FrameSource | None, vision: VisionSettings | None = None,
                config_path: str | None = None) -> Reader:
    """The dice reader of this table for ``camera`` (:func:`vision.reader.open_reader`): the
    one ``[vision]`` names, else the default for the camera's pictures
    (:func:`vision.settings.default_reader`: the rule reader for the simulated camera's drawn
    dice, the learned reader for every camera that photographs them). The learned reader comes
    with the table's own head (``[vision] head``, beside the config at ``config_path``) and
    thresholds, loaded now: a head that cannot be used is a :class:`VisionError` naming it
    before the table starts."""
    return open_reader(vision, config_path, drawn=isinstance(camera, SimulatedCamera))


def _quiet(text: str) -> None:
    """The default for ``say``/``warn``: a table built in a test says nothing."""


class House:
    """Everything one table opened: its parts, and how to close them in reverse order."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.controller: TableController
        self.log: GameLog
        self.camera: FrameSource | None = None
        self.watcher: DiceWatcher | None = None
        self.dice: SimulatedDice | None = None
        self.panels: SeatPanels | None = None
        self.pin_factory: Any = None
        self.warn: Callable[[str], None] = _quiet
        self._closers: list[tuple[str, Callable[[], None]]] = []

    def add(self, name: str, close: Callable[[], None]) -> None:
        """Close ``close`` (named ``name`` in a failure message) before what came earlier."""
        self._closers.append((name, close))

    def close(self) -> None:
        """Close everything, last opened first; idempotent. A failure is reported through
        ``warn`` and the rest is still closed."""
        while self._closers:
            name, close = self._closers.pop()
            try:
                close()
            except Exception as e:  # keep closing the rest
                self.warn(f"closing the {name} failed: {e}")

    def __enter__(self) -> House:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def press(self, seat: str, button: str, long: bool = False, timeout: float = 10.0) -> None:
        """Press a panel button with a finger on its mock pin, and wait until the controller
        has handled the press (TimeoutError if it does not within ``timeout`` seconds)."""
        assert self.panels is not None and isinstance(self.pin_factory, MockFactory), \
            "press needs seat panels on mock pins (a simulated house with panels)"
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


def zones_for(config: TableConfig) -> list[Zone]:
    """The config's zones, or the default layout around the camera's frame."""
    if config.zones:
        return list(config.zones)
    return default_zones(list(config.players), *config.camera.size)


def _layout(config: TableConfig) -> Callable[[tuple[str, ...]], list[Zone]]:
    """The simulated table's zones for any game's players, laid around its frame."""
    width, height = config.camera.size
    return lambda players: default_zones(list(players), width, height)


def build_house(config: TableConfig, *, db: str = ":memory:", simulate: bool = True,
                seed: int | None = None, unsure: float | None = None,
                reader: Callable[[Any], Reader] | None = None,
                panels: bool = True, pin_factory: Any = None, hold_time: float = 0.8,
                bounce_time: float = 0.03, config_path: str | None = None,
                say: Callable[[str], None] = _quiet,
                warn: Callable[[str], None] = _quiet) -> House:
    """Open and wire the table ``config`` describes; its controller is started.

    ``simulate``: mock pins and the simulated camera (its dice thrown with ``seed``, unsure of
    the share ``unsure`` of them, default ``[camera] unsure``), as off the Pi; a config whose
    ``[camera]`` kind is "simulated" gets the simulated camera too.
    ``reader(camera)`` gives the dice reader for the camera opened: by default the table's
    (:func:`real_reader`: the one ``[vision]`` names, else the default for that camera); tests
    give
    ``firmware.camera.simulation.SceneReader``, which reads the simulated camera's own dice.
    ``panels=False`` leaves the seat panels out (the dashboard tests press through the API).
    ``config_path``: referee-set zones are saved there. ``say``/``warn``: where notices and
    failures are told (``bidou-table run`` prints them). On a failure, whatever was opened is
    closed again before the error goes up.
    """
    house = House(config)
    house.warn = warn
    if reader is None:
        reader = functools.partial(real_reader, vision=config.vision,
                                   config_path=config_path or config.path)
    try:
        _open(house, config, db=db, simulate=simulate, seed=seed, reader=reader,
              unsure=config.camera.unsure if unsure is None else unsure,
              panels=panels, pin_factory=pin_factory, hold_time=hold_time,
              bounce_time=bounce_time, config_path=config_path, say=say, warn=warn)
    except BaseException:
        house.close()
        raise
    return house


def _open(house: House, config: TableConfig, *, db: str, simulate: bool, seed: int | None,
          reader: Any, unsure: float, panels: bool, pin_factory: Any, hold_time: float,
          bounce_time: float,
          config_path: str | None, say: Callable[[str], None],
          warn: Callable[[str], None]) -> None:
    house.log = GameLog(db)
    house.add("log", house.log.close)
    if house.log.was_empty:
        warn(f"The game log {db} was an empty file (0 bytes), so it is now a new game log "
             "with no games. If it should have held games, stop the table and restore it "
             "from a backup.")

    zones = zones_for(config)
    if simulate or config.camera.kind == "simulated":
        if not simulate:
            say('[camera] kind is "simulated": the dice are rendered, not seen.')
        house.dice = SimulatedDice(zones, seed=seed, size=config.camera.size,
                                   bottom_faces=config.camera.bottom_faces, unsure=unsure,
                                   look=config.camera.dice)
        house.camera = house.dice.camera
    else:
        try:
            house.camera = open_camera(config.camera, zones=zones)
        except CameraError as e:
            warn(f"{e}. The table runs without a camera: the referee enters every throw.")
    if house.camera is not None:
        house.add("camera", house.camera.close)
        simulated = house.dice is not None
        read = reader(house.camera)
        if house.dice is not None and house.dice.unsure:
            read = UnsureReads(read, house.dice)
        house.watcher = DiceWatcher(
            house.camera, {z.seat: z for z in zones}, read,
            frame_pause=0.0 if simulated else 0.03, bottom_faces=config.camera.bottom_faces,
            on_zones=house.dice.camera.set_zones if house.dice is not None else None)

    events: queue.Queue[Any] = queue.Queue()
    if panels:
        house.pin_factory = pin_factory or (MockFactory() if simulate else None)
        house.panels = SeatPanels(config.pins, events, pin_factory=house.pin_factory,
                                  hold_time=hold_time, bounce_time=bounce_time)
        house.add("seat panels", house.panels.close)

    house.controller = TableController(
        house.log, variant=config.variant, players=config.players, options=config.options,
        watcher=house.watcher, events=events,
        leds=house.panels.set_led if house.panels is not None else None,
        before_read=house.dice.before_read if house.dice is not None else None,
        save_zones=(lambda zs: save_zones(config_path, zs)) if config_path else None,
        lay_zones=_layout(config) if house.dice is not None and not config.zones else None,
    )
    house.controller.start()
    house.add("controller", house.controller.stop)

