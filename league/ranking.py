"""A finished game's places, from its entries: who got rid of their chips first, the loser
last; two-hand: the winner, then the loser.

Read by replaying the game's record (the table's own corrections applied,
``firmware.gamelog.rebuild.effective_actions``) through the engine, noting after each action when
each player's chips last fell to none. Equal places share a number. Pure: the league's
ingester computes it once per finished game and keeps it (``rankings``), so the ratings
never replay a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.errors import BidouError
from engine.variants import new_game
from firmware.gamelog.rebuild import effective_actions
from firmware.gamelog.rows import Entry


def places(variant: str, players: tuple[str, ...], options: dict[str, Any],
           entries: Iterable[Entry]) -> dict[str, int] | None:
    """Each player's place (1 the best) once the entries finish the game; None while they do
    not (some entries still to come) or when they cannot be replayed."""
    try:
        game = new_game(variant, players, options)
        emptied: dict[str, int | None] = dict.fromkeys(players)
        for i, action in enumerate(effective_actions(entries), start=1):
            game.apply(action)
            for p, chips in game.state()["chips"].items():
                if chips == 0 and emptied.get(p) is None:
                    emptied[p] = i
                elif chips:
                    emptied[p] = None
    except (BidouError, ValueError, KeyError):
        return None
    if not game.over:
        return None
    state = game.state()
    winner, loser, chips = state.get("winner"), state.get("loser"), state["chips"]

    def key(p: str) -> tuple[int, int]:
        if p == winner:
            return (0, 0)
        if p == loser:
            return (3, 0)
        if chips.get(p, 0) == 0:
            return (1, emptied.get(p) or 0)  # the earlier out, the better
        return (2, chips[p])  # still holding chips at the end: fewer is better

    return rank_by(players, key)


def rank_by(players: Iterable[str], key: Any) -> dict[str, int]:
    """Places 1, 2, ... by ``key`` (smaller is better); equal keys share a place."""
    ordered = sorted(players, key=key)
    out: dict[str, int] = {}
    place, last = 0, None
    for p in ordered:
        k = key(p)
        if k != last:
            place, last = place + 1, k
        out[p] = place
    return out
