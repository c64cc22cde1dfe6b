"""A phrase: words to be said later in the listener's language (English, French, Spanish).

The firmware decides what to say long before anyone reads it, and different screens read it
in different languages: the pub screen in the table's, each phone in its own. So the firmware
says a :class:`Phrase` (an English msgid with ``%(name)s`` holes, and its values), and the
dashboard says it with the catalogue of the one who reads it (``table_server.words.i18n``). ``N_``
and ``NN_`` are the marks the catalogues' extraction looks for (``make translations``).
"""

from __future__ import annotations

import gettext as _gettext
from dataclasses import dataclass, field
from typing import Any, Protocol

from firmware.words.elision import elide

#: The msgid that makes a phrase a whole sentence: a capital, and a full stop.
SENTENCE = "%(said)s."


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
    #: said instead in a language whose catalogue lacks ``msgid`` (an engine sentence that
    #: only English has word for word: the other languages say the general sentence)
    otherwise: Phrase | None = None

    def say(self, words: Translator | None = None) -> str:
        words = words or _gettext.NullTranslations()
        if (self.otherwise is not None and type(words) is not _gettext.NullTranslations
                and words.gettext(self.msgid) == self.msgid):
            return self.otherwise.say(words)
        if self.plural is not None and self.n is not None:
            text = words.ngettext(self.msgid, self.plural, self.n)
        else:
            text = words.gettext(self.msgid)
        args = {k: v.say(words) if isinstance(v, Phrase) else v for k, v in self.args.items()}
        if self.n is not None:
            args.setdefault("n", self.n)
        text = elide(text, args, getattr(words, "language", "en"))
        said = text % args if args or "%(" in text else text
        # a whole sentence starts with a capital, whatever the part it begins with
        return said[:1].upper() + said[1:] if self.msgid == SENTENCE else said

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
        if self.otherwise is not None:
            out["o"] = self.otherwise.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Phrase:
        """The phrase whose :meth:`to_json` is ``data`` (a state's text field), for the
        server to say a state's words in a request's language as the page's script does."""
        args = {k: cls.from_json(v) if isinstance(v, dict) and "t" in v else v
                for k, v in data.get("a", {}).items()}
        other = data.get("o")
        return cls(data["t"], args, data.get("p"), data.get("n"),
                   cls.from_json(other) if other else None)


def N_(msgid: str, **args: Any) -> Phrase:  # noqa: N802 (gettext's own name for "mark only")
    """Mark ``msgid`` for the catalogues and make it a phrase with ``args``."""
    return Phrase(msgid, args)


def NN_(singular: str, plural: str, n: int, **args: Any) -> Phrase:  # noqa: N802
    """Mark a plural for the catalogues: ``NN_("%(n)s chip", "%(n)s chips", 3)``."""
    return Phrase(singular, args, plural, n)


def english(text: dict[str, Any] | str | None) -> str | None:
    """The English of a state's text (a phrase as :meth:`Phrase.to_json` gives it), as a client
    that reads only English says it; a plain string as it is."""
    if text is None or isinstance(text, str):
        return text
    return str(Phrase.from_json(text))
