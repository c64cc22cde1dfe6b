"""The event list's sentences (``firmware.words.wording``): a bet and the stake it makes are one
line, and every other effect keeps its own."""

from __future__ import annotations

from engine import Action, new_game
from engine.game import Effect
from engine.messages import THE_POT, say
from firmware.words import wording


def effect_sentences(effects):
    """The sentences in English."""
    return [str(p) for p in wording.effect_sentences(effects)]

THROWN = ("Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1",
          "Bob stand")


def test_a_two_hand_bet_and_its_stake_from_the_centre_are_one_sentence() -> None:
    game = new_game("two-hand", ("Ann", "Bob"))
    for text in THROWN:
        game.apply(Action.parse(text))
    opener = game.to_act
    other = "Bob" if opener == "Ann" else "Ann"
    bet = game.apply(Action(opener, "bet", (1,)))
    assert effect_sentences(list(bet.effects)) == [
        f"{opener} bets 1 chip and stakes 1 chip from the centre."]
    raised = game.apply(Action(other, "raise", (1,)))
    assert effect_sentences(list(raised.effects)) == [
        f"{other} raises by 1 chip to 2 and stakes 2 chips from the centre."]
    called = effect_sentences(list(game.apply(Action(opener, "call")).effects))
    assert called[0] == f"{opener} calls and stakes 1 chip from the centre."
    assert any(" shows " in s for s in called[1:])  # the showdown keeps its lines


def test_moves_that_are_not_stakes_keep_their_own_sentence() -> None:
    said = effect_sentences([Effect("note", say("%(p)s passes", p="Ann"), "M5", player="Ann"),
                             Effect("move", say("%(p)s takes %(chips)s from %(where)s", p="Bob",
                                                chips=1, where=THE_POT), "M6",
                                    player="Bob", chips=1, source="pot", dest="Bob")])
    assert said == ["Ann passes.", "Bob takes 1 chip from the pot."]


def test_the_next_captain_is_said_once_by_the_hand_that_starts_with_them() -> None:
    """A two-hand hand ends: "Ann is captain." is not said before "Hand 2 of round 1: Ann is
    captain and throws first." (T3), the hand's own sentence."""
    game = new_game("two-hand", ("Ann", "Bob"))
    for text in THROWN:
        game.apply(Action.parse(text))
    opener = game.to_act
    other = "Bob" if opener == "Ann" else "Ann"
    game.apply(Action(opener, "bet", (1,)))
    said = effect_sentences(list(game.apply(Action(other, "call")).effects))
    starts = [s for s in said if s.startswith("Hand 2 of round 1: ")]
    assert len(starts) == 1, said
    captain = starts[0].split(": ")[1].split(" ")[0]
    assert f"{captain} is captain." not in said, said


def test_a_captain_not_followed_by_their_hand_is_still_said() -> None:
    said = effect_sentences([
        Effect("captain", say("%(p)s is captain", p="Ann"), "M9", player="Ann"),
        Effect("hand", say("Hand %(hand)s: %(p)s is captain and throws first; %(listed)s play "
                           "under %(rules)s rules", hand=2, p="Bob", listed=("Bob", "Ann"),
                           rules="multi-hand"), "M9", player="Bob")])
    assert said[0] == "Ann is captain."
