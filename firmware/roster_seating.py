"""Who plays in each seat for the league: a rostered player's id, or a guest.

A league knows its players by a roster id (``p0042``), not by the name a seat shows, which
the referee types for each game. Before a game's first action the referee puts a rostered
player in each seat, or leaves it a guest; the table logs this as one ``seating`` entry of
that game, so the table's log, the venue's store and the league's all say who played, and a
replay of the log knows it. A guest plays as today and is never rated.

The entry's text is a JSON object, seat -> roster id or null for a guest, in the game's seat
order (``{"Ann": "p0017", "Bob": null}``). It names no dice, so it leaves the table at once.
Seating entries come before any other entry of their game (usually its seq 1); a game may be
seated again until then, and the last ``seating`` entry counts.
:class:`SeatingCommands` is mixed into :class:`firmware.controller.TableController`, as the
referee's other commands are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from firmware.commands import Outcome, Refusal
from firmware.log import Entry

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


@dataclass(frozen=True)
class Seat:
    """The referee's seating of the game being played: seat name -> roster id, or None for
    a guest (a seat left out is a guest)."""

    ids: Mapping[str, str | None] = field(default_factory=dict)
    by: str = "referee"


class SeatingCommands:
    """``Seat`` and ``seating()`` of :class:`~firmware.controller.TableController`: it uses
    the controller's ``game``, ``row``, ``log``, ``_entries``, ``_refuse``, ``_publish``,
    ``publisher`` and ``wall_clock``, under its lock."""

    def seating(self) -> dict[str, str | None]:
        """Each seat of the game being played: its roster id, None for a guest."""
        with self._lock:
            players = self.game.players
            found = current_seating(self._entries, players)
            return {p: (found or {}).get(p) for p in players}

    def _seat(self, cmd: Seat) -> Outcome:
        game, row = self.game, self.row
        if row.status != "playing" or any(e.kind != KIND for e in self._entries):
            return self._refuse(None, Refusal(
                f"Players are seated before a game's first action, and game {row.id} has "
                f"{'ended' if row.status != 'playing' else 'begun'}; start a new game to seat "
                "other players. Nothing was changed."))
        ids = {p: cmd.ids.get(p) for p in game.players} if set(cmd.ids) <= set(
            game.players) else dict(cmd.ids)
        problem = seating_problem(game.players, ids)
        if problem:
            return self._refuse(None, Refusal(
                f"The players cannot be seated: {problem}. Nothing was changed."))
        text = seating_text(game.players, ids)
        at = self.wall_clock()
        seq = self.log.append(row.id, KIND, text, cmd.by, at)
        self._entries.append(Entry(row.id, seq, KIND, text, cmd.by, "", at))
        rostered = [f"{p} as {i}" for p, i in ids.items() if i is not None]
        said = (f"{cmd.by} seated {', '.join(rostered)} for game {row.id}"
                + ("; the other seats are guests." if len(rostered) < len(ids) else ".")
                if rostered else f"{cmd.by} left every seat of game {row.id} a guest.")
        self.publisher.say(said)
        self._publish()
        return Outcome(True, said)
