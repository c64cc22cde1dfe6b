"""The controller's sentences: how an action, an offered stake and an engine phrase are said.

The engine says what happened in structured effects (and short English phrases with rule
codes, for the record); the table's event list wants whole sentences for people, in each
screen's language. They are made here as :class:`~firmware.words.phrases.Phrase` objects (``str()``
gives the English), in one small module, so the controller stays about order and state and the
dashboard has one place to look for the words it shows.
"""

from __future__ import annotations

import re

from engine.actions import Action
from engine.game import Effect
from firmware.words import event_words
from firmware.words.event_words import chips_phrase
from firmware.words.phrases import N_, NN_, SENTENCE, Phrase, Translator

__all__ = ["N_", "NN_", "Phrase", "Translator", "action_sentence", "as_sentence",
           "effect_sentences", "offer_sentence", "plural"]

#: How a verb reads after a name ("Ann stands."), without and with chips.
_VERB_WORDS = {"stand": N_("%(p)s stands"), "call": N_("%(p)s calls"),
               "pass": N_("%(p)s passes"), "drop": N_("%(p)s drops"),
               "betpot": N_("%(p)s bets the pot"), "callpot": N_("%(p)s calls the pot")}
_CHIP_VERBS = {"bet": N_("%(p)s bets %(chips)s"), "raise": N_("%(p)s raises %(chips)s"),
               "call": N_("%(p)s calls %(chips)s")}
#: The variants' names (the referee's form and the pub screen's title).
VARIANTS = {"two-hand": N_("two-hand"), "multi-hand": N_("multi-hand"),
            "montevideo": N_("Montevideo")}


def variant_phrase(variant: str) -> Phrase:
    """A variant's name in the listener's language."""
    return VARIANTS.get(variant, Phrase(variant))


def unsentence(phrase: Phrase) -> Phrase:
    """A sentence's words without its full stop (to say it inside another sentence)."""
    return phrase.args["said"] if phrase.msgid == SENTENCE else phrase


def plural(n: int, word: str = "chip") -> str:
    """``"1 chip"``, ``"2 chips"`` (English only: the referee's log and messages)."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def as_sentence(text: str) -> Phrase:
    """An engine sentence (lower-case, with its rule code) as a sentence for people."""
    return event_words.sentence(text)


def _with(template: Phrase, **args: object) -> Phrase:
    return Phrase(template.msgid, dict(args), template.plural, template.n)


def action_sentence(action: Action, throws: int) -> Phrase:
    """The public sentence for an action; ``throws`` is the player's throw count after it.

    A throw's dice are concealed, so they are never said; a captain roll's die is public.
    """
    return N_(SENTENCE, said=_action_words(action, throws))


def _action_words(action: Action, throws: int) -> Phrase:
    p = action.player
    if action.verb == "throw":
        return N_("%(p)s throws (throw %(n)s)", p=p, n=throws)
    if action.verb == "roll" and action.pending:
        return N_("%(p)s rolls for captain", p=p)
    if action.verb == "roll":
        return N_("%(p)s rolls a %(n)s for captain", p=p, n=action.numbers[0])
    if action.verb == "settle":
        return N_("%(p)s's dice are settled by %(by)s", p=p,
                  by=event_words.HOLES["by"][1](str(action.by)))
    if action.chips is not None and action.verb in _CHIP_VERBS:
        return _with(_CHIP_VERBS[action.verb], p=p, chips=chips_phrase(action.chips))
    if action.verb in _VERB_WORDS:
        return _with(_VERB_WORDS[action.verb], p=p)
    return Phrase(f"{p} {action.verb}")


def offer_sentence(seat: str, stake: int) -> Phrase:
    """What BET (a stake offered) or PASS (the offer cancelled) says."""
    if stake:
        return N_("%(p)s offers %(chips)s; CALL commits it, PASS cancels.", p=seat,
                  chips=chips_phrase(stake))
    return N_("%(p)s cancels the stake being offered.", p=seat)


#: A stake said after the bet it makes: "Ann bets 1 chip and stakes 1 chip from the centre."
_STAKE = re.compile(r"stakes (\d+) (own )?chips?( from the centre)?")


def _stake_clause(rest: str) -> Phrase | None:
    m = _STAKE.fullmatch(rest)
    if m is None:
        return None
    n = int(m.group(1))
    if m.group(3):
        return N_("stakes %(chips)s from the centre", chips=chips_phrase(n))
    return NN_("stakes %(n)s chip of their own", "stakes %(n)s chips of their own", n)


def effect_sentences(effects: list[Effect]) -> list[Phrase]:
    """The event list's sentences for one action's effects: one per effect, except that a
    stake (a chip ``move`` into the pot) joins the bet, raise or call of the same player just
    before it ("Ann bets 1 chip and stakes 1 chip from the centre."), so the list does not say
    the same bet twice; and "Ann is captain." goes unsaid before the hand that starts with
    "Ann is captain and throws first"."""
    said: list[Phrase] = []
    joinable: tuple[str, Phrase] | None = None  # the player whose note the last sentence was
    for effect, after in zip(effects, [*effects[1:], None], strict=True):
        text = event_words.RULE_CODE.sub("", effect.text.strip())
        player = effect.player
        if effect.kind == "captain" and after is not None and after.kind == "hand" \
                and after.player == player and text == f"{player} is captain":
            continue
        stake = effect.kind == "move" and effect.dest == "pot" and player is not None
        if stake and joinable is not None and joinable[0] == player \
                and text.startswith(f"{player} "):
            clause = _stake_clause(text[len(player) + 1:].rstrip("."))
            if clause is not None:
                said[-1] = N_("%(what)s and %(then)s.", what=joinable[1], then=clause)
                joinable = None
                continue
        said.append(as_sentence(text))
        found = event_words.recognise(text)
        joinable = (player, found) if effect.kind == "note" and player and found else None
    return said
