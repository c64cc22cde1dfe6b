"""Random legal play: picks one of the actions ``game.allowed()`` offers, with dice and chips
drawn from a random generator the caller gives.

Used by the property tests, the benchmarks and the simulated table. The engine stays pure:
the randomness is the caller's ``random.Random``.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.game import Game


def random_action(game: Game, rng: random.Random, *, stand_chance: float = 0.4) -> Action:
    """One action that the game allows now, chosen at random."""
    options = game.allowed()
    if not options:
        raise ValueError("no action is allowed: the game is over")
    stands = [a for a in options if a.verb == "stand"]
    if stands and rng.random() < stand_chance:
        choice = stands[0]
    else:
        choice = rng.choice([a for a in options if a.verb != "stand"] or options)
    if choice.verb == "roll":
        return Action(choice.player, "roll", (rng.randint(1, 6),))
    if choice.verb == "throw":
        return Action(choice.player, "throw", tuple(rng.randint(1, 6) for _ in range(3)))
    if choice.min_chips is not None and choice.max_chips is not None:
        return Action(choice.player, choice.verb, (rng.randint(choice.min_chips,
                                                               choice.max_chips),))
    return Action(choice.player, choice.verb)


def play_random(game: Game, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play random legal actions until the game is over; returns how many were played."""
    n = 0
    while not game.over and n < max_actions:
        game.apply(random_action(game, rng))
        n += 1
    return n
