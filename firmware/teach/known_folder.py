"""The table's folder of known throws: pictures of its own dice with their values, and a tally.

Why a folder beside the log: ``bidou-table calibrate --known-throws DIR`` already reads this
format (:mod:`vision.calibrate.known`: ``NAME.jpg`` and ``NAME.txt`` holding the values), so a
throw the referee teaches from the console is a known throw for the command too, and the console's
"Learn these dice" runs the same calibration on the same folder. Each throw also has
``NAME.json``: every die's box and value (``{"box": [x, y, w, h], "value": v}``, v 1-6, or 0
for a place the reader took for a die that is none), which the calibration uses where present.

A throw is written so that a crash never leaves a half one: each file is written aside and
renamed, the picture last (the calibration lists pictures, and a picture without its ``.txt``
would stop it), and deleted picture first.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import cv2
import numpy as np

from firmware.words.phrases import N_, NN_, Phrase
from vision.calibrate.known import SUFFIXES, KnownThrowsError, parse_values

#: the folder's name, beside the table's log
FOLDER = "known-throws"
#: dice the calibration needs at the least (``vision.adapt.FEWEST_DICE``), and for a good one
FEWEST_DICE = 30
GOOD_DICE = 60
#: each value seen this often at least, for a good calibration
GOOD_PER_VALUE = 5
NOT_A_DIE = 0
#: a throw's name: letters, digits and - only (it is part of addresses and file names)
NAME = re.compile(r"^[A-Za-z0-9-]{1,80}$")


@dataclass(frozen=True)
class Marked:
    """One place on a known throw's picture: its box (x, y, w, h) and value (0: not a die)."""

    box: tuple[int, int, int, int]
    value: int

    def to_json(self) -> dict[str, object]:
        return {"box": list(self.box), "value": self.value}


@dataclass(frozen=True)
class KnownThrow:
    """A throw in the folder: its name, where it came from, its dice's values and places."""

    name: str
    values: tuple[int, ...]
    marked: tuple[Marked, ...]


@dataclass(frozen=True)
class TallyOfDice:
    """The dice the table knows: in the folder, and in the referee's corrections of play."""

    throws: int
    dice: int
    per_value: dict[int, int]
    corrections: int
    correction_dice: int

    @property
    def total(self) -> int:
        return self.dice + self.correction_dice

    def needs(self) -> list[Phrase]:
        """What is still needed, as sentences for the console (said in its language); empty
        when enough for a good calibration."""
        words = []
        if self.total < FEWEST_DICE:
            more = math.ceil((FEWEST_DICE - self.total) / 3)
            words.append(NN_("At least %(least)s dice are needed to learn them: %(short)s "
                             "more, about %(n)s throw of 3.",
                             "At least %(least)s dice are needed to learn them: %(short)s "
                             "more, about %(n)s throws of 3.", more, least=FEWEST_DICE,
                             short=FEWEST_DICE - self.total))
        missing = [str(v) for v in range(1, 7) if not self.per_value.get(v)]
        if missing:
            words.append(N_("No %(values)s yet.", values=_none_of(missing)))
        elif any(self.per_value[v] < GOOD_PER_VALUE for v in range(1, 7)):
            few = [str(v) for v in range(1, 7) if self.per_value[v] < GOOD_PER_VALUE]
            words.append(N_("Fewer than %(good)s of %(values)s.", good=GOOD_PER_VALUE,
                            values=", ".join(few)))
        if FEWEST_DICE <= self.total < GOOD_DICE:
            more = math.ceil((GOOD_DICE - self.total) / 3)
            words.append(NN_("Take %(n)s more throw for a good calibration.",
                             "Take %(n)s more throws for a good calibration.", more))
        return words


def _none_of(values: list[str]) -> Phrase:
    """"1 and no 2 and no 3": the values missing, said after "No"."""
    said = Phrase(values[0])
    for value in values[1:]:
        said = N_("%(values)s and no %(value)s", values=said, value=value)
    return said


