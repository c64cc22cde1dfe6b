"""The league's own checks of a pub's entries, beyond the venue's (``parse_entry``): what only
the league knows. Each refusal is a sentence naming what is wrong and what to do; the
entry is then not stored, and nothing else waits for it but its own game.

- a table's log: the first log a pub's table sends from is its log in the league (only that
  pub can publish its subjects: the league's accounts say so); another log id after it is
  a replaced log, refused, as the venue refuses it;
- a seating naming a roster id that is not in the league's roster;
- a seating that is not one of the game's players, or is malformed;
- an action, in a game with a seating, by a player who was not seated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from firmware.gamelog.seating_entry import KIND, parse_seating
from venue import table_logs as venue_table_logs
from venue.messages import EntryMessage


def check_batch(db: psycopg.Connection[Any], messages: Sequence[EntryMessage]
                ) -> list[str | None]:
    """One sentence per refused message (None: it may be stored), in the caller's
    transaction. Messages are taken in order: a seating earlier in the batch counts for the
    actions after it."""
    roster = {r[0] for r in db.execute("SELECT player_id FROM roster").fetchall()}
    logs: dict[tuple[str, str], str] = {}
    seats: dict[tuple[str, str, int], set[str]] = {}
    games = sorted({(m.venue, m.table, m.game) for m in messages})
    if games:
        for v, t, g, seat in db.execute(
                "SELECT s.venue, s.table_name, s.game, s.seat FROM seatings s JOIN "
                "unnest(%s::text[], %s::text[], %s::int[]) AS k(v, t, g) ON s.venue = k.v "
                "AND s.table_name = k.t AND s.game = k.g",
                [list(c) for c in zip(*games, strict=True)]).fetchall():
            seats.setdefault((v, t, g), set()).add(seat)
    out: list[str | None] = []
    for m in messages:
        key = (m.venue, m.table)
        if key not in logs:
            logs[key] = venue_table_logs.enroll(db, m.venue, m.table, m.log_id)
        if logs[key] != m.log_id:
            out.append(replaced(m, logs[key]))
            continue
        if m.kind == KIND:
            try:
                seating = parse_seating(m.text, m.players)
            except ValueError as e:
                out.append(f"pub {m.venue} table {m.table} game {m.game} entry {m.seq}: {e}; "
                           "the seating is refused and the game's later entries wait. Seat "
                           "the game again on that table's referee console.")
                continue
            unknown = sorted(p for p in seating.values() if p and p not in roster)
            if unknown:
                out.append(f"pub {m.venue} table {m.table} game {m.game} seats "
                           f"{', '.join(unknown)}, not in the league's roster; the seating is "
                           "refused and the game's later entries wait. Add the player "
                           "(bidou-league add-player) or seat a rostered id or a guest.")
                continue
            seats[(m.venue, m.table, m.game)] = set(seating)
        elif m.kind == "action" and (m.venue, m.table, m.game) in seats:
            actor = m.text.split(" ", 1)[0]
            if actor not in seats[(m.venue, m.table, m.game)]:
                out.append(f"pub {m.venue} table {m.table} game {m.game} entry {m.seq} is an "
                           f"action of {actor!r}, who was not seated in that game; refused, "
                           "and the game's later entries wait. Check what publishes as that "
                           "table.")
                continue
        out.append(None)
    return out


def replaced(m: EntryMessage, held: str) -> str:
    return (f"pub {m.venue} table {m.table} sends from a new log (id {m.log_id}; the league "
            f"holds log {held}): its log was replaced and its game ids start again. Nothing "
            "of it is stored. If the new log is genuine (a new SD card), the league organiser "
            "archives the old one (docs/league.md, A pub's replaced log).")
