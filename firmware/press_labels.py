"""What the next press of each seat-page button will do, in words: the button labels.

A phone can say what a panel cannot: "RAISE 1", "CALL 2", "DROP: you take 1 chip", "STAND".
The labels come from the same pure mapping the presses go through (``firmware.presses.decide``),
so a label can never promise what the press will not do; a button whose press would be refused
gets no label (it stays dark). A drop's penalty is asked of the engine by playing the drop on a
copy of the game (the engine is pure, so the copy changes nothing).
"""

from __future__ import annotations

import copy

from engine.actions import Action
from engine.chips import plural
from engine.game import Game
from firmware.presses import decide

#: The seat page's buttons: (id, panel button, long press).
BUTTONS = (("THROW", "THROW", False), ("STAND", "THROW", True), ("BET", "BET", False),
           ("CALL", "CALL", False), ("PASS", "PASS", False), ("POT", "BET", True))

_WORDS = {"stand": "STAND", "call": "CALL", "pass": "PASS", "betpot": "BET THE POT",
          "callpot": "CALL THE POT"}


def drop_penalty(game: Game, seat: str) -> int:
    """How many chips ``seat`` would take by dropping now (what the engine moves to it)."""
    trial = copy.deepcopy(game)
    event = trial.apply(Action(seat, "drop"))
    return sum(e.chips for e in event.effects if e.kind == "move" and e.dest == seat)


def to_call(game: Game, seat: str) -> int:
    """The chips a call puts in: the highest stake less the seat's own."""
    stakes = {v.name: v.stake for v in game.views()}
    return max(stakes.values()) - stakes[seat]


def label(game: Game, seat: str, button: str, long: bool, offered: int) -> str | None:
    """The label of one button: what pressing it now does, or None when it would be refused."""
    decision = decide(game, seat, button, long, offered)
    if decision.refusal is not None:
        return None
    if decision.read is not None:
        return "ROLL" if decision.read == "roll" else "THROW"
    if decision.stake is not None:
        if decision.stake == 0:
            return "CANCEL"
        verb = "RAISE" if any(a.verb == "raise" for a in game.allowed() if a.player == seat) \
            else "BET"
        return f"+1 → {verb} {decision.stake}"
    action = decision.action
    assert action is not None  # a Decision has exactly one field set
    if action.chips is not None:
        return f"{action.verb.upper()} {action.chips}"
    if action.verb == "call":
        return f"CALL {to_call(game, seat)}"
    if action.verb == "drop":
        taken = drop_penalty(game, seat)
        return f"DROP: you take {plural(taken)}" if taken else "DROP (no penalty)"
    return _WORDS.get(action.verb, action.verb.upper())


def labels(game: Game, seat: str, offered: int) -> dict[str, str | None]:
    """Every seat-page button's label, by button id (``THROW``, ``STAND``, ``BET``, ``CALL``,
    ``PASS``, ``POT``); None for a button whose press would be refused now."""
    return {name: label(game, seat, button, long, offered) for name, button, long in BUTTONS}
