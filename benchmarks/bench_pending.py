"""Values pending: the share of throws that waited for anyone, before and after.

Whole games on the simulated table (the controller, SQLite log, simulated camera, its dice read
by ``SceneReader``) whose camera is unsure of each die with a chance of 0%, 5%, 10% and 30%
(``firmware.camera.simulation.UnsureReads``; decided again when the exposed dice are read again).
Each move is a random legal panel press; exposed values the camera still cannot read are
settled by the players (``players_settle``).

- **before** (the rule that a throw counts only once its three dice are read surely): every
  throw or roll whose read was not sure held its seat for a re-read or the referee -- in these
  games, every action logged ``throw ?`` / ``roll ?``;
- **after** (docs/rules/pending.md): a throw waits only when the rules expose it and the
  camera, reading the exposed dice again, is still not sure -- every settle ``by players``.
  Each is matched to the throw it settled, which must be one the rules exposed.

Figures are counts and shares of throws (captain rolls included), never timings.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterable

from engine.actions import DICE_VERBS, Action
from engine.variants import new_game
from firmware.camera.simulation import SceneReader, players_settle, random_presses
from firmware.gamelog.rebuild import effective_actions
from firmware.settings.config import build_config
from firmware.table.commands import Press
from firmware.table.house import build_house

RATES = (0.0, 0.05, 0.10, 0.30)
GAMES = (("two-hand", ["Ann", "Bob"]), ("multi-hand", ["Ann", "Bob", "Cid"]),
         ("montevideo", ["Ann", "Bob", "Cid"]))
PER_VARIANT = 3
SIZE = (192, 144)  # small frames: the reads are SceneReader's, the rendering only costs time


def exposed_positions(variant: str, players: list[str], actions: Iterable[Action]) -> set[int]:
    """Positions (from 1) of the throws and rolls the rules showed: every captain roll, and
    each throw whose dice an ``expose`` or ``settle`` effect showed."""
    game = new_game(variant, players)
    latest: dict[str, int] = {}
    shown: set[int] = set()
    for i, action in enumerate(actions, start=1):
        if action.verb in DICE_VERBS:
            latest[action.player] = i
            if action.verb == "roll":
                shown.add(i)
        for effect in game.apply(action).effects:
            if effect.kind in ("expose", "settle") and effect.player in latest:
                shown.add(latest[effect.player])
    return shown


def play(variant: str, players: list[str], seed: int, unsure: float) -> dict[str, int]:
    config = build_config({"table": {"variant": variant, "players": players},
                           "camera": {"width": SIZE[0], "height": SIZE[1]}}, environ={})
    with tempfile.TemporaryDirectory() as tmp:
        house = build_house(config, db=f"{tmp}/bench.db", seed=seed, reader=SceneReader,
                            panels=False, unsure=unsure)
        c = house.controller
        assert house.dice is not None
        rng = random.Random(seed)
        try:
            for _ in range(5000):
                players_settle(c, house.dice)
                if c.game.over:
                    break
                seat, presses = random_presses(c.game, rng, stand_chance=0.5)
                for button, long in presses:
                    c.submit(Press(seat, button, long, "bench"))
            entries = c.log.entries(c.row.id)
        finally:
            house.close()
    actions = effective_actions(entries)
    throws = [i for i, a in enumerate(actions, start=1) if a.verb in DICE_VERBS]
    shown = exposed_positions(variant, players, actions)
    waited_after: list[int] = []
    latest: dict[str, int] = {}
    for i, a in enumerate(actions, start=1):
        if a.verb in DICE_VERBS:
            latest[a.player] = i
        elif a.verb == "settle" and a.by != "camera":
            waited_after.append(latest[a.player])
    return {
        "throws": len(throws),
        "exposed": sum(i in shown for i in throws),
        "before": sum(actions[i - 1].pending for i in throws),
        "after": len(waited_after),
        "after_hidden": sum(i not in shown for i in waited_after),
    }


def main() -> None:
    print(f"{PER_VARIANT} games each of {', '.join(v for v, _ in GAMES)} per rate; a throw "
          "'waited' when play stopped for anyone until its values were given")
    print(f"{'unsure/die':>10} {'throws':>7} {'exposed':>8} {'before: waited':>16} "
          f"{'after: waited':>15} {'after, not exposed':>19}")
    for rate in RATES:
        total = {"throws": 0, "exposed": 0, "before": 0, "after": 0, "after_hidden": 0}
        for variant, players in GAMES:
            for k in range(PER_VARIANT):
                for key, n in play(variant, players, 100 + k, rate).items():
                    total[key] += n
        t, hidden = total["throws"], total["throws"] - total["exposed"]
        print(f"{rate:>10.0%} {t:>7} {total['exposed']:>8} "
              f"{total['before']:>6} ({total['before'] / t:5.1%}) "
              f"{total['after']:>5} ({total['after'] / t:5.1%}) "
              f"{total['after_hidden']:>6} of {hidden} ({total['after_hidden'] / hidden:.0%})")


if __name__ == "__main__":
    main()
