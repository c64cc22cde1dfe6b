"""The variants the engine referees, and the one way to start a game of any of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.chips import PLACES
from engine.errors import RecordError
from engine.game import Game
from engine.montevideo import MontevideoGame
from engine.multi_hand import MultiHandGame
from engine.two_hand import TwoHandGame

#: variant name -> its game class: the one list of variants (the config, the console's
#: new-game form and the records all take their names from here).
VARIANTS: dict[str, type[Game]] = {
    "two-hand": TwoHandGame,
    "multi-hand": MultiHandGame,
    "montevideo": MontevideoGame,
}

OPTIONS: dict[str, tuple[str, ...]] = {
    "ranking": ("three-digit", "total"),
    "poor_fish": ("true", "false"),
}

#: Seats at the physical table (firmware/settings/config.py checks it). The rules and the game
#: record take any number of players from 3 up (GAME_RECORD.md: "the others 3 or more"), so a record
#: of a bigger game still replays.
MAX_PLAYERS = 8


def check_setup(variant: str, players: Sequence[str], options: dict[str, Any]) -> None:
    """Raise RecordError (a ValueError) naming what is wrong with a game's set-up."""
    if variant not in VARIANTS:
        raise RecordError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    for p in players:
        if p == "" or any(ch.isspace() for ch in p):
            raise RecordError(f"player name {p!r} must be non-empty and without spaces")
    for p in players:
        if p in PLACES:
            raise RecordError(
                f"player name {p!r} is the name of a place on the table "
                f"({', '.join(PLACES)}) in the game's chip moves; choose another name"
            )
    seen: set[str] = set()
    for p in players:
        if p in seen:
            raise RecordError(f"player name {p!r} appears twice; names must be unique")
        seen.add(p)
    if variant == "two-hand" and len(players) != 2:
        raise RecordError(f"two-hand takes exactly 2 players, not {len(players)}")
    if variant != "two-hand" and len(players) < 3:
        raise RecordError(f"{variant} takes 3 or more players, not {len(players)}")
    if not isinstance(options, dict):
        raise RecordError("options must be a JSON object")
    for key, value in options.items():
        if key == "ranking":
            if value not in OPTIONS["ranking"]:
                raise RecordError(
                    f"options.ranking must be 'three-digit' or 'total', not {value!r}"
                )
        elif key == "poor_fish":
            if not isinstance(value, bool):
                raise RecordError(f"options.poor_fish must be true or false, not {value!r}")
            if value and variant != "multi-hand":
                raise RecordError("options.poor_fish is an option of multi-hand only (P1)")
        else:
            raise RecordError(f"unknown option {key!r}; the options are ranking and poor_fish")


def new_game(variant: str, players: Sequence[str], options: dict[str, Any] | None = None) -> Game:
    """A fresh game of ``variant`` for ``players`` in seat order (clockwise)."""
    opts = dict(options or {})
    check_setup(variant, players, opts)
    return VARIANTS[variant](tuple(players), opts)
