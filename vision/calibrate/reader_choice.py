"""Which reader this table reads with: the one that reads its own known throws better.

Why: no reader is best for every table. A table whose config names none reads a camera's
photographs with the learned reader (:func:`vision.settings.default_reader`: on coloured dice
the rule reader reads a fifth of what the learned one reads, and on white dice with black
pips photographed outside the project 20.8% against 92.8%), yet the rule reader reads
webcam-wood's white dice, the set it was tuned on, better (99.2% against 93.7%). A pub does
not need the default to be right for every table, only for its own: so ``bidou-table
calibrate`` reads the table's known throws with both readers and the table reads with the one
that reads them better (``current``: the one it reads with now, named or by default).

The rule (:func:`choose`), one figure: a reader's **worth** on the known throws is the dice
it reads right less :data:`CHOICE_COST` for each error, an error being a wrong value or a die
read where none was thrown (the issue counts both as wrong); the reader worth more is chosen,
and on equal worth the table keeps the reader it has. An unsure or missed die is worth 0: the
referee reads it. A reader that reads none of them right reads nothing at the table: it is
ranked below any that reads one right, whatever their errors (:func:`vision.calibrate.
known.rank`; oblique-colour at 98 known dice, the finder and face network taught with their
own ``detect`` read none of the held-out dice right and 1 wrong, the untaught table 2 right
and 5 wrong: by worth alone the taught one, which then read 0.0% of the set's other dice,
was kept).

Why :data:`CHOICE_COST` is 4 and not the issue's 0.5% wrong (1 error in 200 dice): that
target judges a table on hundreds of dice; the held-out folds of one calibration hold a few
dozen, where one error is already 1-2%, so at 200 right for each error a reader that reads
nothing right would beat every reader that errs once (as a new table at 98 known dice of
oblique-colour, the rule reader read 0 right and 1 wrong on them, the taught network 10 right
and 3 wrong, and the rule reader was chosen; it then read 9.5% of the set's other dice).
An error costs four dice right: it is found only when a player objects and undone by the
referee, where an unsure die is looked at once.

Judged on every known throw, not only the held-back third that judges a fitted head
(:mod:`vision.calibrate.adapt`): neither reader is fitted on them, so all of them are fair, and a
choice on 60 dice is steadier than on 20.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.calibrate.adapt import Known
from vision.calibrate.known import CHOICE_COST, Tally, by_values, rank, worth
from vision.rules.reader import read_dice as rule_reader
from vision.settings import READERS

#: the readers' names as ``[vision] reader`` takes them
RULES, LEARNED = READERS


@dataclass(frozen=True)
class Choice:
    """Both readers' tallies on the known throws, the reader the table had, and the one it
    reads with from now."""

    rules: Tally
    learned: Tally
    current: str
    chosen: str
    reads_better: bool  # the chosen is worth more on them; else both are worth the same

    @property
    def changed(self) -> bool:
        return self.chosen != self.current


__all__ = ["CHOICE_COST", "LEARNED", "RULES", "Choice", "choose", "rank", "rule_tally", "worth"]


def choose(rules: Tally, learned: Tally, current: str) -> Choice:
    """The reader ranked higher on the known throws (:func:`vision.calibrate.known.rank`:
    one that reads some die right over one that reads none, then the one worth more); the
    current one when both rank the same."""
    if rank(learned) > rank(rules):
        return Choice(rules, learned, current, LEARNED, True)
    if rank(rules) > rank(learned):
        return Choice(rules, learned, current, RULES, True)
    return Choice(rules, learned, current, current, False)


def rule_tally(known: Sequence[Known]) -> Tally:
    """The rule reader on the known throws, by their values (each picture loaded again: the
    learned reader's reading of it, :func:`vision.calibrate.adapt.read_known`, keeps no pixels)."""
    total = Tally()
    for item in known:
        reading = rule_reader(item.picture())
        total.add(by_values(item.name, item.values, reading.dice, reading.unsure))
    return total
