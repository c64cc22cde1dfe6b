"""What a calibration of the table's dice says: both readers on the known throws, the taught
network or the fitted head before and after, and the throws not read exactly.

The sentences of :func:`firmware.teach.calibrate_reader.calibrate`, apart from what it does:
the command prints them, and the referee console's Dice page shows them as they come. Each
gives the figures a pub needs to judge the reader at its own table.
"""

from __future__ import annotations

from collections.abc import Callable

from vision.calibrate import adapt, folds, reader_choice
from vision.calibrate.known import Tally
from vision.learned import face_reader

#: pictures not read exactly that are named, at most
NAMED = 10
RULE = "more dice right with no more wrong, or as many right with fewer wrong"
#: the readers as a sentence names them
NAMES = {reader_choice.RULES: "rule", reader_choice.LEARNED: "learned"}
#: how the reader's choice and the taught network's keeping judge
#: (:func:`vision.calibrate.known.worth`)
CHOICE_RULE = (f"dice right less {reader_choice.CHOICE_COST} for each wrong or extra die, "
               "more is better; reading none right is worst")


def report_choice(result: adapt.Adaptation | folds.Teaching, settings: face_reader.Settings,
                   choice: reader_choice.Choice, say: Callable[[str], None]) -> None:
    """Both readers on every known throw and which the table reads with, in sentences."""
    if result.left_out:
        shown = ", ".join(result.left_out[:NAMED]) + (", ..." if len(result.left_out) > NAMED
                                                      else "")
        say(f"Left out {len(result.left_out)} pictures kept with corrections that cannot hold "
            f"dice (blank or covered): {shown}.")
    own = (f"the table's own head {settings.head.name}" if settings.head
           else "the model's head")
    if isinstance(result, folds.Teaching) and result.kept:
        own = "the table's own network, each throw read by one taught without it"
    say(f"Every known throw ({choice.rules.dice} dice), by the rule reader: "
        f"{_reads(choice.rules)}.")
    say(f"... by the learned reader ({own}): {_reads(choice.learned)}.")
    chosen = NAMES[choice.chosen]
    if choice.changed:
        say(f"The {chosen} reader reads them better ({CHOICE_RULE}): the table reads with it "
            "from now on.")
    elif choice.reads_better:
        say(f"The {chosen} reader, the table's now, reads them better ({CHOICE_RULE}): it "
            "stays.")
    else:
        say(f"Neither reader reads them better ({CHOICE_RULE}): the table keeps the "
            f"{chosen} reader.")


def report_teaching(result: folds.Teaching, say: Callable[[str], None]) -> None:
    """The known throws as the table reads them now, and as its taught network read each of
    them taught without it; in sentences, and what it cost."""
    say(f"The table's own network, taught {folds.FOLDS} times, each time on the known throws "
        f"but one fold of them ({result.examples_dice} dice and {result.examples_not_dice} "
        "places that are no die in all), and read on the fold held out:")
    if result.finder:
        say(f"Its die finder was taught too, on the {result.finder} pictures whose every die "
            "is boxed.")
    say(f"Untaught, as the table reads now: {_reads(result.untaught)}.")
    say(f"Taught, each throw read by a network that never saw it: {_reads(result.taught)}.")
    say("(At the table a throw with anything unsure in its zone goes to the referee.)")
    _failures(result.taught, say)
    if result.more_throws:
        say(f"So few known dice cannot show that fewer than 1 die in 500 is read wrong, so the "
            f"table stays careful: about {result.more_throws} more known throws would show "
            "it, or let the table be less careful.")
    say(f"The calibration took {result.seconds:.0f} seconds on this machine, reading the "
        "pictures and teaching the network included.")


def _failures(tally: Tally, say: Callable[[str], None]) -> None:
    if tally.failures:
        say("Not read exactly:")
        for line in tally.failures[:NAMED]:
            say(f"  {line}")
        if len(tally.failures) > NAMED:
            say(f"  and {len(tally.failures) - NAMED} more.")


def report_head(result: adapt.Adaptation, settings: face_reader.Settings,
            say: Callable[[str], None]) -> None:
    """The held-back throws before and after the head's adaptation; in sentences, and what
    it cost."""
    own = (f"the table's own head {settings.head.name}" if settings.head
           else "the model's head")
    fitted, held = len(result.fitted), len(result.held_back)
    say(f"The learned reader's head, fitted on {fitted} of the pictures "
        f"({result.examples_dice} dice matched, and {result.examples_not_dice} places that "
        f"are no die), checked on the {held} held back ({result.before.dice} dice):")
    say(f"Before, with {own}: {_reads(result.before)}.")
    say(f"Adapted to this table: {_reads(result.after)}.")
    say("(At the table a throw with anything unsure in its zone goes to the referee.)")
    _failures(result.after, say)
    say(f"The calibration took {result.seconds:.1f} seconds on this machine, reading the "
        "pictures with both readers included.")


def _reads(s: Tally) -> str:
    """One sentence's worth of figures: what a pub needs to judge the reader here."""
    share = f" ({100 * s.right / s.dice:.0f}%)" if s.dice else ""
    return (f"{s.right} of {s.dice} dice read right{share}, {s.wrong} wrong, {s.unsure} unsure, "
            f"{s.missed} missed, {s.extra} extra; {s.exact} of {s.pictures} pictures exact")
