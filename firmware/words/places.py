"""Where chips come from and go, said with the word before them in any language.

"Bob takes the last chip from Ann" and "... from the centre" need two French words ("à Ann",
"au centre") and two Spanish ones ("de Ann", "del centro"): a preposition and the place's
article fuse ("à" + "le centre" is "au centre"), so a sentence cannot put "from" before a place
said alone. The engine names the place (``where``: a player, or the centre or a pot as a
message); a phrase whose msgid has the hole ``%(from)s``, ``%(to)s``, ``%(at)s`` or ``%(of)s``
gets the place said with that preposition, as one phrase each catalogue translates whole.
"""

from __future__ import annotations

from engine.messages import Message
from firmware.words.phrases import N_, Phrase

#: The prepositions a phrase may put before a place: its hole's name.
PREPOSITIONS = ("from", "to", "at", "of")

#: A player, after each preposition ("from Ann", "to Ann", "with Ann", "of Ann").
_PLAYER = {
    "from": N_("from %(p)s"),
    "to": N_("to %(p)s"),
    "at": N_("with %(p)s"),
    "of": N_("of %(p)s"),
}

#: The centre and the pots the engine names (its message ids), after each preposition.
_PLACES = {
    "from": {"the centre": N_("from the centre"), "the pot": N_("from the pot"),
             "the main pot": N_("from the main pot"), "side pot %(n)s": N_("from side pot %(n)s")},
    "to": {"the centre": N_("to the centre"), "the pot": N_("to the pot"),
           "the main pot": N_("to the main pot"), "side pot %(n)s": N_("to side pot %(n)s")},
    "at": {"the centre": N_("in the centre"), "the pot": N_("in the pot"),
           "the main pot": N_("in the main pot"), "side pot %(n)s": N_("in side pot %(n)s")},
    "of": {"the centre": N_("of the centre"), "the pot": N_("of the pot"),
           "the main pot": N_("of the main pot"), "side pot %(n)s": N_("of side pot %(n)s")},
}


def place_phrase(preposition: str, where: object) -> Phrase:
    """``where`` (a player's name, or the engine's message for the centre or a pot) said after
    ``preposition`` ("from", "to", "at" or "of")."""
    if isinstance(where, Message):
        template = _PLACES[preposition].get(where.id)
        if template is not None:
            return Phrase(template.msgid, dict(where.kwargs))
        return Phrase(f"{preposition} {where}")  # a place this table does not know: English
    return Phrase(_PLAYER[preposition].msgid, {"p": str(where)})


def preposition_in(msgid: str) -> str | None:
    """The preposition hole ``msgid`` has for its place, if any."""
    return next((p for p in PREPOSITIONS if f"%({p})s" in msgid), None)
