"""What a die can show: the one fact every other engine module builds on (no imports).

``engine.actions`` checks an action's dice with it and ``engine.ranking`` a throw's, so the
ranking, and the messages that name throws, need not import the actions.
"""

from __future__ import annotations


def is_die(value: object) -> bool:
    """Whether ``value`` is what a die can show: a whole number 1 to 6 (``True`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6
