"""The table controller: the one owner of the game, fed by one queue, applied in order.

Seat panels (gpiozero), phone seat pages and the referee console all talk to the table by
putting commands (``firmware.table.commands``) on one queue; one worker
(``firmware.table.worker``) takes them one at a time, so two presses can never interleave, and
whatever a command does -- read the camera, ask the engine, write the log, light the LEDs --
happens entirely before the next one starts. A refusal is an :class:`Outcome` (and a blinking
LED, and a sentence on the dashboard), never an exception that stops the table. Every accepted
action is committed to the SQLite log (``firmware.gamelog.log``) before anyone is shown its
effects; on start the game is rebuilt from that log.

This module is the part that needs the game: what a command does to it. The rest has its own
file: the queue and thread (``worker``), the published states and listeners (``publishing``,
``views``), the seats' dice reads (``seat_reads``), the corrections' decisions (``corrections``)
and their application with the referee's other commands (``referee_commands``, mixed in), the
camera picture and zones (``pictures``), the sentences (``wording``). ``firmware.table.house``
wires a controller to its camera, panels and log from the config.

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

from engine.actions import VERBS, Action
from engine.errors import ConfigError, RecordError, ReplayError, RuleViolation
from engine.game import Effect, Game
from engine.record import Record
from engine.variants import check_setup
from firmware.camera import pictures
from firmware.camera.seat_reads import SeatReads
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import Entry, GameLog, GameRow, LogError, Picture
from firmware.gamelog.rebuild import rebuild, record_from_log
from firmware.table import views
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
from firmware.table.exposure import ExposedValues
from firmware.table.press_repeats import Repeats
from firmware.table.presses import decide, rule_refusal
from firmware.table.publishing import Publisher, Subscription
from firmware.table.referee_commands import RefereeCommands
from firmware.table.roster_seating import Seat, SeatingCommands
from firmware.table.worker import Worker
from firmware.words.phrases import N_, NN_, Phrase
from firmware.words.wording import action_sentence, effect_sentences, offer_sentence
from hardware.panel import SeatEvent
from vision.zones import Zone

#: Why a throw counted with its values pending is in the log (never the camera's reason,
#: which may name values the reader half saw: that stays on the referee's console).
PENDING_WHY = "values pending: the camera was not sure of the dice"

#: Seconds the worker gives the event streams' writer to send the last change before a
#: camera read (it takes a few milliseconds; this only bounds a stuck writer).
DELIVERY_WAIT = 0.05

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class TableController(RefereeCommands, SeatingCommands, ExposedValues):
    """Owns the engine state of the table; see the module docstring.

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
        self.lay_zones = lay_zones
        self.seat_names = dict(seat_names or {})
        self.wall_clock = wall_clock
        self.events: queue.Queue[Any] = events if events is not None else queue.Queue()
        self._lock = threading.RLock()
        self.publisher = Publisher(self._lock)
        self.worker = Worker(self.events, self._handle_locked)
        self.repeats = Repeats()
        self._stopped = False
        self._led_modes: dict[str, str] = {}
        # the game and everything per seat; replaced by _load()
        self.row: GameRow
        self.game: Game
        self._entries: list[Entry] = []
        self._hand_starts: list[int] = []
        self._reset_seats()

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
                                          self.wall_clock())
                row = self.log.game(gid)
                assert row is not None
            self._load(row)
            self._publish()
            self._read_exposed()
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
                                  refusal=self._refusals.get(seat))

    def referee_state(self) -> dict[str, Any]:
        """Everything, for the referee console: all dice, values pending, flags, the log."""
        with self._lock:
            return views.add_referee(self.publisher.state(), self.game,
                                     needs_look=self.reads.needs_look, flags=self.reads.flags,
                                     entries=self._entries, last_reads=self.reads.last,
                                     disputes=self._disputes)

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
            self._publish()
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

    # --- internals: loading ----------------------------------------------------------
    def _reset_seats(self) -> None:
        self._offered: dict[str, int] = {}
        self._refusals: dict[str, Refusal] = {}
        self.reads.reset()
        self._reset_exposure()
        self._settled: list[Effect] = []
        self._opening: list[Effect] = []  # the effects of the action that began this hand

    def _load(self, row: GameRow) -> None:
        entries = self.log.entries(row.id)
        try:
            opening: list[Effect] = []
            game, starts = rebuild(row, entries, opening)
        except (ReplayError, RecordError) as e:
            raise LogError(
                f"Game {row.id} in the log {self.log.path} cannot be replayed: {e}. Export "
                f"it with bidou-table export and start with a new --db file."
            ) from None
        self.row, self.game, self._entries, self._hand_starts = row, game, entries, starts
        self._reset_seats()
        self._fit_zones(row.players)
        self._opening = opening
        self.publisher.clear_events()
        if game.over and row.status == "playing":  # the plug was pulled after the last action
            self.log.finish_game(row.id, "over", game.state(), self.wall_clock())
            self.row = self.log.game(row.id) or row
        if game.history:  # a fresh game needs no word; one picked up from the log does
            self.publisher.say(NN_(
                "Game %(id)s picked up from the log after %(n)s action.",
                "Game %(id)s picked up from the log after %(n)s actions.",
                len(game.history), id=row.id))

    # --- internals: publishing -------------------------------------------------------
    def _publish(self) -> None:
        hand_start = self._hand_starts[-1] if self._hand_starts else 0
        self.publisher.publish(lambda version: views.public_state(
            self.game, game_id=self.row.id, status=self.row.status, version=version,
            offered=self._offered, settling=self._settling_state(),
            events=self.publisher.events, settled=self._settled,
            camera=views.camera_status(self.watcher),
            hand_actions=len(self.game.history) - hand_start, opening=self._opening,
        ))

    def _update_leds(self) -> None:
        if self.leds is None:
            return
        for seat in self.game.players:
            if seat in self._refusals:
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

    # --- internals: commands ---------------------------------------------------------
    def _handle_locked(self, item: Any) -> Outcome:
        """The worker's handler: one command (or panel event) under the lock, then LEDs."""
        with self._lock:
            outcome = self._handle(item)
            self._read_exposed()
            self._update_leds()
        return outcome

    def _handle(self, command: Any) -> Outcome:
        handler = _HANDLERS.get(type(command))
        if handler is None:
            return Outcome(False, f"{command!r} is not a table command; send a Press, Act, "
                                  "EnterDice, Reread, Settle or Correct.")
        return handler(self, command)

    def _panel_event(self, event: SeatEvent) -> Outcome:
        """A seat panel's button, put on the queue by the panels directly: a Press."""
        seat = self.seat_names.get(event.seat, event.seat)
        return self._press(Press(str(seat), event.button, bool(event.long), "panel"))

    def _refuse(self, seat: str | None, refusal: Refusal) -> Outcome:
        """A refusal: shown only at its seat (its LED blinks, its phone says it), never on the
        pub screen or in the event list; kept until the seat's situation changes
        (``_situation_changed``) or it presses again."""
        if seat in self.game.players:
            self._refusals[seat] = refusal
        return Outcome(False, refusal.sentence, refusal.rule, phrase=refusal.phrase)

    def _known_seat(self, seat: str) -> Refusal | None:
        if seat not in self.game.players:
            return Refusal(f"{seat!r} is not a seat at this table; the seats are "
                           f"{', '.join(self.game.players)}.")
        return None

    def _press(self, cmd: Press) -> Outcome:
        """A press; a repeat of one (the same id within a moment) gets its first outcome."""
        outcome = self.repeats.outcome(cmd.seat, cmd.id) or self._press_once(cmd)
        self.repeats.remember(cmd.seat, cmd.id, outcome)
        return outcome

    def _press_once(self, cmd: Press) -> Outcome:
        decision = decide(self.game, cmd.seat, cmd.button, cmd.long,
                          self._offered.get(cmd.seat, 0))
        if decision.refusal is not None:
            return self._refuse(cmd.seat, decision.refusal)
        self._refusals.pop(cmd.seat, None)
        if decision.stake is not None:
            self._offered[cmd.seat] = decision.stake
            self._publish()
            said = offer_sentence(cmd.seat, decision.stake)
            return Outcome(True, str(said), phrase=said)
        if decision.read is not None:
            return self._read_and_play(cmd.seat, decision.read, cmd.source)
        assert decision.action is not None
        return self._play(decision.action, cmd.source)

    def _act(self, cmd: Act) -> Outcome:
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        if cmd.verb not in VERBS:
            return self._refuse(cmd.seat, Refusal(
                f"{cmd.verb!r} is not a verb of the game; the verbs are {', '.join(VERBS)}."))
        if cmd.verb in ("throw", "roll"):
            decision = decide(self.game, cmd.seat, "THROW", False, 0)
            if decision.refusal is not None:
                return self._refuse(cmd.seat, decision.refusal)
            if decision.read != cmd.verb:
                return self._refuse(cmd.seat, Refusal(
                    f"It is time to {decision.read}, not to {cmd.verb}."))
            return self._read_and_play(cmd.seat, cmd.verb, cmd.source)
        numbers: tuple[int, ...] = ()
        if VERBS[cmd.verb][1] == "chips":
            chips = cmd.chips if cmd.chips is not None else self._offered.get(cmd.seat, 0)
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 1:
                return self._refuse(cmd.seat, Refusal(
                    f"A {cmd.verb} needs a number of chips, at least 1, not {chips!r}."))
            numbers = (chips,)
        return self._play(Action(cmd.seat, cmd.verb, numbers), cmd.source)

    def _play(self, action: Action, by: str, why: str = "",
              picture: Picture | None = None) -> Outcome:
        """Verify, log (committed), apply, publish: the only way an action enters the game."""
        try:
            self.game.verify(action)
        except RuleViolation as e:
            return self._refuse(action.player, rule_refusal(e.sentence, e.rule))
        at = self.wall_clock()
        event = self.game.apply(action)  # shown to no one until the log holds it
        finish = ("over", self.game.state()) if self.game.over else None
        try:  # the action and, when it ends the game, the game's end: one transaction
            seq = self.log.append(self.row.id, "action", str(action), by, at, why,
                                  finish=finish, picture=picture)
        except LogError:
            self.game, self._hand_starts = rebuild(self.row, self._entries)  # as logged
            raise
        self._entries.append(Entry(self.row.id, seq, "action", str(action), by, why, at))
        if finish is not None:
            self.row = self.log.game(self.row.id) or self.row
        if event.starts_hand:
            self._hand_starts.append(len(self.game.history))
        settled = [e for e in event.effects if views.is_settlement(e)]
        if settled:
            self._settled = settled
        if event.starts_hand:
            self._opening = list(event.effects)
        self._offered.clear()
        self._refusals.pop(action.player, None)
        if self.game.to_act is not None:  # its light now says "your turn", not "refused"
            self._refusals.pop(self.game.to_act, None)
        if event.starts_hand or self.game.over:  # a new hand: every seat's situation changed
            self._refusals.clear()
        self.reads.played(action.player, action.verb)
        said = self._say(action)
        if not event.effects:
            self.publisher.say(said)  # the engine's own sentences tell the action when it has any
        for sentence in effect_sentences(list(event.effects)):
            self.publisher.say(sentence)
        self._publish()
        return Outcome(True, str(said), phrase=said)

    def _throws(self, seat: str) -> int:
        """How many times ``seat`` has thrown this hand (its public throw count)."""
        return next((v.throws for v in self.game.views() if v.name == seat), 0)

    def _say(self, action: Action) -> Phrase:
        """The public sentence for an action, with the player's public throw count."""
        return action_sentence(action, self._throws(action.player))

    def _read_and_play(self, seat: str, kind: str, by: str, again: bool = False) -> Outcome:
        # A camera read holds the interpreter for a tenth of a second: the screens get the
        # last change first (``Publisher.wait_delivered`` says why). Only here: a wait before
        # every command put each change's whole broadcast between one queued press and the
        # next, and a press queued behind a few refusals waited for a broadcast each.
        self.publisher.wait_delivered(DELIVERY_WAIT)
        read = self.reads.read(seat, kind, again=again, throw_number=self._throws(seat) + 1)
        if read.values is None:  # counted all the same; its values wait (D-S1)
            outcome = self._play(Action(seat, kind), by, PENDING_WHY)
            if outcome.ok:
                self.reads.counted_pending(seat, kind, read, len(self.game.history))
                self._flag_kept_dice(seat)
                return Outcome(True, outcome.message, values_pending=True)
            return outcome
        outcome = self._play(Action(seat, kind, read.values), by)
        if outcome.ok:
            self.reads.played(seat, kind, read, len(self.game.history))
        return outcome


#: Each command's handler, stated once: the worker's dispatch by the command's type.
_HANDLERS: dict[type, Callable[[TableController, Any], Outcome]] = {
    Press: TableController._press,
    Act: TableController._act,
    EnterDice: TableController._enter,
    Reread: TableController._reread,
    Settle: TableController._settle_claim,
    Correct: TableController._correct,
    Seat: TableController._seat,
    SeatEvent: TableController._panel_event,
}
