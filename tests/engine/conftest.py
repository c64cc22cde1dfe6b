"""Fixtures for the engine tests: play actions written as the game record writes them.

Tests run with ``--import-mode=importlib``, so helpers are offered as fixtures rather than
imported, and defined here once for every engine test file:

- ``play(game, "Ann roll 5", ...)`` applies actions and returns their effects;
- ``once("Ann", "6 5 4", "Bob", "3 2 2")`` (or ``once(("Ann", "6 5 4"), ...)``): each player
  throws once and stands, in that order;
- ``two_hand(*actions, **options)``: a two-hand match of Ann (seat 1) and Bob (seat 2);
- ``multi_hand(*actions, players=("Ann", "Bob", "Cid"), **options)`` and
  ``montevideo(*actions, players=("Ann", "Bob", "Cy"))``: a game after ``actions``;
- ``at_betting(dice, chips=None, **options)``: a multi-hand game where Ann is captain and
  every player of ``dice`` has thrown once, so Ann opens the betting (from a chip position
  with ``chips``);
- ``refusal(game, text)``: the RuleViolation refusing that action (the game unchanged), and
  ``refused(game, text)``: its sentence with the rule.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable, Sequence

import pytest

from engine import Action, Effect, Game, RuleViolation, new_game
from engine.multi_hand import MultiHandGame

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "data" / "records"


def _play(game: Game, *actions: str) -> list[Effect]:
    effects: list[Effect] = []
    for text in actions:
        effects += game.apply(Action.parse(text)).effects
    return effects


def _once(*pairs: str | tuple[str, str]) -> tuple[str, ...]:
    flat = [x for p in pairs for x in (p if isinstance(p, tuple) else (p,))]
    out: tuple[str, ...] = ()
    for name, dice in zip(flat[::2], flat[1::2], strict=True):
        out += (f"{name} throw {dice}", f"{name} stand")
    return out


def _refusal(game: Game, text: str) -> RuleViolation:
    before, history = game.state(), list(game.history)
    with pytest.raises(RuleViolation) as info:
        game.apply(Action.parse(text))
    assert game.state() == before and game.history == history, "a refusal changed the game"
    return info.value


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
def once() -> Callable[..., tuple[str, ...]]:
    """``once("Ann", "6 5 4", ...)``: throw-and-stand actions for each (name, dice) pair."""
    return _once


@pytest.fixture
def multi_hand() -> Callable[..., Game]:
    """``multi_hand(*actions, players=("Ann", "Bob", "Cid"), **options)``."""

    def make(*actions: str, players: Sequence[str] = ("Ann", "Bob", "Cid"),
             **options: object) -> Game:
        game = new_game("multi-hand", list(players), dict(options))
        _play(game, *actions)
        return game

    return make


@pytest.fixture
def montevideo() -> Callable[..., Game]:
    """``montevideo(*actions, players=("Ann", "Bob", "Cy"))``."""

    def make(*actions: str, players: Sequence[str] = ("Ann", "Bob", "Cy")) -> Game:
        game = new_game("montevideo", list(players))
        _play(game, *actions)
        return game

    return make


@pytest.fixture
def at_betting() -> Callable[..., Game]:
    """``at_betting(dice, chips=None, **options)``: multi-hand, Ann captain, each player of
    ``dice`` ({name: "6 5 4"}) threw once; Ann opens the betting."""

    def make(dice: dict[str, str], chips: dict[str, int] | None = None,
             **options: object) -> Game:
        if chips is None:
            game: Game = new_game("multi-hand", list(dice), dict(options))
            _play(game, "Ann roll 6", *[f"{p} roll 1" for p in list(dice)[1:]])
        else:
            game = MultiHandGame.from_position(tuple(chips), chips, "Ann", dict(options))
        _play(game, *_once(*dice.items()))
        assert (game.to_act, game.expects) == ("Ann", "bet")
        return game

    return make


@pytest.fixture
def refusal() -> Callable[[Game, str], RuleViolation]:
    """``refusal(game, text)``: the RuleViolation refusing that action; the game unchanged."""
    return _refusal


@pytest.fixture
def refused() -> Callable[[Game, str], str]:
    """``refused(game, text)``: the refusal's sentence with its rule, "... (M5)"."""
    return lambda game, text: str(_refusal(game, text))


@pytest.fixture
def records_dir() -> pathlib.Path:
    """``tests/data/records``: whole games with their expected final states."""
    return RECORDS
