"""The open throw (T10): a hand without betting, thrown exposed, when one player is one chip from
losing.

It is due when, after a hand, one of two players holds every chip in play but one and the last
chip is with his opponent or in the centre. "Chips in play" is whatever the two players and the
centre hold: 9 in two-hand Bidou, and the two last players' chips (no centre) in multi-hand
Bidou's end game (M8), so nothing here assumes 9. The short player throws first, exposed, 1 to
3 times, then the holder; equal throws play the open throw again.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from engine.actions import Action
from engine.chips import CENTRE
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, Effect
from engine.messages import THE_CENTRE, Arg, Message, because, say, then
from engine.phases import MAX_THROWS, ThrowingTurns
from engine.ranking import compare, is_pending


def chips_in_play(players: Sequence[str], holdings: Mapping[str, int]) -> int:
    """Chips held by the players and the centre (absent = no centre)."""
    return sum(holdings.get(p, 0) for p in players) + holdings.get(CENTRE, 0)


def open_throw_due(
    players: Sequence[str], holdings: Mapping[str, int]
) -> tuple[str, str] | None:
    """``(short, holder)`` if the next hand is an open throw (T10), else None.

    The holder has every chip in play but one. With one chip each and no centre (possible only
    under M8) both qualify: the first of ``players`` counts as the holder, the second throws
    first; the outcome is the same either way (the worse throw ends up with both chips).
    """
    in_play = chips_in_play(players, holdings)
    if in_play < 2:
        return None
    for holder in players:
        if holdings.get(holder, 0) == in_play - 1:
            short = next(p for p in players if p != holder)
            return short, holder
    return None


def open_throw_note(holder: str, chips: int, where: Arg, short: str) -> Message:
    """What starts an open throw: who holds what, where the last chip is, who throws first."""
    return say("Open throw: %(p)s holds %(chips)s and the last is with %(where)s; no betting, "
               "%(q)s throws first, exposed", p=holder, chips=chips, where=where, q=short)


@dataclass(frozen=True)
class OpenThrowOutcome:
    """``loser`` threw worse; ``kind`` is "holder lost" (he takes the last chip) or "short
    lost" (he takes one chip from the holder); ``next_captain`` is the winner of the open
    throw."""

    kind: str
    loser: str
    next_captain: str


@dataclass
class OpenThrow:
    """One open throw between ``short`` (throws first) and ``holder`` (T10)."""

    short: str
    holder: str
    ranking: str = "three-digit"
    rule: str = "T10"
    turns: ThrowingTurns = field(init=False)
    replays: int = 0
    outcome: OpenThrowOutcome | None = None

    def __post_init__(self) -> None:
        self.turns = ThrowingTurns([self.short, self.holder], rule=self.rule)

    @property
    def done(self) -> bool:
        return self.outcome is not None

    @property
    def to_act(self) -> str | None:
        return None if self.done else self.turns.current

    def allowed(self) -> list[Allowed]:
        """Throw (up to three times) and stand (after the first throw) for the thrower."""
        p = self.to_act
        if p is None:
            return []
        n = self.turns.count(p)
        opts = [Allowed(p, "throw")] if n < MAX_THROWS else []
        if n >= 1:
            opts.append(Allowed(p, "stand"))
        return opts

    def check(self, action: Action) -> None:
        """Refuse anything but the thrower's throw or stand; there is no betting (T10)."""
        p = self.to_act
        if p is None:
            raise RuleViolation(say("the open throw is over"), self.rule)
        if action.player != p:
            raise NotYourTurn(say("it is %(q)s's turn to throw in the open throw, not %(p)s's",
                                  q=p, p=action.player), self.rule)
        if action.verb == "throw":
            self.turns.check_throw(p, action.numbers)
        elif action.verb == "stand":
            self.turns.check_stand(p)
        else:
            throws = "%(p)s throws or stands" if self.turns.count(p) else "%(p)s throws"
            raise RuleViolation(then(say("there is no betting in an open throw"),
                                     say(throws, p=p)), self.rule)

    def perform(self, action: Action, holdings: MutableMapping[str, int]) -> list[Effect]:
        """Apply a checked throw or stand; settles into ``holdings`` when both have thrown."""
        p = action.player
        effects: list[Effect] = []
        if action.verb == "throw":
            self.turns.throw(p, action.numbers)
            t = self.turns.last(p)
            assert t is not None
            n = self.turns.count(p)
            said = (say("%(p)s's open throw %(n)s: not read surely yet", p=p, n=n)
                    if is_pending(t) else
                    say("%(p)s's open throw %(n)s: %(throw)s", p=p, n=n, throw=t))
            effects.append(Effect("expose", said, self.rule, player=p, dice=t))
        else:
            self.turns.stand(p)
            effects.append(Effect("note", say("%(p)s stands after %(throws)s", p=p,
                                              throws=self.turns.count(p)),
                                  self.rule, player=p))
        if self.turns.done and not self.unsettled:
            effects += self.settle(holdings)
        return effects

    @property
    def unsettled(self) -> list[str]:
        """Once both have thrown, the players whose last throw waits for values (D-S3)."""
        if not self.turns.done or self.done:
            return []
        return self.turns.unsettled([self.short, self.holder])

    def settle(self, holdings: MutableMapping[str, int]) -> list[Effect]:
        """Compare the two last throws (all values known) and settle into ``holdings``."""
        ts, th = self.turns.last(self.short), self.turns.last(self.holder)
        assert ts is not None and th is not None
        c = compare(ts, th, self.ranking)
        if c == 0:
            self.replays += 1
            self.turns = ThrowingTurns([self.short, self.holder], rule=self.rule)
            return [Effect("hand", say("The open throw is a tie (%(throw)s): it is played "
                                       "again, %(p)s first", throw=ts, p=self.short),
                           self.rule, player=self.short, detail="open throw")]
        if c > 0:  # the holder threw worse: he takes the last chip
            source = CENTRE if holdings.get(CENTRE, 0) > 0 else self.short
            holdings[source] -= 1
            holdings[self.holder] = holdings.get(self.holder, 0) + 1
            where: Arg = THE_CENTRE if source == CENTRE else self.short
            self.outcome = OpenThrowOutcome("holder lost", self.holder, self.short)
            return [Effect("move", because(say("%(p)s takes the last chip from %(where)s",
                                               p=self.holder, where=where),
                                           say("the worse open throw")), self.rule,
                           player=self.holder, chips=1, source=source, dest=self.holder)]
        holdings[self.holder] -= 1
        holdings[self.short] = holdings.get(self.short, 0) + 1
        self.outcome = OpenThrowOutcome("short lost", self.short, self.holder)
        return [Effect("move", because(say("%(p)s takes %(chips)s from %(where)s",
                                           p=self.short, chips=1, where=self.holder),
                                       say("the worse open throw")), self.rule,
                       player=self.short, chips=1, source=self.holder, dest=self.short)]
