"""The table reads with the reader worth more on its known throws: dice right less
CHOICE_COST for each wrong value or die read where none was thrown, a reader that reads none
right below any other (vision/calibrate/reader_choice.py); on equal worth it keeps the one
it has."""

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


def test_a_reader_that_reads_nothing_right_does_not_win_over_one_that_reads_some() -> None:
    """Oblique-colour as a new table at 98 known dice: the rule reader read none right and one
    wrong on the held-out folds, the taught network 10 right and 3 wrong; the table had the
    rule reader. The taught one is worth more (10 - 3 x 4 = -2 against -4)."""
    rules, taught = reads(0, wrong=1, dice=98), reads(10, wrong=3, dice=98)
    assert worth(taught) > worth(rules)
    choice = choose(rules=rules, learned=taught, current=RULES)
    assert (choice.chosen, choice.changed, choice.reads_better) == (LEARNED, True, True)


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


def test_the_same_worth_keeps_the_table_s_reader() -> None:
    choice = choose(rules=reads(40), learned=reads(40), current=LEARNED)
    assert (choice.chosen, choice.changed) == (LEARNED, False)
    choice = choose(rules=reads(40), learned=reads(40 + CHOICE_COST, extra=1), current=RULES)
    assert (choice.chosen, choice.changed, choice.reads_better) == (RULES, False, False)


def test_a_reading_that_reads_no_die_right_ranks_below_any_that_reads_one() -> None:
    """Oblique-colour at 98 known dice: the taught network with its own detect read none of
    the held-out dice right (1 wrong), the untaught table 2 right and 5 wrong. Reading none
    is reading nothing at the table: it is neither kept nor chosen, whatever the errors."""
    nothing, some = reads(0, wrong=1, dice=98), reads(2, wrong=5, dice=98)
    assert worth(nothing) > worth(some) and rank(some) > rank(nothing)
    for current in (RULES, LEARNED):
        assert choose(rules=nothing, learned=some, current=current).chosen == LEARNED
        assert choose(rules=reads(0), learned=some, current=current).chosen == LEARNED
