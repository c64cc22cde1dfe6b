"""A game's seating entry as the league reads it: which rostered player sits in each seat.

The entry (kind ``seating``, written by the referee console before the game's first action;
the last one before it counts) has the text ``NAME=ID`` or ``NAME=guest`` per seat, in the
game's player order: ``Ann=p0001 Bob=guest Cid=p0042``. A roster id is 1 to 32 lower-case
letters, digits or '-', starting with a letter or digit; ``guest`` is no id.
"""

from __future__ import annotations

import re

KIND = "seating"
GUEST = "guest"
ROSTER_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def parse_seating(text: str, players: tuple[str, ...]) -> dict[str, str | None]:
    """Seat name -> roster id (None: a guest); ValueError with a sentence when the text is
    not a seating of exactly these players."""
    seats: dict[str, str | None] = {}
    for word in text.split():
        name, sep, pid = word.partition("=")
        if not sep or not name or not pid:
            raise ValueError(f"the seating word {word!r} is not NAME=ID or NAME=guest")
        if name not in players:
            raise ValueError(f"the seating seats {name!r}, who is not a player of this game "
                             f"({', '.join(players)})")
        if name in seats:
            raise ValueError(f"the seating seats {name!r} twice")
        if pid != GUEST and not ROSTER_ID.match(pid):
            raise ValueError(f"the seating gives {name!r} the id {pid!r}; a roster id is 1 to "
                             "32 lower-case letters, digits or '-'")
        seats[name] = None if pid == GUEST else pid
    missing = [p for p in players if p not in seats]
    if missing:
        raise ValueError(f"the seating does not seat {', '.join(missing)}")
    return seats
