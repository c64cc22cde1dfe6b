"""Fixtures for the engine tests: play actions written as the game record writes them.

Tests run with ``--import-mode=importlib``, so helpers are offered as fixtures rather than
imported: ``play(game, "Ann roll 5", ...)`` applies actions and returns their effects, and
``two_hand(*actions, **options)`` builds a two-hand match of Ann (seat 1) and Bob (seat 2).
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest

from engine import Action, Effect, Game, new_game

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "data" / "records"


def _play(game: Game, *actions: str) -> list[Effect]:
    effects: list[Effect] = []
    for text in actions:
        effects += game.apply(Action.parse(text)).effects
    return effects


@pytest.fixture
def play() -> Callable[..., list[Effect]]:
    """``play(game, *actions)``: apply each ``"NAME VERB [NUMBERS]"``; all effects in order."""
    return _play


@pytest.fixture
def two_hand() -> Callable[..., Game]:
    """``two_hand(*actions, **options)``: a two-hand match of Ann and Bob after ``actions``."""

    def make(*actions: str, **options: object) -> Game:
        game = new_game("two-hand", ["Ann", "Bob"], dict(options))
        _play(game, *actions)
        return game

    return make


@pytest.fixture
def records_dir() -> pathlib.Path:
    """``tests/data/records``: whole games with their expected final states."""
    return RECORDS
