"""Whether the table keeps what it taught itself: no more wrong dice, and a wrong die dear.

Why a rule of its own, stricter than the calibration's: nobody looks at a teaching the table
does by itself while the pub is idle, and a referee who is sure and wrong is worse than none.
So a taught reader is kept only when, on the known throws held out of its teaching,

- it reads **no more wrong dice** (wrong values plus dice read where none was) than the table
  reads now on the same throws, and
- it is worth more there, a wrong die costing :data:`WRONG_PRICE` right ones (a referee's
  price: a showdown decided wrongly, unseen, against a throw the players settle by hand),

and the calibration itself kept it (:mod:`vision.calibrate`'s own judgement). Only the
tallies the calibration returns are read (``before``: the held-out throws as the table reads
them now; ``after``: as the taught reader read them), so the calibration may change inside.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.teach.calibrate_reader import Calibration
from firmware.words.phrases import N_, Phrase
from vision.calibrate.known import Tally

#: right dice a wrong die (a wrong value or a die read where none was) costs
WRONG_PRICE = 100


@dataclass(frozen=True)
class Verdict:
    """Kept or not, and why (a phrase the Dice page says in the reader's language)."""

    kept: bool
    why: Phrase


def wrong_dice(t: Tally) -> int:
    """Wrong values and dice read where none was thrown."""
    return t.wrong + t.extra


def priced(t: Tally) -> int:
    """Dice right less :data:`WRONG_PRICE` for each wrong die."""
    return t.right - WRONG_PRICE * wrong_dice(t)


def judge(before: Tally, after: Tally, calibration_kept: bool) -> Verdict:
    """The keep rule (module docstring) on the held-out throws ``before`` and ``after``."""
    if wrong_dice(after) > wrong_dice(before):
        return Verdict(False, N_("not kept: wrong dice on the throws held out, %(after)s against "
                                 "%(before)s as the table reads now",
                                 after=wrong_dice(after), before=wrong_dice(before)))
    if priced(after) <= priced(before):
        return Verdict(False, N_("not kept: it reads no more of the throws held out right "
                                 "(%(after)s right against %(before)s), a wrong die counted "
                                 "as %(price)s right ones", after=after.right,
                                 before=before.right, price=WRONG_PRICE))
    if not calibration_kept:
        return Verdict(False, N_("not kept: the calibration found it no better"))
    return Verdict(True, N_("kept: %(after)s right and %(wrong)s wrong on the throws held out, "
                            "against %(before)s right and %(was)s wrong",
                            after=after.right, wrong=wrong_dice(after), before=before.right,
                            was=wrong_dice(before)))


def judge_calibration(done: Calibration) -> Verdict:
    """The keep rule on a finished calibration: a failed one is not kept, with its sentence."""
    if done.error is not None or done.result is None:
        return Verdict(False, N_("not kept: the calibration stopped (%(error)s)",
                                 error=done.error or "no result"))
    result = done.result
    return judge(result.before, result.after, result.kept)
