"""Known throws: pictures of dice whose values are known, and how a reading of one is scored.

Why values and not boxes: a pub cannot draw a box round every die, but whoever throws can write
down what the dice show. So each picture ``NAME.jpg`` (or ``.png``) has a ``NAME.txt`` beside
it holding the values, e.g. ``2 4 6`` (digits 1-6, spaces or commas, any order; empty: no dice),
and a picture is scored by its values as a multiset (:func:`by_values`), not by where each die
lies. A referee's dice correction is a known throw too: its picture kept in the log, its values
the corrected ones (:mod:`firmware.teach.correction_pictures`).

Its own module, apart from the table's adaptation (:mod:`vision.calibrate.adapt`) that reads it: the
folder format needs no network.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.errors import BidouError
from vision.reading import Die, Unsure

#: the picture files a folder of known throws may hold
SUFFIXES = (".jpg", ".jpeg", ".png")
DIGITS = frozenset("123456")


class KnownThrowsError(BidouError, ValueError):
    """Known throws that cannot be used: one sentence naming the file at fault (or the count
    that is short) and what to do."""


#: a die's box (x, y, w, h in the picture's pixels) and its value (0: not a die)
BoxedValue = tuple[tuple[float, float, float, float], int]


@dataclass(frozen=True)
class Throw:
    """One known throw in a folder: its picture, the values of the dice in it, and each
    die's box when ``NAME.json`` gives them (:func:`load_boxes`)."""

    path: pathlib.Path
    values: tuple[int, ...]
    boxes: tuple[BoxedValue, ...] | None = None


