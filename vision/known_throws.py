"""The table's own known throws: photographs taken at this table of dice whose values are known,
to choose the learned reader's thresholds here rather than on the training sets.

Why values and not boxes: a pub cannot draw a box round every die, but whoever throws can write
down what the dice show. So each picture ``NAME.jpg`` (or ``.png``) has a ``NAME.txt`` beside
it holding the values, e.g. ``2 4 6`` (digits 1-6, spaces or commas, any order; empty: no dice),
and a picture is scored by its values as a multiset (:func:`by_values`), not by where each die
lies. The search is :func:`vision.thresholds.best`, the one that chose the model's own
thresholds, with the same grid and wrong budget, over the thresholds a table may set
(``[vision]``, :mod:`vision.settings`); the others stay the model's. A few dozen throws may
tighten the model's thresholds but not loosen them: that takes enough dice to show a wrong value
rarer than 1 in 200 (:func:`calibrate`).

``bidou-table calibrate --known-throws DIR`` (:mod:`hardware.calibrate_reader`) runs it and
writes the result into the config.
"""

from __future__ import annotations

import math
import pathlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from engine.errors import BidouError, VisionError
from vision.learned_reader import DEFAULTS, ReaderSettings, Seen, looks_above, thresholds_of
from vision.networks import Networks
from vision.picture import checked_picture
from vision.reading import Die, Unsure
from vision.settings import THRESHOLDS
from vision.thresholds import (
    GRID,
    WRONG_BUDGET,
    SeenAt,
    best,
    look_at_each,
    score,
    verdicts,
    within_budget,
)
from vision_lab.evaluate import Score

#: the picture files a folder of known throws may hold
SUFFIXES = (".jpg", ".jpeg", ".png")
DIGITS = frozenset("123456")
#: the fewest known throws worth choosing from: fewer and one lucky picture decides
FEWEST = 20
#: the grid of the thresholds a table may set, in the search's order (loosest first)
TABLE_GRID = {name: values for name, values in GRID.items() if name in THRESHOLDS}
#: the table's promise: a wrong value rarer than 1 in 200 dice
PROMISE = 1 / 200
#: how sure the known throws must make it before any threshold is set looser than the model's
CONFIDENCE = 0.95


class KnownThrowsError(BidouError, ValueError):
    """A folder of known throws that cannot be used: one sentence naming the file at fault."""


@dataclass(frozen=True)
class Throw:
    """One known throw: its picture and the values of the dice in it."""

    path: pathlib.Path
    values: tuple[int, ...]


@dataclass(frozen=True)
class Thrown:
    """A known throw as the reader saw it at each detect threshold (a picture for the search)."""

    name: str
    values: tuple[int, ...]
    seen: tuple[Seen, ...] | SeenAt


@dataclass(frozen=True)
class Calibration:
    """How the reader reads the known throws with the model's thresholds and with the chosen."""

    model: dict[str, float]
    model_score: Score
    chosen: dict[str, float]  # only the thresholds a table may set
    chosen_score: Score
    within_budget: bool
    model_taken: int  # pictures the table would take as thrown (:func:`taken`)
    chosen_taken: int
    #: the highest wrong-value rate the chosen thresholds' score leaves likely (:func:`wrong_bound`)
    bound: float = 1.0

    @property
    def shown(self) -> bool:
        """Whether the throws show the promise kept (``CONFIDENCE`` sure) at the chosen ones."""
        return self.bound <= PROMISE


def parse_values(text: str, path: pathlib.Path) -> tuple[int, ...]:
    """The values written in a known throw's ``.txt``: digits 1-6, spaces or commas between."""
    tokens = [t for t in re.split(r"[\s,]+", text) if t]
    if any(t not in DIGITS for t in tokens):
        shown = " ".join(text.split())
        shown = shown if len(shown) <= 40 else shown[:40] + "..."
        raise KnownThrowsError(
            f"{path} holds {shown!r}, not the values of the dice in its picture: write digits "
            "1 to 6 separated by spaces or commas, e.g. 2 4 6 (an empty file: no dice)")
    return tuple(int(t) for t in tokens)


