"""Words on each seat card: the shown throw as players say it, its place in Table 1, which
throw is the worse (or best) at a showdown, the seat's last action, its score and its result.

Pure and small: it reads a public state's fields and adds words, never dice. The throw names
and places come from the engine's ranking data (``engine.ranking``), so the screen and the
rules cannot disagree about what a throw is called or where it stands.
"""

from __future__ import annotations

from typing import Any

from engine.ranking import best as best_of  # "best" is also a mark here
from engine.ranking import worst
from firmware.words.phrases import N_, NN_, Phrase
from firmware.words.throw_words import throw_words
from firmware.words.verbs import verb_badge


def action_phrase(last: dict[str, Any] | None) -> Phrase | None:
    """``{"verb": "bet", "chips": 2}`` -> ``BET 2``; ``None`` before the seat acted this hand."""
    if not last:
        return None
    words = verb_badge(last["verb"])
    return N_("%(what)s %(n)s", what=words, n=last["chips"]) if last.get("chips") else words


def action_words(last: dict[str, Any] | None) -> str | None:
    """The action's words in English (see :func:`action_phrase`)."""
    said = action_phrase(last)
    return str(said) if said else None


def showdown_marks(seats: list[dict[str, Any]], variant: str, ranking: str) -> dict[str, str]:
    """At a showdown (two or more throws shown), which seats hold the throw that decides it:
    ``"worse"`` (it takes the chips: two-hand and multi-hand) or ``"best"`` (it wins the pot:
    Montevideo). Ties mark every tied seat."""
    shown = [(s["name"], s["exposed"]) for s in seats
             if s.get("exposed") and len(s["exposed"]) == 3]
    if len(shown) < 2:
        return {}
    throws = [dice for _, dice in shown]
    if variant == "montevideo":
        return {shown[i][0]: "best" for i in best_of(throws, ranking)}
    return {shown[i][0]: "worse" for i in worst(throws, ranking)}


def score(state: dict[str, Any], name: str) -> tuple[int, Phrase]:
    """The seat's score and what it counts: rounds lost in a two-hand match, else the chips
    still held (both bad in Bidou, good in Montevideo; the banner's reminder says which)."""
    if state.get("variant") == "two-hand":
        lost = int((state.get("rounds_lost") or {}).get(name, 0))
        return lost, NN_("round lost", "rounds lost", lost)
    chips = int((state.get("chips") or {}).get(name, 0))
    return chips, NN_("chip", "chips", chips)


def result(state: dict[str, Any], name: str) -> str | None:
    """``"loser"`` or ``"winner"`` once the game is over, else None."""
    if not state.get("over"):
        return None
    if name == state.get("loser"):
        return "loser"
    if name == state.get("winner"):
        return "winner"
    return None


def seat_words(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat of ``state`` with its words added (the seat dicts are copied)."""
    seats = state.get("seats", [])
    ranking = (state.get("options") or {}).get("ranking", "three-digit")
    marks = showdown_marks(seats, state.get("variant", ""), ranking)
    out = []
    for seat in seats:
        s = dict(seat)
        name, rank = throw_words(s.get("exposed"), ranking)
        s["exposed_name"] = name.to_json() if name else None
        s["exposed_rank"] = rank.to_json() if rank else None
        s["mark"] = marks.get(s["name"])
        last = action_phrase(s.get("last_action"))
        s["last_words"] = last.to_json() if last else None
        s["score"], label = score(state, s["name"])
        s["score_label"] = label.to_json()
        s["result"] = result(state, s["name"])
        out.append(s)
    return out
