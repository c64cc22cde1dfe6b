"""Invariants of two-hand Bidou under random legal play (hypothesis drives the seeds).

- T11: no chip is created or destroyed: centre + players + pot == 9 after every action;
- somebody can always act until the match is over, and every match ends (T1);
- what ``allowed()`` reports is exactly what ``verify`` accepts, for every player and verb;
- a refusal changes nothing; replaying the record of a match gives the same state and record.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import VERBS, Action, new_game, parse_record, record_of, replay
from engine.autoplay import random_action

PLAYERS = ["Ann", "Bob"]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = st.sampled_from([{}, {"ranking": "total"}])
#: Far more than any match takes: a match is at most 3 rounds of finitely many hands.
LIMIT = 5_000


def chips_total(state: dict) -> int:
    return sum(state["chips"].values()) + state["centre"] + state["pot"] + state["removed"]


@settings(max_examples=60, deadline=None)
@given(SEEDS, OPTIONS)
def test_T11_random_play_never_creates_or_destroys_a_chip_and_always_ends(seed, options) -> None:
    """D-T10: no penalty chip from nowhere: a dropper always finds one."""
    rng = random.Random(seed)
    game = new_game("two-hand", PLAYERS, options)
    for _ in range(LIMIT):
        if game.over:
            break
        assert game.allowed(), f"nobody can act in {game.state()}"
        assert game.to_act in PLAYERS and game.expects in ("roll", "throw", "bet")
        game.apply(random_action(game, rng))
        state = game.state()
        assert chips_total(state) == 9
        assert min(state["chips"].values()) >= 0 and state["centre"] >= 0
    assert game.over, "the match did not end"
    state = game.state()
    assert state["loser"] in PLAYERS and state["rounds_lost"][state["loser"]] == 2
    assert state["to_act"] is None and state["expects"] is None and game.allowed() == []


def candidates(player: str, rng: random.Random) -> list[Action]:
    """Every verb for ``player``, with valid and invalid chip counts and random dice."""
    out = []
    for verb, (count, kind) in VERBS.items():
        if kind == "die":
            for _ in range(2):
                out.append(Action(player, verb, tuple(rng.randint(1, 6) for _ in range(count))))
        elif kind == "chips":
            out += [Action(player, verb, (n,)) for n in (1, 2, 3)]
        else:
            out.append(Action(player, verb))
    return out


def offered(game, action: Action) -> bool:
    return any(a.admits(action) for a in game.allowed())


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_allowed_actions_are_accepted_and_every_other_is_refused(seed) -> None:
    """D-T11: the turn is refused first, then the verb, then the chips."""
    rng = random.Random(seed)
    game = new_game("two-hand", PLAYERS)
    steps = 0
    while not game.over and steps < LIMIT:
        for p in PLAYERS:
            for action in candidates(p, rng):
                before = game.state()
                assert game.can(action) == offered(game, action), (str(action), before)
                assert game.state() == before
        game.apply(random_action(game, rng))
        steps += 1
    assert game.over
    for p in PLAYERS:
        assert not any(game.can(a) for a in candidates(p, rng))


@settings(max_examples=25, deadline=None)
@given(SEEDS, OPTIONS)
def test_replaying_a_record_and_exporting_it_again_gives_the_same_record(seed, options) -> None:
    rng = random.Random(seed)
    game = new_game("two-hand", PLAYERS, options)
    for _ in range(rng.randint(0, 400)):
        if game.over:
            break
        game.apply(random_action(game, rng))
    record = record_of(game)
    again = replay(parse_record(record.to_json()))
    assert again.state() == game.state()
    assert record_of(again) == record
    assert record_of(again).to_json() == record.to_json()


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_every_chip_movement_is_a_move_effect_that_accounts_for_the_state(seed) -> None:
    """Following the ``move`` effects alone reproduces chips, centre and pot after every action;
    ``expose`` effects name a player and three dice; every effect is a sentence with a kind."""
    rng = random.Random(seed)
    game = new_game("two-hand", PLAYERS)
    places = {"Ann": 0, "Bob": 0, "centre": 9, "pot": 0}
    kinds = {"move", "expose", "captain", "hand", "round", "game", "note"}
    while not game.over:
        event = game.apply(random_action(game, rng))
        for e in event.effects:
            assert e.kind in kinds and e.text and e.text == e.text.strip()
            if e.kind == "move":
                assert e.chips >= 1 and e.source in places and e.dest in places
                places[e.source] -= e.chips
                places[e.dest] += e.chips
            elif e.kind == "expose":
                assert e.player in PLAYERS and len(e.dice) == 3
            elif e.kind == "round":
                assert places[e.player] == 9  # T9: he holds every chip
                places = {"Ann": 0, "Bob": 0, "centre": 9, "pot": 0}  # T2: a new round
        s = game.state()
        if not game.over:
            assert places == {**s["chips"], "centre": s["centre"], "pot": s["pot"]}
