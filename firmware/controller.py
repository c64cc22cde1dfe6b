"""The table controller: the one owner of the game, fed by one queue, applied in order.

Seat panels (gpiozero), phone seat pages and the referee console all talk to the table by
putting commands on one ``queue.Queue``; one worker thread takes them one at a time, so two
presses can never interleave, and whatever a command does -- read the camera, ask the engine,
write the log, light the LEDs -- happens entirely before the next one starts. A refusal is an
:class:`Outcome` (and a blinking LED, and a sentence on the dashboard), never an exception that
stops the table. Every accepted action is committed to the SQLite log (``firmware.log``)
before anyone is shown its effects; on start the game is rebuilt from that log.

Public API (the dashboard builds on it; docs/architecture.md "firmware"):

- ``submit(command, timeout=...) -> Outcome`` with commands :class:`Press`, :class:`Act`,
  :class:`EnterDice`, :class:`Reread`, :class:`Correct`; thread-safe.
- ``public_state()``, ``seat_state(seat)``, ``referee_state()``: dicts (``firmware.views``).
- ``subscribe() -> Subscription``: one public state per change.
- ``camera_jpeg(annotated)``, ``games()``, ``record(game_id)``.
- ``events``: the queue itself; ``hardware.panel.SeatPanels`` may put ``SeatEvent``s on it.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine.actions import VERBS, Action
from engine.errors import RecordError, ReplayError, RuleViolation
from engine.game import Game
from engine.record import Record
from engine.variants import check_setup
from firmware import views
from firmware.log import Entry, GameLog, GameRow, LogError
from firmware.presses import BUTTONS, Refusal, as_sentence, decide
from firmware.rebuild import (
    effective_actions,
    rebuild,
    record_from_log,
    replay_actions,
    starts_hand,
)
from firmware.throws import DiceWatcher, SeatRead, same_dice_same_places

log = logging.getLogger(__name__)

CORRECTIONS = ("fix-dice", "undo", "void-hand", "new-game")
MAX_EVENTS = 30


# --- commands ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Press:
    """A seat-panel button: ``button`` is THROW, BET, CALL or PASS; ``long`` for a long press.

    ``seat`` is the player's name. ``source`` says where it came from ("panel", "phone",
    "referee", "web") and is written to the log as who did it.
    """

    seat: str
    button: str
    long: bool = False
    source: str = "panel"


@dataclass(frozen=True)
class Act:
    """A verb chosen directly (phone seat page, referee console, ``POST /api/act``).

    ``verb`` is a game-record verb. ``throw`` and ``roll`` read the seat's dice from the camera
    (in simulation, after rendering a random throw); ``bet`` and ``raise`` take ``chips``
    (default: the stake being offered with BET).
    """

    seat: str
    verb: str
    chips: int | None = None
    source: str = "web"


@dataclass(frozen=True)
class EnterDice:
    """The referee enters a seat's dice (three for a throw, one for a captain roll)."""

    seat: str
    values: tuple[int, ...]
    by: str = "referee"


@dataclass(frozen=True)
class Reread:
    """Read a seat that "needs a look" again (the referee asked, or the dice were tidied)."""

    seat: str
    by: str = "referee"


@dataclass(frozen=True)
class Correct:
    """A referee correction, logged with who and why; never an edit of the past.

    - ``fix-dice``: replace the dice of the action at ``position`` (from 1, in the game
      record) or, without a position, of ``seat``'s latest throw or roll, with ``values``;
    - ``undo``: take back the last action;
    - ``void-hand``: take back every action of the hand being played;
    - ``new-game``: end this game (abandoned unless over) and start a new one, with
      ``variant``/``players``/``options`` or, when None, those of the table's config.
    """

    kind: str
    by: str
    why: str
    seat: str | None = None
    values: tuple[int, ...] = ()
    position: int | None = None
    variant: str | None = None
    players: tuple[str, ...] | None = None
    options: dict[str, Any] | None = None


Command = Press | Act | EnterDice | Reread | Correct


@dataclass(frozen=True)
class Outcome:
    """What a command did: ``ok``, a whole sentence, the rule cited by a refusal.

    ``needs_look`` is True when a throw or roll was pressed but its dice could not be read.
    Messages never contain concealed dice.
    """

    ok: bool
    message: str
    rule: str | None = None
    needs_look: bool = False


