"""The table's record of its teachings: when, from how many dice, the figures, kept or not.

Why a file beside the table's reader (``NAME.teachings.json`` beside the config
``NAME.toml``, or beside the log's ``NAME-kept.toml`` for a table started without one): a
teaching changes the files there, and the record must outlive a restart, both for the Dice
page's list and for the count of dice that came since the last teaching. The file is written
whole, aside and renamed (:func:`firmware.teach.reader_keeping.write_atomically`), so a crash
leaves the record before or after a teaching, never half of it; it is a list of
:class:`Teaching` as JSON, oldest first. A record that cannot be read is set aside
(``NAME.teachings.json.unreadable``) and said, never lost.
"""

from __future__ import annotations

import contextlib
import json
import pathlib
import threading
from dataclasses import asdict, dataclass
from typing import Any

from firmware.teach.reader_keeping import write_atomically
from firmware.words.phrases import Phrase

#: teachings listed on the page and kept in the file, at most (the newest)
KEEP = 200


@dataclass(frozen=True)
class Teaching:
    """One teaching: ``at`` (ISO 8601, UTC), ``by`` ("table": itself, when idle; "referee":
    Learn on the Dice page), the known dice it was taught from and how many were new,
    ``before`` and ``after`` (the held-out throws' figures, :meth:`Tally.figures`), whether
    the table kept it and why (a phrase, as JSON), and its seconds."""

    at: str
    by: str
    dice: int
    new_dice: int
    kept: bool | None
    why: dict[str, Any]
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    seconds: float = 0.0
    network: bool = False

    @property
    def said(self) -> Phrase:
        """Why, as a phrase (``why`` is its :meth:`Phrase.to_json`)."""
        return Phrase(str(self.why.get("t", "")), dict(self.why.get("a", {})))


class Teachings:
    """The record at ``path`` (module docstring); ``note`` says a record set aside."""

    def __init__(self, path: pathlib.Path, note: Any = print) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._list = self._read(note)

    def _read(self, note: Any) -> list[Teaching]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return [Teaching(**item) for item in raw]
        except FileNotFoundError:
            return []
        except (OSError, ValueError, TypeError) as exc:
            aside = self.path.with_name(self.path.name + ".unreadable")
            with contextlib.suppress(OSError):
                self.path.replace(aside)
            note(f"The record of the table's teachings {self.path} could not be read ({exc}); "
                 f"it is kept as {aside.name} and a new record starts.")
            return []

    def all(self) -> list[Teaching]:
        """Every teaching, oldest first."""
        with self._lock:
            return list(self._list)

    def last(self) -> Teaching | None:
        with self._lock:
            return self._list[-1] if self._list else None

    def add(self, teaching: Teaching) -> None:
        """Record ``teaching`` durably (OSError when the file cannot be written: the teaching
        is then still listed until the table stops)."""
        with self._lock:
            self._list = [*self._list, teaching][-KEEP:]
            data = json.dumps([asdict(t) for t in self._list], indent=1).encode()
            write_atomically(self.path, data)


def record_path(reader_config: pathlib.Path) -> pathlib.Path:
    """The record beside the config the table's reader is kept in."""
    return reader_config.with_name(f"{reader_config.stem}.teachings.json")
