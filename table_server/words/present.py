"""Words for the screen, added to a state dict before it is shown (pure; never adds dice).

The controller's public state says *what* is true; the table view also wants the name of each
exposed throw ("Bidou"), the banner's lines and one sentence saying what happens next.
Computing them here keeps the browser code small and lets the tests read the same words the
screen shows.
"""

from __future__ import annotations

from typing import Any

from firmware.table.presses import pressable
from firmware.words.lists import list_phrase, or_list
from firmware.words.phrases import N_, Phrase
from firmware.words.verbs import verb_name
from table_server.words.banner import banner
from table_server.words.seat_words import seat_words
from table_server.words.standing import result, standing


def decorate(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` with the words of each seat (``table_server.words.seat_words``), the
    banner's (``table_server.words.banner``), a ``prompt`` sentence, the ``standing`` and the
    game's ``result`` (``table_server.words.standing``) and, while dice are shown, the ``showdown``
    sentence saying who takes the chips: each once, as a phrase (``Phrase.to_json``) that the
    page says in its reader's language."""
    out = dict(state)
    out["seats"] = seat_words(state)
    out.update(banner(state))
    out["prompt"] = prompt_phrase(state).to_json()
    for key, line in (("showdown", showdown_phrase(state)), ("standing", standing(state)),
                      ("result", result(state))):
        out[key] = line.to_json() if line else None
    return out


def showdown(state: dict[str, Any]) -> str | None:
    """The showdown sentence in English (see :func:`showdown_phrase`)."""
    said = showdown_phrase(state)
    return str(said) if said else None


def showdown_phrase(state: dict[str, Any]) -> Phrase | None:
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
            return Phrase.from_json(effect["text"])
    return None


def prompt(state: dict[str, Any]) -> str:
    """The prompt in English (see :func:`prompt_phrase`)."""
    return str(prompt_phrase(state))


def _choices(verbs: list[str]) -> Phrase | str:
    """"throw or stand", "call, raise or drop": what a player may do now with their buttons
    (a pass the PASS button would play as a drop is not offered: ``presses.pressable``)."""
    return or_list([verb_name(v) for v in pressable(verbs) if v != "settle"])


def prompt_phrase(state: dict[str, Any]) -> Phrase:
    """One sentence: whose turn it is and what they may do, or how the game ended."""
    if state.get("over"):
        loser, winner = state.get("loser"), state.get("winner")
        if loser and winner:  # Bidou names the loser first (a two-hand match has a winner)
            return N_("Game over: %(p)s loses to %(q)s.", p=loser, q=winner)
        if loser:
            return N_("Game over: %(p)s loses.", p=loser)
        if winner:
            return N_("Game over: %(p)s wins.", p=winner)
        return N_("Game over.")
    who, what = state.get("to_act"), state.get("expects")
    settling = [s["seat"] for s in state.get("settling", [])]
    if what == "settle" and settling:
        return N_("The camera is not sure of %(names)s's dice: the players say their values "
                  "before the chips move.", names=list_phrase(settling))
    if who and what:
        verbs = (state.get("allowed") or {}).get(who) or [what]
        return N_("%(p)s's turn: %(choices)s.", p=who, choices=_choices(list(verbs)))
    return N_("Waiting for the game to start.")
