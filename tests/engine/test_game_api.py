"""What the table asks a game besides the trio: settling questions (D-S3, D-S4), whether an
action began a hand, a finished game at every level, and the set-up a game refuses.

The controller, the HTTP API and the dashboard ask these (engine/game.py); each answer is
checked here on a real game.
"""

from __future__ import annotations

import random

import pytest

from engine import Action, ConfigError, GameOver, RecordError, new_game
from engine.autoplay import play_random, random_action
from engine.errors import reject_unknown_keys
from engine.multi_hand import MultiHandGame
from engine.two_hand import TwoHandGame


def test_D_S3_a_pending_captain_roll_is_settled_with_one_die_and_nothing_else(
        two_hand, refused) -> None:
    g = two_hand("Ann roll ?", "Bob roll 3")
    assert (g.expects, g.settle_dice(), g.unsettled()) == ("settle", 1, ("Ann",))
    assert [(v.exposed, v.unsettled) for v in g.views()] == [(None, True), ((3,), False)]
    assert refused(g, "Ann settle 6 5 4 by players") == (
        "Ann's exposed values are a captain roll of one die, not 3 (D-S3)")
    assert refused(g, "Bob settle 3 by players") == (
        "Bob has no exposed values waiting; Ann has (D-S3)")
    settled = g.apply(Action.parse("Ann settle 5 by players")).effects[0]
    assert (settled.kind, settled.text, settled.dice, settled.detail) == (
        "settle", "Ann's values are settled by players: 5", (5,), "players")
    assert (g.state()["captain"], g.settle_dice(), g.can_settle("Ann")) == ("Ann", 0, False)


def test_D_S3_while_two_players_values_wait_nothing_else_is_played(two_hand, refused) -> None:
    g = two_hand("Ann roll 5", "Bob roll 3", "Ann throw ?", "Ann stand", "Bob throw ?",
                 "Bob stand", "Ann bet 1", "Bob call")
    assert g.unsettled() == ("Ann", "Bob")
    assert refused(g, "Ann bet 1") == ("Ann and Bob's exposed values are being settled before "
                                       "the showdown; nothing else is played until then (D-S3)")
    assert refused(g, "Ann settle 6 by camera") == (
        "Ann's exposed values are a throw of three dice, not 1 (D-S3)")


def test_D_S4_the_other_players_whose_dice_are_shown_witness_a_settle(two_hand, once) -> None:
    g = two_hand("Ann roll 5", "Bob roll 3", "Ann throw ?", "Ann stand",
                 *once("Bob", "3 2 2"), "Ann bet 1", "Bob call")
    assert (g.unsettled(), g.settle_dice()) == (("Ann",), 3)
    assert g.settle_witnesses("Ann") == ("Bob",)
    assert g.settle_witnesses("Bob") == ("Ann",)
    assert g.views()[1].exposed == (3, 2, 2) and g.views()[0].unsettled


def test_D_S4_nobody_witnesses_while_no_dice_wait(two_hand) -> None:
    assert two_hand("Ann roll 5").settle_witnesses("Ann") == ()


def test_D_S3_while_a_multi_hand_showdown_waits_the_views_keep_the_hand(multi_hand, once,
                                                                         play) -> None:
    g = multi_hand("Ann roll 6", "Bob roll 1", "Cid roll 1", "Ann throw ?", "Ann stand",
                   *once("Bob", "6 5 4", "Cid", "3 2 2"), "Ann bet 1", "Bob call", "Cid drop")
    assert g.unsettled() == ("Ann",)
    assert [(v.in_hand, v.stake, v.unsettled) for v in g.views()] == [
        (True, 1, True), (True, 1, False), (False, 0, False)]
    effects = play(g, "Ann settle 2 1 1 by camera")
    assert effects[0].text == "Ann's values are settled by camera: bidou (2-1-1)"
    assert g.state()["chips"] == {"Ann": 5, "Bob": 7, "Cid": 6}


def test_D_S2_a_pending_open_throw_of_the_two_hand_finish_shows_no_dice(play) -> None:
    g = MultiHandGame.from_position(("Ann", "Bob", "Cid"), {"Ann": 8, "Bob": 1, "Cid": 0}, "Ann")
    play(g, "Bob throw 6 5 4")
    assert g.views()[1].exposed == (6, 5, 4)
    effects = play(g, "Bob throw ?")
    assert [(e.kind, e.dice) for e in effects] == [("expose", ())]
    assert g.views()[1].exposed is None and g.values_pending("Bob")


