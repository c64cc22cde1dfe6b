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


def setup_problem(variant: str, players: Sequence[str], options: dict[str, object]) -> str | None:
    """What is wrong with a new game the referee asked for, in the referee's words (a phrase
    that completes "The new game cannot start: ..."), or None. Checked before the engine's
    ``check_setup``, whose sentences name record fields, so the console never shows them."""
    count, named = len(players), ", ".join(players) or "nobody"
    are = "1 is" if count == 1 else f"{count} are"
    if count > MAX_PLAYERS:
        return (f"the table has {MAX_PLAYERS} seats and {are} named ({named}); "
                f"name {MAX_PLAYERS} at most.")
    if variant == "two-hand" and count != 2:
        return (f"two-hand is played by exactly 2 players and {are} named ({named}); "
                f"name 2, or choose multi-hand or montevideo for 3 to {MAX_PLAYERS} players.")
    if variant != "two-hand" and count < 3:
        return (f"{variant} is played by 3 to {MAX_PLAYERS} players and {are} named "
                f"({named}); name at least 3, or choose two-hand for 2 players.")
    for name in players:
        bad = _name_problem(name)
        if bad:
            return (f"the name {name!r} {bad}; a name is 1 to {MAX_NAME} printable characters, "
                    "without spaces, / or \\, and not . or ..")
        if name in PLACES:
            return (f"{name!r} is the name of a place on the table ({', '.join(PLACES)}); "
                    "give that player another name.")
        if players.count(name) > 1:
            return f"{name} is named twice; each player needs a name of their own."
    if options.get("poor_fish") and variant != "multi-hand":
        return f"Poor Fish is a rule of multi-hand only (P1); untick it for {variant}."
    return None


def _name_problem(name: str) -> str | None:
    if not name:
        return "is empty"
    if len(name) > MAX_NAME:
        return f"has {len(name)} characters"
    if not name.isprintable() or any(ch.isspace() for ch in name):
        return "has a space or an unprintable character"
    if "/" in name or "\\" in name:
        return "has a slash"
    if name in (".", ".."):
        return "is a path step"
    return None
