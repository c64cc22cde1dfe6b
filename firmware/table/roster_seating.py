"""Who plays in each seat for the league: the referee's ``Seat`` command, before a game's
first action.

A league knows its players by a roster id (``p0042``), not by the name a seat shows, which
the referee types for each game. Before a game's first action the referee puts a rostered
player in each seat, or leaves it a guest; the table logs this as one ``seating`` entry of
that game (its format: ``firmware.gamelog.seating_entry``), so the table's log, the venue's
store and the league's all say who played, and a replay of the log knows it. A guest plays as
today and is never rated.
:func:`seat` is the command's handler and :func:`seating` says who sits where; both take
the table's state (``firmware.table.state``), under the controller's lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware.gamelog.rows import Entry
from firmware.gamelog.seating_entry import KIND, current_seating, seating_problem, seating_text
from firmware.table.commands import Outcome, Refusal
from firmware.table.state import TableState


@dataclass(frozen=True)
class Seat:
    """The referee's seating of the game being played: seat name -> roster id, or None for
    a guest (a seat left out is a guest)."""

    ids: Mapping[str, str | None] = field(default_factory=dict)
    by: str = "referee"


def seating(t: TableState) -> dict[str, str | None]:
    """Each seat of the game being played: its roster id, None for a guest."""
    players = t.game.players
    found = current_seating(t.entries, players)
    return {p: (found or {}).get(p) for p in players}


def seat(t: TableState, cmd: Seat) -> Outcome:
    """Seat rostered players (or guests) in the game being played, before its first action."""
    game, row = t.game, t.row
    if row.status != "playing" or any(e.kind != KIND for e in t.entries):
        return t.refuse(None, Refusal(
            f"Players are seated before a game's first action, and game {row.id} has "
            f"{'ended' if row.status != 'playing' else 'begun'}; start a new game to seat "
            "other players. Nothing was changed."))
    ids = {p: cmd.ids.get(p) for p in game.players} if set(cmd.ids) <= set(
        game.players) else dict(cmd.ids)
    problem = seating_problem(game.players, ids)
    if problem:
        return t.refuse(None, Refusal(
            f"The players cannot be seated: {problem}. Nothing was changed."))
    text = seating_text(game.players, ids)
    at = t.wall_clock()
    seq = t.log.append(row.id, KIND, text, cmd.by, at)
    t.entries.append(Entry(row.id, seq, KIND, text, cmd.by, "", at))
    rostered = [f"{p} as {i}" for p, i in ids.items() if i is not None]
    said = (f"{cmd.by} seated {', '.join(rostered)} for game {row.id}"
            + ("; the other seats are guests." if len(rostered) < len(ids) else ".")
            if rostered else f"{cmd.by} left every seat of game {row.id} a guest.")
    t.publisher.say(said)
    t.publish()
    return Outcome(True, said)
