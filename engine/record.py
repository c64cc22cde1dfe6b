"""The game record (GAME_RECORD.md, docs/rules/README.md): read, write, replay.

``bidou-record/2`` adds to ``bidou-record/1`` the throws and rolls whose values were pending
(``Ann throw ?``) and the ``settle`` that gave them values at exposure, with who settled them
(``Ann settle 6 5 4 by players``). A record without them is written as ``bidou-record/1``,
exactly as before, and both formats are read.

Pure: text in, objects out. The ``bidou-table replay`` command does the file I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.errors import RecordError, ReplayError, RuleViolation
from engine.game import Game
from engine.variants import check_setup, new_game

FORMAT = "bidou-record/1"
#: The format of a record with pending values and their settles (D-S1, D-S4).
FORMAT_PENDING = "bidou-record/2"
FORMATS = (FORMAT, FORMAT_PENDING)
_KEYS = ("format", "variant", "options", "players", "actions")


@dataclass(frozen=True)
class Record:
    """A game as the table saw it: set-up and every action in order."""

    variant: str
    players: tuple[str, ...]
    actions: tuple[Action, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def format(self) -> str:
        """``bidou-record/2`` when a value was pending, else ``bidou-record/1``."""
        return FORMAT_PENDING if any(_needs_2(a) for a in self.actions) else FORMAT

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict, keys in the documented order."""
        return {
            "format": self.format,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(self.players),
            "actions": [str(a) for a in self.actions],
        }

    def to_json(self) -> str:
        """The record as JSON text, one action per line for readable diffs."""
        d = self.to_dict()
        head = {k: v for k, v in d.items() if k != "actions"}
        lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "actions": [']
        acts = [json.dumps(a, ensure_ascii=False) for a in d["actions"]]
        lines += ["  " + a + ("," if i < len(acts) - 1 else "") for i, a in enumerate(acts)]
        lines.append("]}")
        return "\n".join(lines) + "\n"


def parse_record(text: str) -> Record:
    """Read a record from JSON text; RecordError says what is wrong and where."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    return record_from_dict(data)


def record_from_dict(data: Any) -> Record:
    """Check a decoded record and build it; RecordError says what is wrong and where."""
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    for key in ("format", "variant", "players", "actions"):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}; a record has {', '.join(_KEYS)}")
    if data["format"] not in FORMATS:
        raise RecordError(f"format must be {FORMAT!r} or {FORMAT_PENDING!r}, not "
                          f"{data['format']!r}")
    variant, players, options = data["variant"], data["players"], data.get("options", {})
    if not isinstance(variant, str):
        raise RecordError(f"variant must be a string, not {variant!r}")
    check_setup(variant, players, options)
    if not isinstance(data["actions"], list):
        raise RecordError("actions must be a list of strings")
    actions = []
    for i, text in enumerate(data["actions"], start=1):
        try:
            action = Action.parse(text)
        except RecordError as e:
            raise RecordError(f"action {i}: {e}") from None
        if action.player not in players:
            raise RecordError(f"action {i} ({text}): {action.player!r} is not one of the players")
        if data["format"] == FORMAT and _needs_2(action):
            raise RecordError(f"action {i} ({text}): pending values and settles are written "
                              f"in {FORMAT_PENDING!r} records, not {FORMAT!r}")
        actions.append(action)
    return Record(variant, tuple(players), tuple(actions), dict(options))


def _needs_2(action: Action) -> bool:
    return action.pending or action.verb == "settle"


def replay(record: Record) -> Game:
    """Apply every action of ``record`` to a new game; ReplayError at the first refusal."""
    game = new_game(record.variant, record.players, record.options)
    for i, action in enumerate(record.actions, start=1):
        try:
            game.apply(action)
        except RuleViolation as e:
            raise ReplayError(i, str(action), e) from None
    return game


def record_of(game: Game) -> Record:
    """The record of a game so far: replaying it gives the same state."""
    return Record(game.variant, tuple(game.players), tuple(game.history), dict(game.options))
