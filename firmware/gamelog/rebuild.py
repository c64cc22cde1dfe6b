"""Rebuild a game from its log entries: the one way the controller ever gets its state.

Corrections are entries, not edits, so the game record of a game is computed: start with no
actions, then for each entry in order -- ``action`` appends, ``undo`` removes the last action,
``fix-dice`` replaces the action at a position, ``void-hand`` keeps only the first N actions,
``new-game`` ends the game. Replaying the resulting actions through the engine gives the state.
The controller uses the same function at start-up and after every correction, so what the
table shows after a restart is by construction what it showed before the plug was pulled.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.actions import Action
from engine.errors import RecordError, ReplayError, RuleViolation
from engine.game import Effect, Game
from engine.record import Record
from engine.variants import new_game
from firmware.gamelog.rows import Entry, GameRow


def effective_actions(entries: Iterable[Entry]) -> list[Action]:
    """The game record's actions once every correction in ``entries`` is taken into account."""
    actions: list[Action] = []
    for e in entries:
        if e.kind == "action":
            actions.append(Action.parse(e.text))
        elif e.kind == "undo":
            if actions:
                actions.pop()
        elif e.kind == "fix-dice":
            pos_text, _, action_text = e.text.partition(" ")
            if not pos_text.isdigit():
                raise RecordError(f"log entry {e.seq} (fix-dice {e.text!r}) is not a position "
                                  "and an action, such as '7 Ann throw 6 5 3'")
            pos = int(pos_text)
            if not 1 <= pos <= len(actions):
                raise RecordError(f"log entry {e.seq} fixes action {pos}, which does not exist")
            actions[pos - 1] = Action.parse(action_text)
        elif e.kind == "void-hand":
            if not e.text.isdigit():
                raise RecordError(f"log entry {e.seq} (void-hand {e.text!r}) is not a number "
                                  "of actions kept")
            del actions[int(e.text):]
    return actions


def replay_actions(variant: str, players: tuple[str, ...], options: dict,
                   actions: Iterable[Action], opening: list[Effect] | None = None
                   ) -> tuple[Game, list[int]]:
    """Play ``actions`` on a new game. Also returns the positions after which a hand began
    (the places a ``void-hand`` goes back to). ReplayError at the first refused action.
    ``opening``, when given, is filled with the effects of the action that began the current
    hand (what the table's banner announces), as they were when it was played."""
    game = new_game(variant, players, options)
    hand_starts: list[int] = []
    for i, action in enumerate(actions, start=1):
        try:
            event = game.apply(action)
        except RuleViolation as err:
            raise ReplayError(i, str(action), err) from None
        if event.starts_hand:
            hand_starts.append(i)
            if opening is not None:
                opening[:] = event.effects
    return game, hand_starts


def rebuild(row: GameRow, entries: Iterable[Entry], opening: list[Effect] | None = None
            ) -> tuple[Game, list[int]]:
    """The game of ``row`` as its entries leave it, and its hand starts (``opening``: as in
    :func:`replay_actions`)."""
    return replay_actions(row.variant, row.players, row.options, effective_actions(entries),
                          opening)


def record_from_log(row: GameRow, entries: Iterable[Entry]) -> Record:
    """The ``bidou-record/1`` record of a logged game (corrections applied)."""
    return Record(row.variant, row.players, tuple(effective_actions(entries)),
                  dict(row.options))
