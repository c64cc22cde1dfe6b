"""The table's state: the one object every command's handler reads and changes.

A table is a game being played (its row and entries in the log, the engine's ``Game``
rebuilt from them) and what the table keeps beside it per seat: the stake being offered with
BET, the last refusal, the seats' camera reads, and, at exposure, what the players said of
shown dice whose values are pending. :class:`TableState` holds all of it, with the few things
every handler does with it: refuse a command at its seat, rebuild the game from the log,
publish the public state. The handlers themselves are plain functions taking this state, one
file per job (``player_commands``, ``referee_commands``, ``roster_seating``, ``exposure``),
and ``firmware.table.controller`` dispatches the commands to them under its lock, one at a
time: nothing here is thread-safe by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import RecordError, ReplayError
from engine.game import Effect, Game
from firmware.camera.seat_reads import SeatReads
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import GameLog, LogError
from firmware.gamelog.rebuild import rebuild
from firmware.gamelog.rows import Entry, GameRow
from firmware.table import views
from firmware.table.commands import Outcome, Refusal
from firmware.table.press_repeats import Repeats
from firmware.table.publishing import Publisher
from firmware.words.phrases import NN_, Phrase
from vision.zones import Zone


class TableState:
    """The game and everything the table keeps per seat; see the module docstring.

    ``variant``, ``players`` and ``options`` are the table's own game (started on a fresh
    log, and the default of a new game); ``lay_zones(players)`` (the simulated table without
    calibrated zones) lays a zone for every player of a game whose seats the camera lacks;
    ``seat_names`` maps panel seat ids to player names; ``wall_clock()`` is the time written
    to the log.
    """

    def __init__(self, log: GameLog, *, variant: str, players: tuple[str, ...],
                 options: dict[str, Any], watcher: DiceWatcher | None, reads: SeatReads,
                 publisher: Publisher, wall_clock: Callable[[], str],
                 seat_names: dict[Any, str],
                 lay_zones: Callable[[tuple[str, ...]], list[Zone]] | None) -> None:
        self.log = log
        self.variant, self.players, self.options = variant, players, options
        self.watcher = watcher
        self.reads = reads
        self.publisher = publisher
        self.wall_clock = wall_clock
        self.seat_names = seat_names
        self.lay_zones = lay_zones
        self.repeats = Repeats()
        # the game, as logged; replaced by load()
        self.row: GameRow
        self.game: Game
        self.entries: list[Entry] = []
        #: where each hand of the game began (its count of actions before it)
        self.hand_starts: list[int] = []
        self.reset_seats()

    # --- per seat --------------------------------------------------------------------
    def reset_seats(self) -> None:
        """Forget what the table kept per seat (a game is loaded)."""
        #: seat -> the stake offered with BET (not an action until CALL commits it)
        self.offered: dict[str, int] = {}
        #: seat -> its last refusal, until its situation changes or it presses again
        self.refusals: dict[str, Refusal] = {}
        #: the latest settlement's effects (until the next hand's first action); the effects
        #: of the action that began this hand
        self.settled: list[Effect] = []
        self.opening: list[Effect] = []
        self.reads.reset()
        self.reset_exposure()

    def reset_exposure(self) -> None:
        """Forget the exposure being settled (``firmware.table.exposure``)."""
        #: seats whose exposed dice the camera has read again in this exposure
        self.exposed_read: set[str] = set()
        #: seat -> player -> the values that player says the seat's exposed dice show
        self.claims: dict[str, dict[str, tuple[int, ...]]] = {}
        #: seat -> the sentence of the players' disagreement (the referee settles it)
        self.disputes: dict[str, Phrase] = {}

    def refuse(self, seat: str | None, refusal: Refusal) -> Outcome:
        """A refusal: shown only at its seat (its LED blinks, its phone says it), never on the
        pub screen or in the event list; kept until the seat's situation changes or it
        presses again. ``seat`` None: a refusal no seat is told (the referee's commands)."""
        if seat in self.game.players:
            self.refusals[seat] = refusal
        return Outcome(False, refusal.sentence, refusal.rule, phrase=refusal.phrase)

    def known_seat(self, seat: str) -> Refusal | None:
        """None when ``seat`` plays at this table, else the refusal naming the seats."""
        if seat not in self.game.players:
            return Refusal(f"{seat!r} is not a seat at this table; the seats are "
                           f"{', '.join(self.game.players)}.")
        return None

    def throws(self, seat: str) -> int:
        """How many times ``seat`` has thrown this hand (its public throw count)."""
        return next((v.throws for v in self.game.views() if v.name == seat), 0)

    @property
    def hand_start(self) -> int:
        """How many actions the game had when the hand being played began."""
        return self.hand_starts[-1] if self.hand_starts else 0

    def settle_kind(self) -> str:
        """What the exposed dice waiting for their values are: a "roll" or a "throw"."""
        return "roll" if self.game.settle_dice() == 1 else "throw"

    # --- the game from the log -------------------------------------------------------
    def load(self, row: GameRow) -> None:
        """Rebuild game ``row`` from its log entries and forget everything per seat; a game
        the log cannot replay is a LogError saying what to do."""
        entries = self.log.entries(row.id)
        try:
            opening: list[Effect] = []
            game, starts = rebuild(row, entries, opening)
        except (ReplayError, RecordError) as e:
            raise LogError(
                f"Game {row.id} in the log {self.log.path} cannot be replayed: {e}. Export "
                f"it with bidou-table export and start with a new --db file."
            ) from None
        self.row, self.game, self.entries, self.hand_starts = row, game, entries, starts
        self.reset_seats()
        self.fit_zones(row.players)
        self.opening = opening
        self.publisher.clear_events()
        if game.over and row.status == "playing":  # the plug was pulled after the last action
            self.log.finish_game(row.id, "over", game.state(), self.wall_clock())
            self.row = self.log.game(row.id) or row
        if game.history:  # a fresh game needs no word; one picked up from the log does
            self.publisher.say(NN_(
                "Game %(id)s picked up from the log after %(n)s action.",
                "Game %(id)s picked up from the log after %(n)s actions.",
                len(game.history), id=row.id))

    def fit_zones(self, players: tuple[str, ...]) -> None:
        """Give every player of the game loaded a zone of the camera when the table lays its
        zones itself (``lay_zones``: the simulated table, uncalibrated) and one lacks it; zones
        the referee drew for these players are kept."""
        watcher = self.reads.watcher
        if self.lay_zones is None or watcher is None or set(players) <= set(watcher.zones):
            return
        watcher.set_zones(self.lay_zones(players))

    # --- what everyone sees ----------------------------------------------------------
    def publish(self) -> None:
        """Send the public state to every listener when it shows something new."""
        game = self.game
        self.publisher.publish(lambda version: views.public_state(
            game, game_id=self.row.id, status=self.row.status, version=version,
            offered=self.offered,
            settling=views.settling(game, self.reads.last, self.reads.frames, self.claims,
                                    self.disputes),
            events=self.publisher.events, first_event=self.publisher.first_event,
            settled=self.settled,
            camera=views.camera_status(self.watcher),
            hand_actions=len(game.history) - self.hand_start, opening=self.opening,
        ))
