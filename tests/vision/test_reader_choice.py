"""The table reads with the reader that reads its known throws better
(vision/calibrate/reader_choice.py);
when neither does, it keeps the one it has."""

from __future__ import annotations

from vision.calibrate.known import Tally
from vision.calibrate.reader_choice import LEARNED, RULES, choose


def reads(right: int, wrong: int = 0, extra: int = 0) -> Tally:
    return Tally(dice=60, right=right, wrong=wrong, extra=extra, pictures=20)


def test_more_dice_right_with_no_more_errors_wins_whatever_the_table_had() -> None:
    choice = choose(rules=reads(12), learned=reads(52), current=RULES)
    assert (choice.chosen, choice.changed, choice.reads_better) == (LEARNED, True, True)
    choice = choose(rules=reads(59), learned=reads(55), current=LEARNED)
    assert (choice.chosen, choice.changed) == (RULES, True)


def test_a_die_read_where_none_was_thrown_counts_as_an_error() -> None:
    """As many right, but the rule reader sees a die that is not there: the learned one wins."""
    choice = choose(rules=reads(58, extra=1), learned=reads(58), current=RULES)
    assert choice.chosen == LEARNED


def test_more_right_but_more_errors_is_no_better_so_the_table_keeps_its_reader() -> None:
    for current in (RULES, LEARNED):
        choice = choose(rules=reads(50), learned=reads(57, wrong=1), current=current)
        assert (choice.chosen, choice.changed, choice.reads_better) == (current, False, False)


def test_the_same_reading_keeps_the_table_s_reader() -> None:
    choice = choose(rules=reads(40), learned=reads(40), current=LEARNED)
    assert (choice.chosen, choice.changed) == (LEARNED, False)
