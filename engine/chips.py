"""Where chips lie besides the players, and how a count of them is said.

An Effect's ``source``/``dest`` and the two-hand ``holdings`` name these places, so a player
may not be called by one of them (``engine.variants.check_setup``). Every variant imports
them from here, and says "1 chip", "3 chips" with :func:`plural`.
"""

from __future__ import annotations

CENTRE = "centre"
POT = "pot"
REMOVED = "removed"
PLACES: tuple[str, ...] = (CENTRE, POT, REMOVED)


def plural(n: int, word: str = "chip") -> str:
    """``"1 chip"``, ``"3 chips"``; ``plural(2, "throw")`` is ``"2 throws"``."""
    return f"{n} {word}{'s' if n != 1 else ''}"
