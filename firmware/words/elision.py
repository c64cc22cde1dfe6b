"""French elision where a hole is filled: "les dés de %(p)s" says "les dés d'Ann", not "de Ann".

A translation elides its own words ("l'arbitre", "d'un jeton"); what it cannot know is the name
or the words a hole will hold. French writes "de" and "que" as "d'" and "qu'" before a vowel,
so the text is mended at the hole, just before it is filled, in every place a text is filled:
:class:`~firmware.words.phrases.Phrase`, the dashboard's ``gettext`` and the pages' script
(``Bidou.t``, with the same rule). Other languages are left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: A "de" or "que" right before a hole.
_BEFORE_HOLE = re.compile(r"\b([Dd]e|[Qq]ue) %\((\w+)\)s")
#: The letters a word elides before (a silent or aspirated "h" is not guessed: no elision).
VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒ")


def elide(text: str, args: Mapping[str, object], language: str) -> str:
    """``text`` with "de %(p)s" written "d'%(p)s" (and "que" "qu'") where ``args["p"]`` starts
    with a vowel, in French; ``text`` unchanged in any other language."""
    if language != "fr" or "%(" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        word, name = match.group(1), match.group(2)
        if str(args.get(name, ""))[:1] in VOWELS:
            return f"{word[:-1]}'%({name})s"
        return match.group(0)

    return _BEFORE_HOLE.sub(one, text)
