"""What the engine says is data (engine/messages.py): an id and its arguments, and the English
the record and the referee read made from them, the same words each time it is read.

A message's English is made when it is read, so every kind of hole is read here once: counts
with their noun, ordinals, lists of players, a throw's name, messages inside messages, and a
rule's code written into the sentence.
"""

from __future__ import annotations

import pytest

from engine import Action, new_game
from engine.errors import RuleViolation
from engine.messages import THE_POT, Message, because, cited, english, or_list, say, then


def test_a_message_is_its_id_and_plain_arguments_and_its_english_is_made_from_them() -> None:
    said = say("%(p)s takes %(chips)s from %(where)s", p="Ann", chips=2, where=THE_POT)
    assert said == Message("%(p)s takes %(chips)s from %(where)s",
                           (("p", "Ann"), ("chips", 2), ("where", THE_POT)))
    assert said.kwargs == {"p": "Ann", "chips": 2, "where": THE_POT}
    assert str(said) == english(said) == "Ann takes 2 chips from the pot"
    assert str(say("%(p)s takes %(chips)s", p="Bob", chips=1)) == "Bob takes 1 chip"


@pytest.mark.parametrize("hole, value, words", [
    ("chips", 1, "1 chip"), ("chips2", 3, "3 chips"), ("throws", 2, "2 throws"),
    ("own", 1, "1 own chip"), ("numbers", 3, "3 numbers"), ("ord", 1, "1st"), ("ord", 2, "2nd"),
    ("ord", 3, "3rd"), ("ord", 4, "4th"), ("names", ("Ann", "Bob"), "Ann and Bob"),
    ("listed", ("Ann", "Bob", "Cy"), "Ann, Bob, Cy"), ("verbs", ("call", "drop"), "call or drop"),
    ("throw", (1, 2, 1), "bidou (2-1-1)"), ("throw", (6, 5, 2), "6-5-2"), ("n", 7, "7"),
])
def test_each_kind_of_hole_is_said_by_its_name(hole: str, value: object, words: str) -> None:
    assert str(say(f"[%({hole})s]", **{hole: value})) == f"[{words}]"


def test_options_are_said_a_b_or_c_and_one_option_alone() -> None:
    options = (say("%(verb)s", verb="call"), say("%(verb)s %(chips)s", verb="raise", chips=1),
               say("%(verb)s", verb="drop"))
    assert str(say("%(p)s may %(options)s", p="Ann", options=options)) == \
        "Ann may call, raise 1 chip or drop"
    assert or_list(["pass"]) == "pass"


def test_messages_join_as_the_english_joins_them_and_a_cited_rule_is_written_in() -> None:
    what, why = say("%(p)s passes after a bet", p="Ann"), say("that is a drop")
    assert str(because(what, why)) == "Ann passes after a bet: that is a drop"
    assert str(then(what, why)) == "Ann passes after a bet; that is a drop"
    assert str(cited(say("%(p)s is captain", p="Ann"), "V2")) == "Ann is captain (V2)"


def test_a_montevideo_throw_is_said_with_its_ordinal() -> None:
    game = new_game("montevideo", ["Ann", "Bob", "Cy"])
    for text in ("Ann roll 5", "Bob roll 3", "Cy roll 2"):
        game.apply(Action.parse(text))
    said = [game.apply(Action.parse(f"Ann throw {d}")).effects[0].text
            for d in ("6 5 4", "3 3 1", "2 2 1")]
    assert said == ["Ann throws (1st throw)", "Ann throws (2nd throw)", "Ann throws (3rd throw)"]


def test_a_refusal_of_numbers_that_do_not_fit_the_verb_says_how_many_it_takes() -> None:
    with pytest.raises(RuleViolation) as refused:
        Action("Ann", "roll", (1, 2)).check_numbers()
    assert refused.value.sentence == "roll takes 1 number, not 2"
    assert refused.value.said == say("%(verb)s takes %(numbers)s, not %(n)s", verb="roll",
                                     numbers=1, n=2)