def find_throws(folder: pathlib.Path, fewest: int = FEWEST) -> list[Throw]:
    """The known throws in ``folder``, checked before any is read (:class:`KnownThrowsError`).

    Every picture needs its ``.txt``, every ``.txt`` its values, and every picture must be one
    OpenCV can decode, so a bad file stops the calibration before minutes of reading.
    """
    if not folder.is_dir():
        raise KnownThrowsError(f"there is no folder {folder}: give the folder that holds the "
                               "pictures of the known throws and their .txt files")
    paths = sorted(p for p in folder.iterdir()
                   if p.suffix.lower() in SUFFIXES and p.is_file())
    if not paths:
        raise KnownThrowsError(f"{folder} holds no pictures (.jpg or .png) of known throws")
    if len(paths) < fewest:
        raise KnownThrowsError(f"a few dozen known throws are needed: found {len(paths)}; "
                               f"take at least {fewest}")
    throws = []
    for path in paths:
        label = path.with_suffix(".txt")
        if not label.is_file():
            raise KnownThrowsError(f"{path.name} has no {label.name} beside it: write the "
                                   "values of its dice there, e.g. 2 4 6")
        text = label.read_text(encoding="utf-8", errors="replace")
        throws.append(Throw(path, parse_values(text, label)))
    for throw in throws:
        load_picture(throw.path, cv2.IMREAD_REDUCED_GRAYSCALE_8)  # a quick decode: readable?
    return throws


def load_picture(path: pathlib.Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """A known throw's picture, or a :class:`KnownThrowsError` naming it."""
    try:  # the bytes first: a missing file is not "not a picture", and no OpenCV warning
        data = path.read_bytes()
    except OSError as exc:
        raise KnownThrowsError(f"cannot read {path}: {exc.strerror}") from None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags) if data else None
    if image is None or image.size == 0:
        raise KnownThrowsError(f"{path} is not a picture OpenCV can read (corrupt or not an "
                               "image file): take it again or remove it with its .txt")
    return image


def look_throws(throws: Sequence[Throw], nets: Networks,
                settings: ReaderSettings | None = None) -> list[Thrown]:
    """Read every known throw once per detect threshold of the grid (with the crops above each
    place when the model's own thresholds use them: ``above_value`` stays the model's)."""
    settings = settings or ReaderSettings()
    above = looks_above(thresholds_of(nets, settings))
    out = []
    for throw in throws:
        try:
            image = checked_picture(load_picture(throw.path))
        except VisionError as exc:
            raise KnownThrowsError(f"{throw.path}: {exc}") from None
        out.append(Thrown(throw.path.name, throw.values,
                          look_at_each(image, nets, settings, above=above)))
    return out


def by_values(item: Thrown, dice: list[Die], unsure: list[Unsure]) -> Score:
    """One known throw scored by its values as a multiset, as a player would check it.

    The sure dice's values R against the known K: *right* is the size of their multiset
    intersection; a sure die beyond it stands in for a known die, *wrong*, as long as known
    dice are left (``min(len(R) - right, len(K) - right)``); the sure dice beyond the known
    count are *extra*; the known dice still left are *unsure* while there are unsure places,
    then *missed*. Exact: every known die right and no extra die.
    """
    known, read = Counter(item.values), Counter(d.value for d in dice)
    right = sum((known & read).values())
    wrong = min(len(dice) - right, len(item.values) - right)
    left = len(item.values) - right - wrong
    unsure_ones = min(left, len(unsure))
    s = Score(labels=len(item.values), right=right, wrong=wrong, unsure=unsure_ones,
              missed=left - unsure_ones, extra=len(dice) - right - wrong,
              extra_unsure=len(unsure) - unsure_ones, pictures=1)
    s.exact = int(right == s.labels and not s.extra)
    if not s.exact:
        s.failures.append(f"{item.name}: thrown {_values(item.values)}, read "
                          f"{_values(tuple(d.value for d in dice))}"
                          + (f" and {len(unsure)} unsure" if unsure else ""))
    return s


