"""The event list's sentences (``firmware.wording``): a bet and the stake it makes are one
line, and every other effect keeps its own."""

from __future__ import annotations

from engine import Action, new_game
from firmware import wording


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
    from engine.game import Effect

    said = effect_sentences([Effect("note", "Ann passes", "M5", player="Ann"),
                             Effect("move", "Bob takes 1 chip from the pot", "M6",
                                    player="Bob", chips=1, source="pot", dest="Bob")])
    assert said == ["Ann passes.", "Bob takes 1 chip from the pot."]
