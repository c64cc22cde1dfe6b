"""The controller's sentences: how an action, an offered stake and the engine's effects are said.

The engine says what happened as messages (``engine.messages``: an id and its arguments, and
their English for the record); the table's event list wants whole sentences for people, in
each screen's language. They are made here as :class:`~firmware.words.phrases.Phrase` objects
(``str()`` gives the English), in one small module, so the controller stays about order and
state and the dashboard has one place to look for the words it shows.
"""

from __future__ import annotations

from engine.actions import Action
from engine.game import Effect
from engine.messages import CITED, Message
from firmware.words import engine_words
from firmware.words.lists import chips_phrase
from firmware.words.phrases import N_, NN_, SENTENCE, Phrase, Translator
from firmware.words.verbs import VERBS

__all__ = ["N_", "NN_", "Phrase", "Translator", "action_sentence", "effect_sentences",
           "offer_sentence"]


def unsentence(phrase: Phrase) -> Phrase:
    """A sentence's words without its full stop (to say it inside another sentence)."""
    return phrase.args["said"] if phrase.msgid == SENTENCE else phrase


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
                  by=engine_words.SETTLERS.get(str(action.by), str(action.by)))
    words = VERBS.get(action.verb)
    if words is not None and action.chips is not None and words.with_chips is not None:
        return _with(words.with_chips, p=p, chips=chips_phrase(action.chips))
    if words is not None and words.said is not None:
        return _with(words.said, p=p)
    return Phrase(f"{p} {action.verb}")


def offer_sentence(seat: str, stake: int) -> Phrase:
    """What BET (a stake offered) or PASS (the offer cancelled) says."""
    if stake:
        return N_("%(p)s offers %(chips)s; CALL commits it, PASS cancels.", p=seat,
                  chips=chips_phrase(stake))
    return N_("%(p)s cancels the stake being offered.", p=seat)


def _uncited(said: Message) -> Message:
    """A message without the rule code some are written with."""
    inner = said.kwargs.get("said") if said.id == CITED else None
    return inner if isinstance(inner, Message) else said


def _stake_clause(effect: Effect) -> Phrase | None:
    """A stake said after the bet it makes: "... and stakes 1 chip from the centre"."""
    said = _uncited(effect.said)
    args = said.kwargs
    if said.id == "%(p)s stakes %(chips)s from the centre":
        return N_("stakes %(chips)s from the centre", chips=chips_phrase(int(args["chips"])))
    if said.id == "%(p)s stakes %(own)s":
        n = int(args["own"])  # type: ignore[call-overload]
        return NN_("stakes %(n)s chip of their own", "stakes %(n)s chips of their own", n)
    return None


def effect_sentences(effects: list[Effect]) -> list[Phrase]:
    """The event list's sentences for one action's effects: one per effect, except that a
    stake (a chip ``move`` into the pot) joins the bet, raise or call of the same player just
    before it ("Ann bets 1 chip and stakes 1 chip from the centre."), so the list does not say
    the same bet twice; and "Ann is captain." goes unsaid before the hand that starts with
    "Ann is captain and throws first"."""
    said: list[Phrase] = []
    joinable: tuple[str, Phrase] | None = None  # the player whose note the last sentence was
    for effect, after in zip(effects, [*effects[1:], None], strict=True):
        player = effect.player
        if effect.kind == "captain" and after is not None and after.kind == "hand" \
                and after.player == player and _uncited(effect.said).id == "%(p)s is captain":
            continue
        stake = effect.kind == "move" and effect.dest == "pot" and player is not None
        if stake and joinable is not None and joinable[0] == player:
            clause = _stake_clause(effect)
            if clause is not None:
                said[-1] = N_("%(what)s and %(then)s.", what=joinable[1], then=clause)
                joinable = None
                continue
        words = engine_words.phrase(effect.said)
        said.append(N_(SENTENCE, said=words))
        joinable = (player, words) if effect.kind == "note" and player else None
    return said
