"""Who may sit at the physical table: one rule for the config's ``[table] players`` and the
referee's new game, so neither can start a game the other would refuse.

The engine takes any names without spaces and any number of players from 3 (a game record of
a bigger game still replays); the table is stricter. It has at most ``MAX_PLAYERS`` seats, and
a name is shown on screens and phones and is part of each seat's address (``/seat/NAME``), so
it is printable, short, and neither a path (``a/b``) nor a step out of one (``..``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.variants import MAX_PLAYERS, PLACES
from firmware.words.wording import N_, NN_, Phrase

#: The longest name a seat label and a phone's title can show.
MAX_NAME = 24


def seating_problem(variant: str, players: Sequence[str]) -> str | None:
    """What ``players`` must be for ``variant`` when they are not: a phrase that completes
    "players must be ..." (None when they may sit)."""
    count = len(players)
    if variant == "two-hand" and count != 2:
        return "exactly 2 players for two-hand"
    if variant != "two-hand" and not 3 <= count <= MAX_PLAYERS:
        return f"3 to {MAX_PLAYERS} players for {variant}"
    for name in players:
        bad = _name_problem(name)
        if bad:
            return f"names of 1 to {MAX_NAME} printable characters, without spaces, / or \\ " \
                   f"and not . or .. ({name!r} {bad})"
    return None


def setup_problem(variant: str, players: Sequence[str], options: dict[str, object]
                  ) -> Phrase | None:
    """What is wrong with a new game the referee asked for, in the referee's words (a phrase
    that completes "The new game cannot start: ..."), or None. Checked before the engine's
    ``check_setup``, whose sentences name record fields, so the console never shows them. A
    Phrase, so the console says it in the referee's language (``str()`` is the English)."""
    count, named = len(players), ", ".join(players) or "-"
    if count > MAX_PLAYERS:
        return NN_("the table has %(most)s seats and %(n)s player is named (%(named)s); name "
                   "%(most)s at most.",
                   "the table has %(most)s seats and %(n)s players are named (%(named)s); "
                   "name %(most)s at most.", count, most=MAX_PLAYERS, named=named)
    if variant == "two-hand" and count != 2:
        return NN_("two-hand is played by exactly 2 players and %(n)s is named (%(named)s); "
                   "name 2, or choose multi-hand or montevideo for 3 to %(most)s players.",
                   "two-hand is played by exactly 2 players and %(n)s are named (%(named)s); "
                   "name 2, or choose multi-hand or montevideo for 3 to %(most)s players.",
                   count, most=MAX_PLAYERS, named=named)
    if variant != "two-hand" and count < 3:
        return NN_("%(variant)s is played by 3 to %(most)s players and %(n)s is named "
                   "(%(named)s); name at least 3, or choose two-hand for 2 players.",
                   "%(variant)s is played by 3 to %(most)s players and %(n)s are named "
                   "(%(named)s); name at least 3, or choose two-hand for 2 players.",
                   count, variant=variant, most=MAX_PLAYERS, named=named)
    for name in players:
        bad = _name_words(name)
        if bad:
            return N_("the name “%(name)s” %(bad)s; a name is 1 to %(most)s printable "
                      "characters, without spaces, / or \\, and not . or ..",
                      name=name.encode("unicode_escape").decode("ascii"), bad=bad,
                      most=MAX_NAME)
        if name in PLACES:
            return N_("“%(name)s” is the name of a place on the table (%(places)s); give that "
                      "player another name.", name=name, places=", ".join(PLACES))
        if players.count(name) > 1:
            return N_("%(name)s is named twice; each player needs a name of their own.",
                      name=name)
    if options.get("poor_fish") and variant != "multi-hand":
        return N_("Poor Fish is a rule of multi-hand only; untick it for %(variant)s.",
                  variant=variant)
    return None


def _name_problem(name: str) -> str | None:
    words = _name_words(name)
    return str(words) if words is not None else None


def _name_words(name: str) -> Phrase | None:
    """What is wrong with one name, as a phrase completing "the name NAME ..."."""
    if not name:
        return N_("is empty")
    if len(name) > MAX_NAME:
        return N_("has %(n)s characters", n=len(name))
    if not name.isprintable() or any(ch.isspace() for ch in name):
        return N_("has a space or an unprintable character")
    if "/" in name or "\\" in name:
        return N_("has a slash")
    if name in (".", ".."):
        return N_("is a path step")
    return None

