"""What every variant's game object offers: the pokerkit-style verify / can / apply trio.

A game is one mutable state object. For any :class:`~engine.actions.Action`:

- ``verify(action)`` raises :class:`~engine.errors.RuleViolation` with a whole-sentence
  message naming the rule, or returns None when the action is allowed now;
- ``can(action)`` is the same question as a bool (for lighting buttons);
- ``apply(action)`` verifies, performs the action and every settlement the rules then
  decide, appends it to ``history`` and returns a frozen :class:`Event` describing it.

``allowed()`` lists what is open to whom, so the seat panels and dashboard show exactly
what the engine will accept. The engine is pure: no I/O, no clock, no randomness; the
dice come in the actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from engine.actions import VERBS, Action
from engine.errors import GameOver, RuleViolation


@dataclass(frozen=True)
class Effect:
    """One consequence of an action, in words for people and in fields for code.

    ``kind`` is one of: ``move`` (``chips`` go from ``source`` to ``dest``, each a player's
    name or ``"centre"``, ``"pot"``, ``"removed"``), ``expose`` (``player``'s ``dice`` are
    shown), ``captain`` (``player`` is captain), ``hand`` (a new hand; ``detail`` says
    "normal", "open throw", ...), ``round`` (``player`` lost the round), ``game`` (the game
    is over; ``player`` lost, or won in Montevideo), ``note`` (anything else worth saying).
    """

    kind: str
    text: str
    rule: str | None = None
    player: str | None = None
    chips: int = 0
    source: str | None = None
    dest: str | None = None
    dice: tuple[int, ...] = ()
    detail: str | None = None


@dataclass(frozen=True)
class Event:
    """The record of one applied action: its position in ``history`` (from 1) and its effects."""

    position: int
    action: Action
    effects: tuple[Effect, ...] = ()

    @property
    def starts_hand(self) -> bool:
        """Whether this action began a new hand (or a new round, or an open throw).

        The one answer to "where does a hand start": a void-hand goes back to it, and the
        history's chip chart takes a point there.
        """
        return any(e.kind in ("hand", "round") for e in self.effects)


@dataclass(frozen=True)
class Allowed:
    """One verb open to one player now; for bet and raise, the chip range allowed."""

    player: str
    verb: str
    min_chips: int | None = None
    max_chips: int | None = None


@dataclass(frozen=True)
class PlayerView:
    """What anyone at the table may see of one player right now (never concealed dice).

    ``exposed`` holds dice the rules have shown (showdown, open throw, Poor Fish), else None.
    """

    name: str
    chips: int
    throws: int
    stake: int
    in_hand: bool
    to_act: bool
    is_captain: bool
    exposed: tuple[int, ...] | None = None
    out: bool = False


@dataclass
class Game(ABC):
    """Base of every variant. Subclasses implement ``_check``, ``_perform`` and the views."""

    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    history: list[Action] = field(default_factory=list, init=False)

    variant: str = field(default="", init=False)

    #: The rule that ends this variant's game, cited when an action comes after the end
    #: (T1 for a two-hand match, M7 for multi-hand, V1 for Montevideo).
    over_rule: str | None = field(default=None, init=False)

    # --- the trio --------------------------------------------------------------------
    def verify(self, action: Action) -> None:
        """Raise RuleViolation if ``action`` is not allowed now; return None if it is."""
        if action.player not in self.players:
            raise RuleViolation(f"{action.player} is not a player in this game", None)
        if action.verb not in VERBS:
            raise RuleViolation(f"{action.verb!r} is not a verb of the game record", None)
        if self.over:
            raise GameOver("the game is over; start a new game", self.over_rule)
        self._check(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        try:
            self.verify(action)
        except RuleViolation:
            return False
        return True

    def apply(self, action: Action) -> Event:
        """Perform ``action`` and every settlement it triggers; the record of what happened."""
        self.verify(action)
        self.history.append(action)
        effects = tuple(self._perform(action))
        return Event(len(self.history), action, effects)

    # --- what subclasses provide -----------------------------------------------------
    @abstractmethod
    def _check(self, action: Action) -> None:
        """Variant rules: raise RuleViolation (with the rule id) if ``action`` is refused."""

    @abstractmethod
    def _perform(self, action: Action) -> list[Effect]:
        """Apply an already verified action; return its effects in order."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the game has a loser (Bidou) or a winner (Montevideo)."""

    @property
    @abstractmethod
    def to_act(self) -> str | None:
        """The player who acts next, or None when the game is over."""

    @property
    @abstractmethod
    def expects(self) -> str | None:
        """``roll``, ``throw``, ``bet`` (any betting verb) or None when over."""

    @abstractmethod
    def allowed(self) -> list[Allowed]:
        """Every verb open now, to whom, with chip ranges; exactly what ``verify`` accepts."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The replay state of GAME_RECORD.md (variant, over, loser, winner, round, ...)."""

    @abstractmethod
    def views(self) -> list[PlayerView]:
        """Public view of every player, in seat order."""

    @abstractmethod
    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        """The dice under ``player``'s cup now (for that seat and the referee only)."""
