"""Playing an action: the one way an action enters the game, and a throw read to play.

Every handler that adds an action -- a player's press or verb, the referee's dice, a settle
of exposed values -- ends in :func:`play`: the engine verifies it, the log commits it, and
only then does anyone see it (the public state, the event sentences). A throw or a captain
roll is read from the camera first (:func:`read_and_play`); when the camera is not sure of
the dice the throw still counts, with its values pending (docs/rules/pending.md, D-S1).
"""

from __future__ import annotations

from engine.actions import Action
from engine.errors import RuleViolation
from firmware.gamelog.log import LogError
from firmware.gamelog.rebuild import rebuild
from firmware.gamelog.rows import Entry, Picture
from firmware.table import views
from firmware.table.commands import Outcome
from firmware.table.presses import rule_refusal
from firmware.table.state import TableState
from firmware.words.phrases import N_, Phrase
from firmware.words.wording import action_sentence, effect_sentences

#: Why a throw counted with its values pending is in the log (never the camera's reason,
#: which may name values the reader half saw: that stays on the referee's console).
PENDING_WHY = "values pending: the camera was not sure of the dice"

#: Seconds the worker gives the event streams' writer to send the last change before a
#: camera read (it takes a few milliseconds; this only bounds a stuck writer).
DELIVERY_WAIT = 0.05


def play(t: TableState, action: Action, by: str, why: str = "",
         picture: Picture | None = None) -> Outcome:
    """Verify, log (committed), apply, publish: the only way an action enters the game."""
    try:
        t.game.verify(action)
    except RuleViolation as e:
        return t.refuse(action.player, rule_refusal(e.said, e.rule))
    at = t.wall_clock()
    event = t.game.apply(action)  # shown to no one until the log holds it
    finish = ("over", t.game.state()) if t.game.over else None
    try:  # the action and, when it ends the game, the game's end: one transaction
        seq = t.log.append(t.row.id, "action", str(action), by, at, why,
                           finish=finish, picture=picture)
    except LogError:
        t.game, t.hand_starts = rebuild(t.row, t.entries)  # as logged
        raise
    t.entries.append(Entry(t.row.id, seq, "action", str(action), by, why, at))
    if finish is not None:
        t.row = t.log.game(t.row.id) or t.row
    if event.starts_hand:
        t.hand_starts.append(len(t.game.history))
    settled = [e for e in event.effects if views.is_settlement(e)]
    if settled:
        t.settled = settled
    elif len(t.game.history) - t.hand_start == 1:  # the next hand's first action: the last
        t.settled = []  # hand's result is no longer news, on the felt or on the phones
    if event.starts_hand:
        t.opening = list(event.effects)
    t.offered.clear()
    t.refusals.pop(action.player, None)
    if t.game.to_act is not None:  # its light now says "your turn", not "refused"
        t.refusals.pop(t.game.to_act, None)
    if event.starts_hand or t.game.over:  # a new hand: every seat's situation changed
        t.refusals.clear()
    t.reads.played(action.player, action.verb)
    said = say(t, action)
    if not event.effects:
        t.publisher.say(said)  # the engine's own sentences tell the action when it has any
    for sentence in effect_sentences(list(event.effects)):
        t.publisher.say(sentence)
    t.publish()
    return Outcome(True, str(said), phrase=said)


def say(t: TableState, action: Action) -> Phrase:
    """The public sentence for an action, with the player's public throw count."""
    return action_sentence(action, t.throws(action.player))


def read_and_play(t: TableState, seat: str, kind: str, by: str) -> Outcome:
    """Read ``seat``'s ``kind`` ("throw" or "roll") from the camera and play it: with its
    values when the camera is sure of them, with its values pending otherwise."""
    # A camera read holds the interpreter for a tenth of a second: the screens get the
    # last change first (``Publisher.wait_delivered`` says why). Only here: a wait before
    # every command put each change's whole broadcast between one queued press and the
    # next, and a press queued behind a few refusals waited for a broadcast each.
    t.publisher.wait_delivered(DELIVERY_WAIT)
    number = t.throws(seat) + 1  # this throw's number in the hand, before it is played
    read = t.reads.read(seat, kind, again=False, throw_number=number)
    if read.values is None:  # counted all the same; its values wait (D-S1)
        outcome = play(t, Action(seat, kind), by, PENDING_WHY)
        if outcome.ok:
            t.reads.counted_pending(seat, kind, read, len(t.game.history))
            if kind == "throw":
                _flag_kept_dice(t, seat, number)
            return Outcome(True, outcome.message, values_pending=True)
        return outcome
    outcome = play(t, Action(seat, kind, read.values), by)
    if outcome.ok:
        t.reads.played(seat, kind, read, len(t.game.history))
    return outcome


def _flag_kept_dice(t: TableState, seat: str, number: int) -> None:
    """A round that keeps dice aside (two-hand round 2, T1): a throw with values pending
    cannot be compared with the dice kept from the throw before; the referee is told,
    and play goes on (D-S5). Not for a throw the rules show at once (the last of a hand):
    its dice lie on the table, and the players settle them now (D-S4)."""
    if t.game.variant != "two-hand" or t.game.state()["round"] != 2:
        return
    if seat in t.game.unsettled():
        return
    t.reads.flag(N_("%(p)s's throw %(n)s in round 2 has values pending: the dice kept "
                    "aside cannot be checked against it; it counts.", p=seat, n=number))
