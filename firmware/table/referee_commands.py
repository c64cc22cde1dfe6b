"""The referee's commands to the table: dice entered by hand, a re-read, corrections, a new game.

Kept apart from ``firmware.table.controller`` because these commands are the referee's, not the
players': a correction rewrites the hand's history and replays the game from the log, and a
new game replaces the one being played, where a player's press only adds the next action.
What each correction may do is decided in ``firmware.table.corrections``; here it is applied to the
game and the log.

:class:`RefereeCommands` is mixed into :class:`firmware.table.controller.TableController` (it has no
state of its own): it uses the controller's game, log and seats, and its ``_play``,
``_read_and_play``, ``_refuse``, ``_known_seat``, ``_load``, ``_publish`` and ``_say``, under the
controller's lock like every command.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, dice_fit, dice_words
from engine.errors import ReplayError
from engine.game import Effect
from firmware.gamelog.log import Entry
from firmware.gamelog.rebuild import effective_actions, replay_actions
from firmware.table import corrections
from firmware.table.commands import Correct, EnterDice, Outcome, Refusal, Reread
from firmware.words.event_words import list_phrase
from firmware.words.phrases import N_
from firmware.words.wording import variant_phrase


class RefereeCommands:
    """The referee's commands of :class:`~firmware.table.controller.TableController`."""

    def _enter(self, cmd: EnterDice) -> Outcome:
        """The referee's dice: an exposed seat's values pending are settled by referee; a
        concealed throw's pending values are a ``fix-dice`` of it; else the seat's throw or
        roll is played with them."""
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        values = tuple(cmd.values)
        if self.game.can_settle(cmd.seat):
            kind = "roll" if self.game.settle_dice() == 1 else "throw"
            if not dice_fit(kind, values):
                return self._refuse(None, Refusal(
                    f"{cmd.seat}'s exposed {kind} is {dice_words(kind)}, each 1 to 6, not "
                    f"{list(values)}; enter them again."))
            return self._settle_by(cmd.seat, values, "referee", cmd.by, "entered by the referee")
        if self.game.values_pending(cmd.seat) and cmd.seat != self.game.to_act:
            return self._correct(Correct("fix-dice", cmd.by, "values entered by the referee",
                                         cmd.seat, values))
        kind = self.reads.pending.get(cmd.seat) or (
            "roll" if self.game.expects == "roll" else "throw")
        if not dice_fit(kind, values):
            return self._refuse(None, Refusal(
                f"A {kind} is {dice_words(kind)}, each 1 to 6, not {list(values)}; enter them "
                "again."))
        return self._play(Action(cmd.seat, kind, values), cmd.by, "entered by the referee",
                          self.reads.picture_for_entry(cmd.seat, values))

    def _reread(self, cmd: Reread) -> Outcome:
        """Read an exposed seat's pending values again (the dice were straightened)."""
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        if not self.game.can_settle(cmd.seat):
            return self._refuse(None, Refusal(
                f"{cmd.seat} has no exposed dice waiting to be read; a throw with values "
                "pending is read again when the rules show it."))
        kind = "roll" if self.game.settle_dice() == 1 else "throw"
        read = self.reads.read(cmd.seat, kind, again=True, throw_number=0, exposed=True)
        if read.values is None:
            self.reads.counted_pending(cmd.seat, kind, read)
            self._publish()
            return Outcome(False, f"{cmd.seat}'s dice are still not read surely: "
                                  f"{read.reason}. The players or the referee settle them.")
        return self._settle_by(cmd.seat, read.values, "camera", cmd.by,
                               "read surely again at exposure")

    def _correct(self, cmd: Correct) -> Outcome:
        refusal = corrections.check(cmd)
        if refusal is not None:
            return self._refuse(None, refusal)
        if cmd.kind == "new-game":
            return self._new_game(cmd)
        hand_start = self._hand_starts[-1] if self._hand_starts else 0
        plan = corrections.plan(cmd, effective_actions(self._entries), hand_start, self._say)
        if isinstance(plan, Refusal):
            return self._refuse(None, plan)
        at = self.wall_clock()
        entry = Entry(self.row.id, 0, cmd.kind, plan.text, cmd.by, cmd.why, at)
        try:
            opening: list[Effect] = []
            game, starts = replay_actions(self.row.variant, self.row.players,
                                          self.row.options, effective_actions([*self._entries,
                                                                               entry]), opening)
        except ReplayError as e:
            return self._refuse(None, Refusal(
                f"That correction would make action {e.position} ({e.action_text}) illegal: "
                f"{e.violation}; nothing was changed."))
        finish: tuple[str, dict[str, Any] | None] | None = None
        if game.over != (self.row.status == "over"):  # the correction ends or reopens the game
            finish = ("over", game.state()) if game.over else ("playing", None)
        picture = self.reads.picture_for_correction(cmd.kind, plan.text)
        seq = self.log.append(self.row.id, cmd.kind, plan.text, cmd.by, at, cmd.why,
                              finish=finish, picture=picture)
        self._entries.append(Entry(self.row.id, seq, cmd.kind, plan.text, cmd.by, cmd.why, at))
        self.game, self._hand_starts, self._opening = game, starts, opening
        if finish is not None:
            self.row = self.log.game(self.row.id) or self.row
        self._offered.clear()
        self._refusals.clear()
        self.reads.forget_waiting()
        self.publisher.say(plan.done)
        self._publish()
        return Outcome(True, str(plan.done), phrase=plan.done)

    def _fit_zones(self, players: tuple[str, ...]) -> None:
        """Give every player of the game loaded a zone of the camera when the table lays its
        zones itself (``lay_zones``: the simulated table, uncalibrated) and one lacks it; zones
        the referee drew for these players are kept."""
        watcher = self.reads.watcher
        if self.lay_zones is None or watcher is None or set(players) <= set(watcher.zones):
            return
        watcher.set_zones(self.lay_zones(players))

    def _new_game(self, cmd: Correct) -> Outcome:
        # a table that lays its zones for any players (the simulated one) has a seat for all
        seats = None if self.lay_zones is not None else self.reads.seats
        new = corrections.new_game(cmd, self.variant, self.players, self.options, seats)
        if isinstance(new, Refusal):
            return self._refuse(None, new)
        at = self.wall_clock()
        old = self.row
        gid = self.log.replace_game(
            old.id, f"{new.variant} {' '.join(new.players)}", cmd.by, cmd.why, at,
            abandon=self.game.state() if old.status == "playing" else None,
            variant=new.variant, players=new.players, options=new.options)
        row = self.log.game(gid)
        assert row is not None
        self._load(row)
        self.publisher.say(N_("%(by)s started game %(id)s (%(variant)s, %(players)s): %(why)s.",
                              by=cmd.by, id=gid, variant=variant_phrase(new.variant),
                              players=list_phrase(list(new.players)), why=cmd.why))
        self._publish()
        return Outcome(True, f"Game {gid} started.")