def test_an_event_says_whether_its_action_began_a_hand(two_hand) -> None:
    g = two_hand("Ann roll 5")
    assert g.apply(Action.parse("Bob roll 3")).starts_hand
    assert not g.apply(Action.parse("Ann throw 6 5 4")).starts_hand


@pytest.mark.parametrize(("variant", "players", "rule"), [
    ("two-hand", ["Ann", "Bob"], "T1"),
    ("multi-hand", ["Ann", "Bob", "Cid"], "M7"),
    ("montevideo", ["Ann", "Bob", "Cy"], "V1"),
])
def test_T1_M7_V1_a_finished_game_refuses_everything_even_asked_at_its_stage(
        variant, players, rule) -> None:
    g = new_game(variant, players)
    n = play_random(g, random.Random(3))
    assert g.over and n == len(g.history)
    with pytest.raises(ValueError, match="no action is allowed: the game is over"):
        random_action(g, random.Random(3))
    action = Action(players[0], "pass")
    with pytest.raises(GameOver, match=rf"^the game is over; start a new game \({rule}\)$"):
        g.verify(action)
    assert g.stage.allowed() == []
    for ask in (g.stage.check, g.stage.perform):
        with pytest.raises(GameOver, match="^the game is over; start a new game$"):
            ask(action)


def test_play_random_stops_after_its_limit_of_actions() -> None:
    g = new_game("two-hand", ["Ann", "Bob"])
    assert play_random(g, random.Random(3), max_actions=5) == 5 and not g.over


def test_a_game_built_directly_takes_its_variants_number_of_players() -> None:
    """S-B2: two players play two-hand Bidou, more play multi-hand Bidou."""
    with pytest.raises(ValueError, match="two-hand takes exactly 2 players, not 3"):
        TwoHandGame(("Ann", "Bob", "Cid"))
    with pytest.raises(ValueError, match="multi-hand takes 3 or more players, not 2"):
        MultiHandGame(("Ann", "Bob"))


@pytest.mark.parametrize(("chips", "sentence"), [
    ({"Ann": 6, "Bob": 6}, "chips must give a count of 0 or more for every player"),
    ({"Ann": 6, "Bob": -1, "Cid": 6}, "chips must give a count of 0 or more for every player"),
    ({"Ann": 7, "Bob": 6, "Cid": 6}, "the players hold at most 6 chips each together"),
])
def test_M1_a_position_resumed_by_hand_holds_at_most_six_chips_a_player(chips,
                                                                         sentence) -> None:
    with pytest.raises(ValueError, match=sentence):
        MultiHandGame.from_position(("Ann", "Bob", "Cid"), chips, "Ann")


def test_P1_the_poor_fish_option_is_true_or_false() -> None:
    with pytest.raises(RecordError, match="^options.poor_fish must be true or false, not 'yes'$"):
        new_game("multi-hand", ["Ann", "Bob", "Cid"], {"poor_fish": "yes"})


def test_a_config_error_names_the_key_the_value_and_the_keys_it_takes() -> None:
    reject_unknown_keys("vision", {"model": "x"}, ("model", "threshold"))
    with pytest.raises(ConfigError) as info:
        reject_unknown_keys("vision", {"model": "x", "colour": "red"}, ("model", "threshold"))
    assert str(info.value) == ("vision.colour = 'red' is not allowed: no such key; [vision] "
                               "takes model, threshold")
    assert (info.value.key, info.value.value) == ("vision.colour", "red")


def test_random_play_stands_or_throws_again_and_bets_within_the_range_allowed() -> None:
    g = new_game("multi-hand", ["Ann", "Bob", "Cid"])
    for text in ("Ann roll 6", "Bob roll 1", "Cid roll 1", "Ann throw 6 5 4"):
        g.apply(Action.parse(text))
    assert {random_action(g, random.Random(seed)).verb for seed in range(30)} == {"throw",
                                                                                 "stand"}
    for text in ("Ann stand", "Bob throw 6 5 4", "Bob stand", "Cid throw 6 5 4", "Cid stand"):
        g.apply(Action.parse(text))
    bets = {random_action(g, random.Random(seed)) for seed in range(40)}
    assert {a.verb for a in bets} == {"bet", "pass"}
    assert {a.chips for a in bets if a.verb == "bet"} == {1, 2, 3}
