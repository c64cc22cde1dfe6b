"""Counts and lists said in any language: "2 chips", "Ann, Bob and Cy", "call, raise or drop".

Every sentence that names a number of chips or several players or choices makes those words
here, so each language joins its lists one way.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.words.phrases import N_, NN_, Phrase


def chips_phrase(n: int) -> Phrase:
    """``1 chip``, ``3 chips`` in the listener's language."""
    return NN_("%(n)s chip", "%(n)s chips", n)


def list_phrase(names: Sequence[str]) -> Phrase | str:
    """``Ann, Bob and Cy`` in the listener's language."""
    if len(names) == 1:
        return names[0]
    return N_("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])


def or_list(items: Sequence[Phrase | str]) -> Phrase | str:
    """``call, raise or drop`` in the listener's language ("" for no item)."""
    if len(items) <= 1:
        return items[0] if items else ""
    some: Phrase | str = items[0]
    for item in items[1:-1]:
        some = N_("%(some)s, %(next)s", some=some, next=item)
    return N_("%(some)s or %(last)s", some=some, last=items[-1])
