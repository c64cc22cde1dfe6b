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

A game is a chain of :class:`Stage` objects, as pokerkit chains its phases: the game holds
ONE current stage (the captain roll, the throwing, the betting, an open throw, the end), and
who acts, what is allowed, the check and the performance are that stage's to say. A stage
that finishes calls the game's next link (``_start_hand``, ``_open_betting``, ...), which
sets the next stage; no method asks "which phase am I in?".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from engine.actions import VERBS, Action
from engine.errors import GameOver, NotYourTurn, RuleViolation
from engine.messages import Message, because, say, then

#: Said to any action after the game's end.
GAME_IS_OVER = say("the game is over; start a new game")


def fewest_throws(first: str) -> Message:
    """Who opens the betting when the captain threw more than another (M4)."""
    return say("%(p)s made the fewest throws nearest the captain's left: %(q)s becomes captain "
               "and opens the betting", p=first, q=first)


def not_your_turn(current: str, verb: str, player: str) -> Message:
    """``it is Bob's turn to throw, not Ann's`` (said to Ann)."""
    return say("it is %(q)s's turn to %(verb)s, not %(p)s's", q=current, verb=verb, p=player)


@dataclass(frozen=True)
class Effect:
    """One consequence of an action, in words for people and in fields for code.

    ``kind`` is one of: ``move`` (``chips`` go from ``source`` to ``dest``, each a player's
    name or ``"centre"``, ``"pot"``, ``"removed"``; on a Montevideo side pot ``detail`` names
    it), ``expose`` (``player``'s ``dice`` are shown), ``captain`` (``player`` is captain),
    ``hand`` (a new hand; ``detail`` says "normal", "open throw", ...), ``round`` (``player``
    lost the round), ``game`` (the game is over; ``player`` lost, or won in Montevideo),
    ``settle`` (``player``'s pending ``dice`` get their values at exposure; ``detail`` says
    who settled them: camera, players or referee, D-S4), ``note`` (anything else worth
    saying). ``said`` is what happened as a message (an id and its arguments, which each
    screen says in its language); ``text`` is its English, for the record and the referee.
    """

    kind: str
    said: Message
    rule: str | None = None
    player: str | None = None
    chips: int = 0
    source: str | None = None
    dest: str | None = None
    dice: tuple[int, ...] = ()
    detail: str | None = None

    @property
    def text(self) -> str:
        """What happened in English, as the record and the referee read it."""
        return str(self.said)


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

    def admits(self, action: Action) -> bool:
        """Whether ``action`` is this verb for this player, within the chip range if any."""
        if (self.player, self.verb) != (action.player, action.verb):
            return False
        if self.min_chips is None:
            return True
        return self.min_chips <= (action.chips or 0) <= (self.max_chips or 0)


