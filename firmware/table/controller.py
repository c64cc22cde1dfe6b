"""The table controller: the one owner of the game, fed by one queue, applied in order.

Seat panels (gpiozero), phone seat pages and the referee console all talk to the table by
putting commands (``firmware.table.commands``) on one queue; one worker
(``firmware.table.worker``) takes them one at a time, so two presses can never interleave, and
whatever a command does -- read the camera, ask the engine, write the log, light the LEDs --
happens entirely before the next one starts. A refusal is an :class:`Outcome` (and a blinking
LED, and a sentence on the dashboard), never an exception that stops the table. Every accepted
action is committed to the SQLite log (``firmware.gamelog.log``) before anyone is shown its
effects; on start the game is rebuilt from that log.

This module is the table's front: its lifecycle, its queue, what other threads may read, the
LEDs, and the dispatch that hands each command to its handler under one lock. The table's
state is one object (``firmware.table.state.TableState``); each command's handler is a plain
function taking it, in one file per job: the players' presses and verbs
(``player_commands``), the referee's dice, re-reads and corrections (``referee_commands``),
who sits where (``roster_seating``), values pending at exposure (``exposure``), all playing
through ``playing``. The rest has its own file too: the queue and thread (``worker``), the
published states and listeners (``publishing``, ``views``), the seats' dice reads
(``seat_reads``), the camera picture and zones (``pictures``). ``firmware.table.house`` wires a
controller to its camera, panels and log from the config.

Public API (the dashboard builds on it; docs/architecture.md "firmware"): ``submit``,
``public_state``, ``seat_state``, ``referee_state``, ``subscribe``, ``camera_jpeg``,
``zones``, ``set_zones``, ``games``, ``record``, and ``events`` (the queue itself).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from engine.errors import ConfigError
from engine.game import Game
from engine.record import Record
from engine.variants import check_setup
from firmware.camera import pictures
from firmware.camera.seat_reads import SeatReads
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import GameLog
from firmware.gamelog.rebuild import record_from_log
from firmware.gamelog.rows import GameRow
from firmware.table import exposure, player_commands, referee_commands, roster_seating, views
from firmware.table.commands import (
    Act,
    Command,
    Correct,
    EnterDice,
    Outcome,
    Press,
    Refusal,
    Reread,
    Settle,
)
from firmware.table.publishing import Publisher, Subscription
from firmware.table.roster_seating import Seat
from firmware.table.state import TableState
from firmware.table.worker import Worker
from firmware.words.phrases import N_
from hardware.panel import SeatEvent
from vision.zones import Zone

#: Each command's handler, stated once: the worker's dispatch by the command's type.
HANDLERS: dict[type, Callable[[TableState, Any], Outcome]] = {
    Press: player_commands.press,
    Act: player_commands.act,
    SeatEvent: player_commands.panel_event,
    EnterDice: referee_commands.enter,
    Reread: referee_commands.reread,
    Correct: referee_commands.correct,
    Seat: roster_seating.seat,
    Settle: exposure.settle_claim,
}

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class TableController:
    """The table's front: its state (:attr:`table`) changed only by the worker, one command
    at a time under one lock; see the module docstring.

    ``log`` is the durable log; ``variant``, ``players`` and ``options`` are the game to start
    when the log has none (and the default of ``new-game``). ``watcher`` reads dice (None: no
    camera: every throw counts with its values pending). ``leds(seat, mode)`` drives a seat's
    LED (mode "off", "on", "blink"). ``before_read(seat, kind, again)`` runs before a throw or
    roll is read (``again``: the same dice read again at exposure; the simulation throws dice
    there). ``events`` is the command queue (made by whoever wires the panels to it; a new one
    when None). ``seat_names`` maps panel seat ids to player names, for ``SeatEvent``s put on
    :attr:`events` by panels wired under other names. ``save_zones(zones)`` writes referee-set
    zones to the config (``bidou-table run --config`` gives it). ``lay_zones(players)`` (the
    simulated table without calibrated zones) lays a zone for every player of a game whose seats
    the camera lacks, so the referee may start any variant with 2 to 8 players.
    """

    def __init__(self, log: GameLog, *, variant: str, players: tuple[str, ...] | list[str],
                 options: dict[str, Any] | None = None, watcher: DiceWatcher | None = None,
                 leds: Callable[[str, str], None] | None = None,
                 before_read: Callable[[str, str, bool], None] | None = None,
                 seat_names: dict[Any, str] | None = None,
                 events: queue.Queue[Any] | None = None,
                 save_zones: Callable[[list[Zone]], None] | None = None,
                 lay_zones: Callable[[tuple[str, ...]], list[Zone]] | None = None,
                 wall_clock: Callable[[], str] = _now) -> None:
        self.log = log
        self.variant = variant
        self.players = tuple(players)
        self.options = dict(options or {})
        check_setup(self.variant, self.players, self.options)
        self.watcher = watcher
        self.leds = leds
        self.reads = SeatReads(watcher, before_read)
        self.save_zones = save_zones
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        self._lock = threading.RLock()
        self.publisher = Publisher(self._lock)
        #: the table's state, which every command's handler takes (``HANDLERS``)
        self.table = TableState(log, variant=self.variant, players=self.players,
                                options=self.options, watcher=watcher, reads=self.reads,
                                publisher=self.publisher, wall_clock=wall_clock,
                                seat_names=dict(seat_names or {}), lay_zones=lay_zones)
        self.worker = Worker(self.events, self._handle)
        self._stopped = False
        self._led_modes: dict[str, str] = {}

    # --- lifecycle -------------------------------------------------------------------
    def start(self) -> TableController:
        """Rebuild the game from the log (starting one on a fresh log) and start the worker."""
        with self._lock:
            row = self.log.current_game()
            if row is None or row.status == "abandoned":
                # a fresh log, or one whose last game was given up without a new one (a log
                # written before a new game was one transaction): an abandoned game is never
                # resumed, since its record is history and shows every concealed throw
                gid = self.log.start_game(self.variant, self.players, self.options,
                                          self.table.wall_clock())
                row = self.log.game(gid)
                assert row is not None
            self.table.load(row)
            self.table.publish()
            exposure.read_exposed(self.table)
            self._update_leds()
        self.worker.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the command in hand, turn LEDs off, close the log; idempotent."""
        if self._stopped:
            return
        self._stopped = True
        self.worker.stop(timeout)
        if self.leds is not None:
            for seat in self.players:
                with contextlib.suppress(Exception):
                    self.leds(seat, "off")
        self.publisher.close()
        self.log.close()

    def __enter__(self) -> TableController:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the queue -------------------------------------------------------------------
    def submit(self, command: Command, timeout: float | None = 30.0) -> Outcome:
        """Queue ``command`` and wait until it has been applied; its Outcome."""
        return self.worker.submit(command, timeout)

    def command_outcome(self, command_id: str) -> Outcome | None:
        """The outcome of a command ``submit`` reported pending (its ``Outcome.pending`` id);
        still pending while it is applied; None for an unknown id."""
        return self.worker.outcome_of(command_id)

    @property
    def processed(self) -> int:
        """How many queue items (commands and panel events) have been handled since start."""
        return self.worker.processed

    def wait_processed(self, count: int, timeout: float = 10.0) -> bool:
        """Wait until ``count`` queue items have been handled; False on timeout."""
        return self.worker.wait_processed(count, timeout)

    # --- reading state (any thread) --------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played (or shown, once over), as the log holds it."""
        return self.table.game

    @property
    def row(self) -> GameRow:
        """The log's row of the game being played."""
        return self.table.row

    def public_state(self) -> dict[str, Any]:
        """The state anyone may see (never concealed dice); see firmware.table.views."""
        return self.publisher.state()

    def seat_state(self, seat: str) -> dict[str, Any]:
        """The public state plus ``seat``'s own dice; KeyError for an unknown seat."""
        with self._lock:
            if seat not in self.game.players:
                raise KeyError(f"{seat!r} is not a seat at this table; the seats are "
                               f"{', '.join(self.game.players)}")
            return views.add_seat(self.publisher.state(), self.game, seat,
                                  refusal=self.table.refusals.get(seat))

    def referee_state(self) -> dict[str, Any]:
        """Everything, for the referee console: all dice, values pending, flags, the log."""
        with self._lock:
            return views.add_referee(self.publisher.state(), self.game,
                                     needs_look=self.reads.needs_look, flags=self.reads.flags,
                                     entries=self.table.entries,
                                     last_reads=self.reads.last, disputes=self.table.disputes,
                                     flag_kinds=self.reads.flag_kinds)

    def seat_key(self) -> str:
        """The secret the seat tokens are derived from, kept in the log (so a restart on the
        same log keeps every seat's token, and an open seat page keeps working)."""
        return self.log.key("seat-tokens")

    def subscribe(self, wake: Callable[[], None] | None = None) -> Subscription:
        """A Subscription that receives the public state after every change (``wake``: see
        :class:`~firmware.table.publishing.Subscription`)."""
        return self.publisher.subscribe(wake)

    def camera_jpeg(self, annotated: bool = False) -> bytes:
        """The latest camera frame as JPEG (referee only: it shows every seat's dice);
        CameraError when there is no camera or no frame yet."""
        return pictures.camera_jpeg(self.watcher, annotated)

    def zones(self) -> dict[str, dict[str, int]]:
        """The camera zones the table reads now, ``{seat: {x, y, w, h}}`` (empty: no camera)."""
        return pictures.zones_table(self.watcher)

    def set_zones(self, table: Any, by: str) -> Outcome:
        """Read the seats from the zones the referee gives (``{seat: {x, y, w, h}}``, every
        seat of the game), checked as ``[zones]`` in the config is; saved through
        ``save_zones`` when the table has a config file, so a restart keeps them. A refusal
        names the key, the value and what is allowed, and changes nothing."""
        with self._lock:
            zones = pictures.check_zones(table, list(self.game.players), self.watcher)
            if isinstance(zones, Refusal):
                return Outcome(False, zones.sentence)
            assert self.watcher is not None  # check_zones refuses a table without a camera
            if self.save_zones is not None:
                try:
                    self.save_zones(zones)
                except (OSError, ConfigError) as e:
                    return Outcome(False, f"The zones could not be saved in the config ({e}); "
                                          "nothing was changed.")
            self.watcher.set_zones(zones)
            saved = self.save_zones is not None
            self.publisher.say(N_("%(p)s set the camera zones and saved them in the config.", p=by)
                               if saved else N_("%(p)s set the camera zones.", p=by))
            self.table.publish()
            if not saved:
                return Outcome(True, "The table reads the new zones now; they are not saved "
                                     "(the table was started without --config), so a restart "
                                     "forgets them.")
            return Outcome(True, "The table reads the new zones now; they are saved in the config.")

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, oldest first: id, variant, players, times, status, result."""
        return [{"id": g.id, "variant": g.variant, "players": list(g.players),
                 "options": g.options, "started": g.started, "finished": g.finished,
                 "status": g.status, "result": g.result} for g in self.log.games()]

    @property
    def live_game_id(self) -> int:
        """The id of the game the table plays now (or shows, once over)."""
        with self._lock:
            return self.row.id

    def record(self, game_id: int) -> Record | None:
        """The game record of a game in the log (corrections applied), or None if unknown."""
        row = self.log.game(game_id)
        if row is None:
            return None
        return record_from_log(row, self.log.entries(game_id))

    def seating(self) -> dict[str, str | None]:
        """Each seat of the game being played: its roster id, None for a guest."""
        with self._lock:
            return roster_seating.seating(self.table)

    def settle_jpeg(self, seat: str) -> bytes:
        """The picture of ``seat``'s exposed dice, a tile a die, the sure ones framed green and
        the unsure ones red: only while they wait to be settled, so it never shows a
        concealed throw. LookupError otherwise; CameraError when there is no picture."""
        with self._lock:
            picture, read, zone = exposure.settle_picture(self.table, seat)
        return exposure.marked_jpeg(picture, read, zone)

    # --- internals -------------------------------------------------------------------
    def _update_leds(self) -> None:
        if self.leds is None:
            return
        for seat in self.game.players:
            if seat in self.table.refusals:
                mode = "blink"
            elif seat == self.game.to_act or self.game.can_settle(seat):
                mode = "on"
            else:
                mode = "off"
            if self._led_modes.get(seat) != mode:
                self._led_modes[seat] = mode
                try:
                    self.leds(seat, mode)
                except Exception as e:  # a broken LED must not stop the table
                    log.warning("LED of %s: %s", seat, e)

    def _handle(self, command: Any) -> Outcome:
        """The worker's handler: one command (or panel event) under the lock, then the
        exposed dice read again if they wait for it, and the LEDs."""
        handler = HANDLERS.get(type(command))
        with self._lock:
            if handler is None:
                outcome = Outcome(False, f"{command!r} is not a table command; send a Press, "
                                         "Act, EnterDice, Reread, Settle or Correct.")
            else:
                outcome = handler(self.table, command)
            exposure.read_exposed(self.table)
            self._update_leds()
        return outcome
