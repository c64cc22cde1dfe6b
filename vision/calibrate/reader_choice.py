"""Which reader this table reads with: the one that reads its own known throws better.

Why (issue 35): the learned reader is not the table's default, because the rule reader still
reads webcam-wood's white dice better; yet on coloured dice the rule reader reads a fifth of
what the learned one reads (the shared Valid splits, 4 December 2026: topdown-colour 17.9%
against 86.7%, oblique-colour 17.7% against 64.1%). A pub does not need the default to be
right for every table, only for its own: so ``bidou-table calibrate`` reads the table's known
throws with both readers and the table reads with the one that reads them better.

The rule (:func:`choose`): a reader is better when it reads more dice right with no more
errors, or as many right with fewer; an error is a wrong value or a die read where none was
thrown (the issue counts both as wrong). When neither is better (more right, but more
errors), the table keeps the reader it has: a choice between two risks is the pub's.

Judged on every known throw, not only the held-back third that judges a fitted head
(:mod:`vision.calibrate.adapt`): neither reader is fitted on them, so all of them are fair, and a
choice on 60 dice is steadier than on 20.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.calibrate.adapt import Known, better
from vision.calibrate.known import Tally, by_values
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
    reads_better: bool  # the chosen reads them better; else neither did and the table's stays

    @property
    def changed(self) -> bool:
        return self.chosen != self.current


def errors(t: Tally) -> int:
    """Wrong values and dice read where none was thrown."""
    return t.wrong + t.extra


def choose(rules: Tally, learned: Tally, current: str) -> Choice:
    """The reader that reads the known throws better (:func:`vision.calibrate.adapt.better`,
    counting
    :func:`errors`); the current one when neither does."""
    if better(rules, learned, errors):
        return Choice(rules, learned, current, LEARNED, True)
    if better(learned, rules, errors):
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
