"""The parts of a hand that every variant shares: the captain roll, the throwing turns, the opener.

Two-hand Bidou (T2-T4), multi-hand Bidou (M2-M4) and Montevideo (V2) all start the same
way -- a roll of one die each for the captaincy, then each player throws one to three times
clockwise from the captain, then the player with the fewest throws opens -- so those steps
live here once, and each variant composes them with its own betting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.errors import RuleViolation
from engine.game import Allowed, not_your_turn
from engine.messages import because, say, then
from engine.ranking import PENDING, Throw, is_pending, normalise

MAX_THROWS = 3


@dataclass
class CaptainRoll:
    """One die each, in seat order; the tied highest roll again, in seat order (T2, M2).

    ``rule`` is the id cited in refusals ("T2" or "M2"). A pending roll (its die not read,
    D-S1) is kept as 0 until it is settled; the captain is decided only when every die of
    the pass is known (D-S3).
    """

    contenders: list[str]
    rule: str = "M2"
    rolls: dict[str, int] = field(default_factory=dict)
    captain: str | None = None

    @property
    def next_roller(self) -> str | None:
        """Who rolls next, or None once the captain is known."""
        if self.captain is not None:
            return None
        for p in self.contenders:
            if p not in self.rolls:
                return p
        return None  # the pass is complete and a die of it is pending (D-S3)

    def check(self, player: str, die: int) -> None:
        """Refuse a roll out of turn (the die itself is checked with the action, 1-6)."""
        if self.captain is not None:
            raise RuleViolation(say("the captain is already decided; nobody rolls now"),
                                self.rule)
        if player != self.next_roller:
            if player not in self.contenders:
                raise RuleViolation(then(
                    say("%(p)s is not in this captain roll", p=player),
                    say("only %(listed)s roll again after the tie",
                        listed=tuple(self.contenders))), self.rule)
            raise RuleViolation(because(
                say("captain rolls go in seat order"),
                say("%(p)s rolls before %(q)s", p=str(self.next_roller), q=player)), self.rule)

    @property
    def complete(self) -> bool:
        """Whether every contender has rolled in this pass."""
        return self.captain is None and len(self.rolls) == len(self.contenders)

    @property
    def unsettled(self) -> list[str]:
        """The contenders whose roll in this pass is pending, in seat order."""
        return [p for p in self.contenders if self.rolls.get(p) == 0]

    def settle(self, player: str, dice: Sequence[int]) -> None:
        """Give ``player``'s pending roll its die (D-S3)."""
        self.rolls[player] = dice[0]

    def record(self, player: str, die: int | None) -> list[str] | None:
        """Take a checked roll (None: pending). Returns the tied players who roll again, if
        this pass tied; decides nothing while a die of the pass is pending."""
        self.rolls[player] = die or 0
        if len(self.rolls) < len(self.contenders) or self.unsettled:
            return None
        return self.decide()

    def decide(self) -> list[str] | None:
        """The pass is complete and known: name the captain, or the tied who roll again."""
        top = max(self.rolls.values())
        tied = [p for p in self.contenders if self.rolls[p] == top]
        if len(tied) == 1:
            self.captain = tied[0]
            return None
        self.contenders, self.rolls = tied, {}
        return tied


