"""The table reads with the reader worth more on its known throws: dice right less
CHOICE_COST (100) for each wrong value or die read where none was thrown, as a referee prices
a die read wrong (vision/calibrate/reader_choice.py); on equal worth it keeps the one it has."""

from __future__ import annotations

from vision.calibrate.known import CHOICE_COST, Tally, rank, worth
from vision.calibrate.reader_choice import LEARNED, RULES, choose


def reads(right: int, wrong: int = 0, extra: int = 0, dice: int = 60) -> Tally:
    return Tally(dice=dice, right=right, wrong=wrong, extra=extra, pictures=20)


def test_more_dice_right_with_no_more_errors_wins_whatever_the_table_had() -> None:
    choice = choose(rules=reads(12), learned=reads(52), current=RULES)
    assert (choice.chosen, choice.changed, choice.reads_better) == (LEARNED, True, True)
    choice = choose(rules=reads(59), learned=reads(55), current=LEARNED)
    assert (choice.chosen, choice.changed) == (RULES, True)


def test_a_die_read_where_none_was_thrown_counts_as_an_error() -> None:
    """As many right, but the rule reader sees a die that is not there: the learned one wins."""
    choice = choose(rules=reads(58, extra=1), learned=reads(58), current=RULES)
    assert choice.chosen == LEARNED


def test_a_wrong_die_costs_a_hundred_right_ones() -> None:
    """Oblique-colour as a new table at 98 known dice: the rule reader read none right and one
    wrong on the held-out folds, the taught network 10 right and 3 wrong. Three errors are
    worth 300 dice right: the reader with one error is chosen."""
    assert CHOICE_COST >= 100
    rules, taught = reads(0, wrong=1, dice=98), reads(10, wrong=3, dice=98)
    assert worth(rules) > worth(taught)
    choice = choose(rules=rules, learned=taught, current=LEARNED)
    assert (choice.chosen, choice.changed, choice.reads_better) == (RULES, True, True)


def test_more_right_is_chosen_only_when_it_outweighs_the_cost_of_its_errors() -> None:
    """One more error is worth CHOICE_COST dice right: fewer than that more right is worth
    less, and the reader with fewer errors stays chosen."""
    for current in (RULES, LEARNED):
        choice = choose(rules=reads(50), learned=reads(50 + CHOICE_COST - 1, wrong=1),
                        current=current)
        assert (choice.chosen, choice.reads_better) == (RULES, True)
        choice = choose(rules=reads(50), learned=reads(50 + CHOICE_COST + 1, wrong=1),
                        current=current)
        assert choice.chosen == LEARNED


def test_the_same_reading_keeps_the_table_s_reader() -> None:
    choice = choose(rules=reads(40), learned=reads(40), current=LEARNED)
    assert (choice.chosen, choice.changed, choice.reads_better) == (LEARNED, False, False)


def test_at_the_same_worth_the_reader_with_fewer_errors_is_chosen() -> None:
    for current in (RULES, LEARNED):
        choice = choose(rules=reads(40), learned=reads(40 + CHOICE_COST, extra=1),
                        current=current)
        assert (choice.chosen, choice.reads_better) == (RULES, True)


def test_a_reading_that_reads_nothing_wrong_ranks_above_one_that_errs_once() -> None:
    """Sending every die to the referee is worth 0; reading 40 right and one wrong is worth
    -60: the table stays careful rather than sure and wrong."""
    nothing, some = reads(0), reads(40, wrong=1)
    assert rank(nothing) > rank(some)
    for current in (RULES, LEARNED):
        assert choose(rules=nothing, learned=some, current=current).chosen == RULES
