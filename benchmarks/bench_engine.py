"""Engine speed: replay throughput (actions per second) and random full games per second.

For every variant in ``engine.variants.VARIANTS``. Figures are medians of several runs, so a noisy,
shared machine moves them less; nothing is asserted. Run with
``.venv/bin/python benchmarks/run_all.py engine``.
"""

from __future__ import annotations

import random
import statistics
import time

from engine import new_game, record_of, replay
from engine.autoplay import play_random
from engine.variants import VARIANTS

RUNS = 5
GAMES_PER_RUN = 20
PLAYERS = {"two-hand": ["Ann", "Bob"]}
DEFAULT_PLAYERS = ["Ann", "Bob", "Cy", "Di"]
MAX_ACTIONS = 20_000


def _players(variant: str) -> list[str]:
    return PLAYERS.get(variant, DEFAULT_PLAYERS)


def random_games_per_second(variant: str, seed: int) -> float:
    """Play GAMES_PER_RUN random games to the end; games per second."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(GAMES_PER_RUN):
        play_random(new_game(variant, _players(variant)), rng, max_actions=MAX_ACTIONS)
    return GAMES_PER_RUN / (time.perf_counter() - start)


def replay_actions_per_second(records: list) -> float:
    """Replay every record once; actions per second."""
    actions = sum(len(r.actions) for r in records)
    start = time.perf_counter()
    for r in records:
        replay(r)
    return actions / (time.perf_counter() - start)


def bench_variant(variant: str) -> None:
    rng = random.Random(1)
    records = []
    for _ in range(GAMES_PER_RUN):
        game = new_game(variant, _players(variant))
        play_random(game, rng, max_actions=MAX_ACTIONS)
        records.append(record_of(game))
    mean_len = statistics.mean(len(r.actions) for r in records)
    replay_rates = [replay_actions_per_second(records) for _ in range(RUNS)]
    game_rates = [random_games_per_second(variant, seed) for seed in range(RUNS)]
    print(f"{variant:<11} replay {statistics.median(replay_rates):>10,.0f} actions/s   "
          f"random games {statistics.median(game_rates):>8,.1f}/s   "
          f"({len(_players(variant))} players, {mean_len:.0f} actions per game, "
          f"median of {RUNS} runs of {GAMES_PER_RUN} games)")


def main() -> None:
    for variant in VARIANTS:
        bench_variant(variant)


if __name__ == "__main__":
    main()
