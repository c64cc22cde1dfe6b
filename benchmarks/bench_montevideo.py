"""Montevideo engine speed: whole random games for 3, 5 and 8 players, and all-pass games.

The controller applies every press through the engine and asks ``allowed()`` after each, and
a replay of a disputed record re-applies a whole game, so the figures that matter are the cost
of one action (apply + allowed) and of a whole game. All-pass play (nobody ever bets) is the
slowest way a game can go: only the rising ante (V5) ends it, so its length is measured too.
Medians over several seeds; no asserts.
"""

from __future__ import annotations

import random
import statistics
import time

from engine import Action, new_game
from engine.autoplay import random_action
from engine.game import Game

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def passive(game: Game, rng: random.Random) -> Action:
    """Throw at random and never bet: pass, call the pot or call."""
    if game.expects == "bet":
        for a in game.allowed():
            if a.verb in ("pass", "callpot", "call"):
                return Action(a.player, a.verb)
    return random_action(game, rng)


def one_game(n: int, seed: int, *, all_pass: bool = False) -> tuple[float, int, int]:
    rng = random.Random(seed)
    game = new_game("montevideo", NAMES[:n])
    actions = 0
    start = time.perf_counter()
    while not game.over:
        game.apply(passive(game, rng) if all_pass else random_action(game, rng))
        game.allowed()
        actions += 1
    return time.perf_counter() - start, actions, game.hand


def main() -> None:
    for all_pass in (False, True):
        kind = "all-pass" if all_pass else "random"
        for n in (3, 5, 8):
            runs = [one_game(n, seed, all_pass=all_pass) for seed in range(40)]
            per_game = statistics.median(t for t, _, _ in runs) * 1000
            per_action = statistics.median(t / a for t, a, _ in runs) * 1e6
            length = statistics.median(a for _, a, _ in runs)
            hands = statistics.median(h for _, _, h in runs)
            longest = max(h for _, _, h in runs)
            print(f"{kind} {n} players: median game {per_game:.1f} ms, {length:.0f} actions, "
                  f"{hands:.0f} hands (longest {longest}); "
                  f"median {per_action:.0f} us per action (apply + allowed)")


if __name__ == "__main__":
    main()
