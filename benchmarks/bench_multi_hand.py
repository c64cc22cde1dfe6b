"""Multi-hand Bidou engine speed: whole random games for 3, 5 and 8 players.

The controller applies every press through the engine and asks ``allowed()`` after each, and
a replay of a disputed record re-applies a whole game, so the figures that matter are the cost
of one action (apply + allowed) and of a whole game. Medians over several seeds; no asserts.
"""

from __future__ import annotations

import random
import statistics
import time

from engine import new_game
from engine.autoplay import random_action

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def one_game(n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    game = new_game("multi-hand", NAMES[:n], {"poor_fish": seed % 2 == 0})
    actions = 0
    start = time.perf_counter()
    while not game.over:
        game.apply(random_action(game, rng))
        game.allowed()
        actions += 1
    return time.perf_counter() - start, actions


def main() -> None:
    for n in (3, 5, 8):
        runs = [one_game(n, seed) for seed in range(40)]
        per_game = statistics.median(t for t, _ in runs) * 1000
        per_action = statistics.median(t / a for t, a in runs) * 1e6
        length = statistics.median(a for _, a in runs)
        print(f"{n} players: median game {per_game:.1f} ms over {length:.0f} actions; "
              f"median {per_action:.0f} us per action (apply + allowed)")


if __name__ == "__main__":
    main()
