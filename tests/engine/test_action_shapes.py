"""Actions built in code are checked for shape before the rules look at them (D-T12), and a
record's action text is read the same way (the game record, docs/rules/README.md).

Seat buttons and the HTTP API build :class:`~engine.actions.Action` objects instead of parsing
text; each wrong shape is refused with a sentence citing the phase's rule, and refusing changes
nothing.
"""

from __future__ import annotations

import pytest

from engine import Action, RecordError, RuleViolation
from engine.actions import dice_fit, dice_words


def test_D_T12_a_verb_the_record_does_not_have_is_refused(two_hand) -> None:
    g = two_hand("Ann roll 5")
    with pytest.raises(RuleViolation, match=r"^'dance' is not a verb of the game record$"):
        g.verify(Action("Bob", "dance"))
    with pytest.raises(RuleViolation, match=r"^'dance' is not a verb; the verbs are roll, "):
        Action("Bob", "dance").check_numbers()


@pytest.mark.parametrize(("action", "sentence"), [
    (Action("Bob", "roll", (True,)), r"^True is not a whole number \(T2\)$"),
    (Action("Bob", "roll", (2,), by="camera"),
     r"^only a settle says who settled it, not a roll \(T2\)$"),
    (Action("Bob", "settle", (2, 1), by="camera"),
     r"^settle takes the values of a throw \(three dice\) or of a captain roll \(one die\), "
     r"not 2 \(T2\)$"),
    (Action("Bob", "settle", (2,), by="dealer"),
     r"^a settle says who settled the values: camera, players, referee, not 'dealer' \(T2\)$"),
])
def test_D_T12_a_built_action_of_the_wrong_shape_is_refused_citing_the_phase(
        two_hand, action, sentence) -> None:
    g = two_hand("Ann roll 5")
    with pytest.raises(RuleViolation, match=sentence):
        g.apply(action)
    assert [str(a) for a in g.history] == ["Ann roll 5"]


def test_D_T12_a_bet_of_no_chips_built_in_code_is_refused_citing_T5(two_hand, once) -> None:
    g = two_hand("Ann roll 5", "Bob roll 3", *once("Ann", "6 5 4", "Bob", "3 2 2"))
    with pytest.raises(RuleViolation, match=r"^a bet is at least one chip, not 0 \(T5\)$"):
        g.apply(Action("Ann", "bet", (0,)))
    with pytest.raises(RuleViolation, match=r"^'1' is not a whole number \(T5\)$"):
        g.apply(Action("Ann", "bet", ("1",)))  # type: ignore[arg-type]


def test_an_action_says_its_dice_and_chips_and_a_die_or_three_in_words() -> None:
    assert Action("Ann", "throw", (6, 5, 4)).dice == (6, 5, 4)
    assert Action("Ann", "roll", (2,)).dice == (2,)
    assert Action("Ann", "bet", (2,)).dice == ()
    assert Action("Ann", "bet", (2,)).chips == 2
    assert Action("Ann", "throw", (6, 5, 4)).chips is None
    assert (dice_words("roll"), dice_words("throw")) == ("one die", "three dice")
    assert dice_fit("throw", (6, 5, 4)) and not dice_fit("throw", (6, 5))
    assert not dice_fit("roll", (0,)) and not dice_fit("roll", (True,))


@pytest.mark.parametrize(("text", "sentence"), [
    ("Ann settle 6 5 by camera",
     r"^settle takes three dice \(a throw\) or one \(a captain roll\), not 2, in "),
    ("Ann settle 6 5 4", r"^a settle ends with who settled the values, 'by camera', "),
    ("Ann settle 6 5 4 by dealer", r"^a settle ends with who settled the values"),
])
def test_D_S4_a_settle_in_a_record_has_one_or_three_dice_and_who_settled_them(
        text, sentence) -> None:
    with pytest.raises(RecordError, match=sentence):
        Action.parse(text)


def test_D_S4_a_settle_in_a_record_reads_back_as_written() -> None:
    for text in ("Ann settle 6 5 4 by players", "Ann settle 3 by referee", "Ann throw ?"):
        assert str(Action.parse(text)) == text