@dataclass
class Tally:
    """How a reader read dice whose values are known: the one scorekeeper of the project.

    A table's known throws are scored by their values (:func:`by_values`), the evaluator's
    labelled photographs by where each die lies (:func:`vision_lab.evaluate.score_reading`);
    both add up here, so calibration and evaluation count alike. ``dice``: the known (or
    labelled) dice; ``extra``: dice read where none was; ``unsure_places``: unsure places
    beyond the known dice (at the table they too send the throw to the referee); ``exact``:
    pictures with every die right and none extra; ``seconds``: reading time, where measured.
    ``failures`` names every picture not read exactly.
    """

    dice: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    missed: int = 0
    extra: int = 0
    unsure_places: int = 0
    pictures: int = 0
    exact: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("dice", "right", "wrong", "unsure", "missed", "extra", "unsure_places",
                     "pictures", "exact", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failures.extend(other.failures)

    @property
    def recall(self) -> float:
        return self.right / self.dice if self.dice else 1.0

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.dice if self.dice else 0.0

    def summary(self) -> str:
        return (f"{self.pictures} pictures, {self.dice} dice: right {self.right} "
                f"({100 * self.recall:.1f}% recall), wrong value {self.wrong} "
                f"({100 * self.wrong_rate:.2f}%), unsure {self.unsure}, missed {self.missed}, "
                f"extra dice {self.extra}, extra unsure {self.unsure_places}")

    def figures(self) -> dict[str, int]:
        """The counts, for a JSON record of the calibration."""
        return {name: getattr(self, name) for name in (
            "dice", "right", "wrong", "unsure", "missed", "extra", "pictures", "exact")}


#: what one error (a wrong value, or a die read where none was thrown) costs, in dice read
#: right, wherever a calibration judges a reading of known throws: when it chooses thresholds,
#: keeps a taught network, or chooses the reader. Why 100: a referee who is unsure asks, one
#: who is sure and wrong decides a showdown unseen; at 2% wrong dice about one showdown in
#: nine is decided wrongly. At 20 (thresholds) and 4 (keeping), dice with a 5-20% chance of
#: being wrong were given values, and a taught table read 1.3-3.7% of its rest wrong
ERROR_COST = 100
#: the same cost, by the name the reader's choice and its report use
CHOICE_COST = ERROR_COST
#: the share of wrong dice a table aims under (wrong values and phantom dice, of its dice)
WRONG_TARGET = 0.002
#: the values that show it with none wrong (:func:`needed_dice`): fewer known dice than this
#: cannot, and a calibration on them stays careful (:func:`vision.learned.opinions.careful`)
SHOWS_TARGET = math.ceil(1 / WRONG_TARGET) - 1


def errors(t: Tally) -> int:
    """Wrong values and dice read where none was thrown."""
    return t.wrong + t.extra


def worth(t: Tally) -> int:
    """What a reader's reading of known throws is worth: dice right less :data:`ERROR_COST`
    for each wrong value or die read where none was thrown; unsure and missed dice are worth
    0 (the referee reads them)."""
    return t.right - ERROR_COST * errors(t)


def rank(t: Tally) -> tuple[int, int]:
    """How a calibration orders two readings of the same known throws, better last: by
    :func:`worth`, then by fewer errors. A reading that reads nothing right and nothing wrong
    sends every die to the referee: worth 0, above one that reads 40 right and one wrong."""
    return (worth(t), -errors(t))


def needed_dice(given: int, wrong: int, known: int, target: float = WRONG_TARGET) -> int:
    """How many more known dice would let held-out readings show a wrong share under
    ``target``: of ``known`` dice, ``given`` were given a value on the held-out folds and
    ``wrong`` of those were wrong (or phantom). A calibration set of n values bounds the
    share wrong on new dice by (wrong + 1) / (n + 1) (split conformal), so it needs
    (wrong + 1) / target - 1 values; the known dice needed grow as the share of them given a
    value. 0 when the known dice already show it."""
    values = math.ceil((wrong + 1) / target) - 1
    if given >= values:
        return 0
    rate = given / known if known and given else 1.0
    return max(0, math.ceil(values / rate) - known)


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


def find_throws(folder: pathlib.Path, fewest: int = 1) -> list[Throw]:
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
        values = parse_values(text, label)
        boxes = load_boxes(path.with_suffix(".json"), values)
        throws.append(Throw(path, values, boxes))
    for throw in throws:
        load_picture(throw.path, cv2.IMREAD_REDUCED_GRAYSCALE_8)  # a quick decode: readable?
    return throws


def load_boxes(path: pathlib.Path, values: Sequence[int] | None = None,
               ) -> tuple[BoxedValue, ...] | None:
    """The boxes of a known throw's ``NAME.json`` (the referee console's teach page writes
    it): a list of ``{"box": [x, y, w, h], "value": v}``, v 1-6 or 0 for "not a die"; None
    when there is no such file. Its dice must be the ``.txt``'s values when those are given."""
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        boxes = tuple((tuple(float(c) for c in item["box"]), int(item["value"]))
                      for item in data)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise KnownThrowsError(f"{path} is not a list of dice boxes ({exc}): write "
                               '[{"box": [x, y, w, h], "value": 1-6 or 0}, ...] or delete it '
                               "to teach from the values alone") from None
    for box, value in boxes:
        if len(box) != 4 or box[2] <= 0 or box[3] <= 0 or not 0 <= value <= 6:
            raise KnownThrowsError(f"{path} holds a box {list(box)} with value {value}: a box "
                                   "is [x, y, w, h] with w and h above 0, a value 1-6 or 0 "
                                   "for not a die")
    checked = tuple(((box[0], box[1], box[2], box[3]), value) for box, value in boxes)
    if values is not None and Counter(v for _, v in boxes if v) != Counter(values):
        raise KnownThrowsError(f"{path}'s dice ({_values([v for _, v in boxes if v])}) are not "
                               f"the values in {path.with_suffix('.txt').name} "
                               f"({_values(values)}): make the two agree")
    return checked


def load_picture(path: pathlib.Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """A known throw's picture, or a :class:`KnownThrowsError` naming it."""
    try:  # the bytes first: a missing file is not "not a picture", and no OpenCV warning
        data = path.read_bytes()
    except OSError as exc:
        raise KnownThrowsError(f"cannot read {path}: {exc.strerror}") from None
    image = decode_picture(data, flags)
    if image is None:
        raise KnownThrowsError(f"{path} is not a picture OpenCV can read (corrupt or not an "
                               "image file): take it again or remove it with its .txt")
    return image


def decode_picture(data: bytes, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """JPEG or PNG bytes as a picture, or None when they are not one."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags) if data else None
    return None if image is None or image.size == 0 else image


def by_values(name: str, values: Sequence[int], dice: Sequence[Die],
              unsure: Sequence[Unsure]) -> Tally:
    """One known throw scored by its values as a multiset, as a player would check it.

    The sure dice's values R against the known K: *right* is the size of their multiset
    intersection; a sure die beyond it stands in for a known die, *wrong*, as long as known
    dice are left (``min(len(R) - right, len(K) - right)``); the sure dice beyond the known
    count are *extra*; the known dice still left are *unsure* while there are unsure places,
    then *missed*. Exact: every known die right and no extra die.
    """
    known, read = Counter(values), Counter(d.value for d in dice)
    right = sum((known & read).values())
    wrong = min(len(dice) - right, len(values) - right)
    left = len(values) - right - wrong
    unsure_ones = min(left, len(unsure))
    s = Tally(dice=len(values), right=right, wrong=wrong, unsure=unsure_ones,
              missed=left - unsure_ones, extra=len(dice) - right - wrong,
              unsure_places=len(unsure) - unsure_ones, pictures=1)
    s.exact = int(right == s.dice and not s.extra)
    if not s.exact:
        s.failures.append(f"{name}: thrown {_values(values)}, read "
                          f"{_values([d.value for d in dice])}"
                          + (f" and {len(unsure)} unsure" if unsure else ""))
    return s


def _values(values: Sequence[int]) -> str:
    return " ".join(map(str, sorted(values))) or "no dice"
