"""The game record's verbs in words, the one table of them: each verb as a player is told it,
as an action says it after a name, and on a seat's card.

"It is Ann's turn to *roll for captain*", "*Ann stands*.", "*Ann bets 2 chips*.", and the
card's badge "BET 2": every screen and refusal says a verb from here, in any language.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.words.phrases import N_, Phrase


@dataclass(frozen=True)
class VerbWords:
    """One verb: ``name`` as a player is told it ("roll for captain"), ``said`` what the action
    says after a name without chips ("%(p)s stands"), ``with_chips`` with them ("%(p)s bets
    %(chips)s"), ``badge`` on the seat's card ("BET")."""

    name: Phrase
    badge: Phrase
    said: Phrase | None = None
    with_chips: Phrase | None = None


VERBS: dict[str, VerbWords] = {
    "roll": VerbWords(N_("roll for captain"), N_("ROLLED")),
    "throw": VerbWords(N_("throw"), N_("THREW")),
    "stand": VerbWords(N_("stand"), N_("STANDS"), N_("%(p)s stands")),
    "bet": VerbWords(N_("bet"), N_("BET"), with_chips=N_("%(p)s bets %(chips)s")),
    "raise": VerbWords(N_("raise"), N_("RAISE"), with_chips=N_("%(p)s raises %(chips)s")),
    "call": VerbWords(N_("call"), N_("CALL"), N_("%(p)s calls"), N_("%(p)s calls %(chips)s")),
    "pass": VerbWords(N_("pass"), N_("PASS"), N_("%(p)s passes")),
    "drop": VerbWords(N_("drop"), N_("DROP"), N_("%(p)s drops")),
    "betpot": VerbWords(N_("bet the pot"), N_("BET THE POT"), N_("%(p)s bets the pot")),
    "callpot": VerbWords(N_("call the pot"), N_("CALL THE POT"), N_("%(p)s calls the pot")),
    "settle": VerbWords(N_("settle the shown dice"), N_("DICE SETTLED")),
}


def verb_name(verb: str) -> Phrase | str:
    """``verb`` as a player is told it ("roll for captain"); an unknown verb as written."""
    return VERBS[verb].name if verb in VERBS else verb


def verb_badge(verb: str) -> Phrase:
    """``verb`` on a seat's card ("BET"); an unknown verb in capitals."""
    return VERBS[verb].badge if verb in VERBS else Phrase(verb.upper())