def _values(values: tuple[int, ...]) -> str:
    return " ".join(map(str, sorted(values))) or "no dice"


def taken(thrown: Sequence[Thrown], thresholds: dict[str, float]) -> int:
    """The pictures the table would take as thrown: exact, and no unsure place anywhere.

    Stricter than exact: at the table an unsure place in a seat's zone, even where no die was
    thrown, makes the throw the referee's to check (:func:`vision.zones.read_seat`).
    """
    t = {**DEFAULTS, **thresholds}
    count = 0
    for item in thrown:
        dice, unsure = verdicts(item.seen, t)
        count += not unsure and sorted(d.value for d in dice) == sorted(item.values)
    return count


def wrong_bound(wrong: int, dice: int, confidence: float = CONFIDENCE) -> float:
    """The highest rate of wrong values under which ``wrong`` or fewer in ``dice`` would still
    happen more often than ``1 - confidence`` (the one-sided Clopper-Pearson upper bound).

    Why: none wrong in 71 dice is not a rate of 0; a reader wrong once in 30 dice reads 71
    without a wrong value one time in ten. Only about 600 dice read with none wrong show a rate
    under 1 in 200 (95% sure).
    """
    if dice <= 0 or wrong >= dice:
        return 1.0
    lo, hi = wrong / dice, 1.0
    for _ in range(60):  # bisection: the chance of so few wrong falls as the rate rises
        mid = (lo + hi) / 2
        if binomial_at_most(wrong, dice, mid) > 1 - confidence:
            lo = mid
        else:
            hi = mid
    return hi


def binomial_at_most(k: int, n: int, p: float) -> float:
    """The chance of at most ``k`` wrong in ``n`` dice, each wrong with chance ``p``."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return float(k >= n)
    return sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                        + i * math.log(p) + (n - i) * math.log1p(-p)) for i in range(k + 1))


def dice_to_show(promise: float = PROMISE, confidence: float = CONFIDENCE) -> int:
    """How many dice read with none wrong show a wrong-value rate under ``promise``."""
    return math.ceil(math.log(1 - confidence) / math.log1p(-promise))


def no_looser(model: dict[str, float]) -> dict[str, tuple[float, ...]]:
    """The table's grid cut to thresholds at least as strict as the model's (each threshold
    rejects more as it rises), the model's own value included."""
    return {name: tuple(sorted({v for v in values if v >= model[name]} | {model[name]}))
            for name, values in TABLE_GRID.items()}


def calibrate(thrown: Sequence[Thrown], nets: Networks,
              budget: float = WRONG_BUDGET) -> Calibration:
    """Choose the table's thresholds on its known throws, and score the model's own beside.

    The search reads the most dice within the budget; when the throws are too few to show the
    table's promise kept at that choice (:func:`wrong_bound`), it chooses again among
    thresholds no looser than the model's: a few dozen throws may tighten the model's
    thresholds (a wrong value there is evidence) but not loosen them (none wrong in a few
    hundred dice is not). On one shared set's 256 calibration dice, loosening with none wrong
    read that set's Valid with 1.6% wrong (``python -m vision_lab.evaluate --own-calibration``).
    """
    model = thresholds_of(nets, ReaderSettings())
    chosen, chosen_score = best(thrown, budget, by_values, TABLE_GRID, base=model)
    bound = wrong_bound(chosen_score.wrong, chosen_score.labels)
    if bound > PROMISE:
        chosen, chosen_score = best(thrown, budget, by_values, no_looser(model), base=model)
        bound = wrong_bound(chosen_score.wrong, chosen_score.labels)
    return Calibration(model, score(thrown, model, by_values), chosen, chosen_score,
                       within_budget(chosen_score, budget), taken(thrown, model),
                       taken(thrown, {**model, **chosen}), bound)
