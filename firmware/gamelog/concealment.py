"""The concealment of a log entry: which dice it names, and whether it may leave the table now.

A throw's dice stay under the cup until the rules show them, so an entry naming dice (an
action, a correction, a reason the referee typed) may leave the table only once its game is
over or abandoned. The venue's forwarder, its store's own check and the league ask this, and
so does the table's history page; it lives beside the log, apart from the state the dashboard
shows (``firmware.table.views``), so that a hub reading entries loads no controller, no seat
panel and no GPIO code.
"""

from __future__ import annotations

from dataclasses import astuple, fields

from engine.actions import DICE_VERBS
from firmware.gamelog.rows import Entry

#: a game whose entries the table's own history shows whole, dice and all
#: (table_server.pages.history lists only these): its record holds no concealed throw any more
SHOWN_STATUSES = ("over", "abandoned")
_ENTRY_FIELDS = tuple(f.name for f in fields(Entry))


def dice_in_text(text: str) -> list[str]:
    """Every ``VERB N...`` of a dice verb (roll, throw, settle) in an entry's text, as written:
    an action (``Ann throw 6 5 4``), an undone one, a ``fix-dice`` (``3 Ann throw 6 5 4``), a
    pending throw (``Ann throw ?``: held back like any throw, so that which throws were
    pending says nothing). Read word by word, not parsed, so a malformed text cannot hide a
    die from this check."""
    words = text.split()
    found = []
    for i, word in enumerate(words):
        if word in DICE_VERBS or word == "settle":
            digits = [w for w in words[i + 1:i + 4] if w.isdigit() or w == "?"]
            if digits:
                found.append(" ".join([word, *digits]))
    return found


#: an entry's fields typed by a person (a correction's reason, who made it): any die value
#: in them may be a die, whatever the words around it ("Bob hides 6 5 4")
FREE_TEXT = ("by", "why")


def entry_dice(entry: Entry) -> list[str]:
    """The dice named in every text field of ``entry`` (``text``, ``by``, ``why``, ``kind``,
    ``at`` and any field added later), and in a field a person typed (``FREE_TEXT``) every
    word holding a die's value: a die hidden in a correction's reason is a die. Such an
    entry only waits for its game's end; nothing is lost by reading too much."""
    found: list[str] = []
    for name, value in zip(_ENTRY_FIELDS, astuple(entry), strict=True):
        if not isinstance(value, str):
            continue
        found += dice_in_text(value)
        if name in FREE_TEXT:
            found += [w for w in value.split() if any(c in "123456" for c in w)]
    return list(dict.fromkeys(found))


def entry_is_public(entry: Entry | str, game_status: str) -> bool:
    """Whether a log entry (or one text) may leave the table now (the venue forwarder asks
    this): an entry with no dice in any of its texts always; one with dice only once its
    game is over or abandoned, when the table's own history page shows that game's whole
    record. Until then its dice may still be under a cup (a dropped hand's dice are never
    shown at the table at all)."""
    if game_status in SHOWN_STATUSES:
        return True
    return not (dice_in_text(entry) if isinstance(entry, str) else entry_dice(entry))
