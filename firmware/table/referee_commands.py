"""The referee's commands to the table: dice entered by hand, a re-read, corrections, a new game.

Kept apart from ``firmware.table.controller`` because these commands are the referee's, not the
players': a correction rewrites the hand's history and replays the game from the log, and a
new game replaces the one being played, where a player's press only adds the next action.
What each correction may do is decided in ``firmware.table.corrections``; here it is applied to the
game and the log.

Each function is one command's handler: it takes the table's state
(``firmware.table.state``) and is called by the controller's dispatch under its lock, like
every command.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, dice_fit, dice_words
from engine.errors import ReplayError
from engine.game import Effect
from firmware.gamelog.rebuild import effective_actions, replay_actions
from firmware.gamelog.rows import Entry
from firmware.table import corrections
from firmware.table.commands import Correct, EnterDice, Outcome, Refusal, Reread
from firmware.table.exposure import settle_by
from firmware.table.playing import play, say
from firmware.table.state import TableState
from firmware.words.lists import list_phrase, or_list
from firmware.words.phrases import N_
from firmware.words.variant_names import variant_phrase


def enter(t: TableState, cmd: EnterDice) -> Outcome:
    """The referee's dice: an exposed seat's values pending are settled by referee; a
    concealed throw's pending values are a ``fix-dice`` of it; else the seat's throw or
    roll is played with them."""
    bad = t.known_seat(cmd.seat)
    if bad:
        return t.refuse(None, bad)
    values = tuple(cmd.values)
    if t.game.can_settle(cmd.seat):
        kind = t.settle_kind()
        if not dice_fit(kind, values):
            return t.refuse(None, Refusal(
                f"{cmd.seat}'s exposed {kind} is {dice_words(kind)}, each 1 to 6, not "
                f"{list(values)}; enter them again."))
        return settle_by(t, cmd.seat, values, "referee", cmd.by, "entered by the referee")
    if t.game.values_pending(cmd.seat) and cmd.seat != t.game.to_act:
        return correct(t, Correct("fix-dice", cmd.by, "values entered by the referee",
                                  cmd.seat, values))
    waiting = t.game.unsettled()
    if waiting:  # nothing is played before the shown dice have their values (D-S3)
        return t.refuse(None, Refusal.said(N_(
            "%(names)s's shown dice wait for their values before anything else is played: "
            "choose %(choose)s to enter them.", names=list_phrase(waiting),
            choose=or_list(waiting)), "D-S3"))
    kind = t.reads.pending.get(cmd.seat) or (
        "roll" if t.game.expects == "roll" else "throw")
    if not dice_fit(kind, values):
        return t.refuse(None, Refusal(
            f"A {kind} is {dice_words(kind)}, each 1 to 6, not {list(values)}; enter them "
            "again."))
    return play(t, Action(cmd.seat, kind, values), cmd.by, "entered by the referee",
                t.reads.picture_for_entry(cmd.seat, values))


def reread(t: TableState, cmd: Reread) -> Outcome:
    """Read an exposed seat's pending values again (the dice were straightened)."""
    bad = t.known_seat(cmd.seat)
    if bad:
        return t.refuse(None, bad)
    if not t.game.can_settle(cmd.seat):
        return t.refuse(None, Refusal(
            f"{cmd.seat} has no exposed dice waiting to be read; a throw with values "
            "pending is read again when the rules show it."))
    kind = t.settle_kind()
    read = t.reads.read(cmd.seat, kind, again=True, throw_number=0, exposed=True)
    if read.values is None:
        t.reads.counted_pending(cmd.seat, kind, read)
        t.publish()
        return Outcome(False, f"{cmd.seat}'s dice are still not read surely: "
                              f"{read.reason}. The players or the referee settle them.")
    return settle_by(t, cmd.seat, read.values, "camera", cmd.by,
                     "read surely again at exposure")


def correct(t: TableState, cmd: Correct) -> Outcome:
    """A correction: decided by ``firmware.table.corrections``, checked by replaying the
    corrected record, then logged and applied; a new game replaces the one being played."""
    refusal = corrections.check(cmd)
    if refusal is not None:
        return t.refuse(None, refusal)
    if cmd.kind == "new-game":
        return _new_game(t, cmd)
    plan = corrections.plan(cmd, effective_actions(t.entries), t.hand_start,
                            lambda action: say(t, action))
    if isinstance(plan, Refusal):
        return t.refuse(None, plan)
    at = t.wall_clock()
    entry = Entry(t.row.id, 0, cmd.kind, plan.text, cmd.by, cmd.why, at)
    try:
        opening: list[Effect] = []
        game, starts = replay_actions(t.row.variant, t.row.players, t.row.options,
                                      effective_actions([*t.entries, entry]), opening)
    except ReplayError as e:
        return t.refuse(None, Refusal(
            f"That correction would make action {e.position} ({e.action_text}) illegal: "
            f"{e.violation}; nothing was changed."))
    finish: tuple[str, dict[str, Any] | None] | None = None
    if game.over != (t.row.status == "over"):  # the correction ends or reopens the game
        finish = ("over", game.state()) if game.over else ("playing", None)
    picture = t.reads.picture_for_correction(cmd.kind, plan.text)
    seq = t.log.append(t.row.id, cmd.kind, plan.text, cmd.by, at, cmd.why,
                       finish=finish, picture=picture)
    t.entries.append(Entry(t.row.id, seq, cmd.kind, plan.text, cmd.by, cmd.why, at))
    t.game, t.hand_starts, t.opening = game, starts, opening
    if finish is not None:
        t.row = t.log.game(t.row.id) or t.row
    t.offered.clear()
    t.refusals.clear()
    t.reads.forget_waiting()
    t.publisher.say(plan.done)
    t.publish()
    return Outcome(True, str(plan.done), phrase=plan.done)


def _new_game(t: TableState, cmd: Correct) -> Outcome:
    # a table that lays its zones for any players (the simulated one) has a seat for all
    seats = None if t.lay_zones is not None else t.reads.seats
    new = corrections.new_game(cmd, t.variant, t.players, t.options, seats)
    if isinstance(new, Refusal):
        return t.refuse(None, new)
    at = t.wall_clock()
    old = t.row
    gid = t.log.replace_game(
        old.id, f"{new.variant} {' '.join(new.players)}", cmd.by, cmd.why, at,
        abandon=t.game.state() if old.status == "playing" else None,
        variant=new.variant, players=new.players, options=new.options)
    row = t.log.game(gid)
    assert row is not None
    t.load(row)
    t.publisher.say(N_("%(by)s started game %(id)s (%(variant)s, %(players)s): %(why)s.",
                       by=cmd.by, id=gid, variant=variant_phrase(new.variant),
                       players=list_phrase(list(new.players)), why=cmd.why))
    t.publish()
    return Outcome(True, f"Game {gid} started.")