@dataclass(frozen=True)
class PlayerView:
    """What anyone at the table may see of one player right now (never concealed dice).

    ``exposed`` holds dice the rules have shown (showdown, open throw, Poor Fish), else None.
    ``unsettled`` is set while this player's exposed dice wait for their values (D-S3);
    a pending throw still under the cup is not shown at all (D-S2).
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
    unsettled: bool = False


class Stage(ABC):
    """One stage of a game: who acts, what is allowed, the check, the performance, what next.

    ``expects`` is what the stage waits for (``roll``, ``throw``, ``bet``; None once the game
    is over) and ``rule`` the rule cited when an action's numbers do not fit its verb.
    ``perform`` applies a checked action and, when the stage is finished, calls the game's
    next link, whose effects it returns too. The views ask a stage for the hand's throws
    (``turns``), a player's ``stake`` and the ``pot``.
    """

    expects: str | None = None
    rule: str | None = None
    _turns: Any = None
    #: A stage to play after this action when the game's next link set none: a stage that
    #: must wait for pending values hands over to :class:`~engine.settling.Settling`, which
    #: hands back when they are settled (D-S3).
    handover: Stage | None = None

    def underlying(self) -> Stage:
        """The stage whose hand this is: itself, or the one a Settling waits for."""
        return self

    def unsettled(self) -> tuple[str, ...]:
        """The players whose exposed dice wait for their values now (D-S3)."""
        return ()

    def shown(self, player: str) -> tuple[int, ...] | None:
        """Dice exposed while values are settled, before the rules' own exposure."""
        return None

    def showing(self) -> tuple[str, ...]:
        """The players whose dice are shown while values are settled."""
        return ()

    def settle_dice(self) -> int:
        """How many dice a settle gives now: 3 (a throw), 1 (a captain roll), 0 (none)."""
        return 0

    @property
    @abstractmethod
    def to_act(self) -> str | None:
        """Who acts now, or None."""

    @abstractmethod
    def allowed(self) -> list[Allowed]:
        """Every action open now (exactly what ``check`` accepts)."""

    @abstractmethod
    def check(self, action: Action) -> None:
        """Raise RuleViolation (naming the rule) unless ``action`` is allowed now."""

    @abstractmethod
    def perform(self, action: Action) -> list[Effect]:
        """Apply a checked action; hand over to the next stage when this one is done."""

    @property
    def turns(self) -> Any:
        """The hand's ``ThrowingTurns`` (throw counts, the dice under each cup), or None."""
        return self._turns

    def stake(self, player: str) -> int:
        """Chips ``player`` has bet in this stage."""
        return 0

    @property
    def pot(self) -> int:
        """Chips bet in this stage and not yet settled."""
        return 0


class Over(Stage):
    """The game has ended: nobody acts, nothing is allowed (``Game.verify`` says why)."""

    expects = None

    @property
    def to_act(self) -> str | None:
        return None

    def allowed(self) -> list[Allowed]:
        return []

    def check(self, action: Action) -> None:
        raise GameOver(GAME_IS_OVER, None)

    def perform(self, action: Action) -> list[Effect]:
        raise GameOver(GAME_IS_OVER, None)


