"""The venue wall for a TV: every table as a small felt (its seats, chips, whose turn, each
seat's last shown throw), laid out to fill a 1920x1080 screen for 1 to 12 tables.

The wall is drawn by the server, from the hub's live states alone (``venue_screen.live``), so
its first paint already shows every table and needs no database: PostgreSQL's counts (entries
held, still to come, problems) are the owner's, on the status page. Only what a table's public
state exposes is shown; a concealed die never reaches the screen.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from venue.settings import VenueConfig
from venue_screen.live import Live

#: Columns and rows of the wall for a number of tables: the cells stay close to the TV's
#: 16:9, so a table's felt is as large as it can be.
SHAPES = {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (3, 2), 6: (3, 2), 7: (4, 2),
          8: (4, 2), 9: (3, 3), 10: (4, 3), 11: (4, 3), 12: (4, 3)}
EXPECTS = {"roll": "to roll for captain", "throw": "to throw", "bet": "to bet",
           "settle": "to settle the shown dice"}
#: Unicode die faces: one glyph a die, clear at any size.
FACES = "⚀⚁⚂⚃⚄⚅"


def shape(count: int) -> tuple[int, int]:
    """(columns, rows) of the wall for ``count`` tables (four columns beyond 12)."""
    return SHAPES.get(count, (4, max(1, math.ceil(count / 4))))


def _since(at: float | None) -> str:
    if at is None:
        return "not heard from yet"
    return "silent since " + datetime.fromtimestamp(at, UTC).strftime("%H:%M UTC")


def felt(name: str, live: Live) -> dict[str, Any]:
    """One table's card: its name, whether it is heard, and its felt from its live state."""
    state = live.states.get(name) or {}
    shown = (live.last_shown.get(name) or {}).get("seats", {}) \
        if (live.last_shown.get(name) or {}).get("game") == state.get("game_id") else {}
    seats = []
    for seat in state.get("seats") or []:
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            continue
        dice = shown.get(seat["name"])
        seats.append({"name": seat["name"], "chips": seat.get("chips"),
                      "to_act": bool(seat.get("to_act")), "out": bool(seat.get("out")),
                      "shown": dice, "faces": "".join(FACES[v - 1] for v in dice or [])})
    variant = state.get("variant") or ""
    hand = state.get("hand")
    what = variant + (f" · hand {hand}" if hand else "")
    if state.get("status") and state.get("status") != "playing":
        turn = "Game over"
    elif state.get("to_act"):
        turn = f"{state['to_act']} {EXPECTS.get(state.get('expects') or '', 'to play')}"
    else:
        turn = ""
    return {"name": name, "online": live.online(name),
            "heard": _since(live.heard.get(name)), "what": what, "seats": seats,
            "pot": state.get("pot"), "centre": state.get("centre"), "turn": turn,
            "two_columns": len(seats) > 4}


def wall_tables(config: VenueConfig, live: Live, only: str | None = None) -> list[dict[str, Any]]:
    """The cards of every configured table (or of ``only``), in the config's order."""
    return [felt(name, live) for name in config.tables if only is None or name == only]
