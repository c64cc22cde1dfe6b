"""Settling pending values at exposure (D-S3): the one stage in which the table waits for dice.

A throw (or captain roll) counts when it is declared; when the table could not read its dice
surely, its values are pending (D-S1) and play goes on. The rules need values only when they
expose dice -- a showdown, an open throw, Poor Fish's all-pass, Montevideo's shown throws, the
captain roll -- and there the stage that exposes them hands over to :class:`Settling` before
any chip moves. Each exposed pending throw is settled by a ``settle`` action, in any order;
when the last is settled the exposing stage's continuation runs (``then``), exactly as it
would have with the values known from the start, and the game goes on from there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.actions import Action
from engine.errors import RuleViolation
from engine.game import Allowed, Effect, Stage
from engine.messages import Message, say, then
from engine.ranking import normalise

RULE = "D-S3"


class Settling(Stage):
    """Waits for a ``settle`` of each of ``waiting`` (``dice`` values each), then ``then()``.

    ``behind`` is the stage that exposed the dice: its throws, stakes and pot are still the
    views', and it is played again if ``then`` leaves the game in this stage (a tied open
    throw or captain roll goes on). ``record(player, values)`` gives the values to the
    bookkeeping; ``shown`` are the exposed dice already known, for the views; ``before`` says
    what waits ("the showdown", "the open throw's outcome", ...).
    """

    expects = "settle"
    rule = RULE

    def __init__(self, behind: Stage, waiting: Sequence[str], *, dice: int, before: Message,
                 record: Callable[[str, Sequence[int]], None],
                 then: Callable[[], list[Effect]],
                 shown: Mapping[str, tuple[int, ...]] | None = None) -> None:
        self.behind = behind
        self._turns = behind.turns
        self.waiting = list(waiting)
        self.dice = dice
        self.before = before
        self.record = record
        self.then = then
        self.known: dict[str, tuple[int, ...]] = dict(shown or {})

    def pause(self) -> list[Effect]:
        """The effect that says the table waits, and for whom."""
        whose = ("%(names)s's dice are shown but not read surely: the table settles the "
                 "values before %(before)s" if self.dice == 3 else
                 "%(names)s's die is shown but not read surely: the table settles the values "
                 "before %(before)s")
        return [Effect("note", say(whose, names=tuple(self.waiting), before=self.before),
                       RULE)]

    @property
    def to_act(self) -> str | None:
        return self.waiting[0] if self.waiting else None

    def underlying(self) -> Stage:
        return self.behind.underlying()

    def unsettled(self) -> tuple[str, ...]:
        return tuple(self.waiting)

    def shown(self, player: str) -> tuple[int, ...] | None:
        return self.known.get(player)

    def showing(self) -> tuple[str, ...]:
        return (*self.known, *self.waiting)

    def settle_dice(self) -> int:
        return self.dice

    def stake(self, player: str) -> int:
        return self.behind.stake(player)

    @property
    def pot(self) -> int:
        return self.behind.pot

    def allowed(self) -> list[Allowed]:
        return [Allowed(p, "settle") for p in self.waiting]

    def check(self, action: Action) -> None:
        p = action.player
        names = tuple(self.waiting)
        if action.verb != "settle":
            raise RuleViolation(then(say("%(names)s's exposed values are being settled before "
                                         "%(before)s", names=names, before=self.before),
                                     say("nothing else is played until then")), RULE)
        if p not in self.waiting:
            has = "%(names)s has" if len(names) == 1 else "%(names)s have"
            raise RuleViolation(then(say("%(p)s has no exposed values waiting", p=p),
                                     say(has, names=names)), RULE)
        if len(action.numbers) != self.dice:
            what = ("%(p)s's exposed values are a throw of three dice, not %(n)s"
                    if self.dice == 3 else
                    "%(p)s's exposed values are a captain roll of one die, not %(n)s")
            raise RuleViolation(say(what, p=p, n=len(action.numbers)), RULE)

    def perform(self, action: Action) -> list[Effect]:
        p, values = action.player, action.numbers
        self.record(p, values)
        self.waiting.remove(p)
        shown = normalise(values) if self.dice == 3 else tuple(values)
        self.known[p] = shown
        said = (say("%(p)s's values are settled by %(by)s: %(throw)s", p=p,
                    by=str(action.by), throw=shown) if self.dice == 3 else
                say("%(p)s's values are settled by %(by)s: %(n)s", p=p, by=str(action.by),
                    n=values[0]))
        effects = [Effect("settle", said, RULE, player=p, dice=shown, detail=action.by)]
        if self.waiting:
            return effects
        self.handover = self.behind
        return effects + self.then()
