"""Short games for the screen tests: a random player who mostly stands at once and bets the
most, so a game of any variant ends in tens of moves (each throw is a camera read of the
simulated table, the slow part), and the states a table's screens go through, known from the
public state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.actions import dice_count

from .conftest import Table


def _playing(s: dict[str, Any]) -> bool:
    return not s["over"] and not s["settling"]


def _shown(s: dict[str, Any]) -> bool:
    return any(seat["exposed"] for seat in s["seats"])


#: Each state a table's screen shows, in the order a game reaches them first, and how to know
#: it from the public state.
STATES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "settle": lambda s: bool(s["settling"]),
    "concealed throws": lambda s: _playing(s) and s["expects"] == "throw" and not _shown(s)
    and any(seat["throws"] for seat in s["seats"]),
    "bets": lambda s: _playing(s) and s["expects"] == "bet"
    and any(seat["stake"] for seat in s["seats"]),
    "showdown": lambda s: _playing(s) and bool(s["showdown"]),
    "hand or round start": lambda s: _playing(s) and s["hand_actions"] == 0
    and bool(s["announce"]) and (s["variant"] != "two-hand" or s["round"] >= 2),
    "open throw": lambda s: _playing(s) and _shown(s) and any(
        e["kind"] == "hand" and e.get("detail") == "open throw" for e in s["opening"]),
    "game over": lambda s: bool(s["over"]),
}


def quick_move(t: Table, rng: random.Random) -> None:
    """Settle shown dice from the phones, else a move of the player to act: mostly standing at
    once and betting the most, sometimes anything allowed; the referee enters the dice of a
    throw the simulated camera could not read at all."""
    now = t.state()
    if now["settling"]:
        answers = t.settle_from_phones(now["settling"][0]["seat"])
        assert all(a.status_code == 200 for a in answers), [a.get_json() for a in answers]
        return
    options = t.controller.game.allowed()
    verbs = {a.verb: a for a in options}
    if "stand" in verbs and rng.random() < 0.85:
        choice = verbs["stand"]
    elif {"bet", "raise", "betpot"} & set(verbs) and rng.random() < 0.7:
        choice = next(verbs[v] for v in ("raise", "bet", "betpot") if v in verbs)
    else:
        choice = rng.choice(options)
    answer = t.act(choice.player, choice.verb, choice.max_chips)
    if answer.status_code == 409 and choice.verb in ("throw", "roll"):
        values = [rng.randint(1, 6) for _ in range(dice_count(choice.verb))]
        answer = t.client.post("/api/referee/dice", json={"seat": choice.player,
                                                          "values": values},
                               headers=t.auth("referee"))
    assert answer.status_code == 200, answer.get_json()


def play_until(t: Table, rng: random.Random, done: Callable[[dict[str, Any]], bool],
               what: str, most: int = 3000) -> dict[str, Any]:
    """Quick moves until ``done(public state)``; a game over on the way (when it is not what
    is wanted) starts the next game of the same players."""
    for _ in range(most):
        now = t.state()
        if done(now):
            return now
        if now["over"]:
            answer = t.client.post("/api/referee/correct", headers=t.auth("referee"), json={
                "kind": "new-game", "variant": now["variant"], "players": now["players"],
                "options": now["options"], "why": "next game"})
            assert answer.status_code == 200, answer.get_json()
        else:
            quick_move(t, rng)
    raise AssertionError(f"{now['variant']}, {len(now['players'])} seats: no {what} in "
                         f"{most} moves")
