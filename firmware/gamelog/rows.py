"""What the game log holds, as values: a game, an entry, a picture kept with a correction.

Apart from the log itself (``firmware.gamelog.log``, SQLite) because more than the table reads
them: the venue's hub and the league take a table's entries and games over the wire
(``venue.messages``), replay them (``firmware.gamelog.rebuild``) and ask which may be shown
(``firmware.gamelog.concealment``), and none of them opens a log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The kinds of entry (docs/controller.md, "The log").
KINDS = ("action", "undo", "fix-dice", "void-hand", "new-game", "seating")


@dataclass(frozen=True)
class GameRow:
    """One game as the log holds it."""

    id: int
    variant: str
    players: tuple[str, ...]
    options: dict[str, Any]
    started: str
    finished: str | None
    status: str
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Picture:
    """The camera's picture of a seat's zone (PNG bytes) and the values it shows."""

    seat: str
    seen: tuple[int, ...]
    image: bytes


@dataclass(frozen=True)
class LoggedPicture:
    """A picture kept with a correction: the entry it belongs to (its ``kind`` and ``text``,
    e.g. ``fix-dice`` and ``3 Ann throw 6 5 4``) and the picture."""

    game: int
    seq: int
    kind: str
    text: str
    picture: Picture


@dataclass(frozen=True)
class Entry:
    """One log entry: an accepted action or a correction, who made it, why, and when."""

    game: int
    seq: int
    kind: str
    text: str
    by: str
    why: str
    at: str
