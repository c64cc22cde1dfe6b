"""Montevideo invariants under random legal play, for 3 to 8 players (hypothesis).

- chips are conserved: sum(chips) + pot + removed == 6 x players, after every action;
- something is always allowed until the game is over, and the game ends within a bound
  (random no-limit play, and also all-pass play, which only the rising ante V5 ends);
- allowed() is exactly what verify() accepts, and every refusal names its rule and changes
  nothing;
- a record of the game replays to the same state.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, new_game, record_of, replay
from engine.autoplay import random_action
from engine.errors import RuleViolation
from engine.game import Game

MAX_ACTIONS = 5_000
VERBS_WITH_CHIPS = ("bet", "raise")
PLAIN_VERBS = ("stand", "call", "pass", "drop", "betpot", "callpot")
THROWS = ((6, 5, 4), (2, 1, 1), (1, 1, 1), (3, 3, 1))


def players(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def conserved(game: Game, n: int) -> bool:
    s = game.state()
    return sum(s["chips"].values()) + s["pot"] + s["removed"] + s["centre"] == 6 * n


def candidates(game: Game) -> list[Action]:
    """Every action worth trying now: each player, each verb, chips just inside and outside."""
    out: list[Action] = []
    for p in game.players:
        out += [Action(p, "roll", (d,)) for d in (1, 6)]
        out += [Action(p, "throw", t) for t in THROWS]
        out += [Action(p, v) for v in PLAIN_VERBS]
        top = game.state()["chips"][p] + 2
        for v in VERBS_WITH_CHIPS:
            out += [Action(p, v, (c,)) for c in range(1, top + 1)]
    return out


def check_allowed_is_exact(game: Game) -> None:
    before = game.state()
    length = len(game.history)
    for action in candidates(game):
        want = any(a.admits(action) for a in game.allowed())
        try:
            game.verify(action)
        except RuleViolation as e:
            assert not want, f"allowed but refused: {action}: {e}"
            assert e.rule, f"refusal without a rule id: {action}: {e}"
            assert e.sentence and not e.sentence.endswith(".")
            continue
        assert want, f"accepted but not in allowed(): {action}"
    assert game.state() == before and len(game.history) == length


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_V1_random_play_conserves_chips_and_ends_with_one_winner(n, seed):
    game = new_game("montevideo", players(n))
    rng = random.Random(seed)
    count = 0
    while not game.over:
        assert game.allowed(), f"nothing allowed in {game.state()}"
        game.apply(random_action(game, rng))
        assert conserved(game, n)
        count += 1
        assert count < MAX_ACTIONS, "the game did not end"
    s = game.state()
    assert s["winner"] is not None and s["loser"] is None
    assert s["chips"][s["winner"]] == 6 * n and s["pot"] == 0 and s["removed"] == 0
    assert (s["to_act"], s["expects"], game.allowed()) == (None, None, [])
    assert replay(record_of(game)).state() == s


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_V3_allowed_is_exactly_what_verify_accepts_and_refusals_name_the_rule(n, seed):
    game = new_game("montevideo", players(n))
    rng = random.Random(seed)
    count = 0
    while not game.over and count < MAX_ACTIONS:
        if count % 4 == 0 or game.expects == "bet":
            check_allowed_is_exact(game)
        game.apply(random_action(game, rng))
        count += 1
    assert game.over
    check_allowed_is_exact(game)


def _passive(game: Game, rng: random.Random) -> Action:
    """Throws at random, never bets: pass, call the pot, or call."""
    for a in game.allowed():
        if a.verb in ("pass", "callpot", "call") and game.expects == "bet":
            return Action(a.player, a.verb)
    return random_action(game, rng)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_V5_all_pass_play_still_ends_because_the_ante_rises(n, seed):
    game = new_game("montevideo", players(n))
    rng = random.Random(seed)
    count = 0
    while not game.over:
        game.apply(_passive(game, rng))
        assert conserved(game, n)
        count += 1
        assert count < 20 * MAX_ACTIONS, "all-pass play did not end"
    assert game.state()["chips"][game.winner] == 6 * n
    assert game.ante >= 1


@settings(max_examples=15, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_views_show_only_public_dice_and_match_the_state(n, seed):
    game = new_game("montevideo", players(n))
    rng = random.Random(seed)
    while not game.over:
        views = game.views()
        s = game.state()
        assert [v.name for v in views] == list(game.players)
        assert [v.chips for v in views] == list(s["chips"].values())
        assert [v.name for v in views if v.to_act] == ([s["to_act"]] if s["to_act"] else [])
        assert sum(v.stake for v in views) <= s["pot"]
        for v in views:
            # A shown throw belongs to the last settled hand: never the dice of this hand.
            assert v.exposed is None or game.concealed_dice(v.name) is None
        game.apply(random_action(game, rng))
