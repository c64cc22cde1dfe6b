"""What the next press of each seat-page button will do, in words: the button labels.

A phone can say what a panel cannot: "RAISE 1", "CALL 2", "DROP: you take 1 chip", "STAND".
The labels come from the same pure mapping the presses go through
(``firmware.table.presses.decide``), so a label can never promise what the press will not do; a
button whose press would be refused gets no label (it stays dark). A drop's penalty is asked of the
engine by playing the drop on a copy of the game (the engine is pure, so the copy changes nothing).

One thing a phone does that a panel does not: where the rules allow a bet or raise of one
amount only (two-hand's one chip, T5), its BET bets it in one tap (:func:`at_once`, played as
that verb) instead of offering a chip for CALL to commit; the panel's BET still offers.
The phone also says the bet facing its player (:func:`facing`).
"""

from __future__ import annotations

import copy
from typing import Any

from engine.actions import Action
from engine.game import Game
from firmware.table.presses import decide
from firmware.words.phrases import N_, NN_, Phrase

#: The seat page's buttons: (id, panel button, long press).
BUTTONS = (("THROW", "THROW", False), ("STAND", "THROW", True), ("BET", "BET", False),
           ("CALL", "CALL", False), ("PASS", "PASS", False), ("POT", "BET", True))

_WORDS = {"stand": N_("STAND"), "call": N_("CALL"), "pass": N_("PASS"),
          "betpot": N_("BET THE POT"), "callpot": N_("CALL THE POT"), "drop": N_("DROP")}
#: A button that commits chips: "BET 2", "RAISE 1", "CALL 2".
_CHIPS = {"bet": N_("BET %(n)s"), "raise": N_("RAISE %(n)s"), "call": N_("CALL %(n)s")}


def drop_penalty(game: Game, seat: str) -> int:
    """How many chips ``seat`` would take by dropping now (what the engine moves to it)."""
    trial = copy.deepcopy(game)
    event = trial.apply(Action(seat, "drop"))
    return sum(e.chips for e in event.effects if e.kind == "move" and e.dest == seat)


def to_call(game: Game, seat: str) -> int:
    """The chips a call puts in: the highest stake less the seat's own."""
    stakes = {v.name: v.stake for v in game.views()}
    return max(stakes.values()) - stakes[seat]


def _chips(verb: str, n: int) -> Phrase:
    return Phrase(_CHIPS[verb].msgid, {"n": n}) if verb in _CHIPS else Phrase(
        f"{verb.upper()} {n}")


def label(game: Game, seat: str, button: str, long: bool, offered: int) -> Phrase | None:
    """The label of one button: what pressing it now does, or None when it would be refused
    (a phrase: ``str()`` is the English, the seat page says it in the player's language)."""
    decision = decide(game, seat, button, long, offered)
    if decision.refusal is not None:
        return None
    if decision.read is not None:
        return N_("ROLL") if decision.read == "roll" else N_("THROW")
    if decision.stake is not None:
        if decision.stake == 0:
            return N_("CANCEL")
        verb = "raise" if any(a.verb == "raise" for a in game.allowed() if a.player == seat) \
            else "bet"
        return N_("+1 → %(then)s", then=_chips(verb, decision.stake))
    action = decision.action
    assert action is not None  # a Decision has exactly one field set
    if action.chips is not None:
        return _chips(action.verb, action.chips)
    if action.verb == "call":
        return _chips("call", to_call(game, seat))
    if action.verb == "drop":
        taken = drop_penalty(game, seat)
        return NN_("DROP: you take %(n)s chip", "DROP: you take %(n)s chips", taken) if taken \
            else N_("DROP (no penalty)")
    return _WORDS.get(action.verb, Phrase(action.verb.upper()))


def at_once(game: Game, seat: str, offered: int) -> dict[str, Any] | None:
    """``{"action": "bet" or "raise", "chips": N}`` when ``seat`` may bet or raise now, has
    offered nothing, and the rules allow one amount only: the seat page's BET plays it in one
    tap. None otherwise (BET offers a chip, as the panel's does)."""
    if offered or game.over or game.to_act != seat:
        return None
    stakes = [a for a in game.allowed() if a.player == seat and a.verb in ("bet", "raise")]
    if len(stakes) != 1 or stakes[0].min_chips is None or \
            stakes[0].min_chips != stakes[0].max_chips:
        return None
    verb, chips = stakes[0].verb, stakes[0].min_chips
    if decide(game, seat, "BET", False, 0).refusal is not None:
        return None
    return {"action": verb, "chips": chips}


def facing(game: Game, seat: str, hand_actions: int) -> Phrase | None:
    """The bet facing ``seat`` on its turn, when calling it costs chips: "Facing you: Bob's
    bet of 2 chips." (who made the highest stake, by the last bet or raise this hand)."""
    if game.over or game.to_act != seat or hand_actions <= 0 or to_call(game, seat) <= 0:
        return None
    stakes = {v.name: v.stake for v in game.views()}
    for action in reversed(game.history[-hand_actions:]):
        if action.player != seat and action.verb in ("bet", "raise", "betpot") \
                and stakes[action.player] == max(stakes.values()):
            top = stakes[action.player]
            return NN_("Facing you: %(p)s's bet of %(n)s chip.",
                       "Facing you: %(p)s's bet of %(n)s chips.", top, p=action.player)
    return None


def labels(game: Game, seat: str, offered: int) -> dict[str, Phrase | None]:
    """Every seat-page button's label, by button id (``THROW``, ``STAND``, ``BET``, ``CALL``,
    ``PASS``, ``POT``); None for a button whose press would be refused now. BET says the bet
    it makes when it makes one in one tap (:func:`at_once`)."""
    said = {name: label(game, seat, button, long, offered) for name, button, long in BUTTONS}
    once = at_once(game, seat, offered)
    if once is not None:
        said["BET"] = _chips(once["action"], once["chips"])
    return said
