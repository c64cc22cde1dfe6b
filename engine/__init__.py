"""The rules engine: pure Bidou rules, no I/O, no clock, no randomness it was not given.

Start a game with :func:`new_game`, ask ``game.allowed()`` what is open, ``game.verify`` /
``game.can`` whether an action is allowed, and ``game.apply`` to play it.
"""

from engine.actions import VERBS, Action
from engine.errors import (
    BidouError,
    CameraError,
    ConfigError,
    GameOver,
    NotYourTurn,
    RecordError,
    ReplayError,
    RuleViolation,
    VisionError,
)
from engine.game import Allowed, Effect, Event, Game, PlayerView
from engine.record import Record, parse_record, record_from_dict, record_of, replay
from engine.variants import VARIANTS, new_game

__all__ = [
    "VARIANTS", "VERBS", "Action", "Allowed", "BidouError", "CameraError", "ConfigError",
    "Effect", "Event", "Game", "GameOver", "NotYourTurn", "PlayerView", "Record", "RecordError",
    "ReplayError", "RuleViolation", "VisionError", "new_game", "parse_record",
    "record_from_dict", "record_of", "replay",
]
