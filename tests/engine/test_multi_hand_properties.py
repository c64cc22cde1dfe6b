"""Invariants of multi-hand Bidou for 3 to 8 players under random legal play (hypothesis seeds).

- chips are conserved: players + pot + removed == 6 x players after every action (M1, M6);
- somebody can always act until the game is over, every game ends, and it ends with one loser
  holding every chip left while everybody else is out (M7, D-M17);
- ``allowed()`` is exactly what ``verify`` accepts; every refusal names its rule and changes
  nothing;
- the record of a game replays to the same state.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import VERBS, Action, RuleViolation, new_game, parse_record, record_of, replay
from engine.autoplay import random_action

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=3, max_value=8)
OPTIONS = st.sampled_from([{}, {"poor_fish": True}, {"ranking": "total"},
                           {"poor_fish": True, "ranking": "total"}])
#: Far more than any game takes (random games of 8 last about 1,000 actions).
LIMIT = 20_000


def chips_total(state: dict) -> int:
    return sum(state["chips"].values()) + state["centre"] + state["pot"] + state["removed"]


@settings(max_examples=60, deadline=None)
@given(SEEDS, SIZES, OPTIONS)
def test_M1_M6_D_M17_chips_are_conserved_and_every_game_ends_with_one_loser(
    seed, n, options
) -> None:
    rng = random.Random(seed)
    players = NAMES[:n]
    game = new_game("multi-hand", players, options)
    for _ in range(LIMIT):
        if game.over:
            break
        assert game.allowed(), f"nobody can act in {game.state()}"
        assert game.expects in ("roll", "throw", "bet") and game.to_act in players
        game.apply(random_action(game, rng))
        state = game.state()
        assert chips_total(state) == 6 * n
        assert min(state["chips"].values()) >= 0 and state["pot"] >= 0
        assert state["centre"] == 0 and state["round"] == 1 and state["rounds_lost"] == {}
    assert game.over, "the game did not end"
    state = game.state()
    loser = state["loser"]
    assert loser in players and state["winner"] is None and state["pot"] == 0
    assert [p for p in players if state["chips"][p] > 0] == [loser]
    assert state["to_act"] is None and state["expects"] is None and game.allowed() == []
    assert [v.out for v in game.views()] == [p != loser for p in players]


def candidates(player: str, rng: random.Random) -> list[Action]:
    """Every verb for ``player``: random dice, chip counts inside and outside every range."""
    out = []
    for verb, (count, kind) in VERBS.items():
        if kind == "die":
            out.append(Action(player, verb, tuple(rng.randint(1, 6) for _ in range(count))))
        elif kind == "chips":
            out += [Action(player, verb, (k,)) for k in (1, 2, 3, 4)]
        else:
            out.append(Action(player, verb))
    out.append(Action(player, "throw", (0, 2, 7)))
    out.append(Action(player, "bet", ()))
    return out


@settings(max_examples=20, deadline=None)
@given(SEEDS, SIZES, OPTIONS)
def test_M5_allowed_actions_are_accepted_and_all_others_refused_naming_a_rule(
    seed, n, options
) -> None:
    rng = random.Random(seed)
    players = NAMES[:n]
    game = new_game("multi-hand", players, options)
    while not game.over:
        allowed = game.allowed()
        before = (game.state(), game.views(), len(game.history))
        for p in players:
            for action in candidates(p, rng):
                malformed = action.numbers in ((0, 2, 7), ()) and action.verb in ("throw", "bet")
                expected = not malformed and any(a.admits(action) for a in allowed)
                try:
                    game.verify(action)
                except RuleViolation as e:
                    assert not expected, f"{action} refused: {e} in {game.state()}"
                    assert e.rule, f"{action} refused without naming a rule: {e}"
                    assert str(e).endswith(f"({e.rule})")
                else:
                    assert expected, f"{action} accepted but not allowed in {game.state()}"
        assert (game.state(), game.views(), len(game.history)) == before
        game.apply(random_action(game, rng))


@settings(max_examples=15, deadline=None)
@given(SEEDS, SIZES, OPTIONS)
def test_the_record_of_a_game_replays_to_the_same_state(seed, n, options) -> None:
    rng = random.Random(seed)
    game = new_game("multi-hand", NAMES[:n], options)
    for _ in range(rng.randint(0, 800)):
        if game.over:
            break
        game.apply(random_action(game, rng))
    record = record_of(game)
    again = replay(parse_record(record.to_json()))
    assert again.state() == game.state()
    assert again.views() == game.views()
    assert record_of(again).to_json() == record.to_json()
