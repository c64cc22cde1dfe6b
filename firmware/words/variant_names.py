"""The variants' names, the one table of them: as said in a sentence, and as a title.

"Hand 3: ... play by the two-hand rules" says a variant's name inside a sentence; the referee's
form, the pub screen's banner and "How to play" give its title ("Two-hand Bidou").
"""

from __future__ import annotations

from firmware.words.phrases import N_, Phrase

#: variant -> (its name in a sentence, its title).
VARIANT_WORDS: dict[str, tuple[Phrase, Phrase]] = {
    "two-hand": (N_("two-hand"), N_("Two-hand Bidou")),
    "multi-hand": (N_("multi-hand"), N_("Multi-hand Bidou")),
    "montevideo": (N_("Montevideo"), N_("Montevideo")),
}


def variant_phrase(variant: str) -> Phrase:
    """A variant's name in the listener's language ("two-hand")."""
    return VARIANT_WORDS[variant][0] if variant in VARIANT_WORDS else Phrase(variant)


def variant_title(variant: str) -> Phrase:
    """A variant's title in the listener's language ("Two-hand Bidou")."""
    return VARIANT_WORDS[variant][1] if variant in VARIANT_WORDS else Phrase(variant)
