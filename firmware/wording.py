"""The controller's sentences: how an action, an offered stake and an engine phrase are said.

The engine says what happened in structured effects (and short lower-case phrases that fit
inside other sentences); the table's event list wants whole sentences. Making them here, in
one small module, keeps the controller about order and state, and gives the dashboard one
place to look for the words it shows.
"""

from __future__ import annotations

import gettext as _gettext
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.actions import Action
from engine.game import Effect


class Translator(Protocol):
    """What a phrase is said with: ``gettext.NullTranslations`` (English) or Babel's."""

    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


@dataclass(frozen=True)
class Phrase:
    """A sentence (or part of one) to be said later in the listener's language.

    ``msgid`` is the English text with ``%(name)s`` holes, the catalogues' key; ``plural``
    and ``n`` make it a plural (``n`` is also given as ``%(n)s``). The firmware makes phrases
    with :func:`N_` and :func:`NN_` (which the catalogue's extraction looks for); the
    dashboard says them in a request's language, and sends them to pages as :meth:`to_json`
    for their scripts to say (``Bidou.say``). ``str()`` is the English.
    """

    msgid: str
    args: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None

    def say(self, words: Translator | None = None) -> str:
        words = words or _gettext.NullTranslations()
        if self.plural is not None and self.n is not None:
            text = words.ngettext(self.msgid, self.plural, self.n)
        else:
            text = words.gettext(self.msgid)
        args = {k: v.say(words) if isinstance(v, Phrase) else v for k, v in self.args.items()}
        if self.n is not None:
            args.setdefault("n", self.n)
        return text % args if args or "%(" in text else text

    def __str__(self) -> str:
        return self.say()

    def to_json(self) -> dict[str, Any]:
        """``{"t": msgid, "a": {args}}`` (and ``"p"``, ``"n"`` for a plural), nested phrases
        likewise: what a page's ``Bidou.say`` takes."""
        out: dict[str, Any] = {"t": self.msgid}
        if self.args:
            out["a"] = {k: v.to_json() if isinstance(v, Phrase) else v
                        for k, v in self.args.items()}
        if self.plural is not None:
            out["p"], out["n"] = self.plural, self.n
        return out


def N_(msgid: str, **args: Any) -> Phrase:  # noqa: N802 (gettext's own name for "mark only")
    """Mark ``msgid`` for the catalogues and make it a phrase with ``args``."""
    return Phrase(msgid, args)


def NN_(singular: str, plural: str, n: int, **args: Any) -> Phrase:  # noqa: N802
    """Mark a plural for the catalogues: ``NN_("%(n)s chip", "%(n)s chips", 3)``."""
    return Phrase(singular, args, plural, n)

#: How a verb without numbers reads after a name ("Ann stands.").
_VERB_WORDS = {"stand": "stands", "call": "calls", "pass": "passes", "drop": "drops",
               "betpot": "bets the pot", "callpot": "calls the pot"}


def plural(n: int, word: str = "chip") -> str:
    """``"1 chip"``, ``"2 chips"``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def as_sentence(text: str) -> str:
    """Engine sentences start lower-case (they are also used inside others): capitalise and
    end with a full stop."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def action_sentence(action: Action, throws: int) -> str:
    """The public sentence for an action; ``throws`` is the player's throw count after it.

    A throw's dice are concealed, so they are never said; a captain roll's die is public.
    """
    if action.verb == "throw":
        return f"{action.player} throws (throw {throws})."
    if action.verb == "roll" and action.pending:
        return f"{action.player} rolls for captain."
    if action.verb == "roll":
        return f"{action.player} rolls a {action.numbers[0]} for captain."
    if action.verb == "settle":
        return f"{action.player}'s values are settled by {action.by}."
    if action.chips is not None:
        return f"{action.player} {action.verb}s {plural(action.chips)}."
    return f"{action.player} {_VERB_WORDS.get(action.verb, action.verb)}."


def offer_sentence(seat: str, stake: int) -> str:
    """What BET (a stake offered) or PASS (the offer cancelled) says."""
    if stake:
        return f"{seat} offers {plural(stake)}; CALL commits it, PASS cancels."
    return f"{seat} cancels the stake being offered."


def effect_sentences(effects: list[Effect]) -> list[str]:
    """The event list's sentences for one action's effects: one per effect, except that a
    stake (a chip ``move`` into the pot) joins the bet, raise or call of the same player just
    before it ("Ann bets 1 chip and stakes 1 chip from the centre."), so the list does not say
    the same bet twice."""
    said: list[str] = []
    joinable: str | None = None  # the player whose note the last sentence was
    for effect in effects:
        text = effect.text.strip()
        player = effect.player
        stake = effect.kind == "move" and effect.dest == "pot" and player is not None
        if stake and joinable == player and text.startswith(f"{player} "):
            rest = text[len(player) + 1:].rstrip(".")
            said[-1] = f"{said[-1].rstrip('.')} and {rest}."
            continue
        said.append(as_sentence(text))
        joinable = player if effect.kind == "note" else None
    return said
