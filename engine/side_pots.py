"""Montevideo's pots: the main pot and the side pots of all-in players, and how each splits.

Poker's rule (RULINGS V3) is that an all-in player can only win from each other player as
much as he put in himself. So the chips of a hand are cut into layers at every all-in
player's stake: each layer is a pot that only the players who reached it may win. V4 adds
that an even split of a pot between equal best throws leaves the odd chips in the pot for
the next hand. Both are plain arithmetic on the stakes, kept here apart from the betting
and the game so that they can be tested on their own (docs/rules/montevideo.md D-V9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """``chips`` that only the ``eligible`` players (seat order) can win; main pot first."""

    chips: int
    eligible: tuple[str, ...]


def build_pots(stakes: Mapping[str, int], live: Sequence[str], carried: int = 0) -> list[Pot]:
    """Cut a hand's stakes into the main pot and the side pots (D-V9).

    ``stakes`` is what every player put in this hand (ante and bets), dropped players
    included; ``live`` the players still in the hand, in seat order; ``carried`` the odd
    chips left in the pot by the previous hand, which join the main pot. A pot whose only
    eligible player is its only contributor above the level below it is his uncalled bet.
    """
    if not live:
        raise ValueError("a pot needs at least one player still in the hand")
    levels = sorted({stakes.get(p, 0) for p in live})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        chips = sum(min(s, level) - min(s, below) for s in stakes.values())
        eligible = tuple(p for p in live if stakes.get(p, 0) >= level)
        # Every level above the first holds chips: the live player staking it put them in.
        pots.append(Pot(chips, eligible))
        below = level
    # Chips above the top live stake (possible only from a dropped player) join the top pot.
    excess = sum(s - min(s, below) for s in stakes.values())
    if excess:
        top = pots[-1]
        pots[-1] = Pot(top.chips + excess, top.eligible)
    if carried:
        main = pots[0]
        pots[0] = Pot(main.chips + carried, main.eligible)
    return pots


def split(chips: int, winners: Sequence[str]) -> tuple[dict[str, int], int]:
    """Share ``chips`` evenly among ``winners``; the odd chips stay in the pot (V4).

    Returns each winner's share and the chips left over for the next hand.
    """
    if not winners:
        raise ValueError("a pot is split among at least one winner")
    each, odd = divmod(chips, len(winners))
    return {w: each for w in winners}, odd
