"""The table view's banner: what losing means in this variant, which hand and round this is,
what the action that began the hand announced (an open throw, a player going out, the M8
hand-over, a side pot, a lost round), and at game over the hint for the referee.

Pure: picked from the public state's structured fields (``opening`` effects by kind, rule and
detail), never by reading event sentences back.
"""

from __future__ import annotations

from typing import Any

from firmware.words.phrases import N_, Phrase

#: One line a newcomer needs: in Bidou chips are bad; in Montevideo they are good.
REMINDERS = {
    "two-hand": N_("Chips are bad: whoever holds all 9 loses the round; two rounds lost lose "
                   "the match."),
    "multi-hand": N_("Chips are bad: empty your stack to go out and win; the last player "
                     "holding chips loses."),
    "montevideo": N_("Chips are good here: win the pots; whoever holds every chip wins."),
}

NEW_GAME_HINT = N_("Referee: start a new game from the console (Referee, New game).")


def progress_phrase(state: dict[str, Any]) -> Phrase | None:
    """``"Round 2 · hand 3"`` in a two-hand match, ``"Hand 5"`` otherwise; None before the
    first hand."""
    hand = int(state.get("hand") or 0)
    if state.get("variant") == "two-hand":
        if hand:
            return N_("Round %(round)s · hand %(hand)s", round=state.get("round", 1), hand=hand)
        return N_("Round %(round)s", round=state.get("round", 1))
    return N_("Hand %(hand)s", hand=hand) if hand else None


def progress(state: dict[str, Any]) -> str:
    """The progress line in English (empty before the first hand)."""
    said = progress_phrase(state)
    return str(said) if said else ""


def is_announced(effect: dict[str, Any]) -> bool:
    """Whether an effect that began the hand is worth the banner: an open throw (or a tie in
    one), a player out (M7), the M8 hand-over, a side pot, a lost round."""
    if effect["kind"] == "hand":
        return effect.get("detail") == "open throw"
    if effect["kind"] == "round":
        return True
    if effect["kind"] == "note":
        return effect.get("rule") in ("M7", "M8")
    return effect["kind"] == "move" and str(effect.get("detail") or "").startswith("side pot")


def announcements(state: dict[str, Any]) -> list[Phrase]:
    """The sentences the banner carries for this hand (none once the game is over)."""
    if state.get("over"):
        return []
    return [Phrase.from_json(e["text"]) for e in state.get("opening", []) if is_announced(e)]


def _json(phrase: Phrase | None) -> dict[str, Any] | None:
    return phrase.to_json() if phrase is not None else None


def banner(state: dict[str, Any]) -> dict[str, Any]:
    """The banner's fields: ``reminder``, ``progress``, ``announce`` and ``hint``, each a
    phrase (``Phrase.to_json``) for the page to say in its language."""
    hint = NEW_GAME_HINT if state.get("over") else None
    return {"reminder": _json(REMINDERS.get(state.get("variant", ""))),
            "progress": _json(progress_phrase(state)),
            "announce": [a.to_json() for a in announcements(state)],
            "hint": _json(hint)}
