"""Who plays in each seat for the league: the referee's ``Seat`` command, before a game's
first action.

A league knows its players by a roster id (``p0042``), not by the name a seat shows, which
the referee types for each game. Before a game's first action the referee puts a rostered
player in each seat, or leaves it a guest; the table logs this as one ``seating`` entry of
that game (its format: ``firmware.gamelog.seating_entry``), so the table's log, the venue's
store and the league's all say who played, and a replay of the log knows it. A guest plays as
today and is never rated.
:class:`SeatingCommands` is mixed into :class:`firmware.table.controller.TableController`, as
the referee's other commands are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware.gamelog.log import Entry
from firmware.gamelog.seating_entry import KIND, current_seating, seating_problem, seating_text
from firmware.table.commands import Outcome, Refusal


@dataclass(frozen=True)
class Seat:
    """The referee's seating of the game being played: seat name -> roster id, or None for
    a guest (a seat left out is a guest)."""

    ids: Mapping[str, str | None] = field(default_factory=dict)
    by: str = "referee"


class SeatingCommands:
    """``Seat`` and ``seating()`` of :class:`~firmware.table.controller.TableController`: it uses
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