@dataclass
class ThrowingTurns:
    """Each player throws 1 to 3 times in turn, and may stand after any throw (T3, M3).

    ``order`` starts with the captain and goes clockwise over the players in the hand.
    ``rule`` is the id cited in refusals ("T3" or "M3"). A throw with no dice counts and
    its values are pending (:data:`~engine.ranking.PENDING`, D-S1) until :meth:`settle`.
    """

    order: list[str]
    rule: str = "M3"
    throws: dict[str, list[Throw]] = field(default_factory=dict)
    index: int = 0

    @property
    def current(self) -> str | None:
        """The player throwing now, or None when everybody has thrown."""
        return self.order[self.index] if self.index < len(self.order) else None

    @property
    def done(self) -> bool:
        """True when every player in the hand has finished throwing."""
        return self.index >= len(self.order)

    def count(self, player: str) -> int:
        """How many throws ``player`` has declared this hand."""
        return len(self.throws.get(player, ()))

    def last(self, player: str) -> Throw | None:
        """The dice under ``player``'s cup now (his last throw: PENDING when its values are
        pending), or None before his first."""
        t = self.throws.get(player)
        return t[-1] if t else None

    def last_throws(self, players: Sequence[str]) -> dict[str, Throw]:
        """Each of ``players``' last throw, once every one of them has thrown (the betting
        and the settlements compare them)."""
        out: dict[str, Throw] = {}
        for p in players:
            t = self.last(p)
            assert t is not None, f"{p} has not thrown this hand"
            out[p] = t
        return out

    def allowed(self) -> list[Allowed]:
        """What the current thrower may do: throw (before his third), stand (after his first)."""
        p = self.current
        if p is None:
            return []
        n = self.count(p)
        return ([Allowed(p, "throw")] if n < MAX_THROWS else []) + (
            [Allowed(p, "stand")] if n >= 1 else []
        )

    def check_throw(self, player: str, dice: Sequence[int]) -> None:
        """Refuse a throw out of turn or past the third."""
        if player != self.current:
            raise RuleViolation(
                not_your_turn(self.current, "throw", player) if self.current
                else then(say("every player has thrown"), say("the betting is open")),
                self.rule,
            )
        assert self.count(player) < MAX_THROWS, "the third throw ends the turn (throw())"
        if not is_pending(dice):
            normalise(dice)

    def throw(self, player: str, dice: Sequence[int]) -> bool:
        """Record a checked throw (no dice: pending); True if it was the third, which ends
        the turn."""
        self.throws.setdefault(player, []).append(
            PENDING if is_pending(dice) else normalise(dice))
        if self.count(player) >= MAX_THROWS:
            self.index += 1
            return True
        return False

    def unsettled(self, players: Sequence[str]) -> list[str]:
        """Those of ``players`` whose last throw's values are pending, in the given order."""
        return [p for p in players if self.throws.get(p) and is_pending(self.throws[p][-1])]

    def settle(self, player: str, dice: Sequence[int]) -> None:
        """Give ``player``'s pending last throw its values (D-S3)."""
        self.throws[player][-1] = normalise(dice)

    def check_stand(self, player: str) -> None:
        """Refuse a stand out of turn or before the first throw."""
        if player != self.current:
            raise RuleViolation(
                not_your_turn(self.current, "throw", player) if self.current
                else then(say("every player has thrown"), say("there is nothing to stand on")),
                self.rule,
            )
        if self.count(player) == 0:
            raise RuleViolation(
                say("%(p)s must throw at least once before standing", p=player), self.rule
            )

    def stand(self, player: str) -> None:
        """End the checked player's turn."""
        self.index += 1


def clockwise_from(seats: Sequence[str], start: str, among: Sequence[str]) -> list[str]:
    """The players of ``among`` in seat order, starting at ``start`` (or the next one after it)."""
    n = len(seats)
    i = seats.index(start)
    members = set(among)
    return [seats[(i + k) % n] for k in range(n) if seats[(i + k) % n] in members]


def opener(seats: Sequence[str], captain: str, throws: dict[str, int]) -> str:
    """Who opens the betting (T4, M4): the fewest throws, searching clockwise from the captain.

    With equal counts that is the captain himself; ``throws`` maps each player in the hand
    to his number of throws.
    """
    fewest = min(throws.values())  # a ValueError for a hand of nobody
    return next(p for p in clockwise_from(seats, captain, list(throws)) if throws[p] == fewest)


def left_of(seats: Sequence[str], player: str, among: Sequence[str]) -> str:
    """The next player of ``among`` clockwise after ``player`` (his left), M9."""
    ring = clockwise_from(seats, player, among)
    after = [p for p in ring if p != player]
    return after[0] if after else player
