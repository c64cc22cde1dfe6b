"""The ``seating`` log entry: who plays in each seat for the league, written and read back.

The entry's text is a JSON object, seat -> roster id or null for a guest, in the game's seat
order (``{"Ann": "p0017", "Bob": null}``). It names no dice, so it leaves the table at once.
Seating entries come before any other entry of their game (usually its seq 1); a game may be
seated again until then, and the last ``seating`` entry counts. The table writes it (the
referee's ``Seat`` command, ``firmware.table.roster_seating``); the venue and the league read
it back here, beside the log, without loading the controller.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence

from firmware.gamelog.rows import Entry

KIND = "seating"
GUEST = "guest"
#: a roster id: short, lowercase, URL- and subject-safe; "guest" is not one
ROSTER_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
ID_RULE = ("1 to 32 lowercase letters, digits or '-', starting with a letter or digit, "
           "and not 'guest'")


def id_problem(player_id: str) -> str | None:
    """Why ``player_id`` is not a roster id (None when it is)."""
    if not isinstance(player_id, str) or not ROSTER_ID.fullmatch(player_id):
        return f"{player_id!r} is not a roster id ({ID_RULE})"
    if player_id == GUEST:
        return f"'{GUEST}' is the word for a seat without a rostered player, not an id"
    return None


def seating_problem(players: Sequence[str], ids: Mapping[str, str | None]) -> str | None:
    """Why ``ids`` (seat name -> roster id, None for a guest) cannot seat the game of
    ``players``: a sentence, or None."""
    if set(ids) != set(players):
        return (f"the seats are {', '.join(players)}; give each of them a roster id or "
                f"guest, and no other name (got {', '.join(ids) or 'none'})")
    for seat, player_id in ids.items():
        if player_id is not None and (bad := id_problem(player_id)):
            return f"seat {seat}: {bad}"
    taken = [i for i in ids.values() if i is not None]
    twice = sorted({i for i in taken if taken.count(i) > 1})
    if twice:
        return (f"{', '.join(twice)} is in two seats of one game; a player sits in one seat, "
                "the others are other players or guests")
    return None


def seating_text(players: Sequence[str], ids: Mapping[str, str | None]) -> str:
    """The ``seating`` entry's text, in seat order."""
    return json.dumps({p: ids.get(p) for p in players}, ensure_ascii=False)


def parse_seating(text: str, players: Sequence[str]) -> dict[str, str | None]:
    """The seat -> roster id (None: a guest) a ``seating`` entry's text gives the game of
    ``players``; ValueError with a sentence when it is not one."""
    try:
        ids = json.loads(text)
    except ValueError:
        ids = None
    if not isinstance(ids, dict) or not all(v is None or isinstance(v, str)
                                            for v in ids.values()):
        raise ValueError('a seating entry is a JSON object, seat -> roster id or null, such '
                         f'as {{"Ann": "p0017", "Bob": null}}; not {text[:80]!r}')
    problem = seating_problem(players, ids)
    if problem:
        raise ValueError(f"a seating entry that cannot seat its game: {problem}")
    return {p: ids[p] for p in players}


def current_seating(entries: Iterable[Entry], players: Sequence[str]
                    ) -> dict[str, str | None] | None:
    """Who sits where in the game of these entries: its last ``seating`` entry's, None when
    it has none (every seat a guest). An entry that is not a seating is skipped."""
    found = None
    for e in entries:
        if e.kind == KIND:
            try:
                found = parse_seating(e.text, players)
            except ValueError:
                continue
    return found