class Subscription:
    """One listener's queue of public states, newest last; slow listeners lose old states."""

    def __init__(self, owner: TableController, maxsize: int = 64) -> None:
        self._owner = owner
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize)
        self.closed = False

    def put(self, state: dict[str, Any] | None) -> None:
        while True:
            try:
                self._queue.put_nowait(state)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next public state, or None on timeout or once the controller stops."""
        if self.closed:
            return None
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop listening; idempotent."""
        self.closed = True
        self._owner._unsubscribe(self)
        self.put(None)


@dataclass
class _Job:
    command: Any
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None


_STOP = object()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _article(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


class TableController:
    """Owns the engine state of the table; see the module docstring.

    ``log`` is the durable log; ``variant``, ``players`` and ``options`` are the game to start
    when the log has none (and the default of ``new-game``). ``watcher`` reads dice (None: no
    camera, every throw needs the referee). ``leds(seat, mode)`` drives a seat's LED (mode
    "off", "on", "blink"). ``before_read(seat, kind, again)`` runs before a throw or roll is
    read (``again``: a re-read of one that needed a look): the simulation renders dice there.
    ``seat_names`` maps panel seat ids (the pin map's keys) to player names, for
    ``SeatEvent``s put on :attr:`events` (the pin map is keyed by player name already, so
    this is only needed for panels wired under other names).
    """

    def __init__(self, log: GameLog, *, variant: str, players: tuple[str, ...] | list[str],
                 options: dict[str, Any] | None = None, watcher: DiceWatcher | None = None,
                 leds: Callable[[str, str], None] | None = None,
                 before_read: Callable[[str, str, bool], None] | None = None,
                 seat_names: dict[Any, str] | None = None,
                 wall_clock: Callable[[], str] = _now) -> None:
        self.log = log
        self.variant = variant
        self.players = tuple(players)
        self.options = dict(options or {})
        check_setup(self.variant, self.players, self.options)
        self.watcher = watcher
        self.leds = leds
        self.before_read = before_read
        #: writes referee-set zones to the config (``bidou-table run --config`` sets it)
        self.save_zones: Callable[[list[Any]], None] | None = None
        self.seat_names = dict(seat_names or {})
        self.wall_clock = wall_clock
        self.events: queue.Queue[Any] = queue.Queue()
        self._lock = threading.RLock()
        self._subs: list[Subscription] = []
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._led_modes: dict[str, str] = {}
        self._version = 0
        self._public: dict[str, Any] = {}
        self._done = threading.Condition()
        self.processed = 0
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
            if row is None:
                gid = self.log.start_game(self.variant, self.players, self.options,
                                          self.wall_clock())
                row = self.log.game(gid)
                assert row is not None
            self._load(row)
            self._publish()
            self._update_leds()
        self._thread = threading.Thread(target=self._work, name="table-controller",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the command in hand, turn LEDs off, close the log; idempotent."""
        if self._stopped:
            return
        self._stopped = True
        if self._thread is not None:
            self.events.put(_STOP)
            self._thread.join(timeout)
        if self.leds is not None:
            for seat in self.players:
                with contextlib.suppress(Exception):
                    self.leds(seat, "off")
        for sub in list(self._subs):
            sub.put(None)
        self.log.close()

    def __enter__(self) -> TableController:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the queue -------------------------------------------------------------------
    def submit(self, command: Command, timeout: float | None = 30.0) -> Outcome:
        """Queue ``command`` and wait until it has been applied; its Outcome."""
        if self._stopped or self._thread is None:
            return Outcome(False, "The table is not running; start it with bidou-table run.")
        job = _Job(command)
        self.events.put(job)
        if not job.done.wait(timeout):
            return Outcome(False, "The table did not answer in time; the command is still "
                                  "queued and will be applied in turn.")
        assert job.outcome is not None
        return job.outcome

    def _work(self) -> None:
        while True:
            item = self.events.get()
            if item is _STOP:
                return
            if isinstance(item, _Job):
                command = item.command
            else:  # a hardware.panel.SeatEvent
                seat = self.seat_names.get(getattr(item, "seat", None), getattr(item, "seat", ""))
                command = Press(str(seat), getattr(item, "button", ""),
                                bool(getattr(item, "long", False)), "panel")
            try:
                with self._lock:
                    outcome = self._handle(command)
                    self._update_leds()
            except Exception as e:  # the table must keep running whatever happens
                log.error("command %r failed:\n%s", command, traceback.format_exc())
                outcome = Outcome(False, f"The table could not apply this: {e}. Nothing "
                                         "was played; tell the referee.")
            if isinstance(item, _Job):
                item.outcome = outcome
                item.done.set()
            with self._done:
                self.processed += 1
                self._done.notify_all()

    def wait_processed(self, count: int, timeout: float = 10.0) -> bool:
        """Wait until ``count`` queue items (commands and panel events) have been handled
        since start; False on timeout. For tests and the simulation's button presses."""
        with self._done:
            return self._done.wait_for(lambda: self.processed >= count, timeout)

    # --- reading state (any thread) --------------------------------------------------
    def public_state(self) -> dict[str, Any]:
        """The state anyone may see (never concealed dice); see firmware.views."""
        with self._lock:
            return copy.deepcopy(self._public)

    def seat_state(self, seat: str) -> dict[str, Any]:
        """The public state plus ``seat``'s own dice; KeyError for an unknown seat."""
        with self._lock:
            if seat not in self.game.players:
                raise KeyError(f"{seat!r} is not a seat at this table; the seats are "
                               f"{', '.join(self.game.players)}")
            return views.add_seat(copy.deepcopy(self._public), self.game, seat)

    def referee_state(self) -> dict[str, Any]:
        """Everything, for the referee console: all dice, needs-a-look, flags, the log."""
        with self._lock:
            history = [f"{e.seq} {e.kind} {e.text} (by {e.by}{'; ' + e.why if e.why else ''})"
                       for e in self._entries]
            reads = {s: {"values": list(r.values) if r.values else None, "reason": r.reason}
                     for s, r in self._reads.items()}
            return views.add_referee(copy.deepcopy(self._public), self.game,
                                     needs_look=self._needs_look, flags=self._flags,
                                     history=history, last_reads=reads)

    def subscribe(self) -> Subscription:
        """A Subscription that receives the public state after every change."""
        sub = Subscription(self)
        with self._lock:
            self._subs.append(sub)
            sub.put(copy.deepcopy(self._public))
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._subs.remove(sub)

    def camera_jpeg(self, annotated: bool = False) -> bytes:
        """The latest camera frame as JPEG (referee only: it shows every seat's dice).

        Raises CameraError when there is no camera or no frame yet.
        """
        import cv2

        from engine.errors import CameraError

        watcher = self.watcher
        if watcher is None:
            raise CameraError("This table has no camera; the referee enters the dice.")
        frame = watcher.snapshot()
        if annotated and watcher.last_reading is not None:
            from vision.annotate import annotate
            from vision.zones import read_seats

            zones = list(watcher.zones.values())
            # The seat verdicts carry the table's values: 7 - pips seen under a glass table.
            verdicts = read_seats(watcher.last_reading, zones, bottom_faces=watcher.bottom_faces)
            frame = annotate(frame, watcher.last_reading, zones, seat_readings=verdicts)
        ok, buf = cv2.imencode(".jpg", frame)
        if not ok:
            raise CameraError("The camera frame could not be encoded as JPEG.")
        return bytes(buf)

    def zones(self) -> dict[str, dict[str, int]]:
        """The camera zones the table reads now, ``{seat: {x, y, w, h}}`` (empty: no camera)."""
        watcher = self.watcher
        if watcher is None:
            return {}
        return {seat: {"x": z.x, "y": z.y, "w": z.w, "h": z.h}
                for seat, z in watcher.zones.items()}

    def set_zones(self, table: Any, by: str) -> Outcome:
        """Read the seats from the zones the referee gives (``{seat: {x, y, w, h}}``, every
        seat of the game), checked as ``[zones]`` in the config is; saved through
        ``save_zones`` (set by ``bidou-table run --config``) so a restart keeps them.
        A refusal (an Outcome, never an exception) names the key, the value and what is
        allowed, and changes nothing."""
        from engine.errors import CameraError, ConfigError
        from vision.zones import parse_zones

        watcher = self.watcher
        if watcher is None:
            return Outcome(False, "This table has no camera, so it has no zones; the referee "
                                  "enters the dice.")
        if not isinstance(table, dict):
            return Outcome(False, 'The zones must be an object such as {"Ann": {"x": 10, "y": '
                                  '10, "w": 300, "h": 200}, ...}, one per seat.')
        with self._lock:
            seats = list(self.game.players)
            missing = [seat for seat in seats if seat not in table]
            unknown = [str(seat) for seat in table if seat not in seats]
            if missing or unknown:
                return Outcome(False, f"Give one zone for each seat ({', '.join(seats)}); "
                                      + (f"missing: {', '.join(missing)}" if missing else
                                         f"not seats here: {', '.join(unknown)}") + ".")
            try:
                frame = watcher.snapshot()
                size: tuple[int, int] | None = (int(frame.shape[1]), int(frame.shape[0]))
            except CameraError:
                size = None
            try:
                zones = parse_zones(table, frame=size)
            except ConfigError as e:
                return Outcome(False, f"{e}; nothing was changed.")
            saved = ""
            if self.save_zones is not None:
                try:
                    self.save_zones(zones)
                    saved = " and saved in the config"
                except (OSError, ConfigError) as e:
                    return Outcome(False, f"The zones could not be saved in the config ({e}); "
                                          "nothing was changed.")
            watcher.zones = {z.seat: z for z in zones}
            if hasattr(watcher.camera, "zones"):  # the simulated camera renders in the zones
                watcher.camera.zones = tuple(zones)
            self._event(f"{by} set the camera zones{saved}.")
            self._publish()
            if not saved:
                return Outcome(True, "The table reads the new zones now; they are not saved "
                                     "(the table was started without --config), so a restart "
                                     "forgets them.")
            return Outcome(True, "The table reads the new zones now; they are saved in the "
                                 "config.")

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, oldest first: id, variant, players, times, status, result."""
        return [{"id": g.id, "variant": g.variant, "players": list(g.players),
                 "options": g.options, "started": g.started, "finished": g.finished,
                 "status": g.status, "result": g.result} for g in self.log.games()]

    def record(self, game_id: int) -> Record | None:
        """The game record of a game in the log (corrections applied), or None if unknown."""
        row = self.log.game(game_id)
        if row is None:
            return None
        return record_from_log(row, self.log.entries(game_id))

    # --- internals: loading ----------------------------------------------------------
    def _reset_seats(self) -> None:
        self._offered: dict[str, int] = {}
        self._needs_look: dict[str, str] = {}
        self._pending_read: dict[str, str] = {}
        self._refusals: dict[str, str] = {}
        self._reads: dict[str, SeatRead] = {}
        self._last_throw: dict[str, SeatRead] = {}
        self._flags: list[str] = []
        self._events: list[str] = []

    def _load(self, row: GameRow) -> None:
        entries = self.log.entries(row.id)
        try:
            game, starts = rebuild(row, entries)
        except (ReplayError, RecordError) as e:
            raise LogError(
                f"Game {row.id} in the log {self.log.path} cannot be replayed: {e}. Export "
                f"it with bidou-table export and start with a new --db file."
            ) from None
        self.row, self.game, self._entries, self._hand_starts = row, game, entries, starts
        self._reset_seats()
        if game.over and row.status == "playing":  # the plug was pulled after the last action
            self.log.finish_game(row.id, "over", game.state(), self.wall_clock())
            self.row = self.log.game(row.id) or row
        self._event(f"Game {row.id} ({row.variant}) loaded with {len(game.history)} "
                    f"action{'s' if len(game.history) != 1 else ''}.")

    # --- internals: publishing -------------------------------------------------------
    def _event(self, sentence: str) -> None:
        self._events.append(sentence)
        del self._events[:-MAX_EVENTS]

    def _camera_status(self) -> dict[str, Any]:
        if self.watcher is None:
            return {"name": None, "ok": False, "error": "no camera: the referee enters dice"}
        return {"name": getattr(self.watcher.camera, "name", "camera"),
                "ok": self.watcher.camera_error is None, "error": self.watcher.camera_error}

    def _publish(self) -> None:
        self._version += 1
        hand_start = self._hand_starts[-1] if self._hand_starts else 0
        self._public = views.public_state(
            self.game, game_id=self.row.id, version=self._version, offered=self._offered,
            needs_look=self._needs_look, refusals=self._refusals, events=self._events,
            camera=self._camera_status(), hand_actions=len(self.game.history) - hand_start,
        )
        self._public["status"] = self.row.status
        for sub in list(self._subs):
            sub.put(copy.deepcopy(self._public))

    def _update_leds(self) -> None:
        if self.leds is None:
            return
        for seat in self.game.players:
            if seat in self._refusals:
                mode = "blink"
            elif seat == self.game.to_act or seat in self._needs_look:
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
    def _handle(self, command: Any) -> Outcome:
        if isinstance(command, Press):
            return self._press(command)
        if isinstance(command, Act):
            return self._act(command)
        if isinstance(command, EnterDice):
            return self._enter(command)
        if isinstance(command, Reread):
            return self._reread(command)
        if isinstance(command, Correct):
            return self._correct(command)
        return Outcome(False, f"{command!r} is not a table command; send a Press, Act, "
                              "EnterDice, Reread or Correct.")

    def _refuse(self, seat: str | None, refusal: Refusal) -> Outcome:
        if seat in self.game.players:
            self._refusals[seat] = str(refusal)
            self._event(f"{seat}: {refusal}")
        self._publish()
        return Outcome(False, refusal.sentence, refusal.rule)

    def _known_seat(self, seat: str) -> Refusal | None:
        if seat not in self.game.players:
            return Refusal(f"{seat!r} is not a seat at this table; the seats are "
                           f"{', '.join(self.game.players)}.")
        return None

    def _press(self, cmd: Press) -> Outcome:
        if cmd.button in BUTTONS and cmd.seat in self.game.players and \
                cmd.seat in self._needs_look and cmd.button == "THROW" and not cmd.long:
            return self._read_and_play(cmd.seat, self._pending_read[cmd.seat], cmd.source,
                                       again=True)
        decision = decide(self.game, cmd.seat, cmd.button, cmd.long,
                          self._offered.get(cmd.seat, 0))
        if decision.refusal is not None:
            return self._refuse(cmd.seat, decision.refusal)
        self._refusals.pop(cmd.seat, None)
        if decision.stake is not None:
            self._offered[cmd.seat] = decision.stake
            if decision.stake:
                text = f"{cmd.seat} offers {decision.stake} chip" \
                       f"{'s' if decision.stake != 1 else ''}; CALL commits it, PASS cancels."
            else:
                text = f"{cmd.seat} cancels the stake being offered."
            self._publish()
            return Outcome(True, text)
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
            if cmd.seat in self._needs_look:
                return self._read_and_play(cmd.seat, self._pending_read[cmd.seat],
                                           cmd.source, again=True)
            decision = decide(self.game, cmd.seat, "THROW", False, 0)
            if decision.refusal is not None:
                return self._refuse(cmd.seat, decision.refusal)
            if decision.read != cmd.verb:
                return self._refuse(cmd.seat, Refusal(
                    f"It is time to {decision.read}, not to {cmd.verb}."))
            return self._read_and_play(cmd.seat, cmd.verb, cmd.source)
        numbers: tuple[int, ...] = ()
        if cmd.verb in ("bet", "raise"):
            chips = cmd.chips if cmd.chips is not None else self._offered.get(cmd.seat, 0)
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 1:
                return self._refuse(cmd.seat, Refusal(
                    f"A {cmd.verb} needs a number of chips, at least 1, not {chips!r}."))
            numbers = (chips,)
        return self._play(Action(cmd.seat, cmd.verb, numbers), cmd.source)

    def _play(self, action: Action, by: str, why: str = "") -> Outcome:
        """Verify, log (committed), apply, publish: the only way an action enters the game."""
        try:
            self.game.verify(action)
        except RuleViolation as e:
            return self._refuse(action.player, Refusal(as_sentence(e.sentence), e.rule))
        at = self.wall_clock()
        seq = self.log.append(self.row.id, "action", str(action), by, at, why)
        self._entries.append(Entry(self.row.id, seq, "action", str(action), by, why, at))
        event = self.game.apply(action)
        if starts_hand(event.effects):
            self._hand_starts.append(len(self.game.history))
        self._offered.clear()
        self._refusals.pop(action.player, None)
        if self.game.to_act is not None:  # its light now says "your turn", not "refused"
            self._refusals.pop(self.game.to_act, None)
        self._needs_look.pop(action.player, None)
        self._pending_read.pop(action.player, None)
        said = self._say(action)
        if not event.effects:
            self._event(said)  # the engine's own sentences tell the action when it has any
        for effect in event.effects:
            self._event(as_sentence(effect.text))
        if self.game.over:
            self.log.finish_game(self.row.id, "over", self.game.state(), at)
            self.row = self.log.game(self.row.id) or self.row
        self._publish()
        return Outcome(True, said)

    def _say(self, action: Action) -> str:
        """The public sentence for an action: a throw's dice are concealed, so never shown."""
        if action.verb == "throw":
            return f"{action.player} throws (throw {self._throws(action.player)})."
        if action.verb == "roll":
            return f"{action.player} rolls a {action.numbers[0]} for captain."
        if action.chips is not None:
            return f"{action.player} {action.verb}s {action.chips} " \
                   f"chip{'s' if action.chips != 1 else ''}."
        words = {"stand": "stands", "call": "calls", "pass": "passes", "drop": "drops",
                 "betpot": "bets the pot", "callpot": "calls the pot"}
        return f"{action.player} {words.get(action.verb, action.verb)}."

    def _throws(self, seat: str) -> int:
        """How many times ``seat`` has thrown this hand (its public throw count)."""
        return next((v.throws for v in self.game.views() if v.name == seat), 0)

    def _read_and_play(self, seat: str, kind: str, by: str, again: bool = False) -> Outcome:
        count = 3 if kind == "throw" else 1
        if self.before_read is not None:
            self.before_read(seat, kind, again)
        if self.watcher is None:
            read = SeatRead(seat, None, "there is no camera")
        else:
            read = self.watcher.read_seat(seat, count)
        self._reads[seat] = read
        if read.values is None:
            self._needs_look[seat] = read.reason or "the dice could not be read"
            self._pending_read[seat] = kind
            self._event(f"{seat}'s {kind} needs a look: {self._needs_look[seat]}.")
            self._publish()
            return Outcome(False, f"{seat}'s {kind} needs a look: {self._needs_look[seat]}. "
                                  "Press THROW to read again, or the referee enters the dice.",
                           None, needs_look=True)
        if kind == "throw" and same_dice_same_places(self._last_throw.get(seat), read):
            n = self._throws(seat) + 1
            self._flags.append(f"{seat}'s throw {n} shows the same dice in the same places as "
                               "the throw before: possibly not thrown.")
            del self._flags[:-MAX_EVENTS]
        outcome = self._play(Action(seat, kind, read.values), by)
        if outcome.ok and kind == "throw":
            self._last_throw[seat] = read
        return outcome

    def _enter(self, cmd: EnterDice) -> Outcome:
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        values = tuple(cmd.values)
        kind = self._pending_read.get(cmd.seat) or (
            "roll" if self.game.expects == "roll" else "throw")
        count = 3 if kind == "throw" else 1
        if len(values) != count or not all(isinstance(v, int) and 1 <= v <= 6 for v in values):
            return self._refuse(None, Refusal(
                f"A {kind} is {'three dice' if count == 3 else 'one die'}, each 1 to 6, "
                f"not {list(values)}; enter them again."))
        return self._play(Action(cmd.seat, kind, values), cmd.by, "entered by the referee")

    def _reread(self, cmd: Reread) -> Outcome:
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        if cmd.seat not in self._needs_look:
            return self._refuse(None, Refusal(
                f"{cmd.seat} has nothing waiting to be read; a throw is read when THROW is "
                "pressed."))
        return self._read_and_play(cmd.seat, self._pending_read[cmd.seat], cmd.by, again=True)

    # --- corrections -----------------------------------------------------------------
    def _correct(self, cmd: Correct) -> Outcome:
        if cmd.kind not in CORRECTIONS:
            return self._refuse(None, Refusal(
                f"{cmd.kind!r} is not a correction; the corrections are "
                f"{', '.join(CORRECTIONS)}."))
        if not cmd.by.strip() or not cmd.why.strip():
            return self._refuse(None, Refusal(
                "A correction needs who makes it and why; fill in both and send it again."))
        if cmd.kind == "new-game":
            return self._new_game(cmd)
        actions = effective_actions(self._entries)
        if cmd.kind == "undo":
            if not actions:
                return self._refuse(None, Refusal("There is no action to undo in this game."))
            text = str(actions[-1])
            done = f"{cmd.by} took back {self._say(actions[-1])[:-1]}: {cmd.why}."
        elif cmd.kind == "void-hand":
            keep = self._hand_starts[-1] if self._hand_starts else 0
            if keep >= len(actions):
                return self._refuse(None, Refusal(
                    "Nothing has been played in this hand yet; there is nothing to void."))
            text = str(keep)
            done = f"{cmd.by} voided the hand ({len(actions) - keep} actions): {cmd.why}."
        else:
            found = self._fix_target(cmd, actions)
            if isinstance(found, Refusal):
                return self._refuse(None, found)
            pos, fixed = found
            text = f"{pos} {fixed}"
            done = f"{cmd.by} fixed the dice of action {pos}: {cmd.why}."
        at = self.wall_clock()
        candidate = [*self._entries, Entry(self.row.id, 0, cmd.kind, text, cmd.by, cmd.why, at)]
        try:
            game, starts = replay_actions(self.row.variant, self.row.players,
                                          self.row.options, effective_actions(candidate))
        except ReplayError as e:
            return self._refuse(None, Refusal(
                f"That correction would make action {e.position} ({e.action_text}) illegal: "
                f"{e.violation}; nothing was changed."))
        seq = self.log.append(self.row.id, cmd.kind, text, cmd.by, at, cmd.why)
        self._entries.append(Entry(self.row.id, seq, cmd.kind, text, cmd.by, cmd.why, at))
        self.game, self._hand_starts = game, starts
        if game.over != (self.row.status == "over"):
            self.log.finish_game(self.row.id, "over" if game.over else "playing",
                                 game.state() if game.over else None,
                                 at if game.over else None)
            self.row = self.log.game(self.row.id) or self.row
        self._offered.clear()
        self._needs_look.clear()
        self._pending_read.clear()
        self._refusals.clear()
        self._last_throw.clear()
        self._event(done)
        self._publish()
        return Outcome(True, done)

    def _fix_target(self, cmd: Correct, actions: list[Action]) -> tuple[int, Action] | Refusal:
        pos = cmd.position
        if pos is None:
            if cmd.seat is None:
                return Refusal("Say whose dice to fix (a seat) or which action (a position).")
            for i in range(len(actions), 0, -1):
                a = actions[i - 1]
                if a.player == cmd.seat and a.verb in ("throw", "roll"):
                    pos = i
                    break
            else:
                return Refusal(f"{cmd.seat} has no throw or roll in this game to fix.")
        if not isinstance(pos, int) or not 1 <= pos <= len(actions):
            return Refusal(f"There is no action {pos} in this game; the actions are numbered "
                           f"1 to {len(actions)}.")
        old = actions[pos - 1]
        if old.verb not in ("throw", "roll"):
            return Refusal(f"Action {pos} ({old.verb}) has no dice to fix.")
        count = len(old.numbers)
        values = tuple(cmd.values)
        if len(values) != count or not all(isinstance(v, int) and 1 <= v <= 6 for v in values):
            return Refusal(f"A {old.verb} is {'three dice' if count == 3 else 'one die'}, each "
                           f"1 to 6, not {list(values)}.")
        return pos, Action(old.player, old.verb, values)

    def _new_game(self, cmd: Correct) -> Outcome:
        variant = cmd.variant or self.variant
        players = tuple(cmd.players) if cmd.players is not None else self.players
        options = dict(cmd.options) if cmd.options is not None else dict(self.options)
        try:
            check_setup(variant, players, options)
        except RecordError as e:
            return self._refuse(None, Refusal(f"The new game cannot start: {e}."))
        at = self.wall_clock()
        old = self.row
        self.log.append(old.id, "new-game", f"{variant} {' '.join(players)}", cmd.by, at,
                        cmd.why)
        if old.status == "playing":
            self.log.finish_game(old.id, "abandoned", self.game.state(), at)
        gid = self.log.start_game(variant, players, options, at)
        row = self.log.game(gid)
        assert row is not None
        self._load(row)
        self._event(f"{cmd.by} started game {gid} ({variant}, "
                    f"{', '.join(players)}): {cmd.why}.")
        self._publish()
        return Outcome(True, f"Game {gid} started.")
