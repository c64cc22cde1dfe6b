"""Words for the screen, added to a state dict before it is shown (pure; never adds dice).

The controller's public state says *what* is true; the table view also wants the name of each
exposed throw ("Bidou"), the banner's lines and one sentence saying what happens next.
Computing them here keeps the browser code small and lets the tests read the same words the
screen shows.
"""

from __future__ import annotations

from typing import Any

from firmware.wording import as_sentence
from table_server.banner import banner
from table_server.seat_words import seat_words
from table_server.standing import result, standing

_EXPECTS = {"roll": "roll for captain", "throw": "throw", "bet": "bet"}


def decorate(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` with the words of each seat (``table_server.seat_words``), the
    banner's (``table_server.banner``), a ``prompt`` sentence, the ``standing`` and the
    game's ``result`` (``table_server.standing``) and, while dice are shown, the
    ``showdown`` sentence saying who takes the chips."""
    out = dict(state)
    out["seats"] = seat_words(state)
    out.update(banner(state))
    out["prompt"] = prompt(state)
    out["showdown"] = showdown(state)
    # phrases, as pages take them (Bidou.say): each page says them in its reader's language
    out["standing"] = said.to_json() if (said := standing(state)) else None
    out["result"] = said.to_json() if (said := result(state)) else None
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
    settling = [s["seat"] for s in state.get("settling", [])]
    if what == "settle" and settling:
        return (f"The dice of {' and '.join(settling)} are shown but not read surely: "
                "the players say their values before the chips move.")
    if who and what:
        return f"{who} to {_EXPECTS.get(what, what)}."
    return "Waiting for the game to start."
