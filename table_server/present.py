"""Words for the screen, added to a state dict before it is shown (pure; never adds dice).

The controller's public state says *what* is true; the table view also wants the name of each
exposed throw ("bidou (2-1-1)") and one sentence saying what happens next. Computing them here
keeps the browser code small and lets the tests read the same words the screen shows.
"""

from __future__ import annotations

from typing import Any

from engine.ranking import throw_name
from firmware.wording import as_sentence

_EXPECTS = {"roll": "roll for captain", "throw": "throw", "bet": "bet"}


def decorate(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` with ``exposed_name`` on each seat, a ``prompt`` sentence and, while
    dice are shown, the ``showdown`` sentence saying who takes the chips."""
    out = dict(state)
    seats = []
    for seat in state.get("seats", []):
        s = dict(seat)
        exposed = s.get("exposed")
        s["exposed_name"] = throw_name(exposed) if exposed and len(exposed) == 3 else None
        seats.append(s)
    out["seats"] = seats
    out["prompt"] = prompt(state)
    out["showdown"] = showdown(state)
    return out


def showdown(state: dict[str, Any]) -> str | None:
    """While dice are shown, who takes the chips (or wins the game) at the latest settlement:
    picked from the structured ``settled`` effects by their fields, worded here."""
    seats = state.get("seats", [])
    if not any(seat.get("exposed") for seat in seats):
        return None
    players = {seat["name"] for seat in seats}
    for effect in reversed(state.get("settled", [])):
        taken = effect["kind"] == "move" and effect["dest"] in players and effect["chips"]
        won = effect["kind"] == "game" and effect["player"] == state.get("winner")
        if taken or won:
            return as_sentence(effect["text"])
    return None


def prompt(state: dict[str, Any]) -> str:
    """One sentence: who acts next and how, or how the game ended."""
    if state.get("over"):
        if state.get("loser"):  # Bidou names the loser first (a two-hand match has a winner too)
            won = f" to {state['winner']}" if state.get("winner") else ""
            return f"Game over: {state['loser']} loses{won}."
        if state.get("winner"):
            return f"Game over: {state['winner']} wins."
        return "Game over."
    who, what = state.get("to_act"), state.get("expects")
    if who and what:
        return f"{who} to {_EXPECTS.get(what, what)}."
    return "Waiting for the game to start."