@dataclass
class Game(ABC):
    """Base of every variant: the trio, run by the current :class:`Stage`.

    Subclasses set ``stage`` and provide the views (``state``, ``views``,
    ``concealed_dice``) and the links between stages.
    """

    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    history: list[Action] = field(default_factory=list, init=False)

    variant: str = field(default="", init=False)

    #: The rule that ends this variant's game, cited when an action comes after the end
    #: (T1 for a two-hand match, M7 for multi-hand, V1 for Montevideo).
    over_rule: str | None = field(default=None, init=False)

    #: How many hands have begun (in a two-hand match: in this round); the table shows it.
    hand: int = field(default=0, init=False)

    #: The stage being played; set by each variant as the game starts.
    stage: Stage = field(default_factory=Over, init=False, repr=False)

    # --- the trio --------------------------------------------------------------------
    def verify(self, action: Action) -> None:
        """Raise RuleViolation if ``action`` is not allowed now; return None if it is."""
        if action.player not in self.players:
            raise RuleViolation(say("%(p)s is not a player in this game", p=action.player),
                                None)
        if action.verb not in VERBS:
            raise RuleViolation(say("%(word)s is not a verb of the game record",
                                    word=repr(action.verb)), None)
        if self.over:
            raise GameOver(GAME_IS_OVER, self.over_rule)
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

    # --- the current stage ------------------------------------------------------------
    def _check(self, action: Action) -> None:
        """The numbers must fit the verb (citing the stage's rule), the turn must be the
        player's, then the stage's own rules."""
        try:
            action.check_numbers()
        except RuleViolation as e:  # the shape of an action built in code
            raise RuleViolation(e.said, e.rule or self._numbers_rule(action)) from None
        self._check_turn(action)
        self.stage.check(action)

    def _check_turn(self, action: Action) -> None:
        """Refuse an action out of turn, citing the stage's rule (Bidou's words)."""
        p = self.to_act
        if action.verb == "settle" and not self.stage.unsettled():
            raise RuleViolation(because(
                say("no dice wait to be settled now"),
                then(say("values are settled only when the rules show the dice"),
                     say("it is %(q)s's turn to %(verb)s", q=str(p), verb=str(self.expects)))),
                "D-S3")
        if self.stage.unsettled():  # any waiting player settles, in any order: the stage says
            return
        if action.player != p:
            raise NotYourTurn(not_your_turn(str(p), str(self.expects), action.player),
                              self.stage.rule)

    def _numbers_rule(self, action: Action) -> str | None:
        """The rule cited when an action's numbers do not fit its verb."""
        return self.stage.rule

    def _perform(self, action: Action) -> list[Effect]:
        """Apply an already verified action; return its effects in order."""
        stage = self.stage
        effects = stage.perform(action)
        nxt, stage.handover = stage.handover, None
        if nxt is not None and self.stage is stage:
            self.stage = nxt
        return effects

    # --- values pending (D-S1-D-S5) -------------------------------------------------------
    def unsettled(self) -> tuple[str, ...]:
        """The players whose exposed throw (or captain roll) waits for its values now: the
        rules show it and move no chip until every one is settled (D-S3)."""
        return self.stage.unsettled()

    def can_settle(self, player: str) -> bool:
        """Whether ``player``'s exposed values may be settled now."""
        return player in self.stage.unsettled()

    def settle_dice(self) -> int:
        """How many values a settle gives now: 3 for a throw, 1 for a captain roll, else 0."""
        return self.stage.settle_dice()

    def settle_witnesses(self, player: str) -> tuple[str, ...]:
        """The other players whose dice are shown with ``player``'s now: the ones who agree
        with his values for the players to settle them (D-S4)."""
        showing = self.stage.showing()
        return tuple(p for p in self.players if p in showing and p != player)

    def can_throw(self, player: str) -> bool:
        """Whether ``player`` may throw now; a throw whose values are pending counts too."""
        return self.can(Action(player, "throw"))

    def values_pending(self, player: str) -> bool:
        """Whether the dice under ``player``'s cup have values pending (his seat and the
        referee may know it; the table view is told only at exposure, D-S2)."""
        dice = self.concealed_dice(player)
        return dice is not None and len(dice) == 0

    @property
    def over(self) -> bool:
        """True once the game has a loser (Bidou) or a winner (Montevideo)."""
        return isinstance(self.stage, Over)

    @property
    def to_act(self) -> str | None:
        """The player who acts next, or None when the game is over."""
        return self.stage.to_act

    @property
    def expects(self) -> str | None:
        """``roll``, ``throw``, ``bet`` (any betting verb) or None when over."""
        return self.stage.expects

    def allowed(self) -> list[Allowed]:
        """Every verb open now, to whom, with chip ranges; exactly what ``verify`` accepts."""
        return self.stage.allowed() if self.stage.to_act is not None else []

    def _replay_state(self, *, chips: dict[str, int], pot: int, captain: str | None,
                      loser: str | None = None, winner: str | None = None, round: int = 1,
                      rounds_lost: dict[str, int] | None = None, centre: int = 0,
                      removed: int = 0) -> dict[str, Any]:
        """The replay state of GAME_RECORD.md, keys in its order; what a variant does not
        have keeps the record's default (one round, no centre, nothing removed)."""
        return {
            "variant": self.variant,
            "over": self.over,
            "loser": loser,
            "winner": winner,
            "round": round,
            "rounds_lost": dict(rounds_lost or {}),
            "chips": dict(chips),
            "centre": centre,
            "pot": pot,
            "removed": removed,
            "captain": captain,
            "to_act": self.to_act,
            "expects": self.expects,
        }

    # --- what subclasses provide -----------------------------------------------------

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The replay state of GAME_RECORD.md (variant, over, loser, winner, round, ...)."""

    @abstractmethod
    def views(self) -> list[PlayerView]:
        """Public view of every player, in seat order."""

    @abstractmethod
    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        """The dice under ``player``'s cup now (for that seat and the referee only): ``()``
        when their values are pending, None before his first throw of the hand."""
