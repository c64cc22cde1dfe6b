"""Values pending (docs/rules/pending.md, D-S1-D-S5): a throw counts when it is declared, its
values may come later, and only exposure waits for them.

The property tests play random games twice from one seed: once with every value known, and
once with a random share of the throws and rolls pending, their values settled only when the
game asks (in a random order, by a random settler). The game with pending values must never
rank a pending throw (ranking one raises), must conserve chips after every action, must wait
only at exposure, and must reach the very state of the game with every value known.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Action, RecordError, RuleViolation, new_game, parse_record, record_of, replay
from engine.actions import SETTLERS
from engine.autoplay import random_action
from engine.ranking import PENDING, compare

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RATES = st.sampled_from([0.05, 0.3, 0.7, 1.0])
GAMES = st.sampled_from([
    ("two-hand", ("Ann", "Bob"), {}),
    ("multi-hand", ("Ann", "Bob", "Cid"), {}),
    ("multi-hand", ("Ann", "Bob", "Cid", "Dee"), {"poor_fish": True}),
    ("montevideo", ("Ann", "Bob", "Cy"), {}),
    ("montevideo", ("Ann", "Bob", "Cy", "Di"), {"ranking": "total"}),
])
LIMIT = 20_000


def chips_total(state: dict) -> int:
    return sum(state["chips"].values()) + state["centre"] + state["pot"] + state["removed"]


def public(game, pending=None) -> list:
    """What the table shows of every player (the views); an exposed throw whose values are
    pending in the game ``pending`` (an open throw not yet settled) is left out."""
    pending = pending or game
    return [replace(v, exposed=None) if pending.values_pending(v.name) else v
            for v in game.views()]


def play_both(setup, seed: int, rate: float):
    """The known game and the pending one, side by side; yields after every known action."""
    variant, players, options = setup
    rng, coin = random.Random(seed), random.Random(seed ^ 0x5EED)
    known, pending = new_game(variant, players, options), new_game(variant, players, options)
    total = chips_total(known.state())
    truth: dict[str, tuple[int, ...]] = {}
    waits = 0
    for _ in range(LIMIT):
        if known.over:
            break
        action = random_action(known, rng)
        known.apply(action)
        if action.verb in ("throw", "roll"):
            truth[action.player] = action.numbers
        if action.verb in ("throw", "roll") and coin.random() < rate:
            pending.apply(Action(action.player, action.verb))
        else:
            pending.apply(action)
        while pending.unsettled():
            waits += 1
            waiting = list(pending.unsettled())
            assert pending.expects == "settle"
            assert [a.verb for a in pending.allowed()] == ["settle"] * len(waiting)
            assert chips_total(pending.state()) == total
            p = coin.choice(waiting)
            pending.apply(Action(p, "settle", truth[p], coin.choice(SETTLERS)))
        assert chips_total(pending.state()) == total
        assert pending.state() == known.state(), (action, pending.state(), known.state())
        assert public(pending) == public(known, pending)
    assert known.over
    return known, pending, waits


@settings(max_examples=80, deadline=None)
@given(GAMES, SEEDS, RATES)
def test_D_S3_a_game_with_pending_values_settled_at_exposure_ends_as_the_known_game(
        setup, seed, rate) -> None:
    known, pending, _ = play_both(setup, seed, rate)
    assert pending.over and pending.state() == known.state()
    # the record of the pending game replays to the same state, through bidou-record/2
    record = record_of(pending)
    again = replay(parse_record(record.to_json()))
    assert again.state() == known.state()
    if any(a.pending for a in pending.history):
        assert record.format == "bidou-record/2"


@settings(max_examples=40, deadline=None)
@given(GAMES, SEEDS)
def test_D_S2_with_no_pending_value_nothing_ever_waits(setup, seed) -> None:
    _, pending, waits = play_both(setup, seed, 0.0)
    assert waits == 0
    assert record_of(pending).format == "bidou-record/1"


def test_D_S2_a_pending_throw_is_never_ranked() -> None:
    with pytest.raises(ValueError, match="never ranked"):
        compare(PENDING, (6, 5, 4))


def play(game, *texts: str) -> list:
    effects = []
    for t in texts:
        effects += game.apply(Action.parse(t)).effects
    return effects


def test_D_S2_a_hand_ended_by_two_passes_or_a_drop_never_asks_for_values() -> None:
    g = new_game("two-hand", ("Ann", "Bob"))
    play(g, "Ann roll 5", "Bob roll 3", "Ann throw ?", "Ann stand", "Bob throw ?", "Bob stand",
         "Ann pass", "Bob pass")
    assert g.expects == "throw" and g.unsettled() == ()
    play(g, "Bob throw ?", "Bob stand", "Ann throw ?", "Ann stand", "Bob bet 1", "Ann drop")
    assert g.expects == "throw" and g.unsettled() == ()


def test_D_S3_a_call_on_a_pending_throw_waits_for_its_values_and_only_its_owner_settles() -> None:
    g = new_game("two-hand", ("Ann", "Bob"))
    play(g, "Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann stand", "Bob throw ?",
         "Bob throw ?", "Bob stand", "Ann bet 1")
    assert g.state()["pot"] == 1 and g.unsettled() == ()
    effects = play(g, "Bob call")
    assert g.unsettled() == ("Bob",) and g.expects == "settle"
    assert not any(e.kind == "move" and e.dest == "Bob" for e in effects)
    assert g.can_settle("Bob") and not g.can_settle("Ann")
    views = {v.name: v for v in g.views()}
    assert views["Bob"].unsettled and views["Bob"].exposed is None
    assert views["Ann"].exposed == (6, 5, 4)
    with pytest.raises(RuleViolation, match="being settled before the showdown"):
        g.verify(Action.parse("Ann bet 1"))
    with pytest.raises(RuleViolation, match="Ann has no exposed values waiting"):
        g.verify(Action.parse("Ann settle 6 5 4 by players"))
    effects = play(g, "Bob settle 2 1 1 by players")
    assert any(e.kind == "settle" and e.detail == "players" for e in effects)
    assert g.state()["chips"] == {"Ann": 2, "Bob": 0} and g.expects == "throw"


def test_D_S3_a_settle_is_refused_when_no_dice_wait() -> None:
    g = new_game("two-hand", ("Ann", "Bob"))
    play(g, "Ann roll 5", "Bob roll 3", "Ann throw ?")
    with pytest.raises(RuleViolation, match="no dice wait to be settled now"):
        g.verify(Action.parse("Ann settle 6 5 4 by referee"))


def test_D_S1_a_pending_throw_counts_and_keeps_the_turn_order() -> None:
    """S-T7: the number of throws is declared."""
    g = new_game("two-hand", ("Ann", "Bob"))
    play(g, "Ann roll 5", "Bob roll 3", "Ann throw ?", "Ann throw ?")
    assert g.views()[0].throws == 2 and g.values_pending("Ann")
    assert g.can_throw("Ann") and g.concealed_dice("Ann") == ()


def test_D_S3_a_pending_captain_roll_is_settled_before_the_captain_is_named() -> None:
    g = new_game("multi-hand", ("Ann", "Bob", "Cid"))
    play(g, "Ann roll ?", "Bob roll 4")
    assert g.expects == "roll"  # the next roller still rolls
    play(g, "Cid roll ?")
    assert set(g.unsettled()) == {"Ann", "Cid"}
    play(g, "Cid settle 6 by referee", "Ann settle 6 by players")
    assert g.expects == "roll" and g.to_act == "Ann"  # the tie rolls again


def test_D_S3_an_open_throw_settles_only_the_two_last_throws() -> None:
    g = new_game("two-hand", ("Ann", "Bob"))
    play(g, "Ann roll 5", "Bob roll 3")
    for _ in range(4):  # Bob loses four showdowns: 8 chips, the last in the centre (T10)
        play(g, "Ann throw 6 5 4", "Ann stand", "Bob throw 6 5 3", "Bob stand", "Ann bet 1",
             "Bob call")
    assert g.state()["chips"] == {"Ann": 0, "Bob": 8} and g.to_act == "Ann"
    play(g, "Ann throw ?", "Ann throw ?", "Ann stand", "Bob throw 3 2 2")
    assert g.unsettled() == () and g.expects == "throw"  # nothing waits before both are done
    play(g, "Bob stand")
    assert g.unsettled() == ("Ann",)
    play(g, "Ann settle 2 1 1 by camera")
    assert g.state()["rounds_lost"] == {"Ann": 0, "Bob": 1}


def test_record_2_writes_pending_throws_and_settles_and_record_1_refuses_them() -> None:
    g = new_game("two-hand", ("Ann", "Bob"))
    play(g, "Ann roll 5", "Bob roll 3", "Ann throw ?", "Ann stand", "Bob throw 3 3 1",
         "Bob stand", "Ann bet 1", "Bob call", "Ann settle 6 5 4 by players")
    text = record_of(g).to_json()
    assert '"bidou-record/2"' in text and '"Ann throw ?"' in text
    assert '"Ann settle 6 5 4 by players"' in text
    assert replay(parse_record(text)).state() == g.state()
    with pytest.raises(RecordError, match="written in 'bidou-record/2' records"):
        parse_record(text.replace("bidou-record/2", "bidou-record/1"))
    with pytest.raises(RecordError, match="ends with who settled"):
        parse_record(text.replace(" by players", ""))
