"""Words: the CPU time the table spends saying what happened, per action and per published state.

Every action's effects become the event list's phrases (``firmware.words.wording``), and every
change publishes a state (``firmware.table.views.public_state``) that the dashboard gives its
words (``table_server.words.present.decorate``) and encodes once for every stream. Measured in
process CPU time (``time.process_time``, best of 5), so the figures hold on a machine that
other work keeps busy, where the press-to-event latency of ``bench_dashboard`` does not. The
states are those of a multi-hand game of three after 40 actions, its last 30 events in them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

from engine.autoplay import random_action
from engine.game import Event
from engine.variants import new_game
from firmware.table import views
from firmware.words.phrases import Phrase
from firmware.words.wording import action_sentence, effect_sentences
from table_server.words.present import decorate

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def _best(run: Callable[[], object], repeat: int = 5) -> float:
    """The least CPU time of ``repeat`` calls of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _games() -> list[Event]:
    events = []
    for variant, n in (("two-hand", 2), ("multi-hand", 4), ("montevideo", 4)):
        for seed in range(20):
            game, rng = new_game(variant, PLAYERS[:n]), random.Random(seed)
            while not game.over:
                events.append(game.apply(random_action(game, rng)))
    return events


def main() -> None:
    events = _games()
    per_action = _best(lambda: [p.to_json() for e in events
                                for p in effect_sentences(list(e.effects))]) / len(events)
    print(f"an action's effects said as the event list's phrases: {1e6 * per_action:6.1f} us "
          f"({len(events)} actions of random games of every variant)")
    game, rng = new_game("multi-hand", PLAYERS[:3]), random.Random(5)
    said: list[Phrase] = []
    settled = []
    for _ in range(40):
        action = random_action(game, rng)
        event = game.apply(action)
        said += [action_sentence(action, 1), *effect_sentences(list(event.effects))]
        settled = [e for e in event.effects if views.is_settlement(e)] or settled

    def state() -> dict:
        return views.public_state(game, game_id=1, status="playing", version=1, offered={},
                                  events=said[-30:], settled=settled,
                                  camera={"name": "simulated", "ok": True, "error": None},
                                  hand_actions=5)

    built = _best(lambda: [state() for _ in range(100)]) / 100
    shown = state()
    encoded = _best(lambda: [json.dumps(decorate(shown), ensure_ascii=False,
                                        separators=(",", ":")) for _ in range(100)]) / 100
    size = len(json.dumps(decorate(shown), ensure_ascii=False, separators=(",", ":")).encode())
    print(f"a published state built (views.public_state):   {1e6 * built:6.1f} us")
    print(f"its words added and encoded (decorate + JSON):    {1e6 * encoded:6.1f} us "
          f"({size} bytes)")


if __name__ == "__main__":
    main()