class KnownFolder:
    """The known throws of one table (module docstring). Thread-safe."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def throws(self) -> list[KnownThrow]:
        """Every known throw, newest first; files that are not a whole throw are skipped."""
        if not self.path.is_dir():
            return []
        found = []
        for picture in self.path.iterdir():
            if picture.suffix.lower() not in SUFFIXES or picture.name.startswith("."):
                continue
            known = self._read(picture.stem)
            if known is not None:
                found.append((picture.stat().st_mtime, known))
        return [known for _, known in sorted(found, key=lambda f: (f[0], f[1].name),
                                             reverse=True)]

    def throw(self, name: str) -> KnownThrow | None:
        """The throw ``name`` (None: no such throw, or not a name)."""
        if not NAME.match(name) or not self._picture(name):
            return None
        return self._read(name)

    def picture(self, name: str) -> bytes | None:
        """The picture's bytes (JPEG or PNG), or None."""
        path = self._picture(name) if NAME.match(name) else None
        return path.read_bytes() if path is not None else None

    def _picture(self, name: str) -> pathlib.Path | None:
        for suffix in SUFFIXES:
            path = self.path / f"{name}{suffix}"
            if path.is_file():
                return path
        return None

    def _read(self, name: str) -> KnownThrow | None:
        try:
            text = (self.path / f"{name}.txt").read_text(encoding="utf-8")
            values = parse_values(text, self.path / f"{name}.txt")
        except (OSError, KnownThrowsError):
            return None
        marked: tuple[Marked, ...] = ()
        try:
            raw = json.loads((self.path / f"{name}.json").read_text(encoding="utf-8"))
            marked = tuple(Marked(tuple(int(n) for n in m["box"]), int(m["value"]))  # type: ignore[arg-type]
                           for m in raw)
        except (OSError, ValueError, TypeError, KeyError):
            marked = ()
        return KnownThrow(name, values, marked)

    def save(self, image: np.ndarray, marked: Sequence[Marked], seat: str | None) -> str:
        """Write a new known throw (picture, values, boxes); its name. OSError when the
        folder cannot be written (nothing half-written stays)."""
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise OSError("the picture could not be encoded as JPEG")
        values = sorted(m.value for m in marked if m.value != NOT_A_DIE)
        with self._lock:
            self.path.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            who = re.sub(r"[^A-Za-z0-9]", "", seat or "photo")[:20] or "seat"
            name, n = f"{stamp}-{who}", 1
            while any((self.path / f"{name}{s}").exists() for s in (*SUFFIXES, ".txt")):
                n += 1
                name = f"{stamp}-{who}-{n}"
            files = [(f"{name}.txt", (" ".join(map(str, values)) + "\n").encode()),
                     (f"{name}.json", json.dumps([m.to_json() for m in marked]).encode()),
                     (f"{name}.jpg", bytes(jpeg))]
            written: list[pathlib.Path] = []
            try:
                for file, data in files:
                    aside = self.path / f".{file}.tmp"
                    aside.write_bytes(data)
                    os.replace(aside, self.path / file)
                    written.append(self.path / file)
            except OSError:
                for path in written:
                    path.unlink(missing_ok=True)
                raise
            finally:
                for file, _ in files:
                    (self.path / f".{file}.tmp").unlink(missing_ok=True)
        return name

    def delete(self, name: str) -> bool:
        """Delete the throw ``name`` (its picture first); False when there is none."""
        with self._lock:
            picture = self._picture(name) if NAME.match(name) else None
            if picture is None:
                return False
            picture.unlink()
            for suffix in (".txt", ".json"):
                (self.path / f"{name}{suffix}").unlink(missing_ok=True)
        return True

    def files(self) -> dict[str, bytes]:
        """Every file in the folder and its bytes (what the tests check is untouched)."""
        if not self.path.is_dir():
            return {}
        return {p.name: p.read_bytes() for p in sorted(self.path.iterdir()) if p.is_file()}

    def tally(self, corrections: Sequence[Sequence[int]] = ()) -> TallyOfDice:
        """The dice known: the folder's, per value, and the referee's ``corrections`` (each
        a corrected throw's values, from the log)."""
        throws = self.throws()
        per_value = Counter(v for t in throws for v in t.values)
        for values in corrections:
            per_value.update(values)
        return TallyOfDice(len(throws), sum(len(t.values) for t in throws),
                           {v: per_value.get(v, 0) for v in range(1, 7)}, len(corrections),
                           sum(len(v) for v in corrections))
