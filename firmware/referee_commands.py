"""The referee's commands to the table: dice entered by hand, a re-read, corrections, a new game.

Kept apart from ``firmware.controller`` because these commands are the referee's, not the
players': a correction rewrites the hand's history and replays the game from the log, and a
new game replaces the one being played, where a player's press only adds the next action.
What each correction may do is decided in ``firmware.corrections``; here it is applied to the
game and the log.

:class:`RefereeCommands` is mixed into :class:`firmware.controller.TableController` (it has no
state of its own): it uses the controller's game, log and seats, and its ``_play``,
``_read_and_play``, ``_refuse``, ``_known_seat``, ``_load``, ``_publish`` and ``_say``, under the
controller's lock like every command.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, dice_fit, dice_words
from engine.errors import ReplayError
from engine.game import Effect
from firmware import corrections
from firmware.commands import Correct, EnterDice, Outcome, Refusal, Reread
from firmware.log import Entry
from firmware.rebuild import effective_actions, replay_actions


class RefereeCommands:
    """The referee's commands of :class:`~firmware.controller.TableController`."""

    def _enter(self, cmd: EnterDice) -> Outcome:
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        values = tuple(cmd.values)
        kind = self.reads.pending.get(cmd.seat) or (
            "roll" if self.game.expects == "roll" else "throw")
        if not dice_fit(kind, values):
            return self._refuse(None, Refusal(
                f"A {kind} is {dice_words(kind)}, each 1 to 6, not {list(values)}; enter them "
                "again."))
        return self._play(Action(cmd.seat, kind, values), cmd.by, "entered by the referee",
                          self.reads.picture_for_entry(cmd.seat, values))

    def _reread(self, cmd: Reread) -> Outcome:
        bad = self._known_seat(cmd.seat)
        if bad:
            return self._refuse(None, bad)
        if cmd.seat not in self.reads.needs_look:
            return self._refuse(None, Refusal(
                f"{cmd.seat} has nothing waiting to be read; a throw is read when THROW is "
                "pressed."))
        return self._read_and_play(cmd.seat, self.reads.pending[cmd.seat], cmd.by, again=True)

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
        return Outcome(True, plan.done)

    def _new_game(self, cmd: Correct) -> Outcome:
        new = corrections.new_game(cmd, self.variant, self.players, self.options,
                                    self.reads.seats)
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
        self.publisher.say(f"{cmd.by} started game {gid} ({new.variant}, "
                           f"{', '.join(new.players)}): {cmd.why}.")
        self._publish()
        return Outcome(True, f"Game {gid} started.")
