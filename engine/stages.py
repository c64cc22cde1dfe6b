"""The stages Bidou's variants share, each one link of the game's chain (``engine.game.Stage``).

Two-hand Bidou and multi-hand Bidou play the same captain roll, the same throwing turns, the
same heads-up betting (multi-hand's last two players use two-hand rules, M8) and the same open
throw (T10). Each stage here wraps the bookkeeping of ``engine.phases``,
``engine.two_hand_betting`` or ``engine.open_throw`` with the one interface every stage has,
and is given ``then``: the game's next link, called when the stage is done. Montevideo's
stages differ in their words and rules and live in ``engine.montevideo``.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from typing import Protocol

from engine.actions import BETTING_VERBS, Action
from engine.errors import RuleViolation
from engine.game import Allowed, Effect, Stage
from engine.messages import Message, because, say, then
from engine.open_throw import OpenThrow
from engine.phases import CaptainRoll, ThrowingTurns
from engine.ranking import Throw, is_pending, normalise
from engine.settling import Settling
from engine.two_hand_betting import HeadsUpBetting


class Bookkeeping(Protocol):
    """What a stage can hand over to one bookkeeping object: whose turn it is, what is open
    and the check (``HeadsUpBetting``, ``OpenThrow``, ``MultiBetting``, ``BettingRound``)."""

    @property
    def to_act(self) -> str | None: ...

    def allowed(self) -> list[Allowed]: ...

    def check(self, action: Action) -> None: ...


class Delegating(Stage):
    """A stage whose turn and rules are those of one bookkeeping object, ``inner``: its
    ``to_act``, ``allowed()`` and ``check(action)``."""

    inner: Bookkeeping

    @property
    def to_act(self) -> str | None:
        return self.inner.to_act

    def allowed(self) -> list[Allowed]:
        return list(self.inner.allowed())

    def check(self, action: Action) -> None:
        self.inner.check(action)


class Rolling(Stage):
    """The captain roll (T2, M2): one die each, the tied roll again; then ``then(captain)``.

    ``starts`` says what the roll starts ("the round starts with the captain roll" in
    two-hand, "the game ..." in multi-hand).
    """

    expects = "roll"

    def __init__(self, roll: CaptainRoll, *, starts: Message,
                 then: Callable[[str], list[Effect]]) -> None:
        self.roll = roll
        self.rule = roll.rule
        self.starts = starts
        self.then = then
        self.best = ("%(p)s is captain: the higher die" if len(roll.contenders) == 2
                     else "%(p)s is captain: the highest die")

    @property
    def to_act(self) -> str | None:
        return self.roll.next_roller

    def allowed(self) -> list[Allowed]:
        return [Allowed(p, "roll") for p in [self.roll.next_roller] if p is not None]

    def check(self, action: Action) -> None:
        p = action.player
        if action.verb != "roll":
            raise RuleViolation(because(self.starts, say("%(p)s rolls one die", p=p)),
                                self.rule)
        self.roll.check(p, action.numbers[0] if action.numbers else 0)

    def roll_note(self, player: str, die: int | None) -> Effect:
        """What a roll says (a pending one: its die is shown, not yet read surely)."""
        if die is None:
            return Effect("note", say("%(p)s rolls for the captaincy; the die is not read "
                                      "surely yet", p=player), self.rule, player=player)
        return Effect("note", say("%(p)s rolls %(n)s for the captaincy", p=player, n=die),
                      self.rule, player=player, dice=(die,))

    def tie_note(self, tied: list[str], die: int) -> Effect:
        return Effect("note", say("%(names)s tie on %(n)s and roll again", names=tuple(tied),
                                  n=die), self.rule)

    def captain_note(self, captain: str) -> Effect:
        return Effect("captain", say(self.best, p=captain), self.rule, player=captain)

    def perform(self, action: Action) -> list[Effect]:
        p = action.player
        die = action.numbers[0] if action.numbers else None
        effects = [self.roll_note(p, die)]
        top = max([*self.roll.rolls.values(), die or 0])  # the die tied on, if they tie
        tied = self.roll.record(p, die)
        if self.roll.complete and self.roll.unsettled:  # every die rolled, some not read
            pause = Settling(self, self.roll.unsettled, dice=1, before=say("the captain is named"),
                             record=self.roll.settle, then=self._decided,
                             shown={q: (d,) for q, d in self.roll.rolls.items() if d})
            self.handover = pause
            return effects + pause.pause()
        return effects + self._outcome(tied, top)

    def _decided(self) -> list[Effect]:
        top = max(self.roll.rolls.values())
        return self._outcome(self.roll.decide(), top)

    def _outcome(self, tied: list[str] | None, die: int) -> list[Effect]:
        if tied:
            return [self.tie_note(tied, die)]
        if self.roll.captain is not None:
            return [self.captain_note(self.roll.captain), *self.then(self.roll.captain)]
        return []


class Throwing(Stage):
    """Each player throws 1 to 3 times in turn (T3, M3); then ``then()`` opens the betting.

    ``all_thrown`` ends the refusal of an early bet ("both players have thrown");
    ``first_throw()`` is called before the hand's first throw (last hand's shown dice go).
    """

    expects = "throw"

    def __init__(self, turns: ThrowingTurns, *, rule: str, all_thrown: Message,
                 first_throw: Callable[[], None], then: Callable[[], list[Effect]]) -> None:
        self._turns: ThrowingTurns = turns
        self.rule = rule
        self.all_thrown = all_thrown
        self.first_throw = first_throw
        self.then = then

    @property
    def to_act(self) -> str | None:
        return self._turns.current

    def allowed(self) -> list[Allowed]:
        return self._turns.allowed()

    def check(self, action: Action) -> None:
        p, turns = action.player, self._turns
        if action.verb == "throw":
            turns.check_throw(p, action.numbers)
        elif action.verb == "stand":
            turns.check_stand(p)
        else:
            first = ("%(p)s throws" if turns.count(p) == 0
                     else "%(p)s throws again or stands")
            raise RuleViolation(then(say("the betting begins when %(what)s",
                                         what=self.all_thrown), say(first, p=p)), self.rule)

    def perform(self, action: Action) -> list[Effect]:
        p, turns = action.player, self._turns
        if action.verb == "throw":
            if not turns.throws:
                self.first_throw()
            turns.throw(p, action.numbers)
            effects = [Effect("note", say("%(p)s throws (%(n)s of 3)", p=p, n=turns.count(p)),
                              turns.rule, player=p)]
        else:
            turns.stand(p)
            effects = [Effect("note", say("%(p)s stands after %(throws)s", p=p,
                                          throws=turns.count(p)), turns.rule, player=p)]
        if turns.done:
            effects += self.then()
        return effects


class HeadsUp(Delegating):
    """The betting of a two-hand hand (T5-T8), also multi-hand's last two (M8, ``under``
    two-hand rules); then ``then(betting)`` with its outcome settled."""

    expects = "bet"
    rule = "T5"

    def __init__(self, betting: HeadsUpBetting, turns: ThrowingTurns, *, under: bool,
                 note_exposed: Callable[[list[Effect]], None],
                 then: Callable[[HeadsUpBetting], list[Effect]]) -> None:
        self.betting = self.inner = betting
        self._turns = turns
        self.under = under
        self.note_exposed = note_exposed
        self.then = then

    def stake(self, player: str) -> int:
        return self.betting.stake(player) if player in self.betting.players else 0

    @property
    def pot(self) -> int:
        return self.betting.pot

    def check(self, action: Action) -> None:
        p, verb = action.player, action.verb
        may = say("%(p)s may %(verbs)s", p=p, verbs=tuple(a.verb for a in self.betting.allowed()))
        if self.under and verb not in BETTING_VERBS:
            raise RuleViolation(then(say("both players have thrown and the betting is open "
                                         "under two-hand rules"), may), self.rule)
        if verb in ("throw", "stand", "roll"):
            raise RuleViolation(then(say("both players have thrown and the betting is open"),
                                     may), self.rule)
        if verb in ("betpot", "callpot"):
            raise RuleViolation(then(say("%(verb)s belongs to Montevideo", verb=verb),
                                     say("in two-hand Bidou %(what)s", what=may)), self.rule)
        self.betting.check(action)

    def perform(self, action: Action) -> list[Effect]:
        effects = self.betting.perform(action)
        waiting = self.betting.unsettled
        if waiting:
            known = {q: t for q, t in self.betting.throws.items() if not is_pending(t)}
            pause = Settling(self, waiting, dice=3, before=say("the showdown"),
                             record=self._settle, then=self._showdown, shown=known)
            self.handover = pause
            return effects + pause.pause()
        self.note_exposed(effects)
        if self.betting.done:
            effects += self.then(self.betting)
        return effects

    def _settle(self, player: str, dice: Sequence[int]) -> None:
        self._turns.settle(player, dice)
        self.betting.throws[player] = normalise(dice)

    def _showdown(self) -> list[Effect]:
        effects = self.betting.showdown()
        self.note_exposed(effects)
        return effects + self.then(self.betting)


class OpenThrowing(Delegating):
    """An open throw (T10): exposed throws, no betting; then ``then(next_captain)``."""

    expects = "throw"
    rule = "T10"

    def __init__(self, open_throw: OpenThrow, holdings: MutableMapping[str, int], *,
                 first_throw: Callable[[], None],
                 note_exposed: Callable[[list[Effect]], None],
                 then: Callable[[str], list[Effect]]) -> None:
        self.open = self.inner = open_throw
        self.holdings = holdings
        self.first_throw = first_throw
        self.note_exposed = note_exposed
        self.then = then

    def perform(self, action: Action) -> list[Effect]:
        if action.verb == "throw" and not self.open.turns.throws:
            self.first_throw()
        effects = self.open.perform(action, self.holdings)
        self.note_exposed(effects)
        waiting = self.open.unsettled
        if waiting:
            turns = self.open.turns
            known: dict[str, tuple[int, ...]] = {}
            for q in (self.open.short, self.open.holder):
                t = turns.last(q)
                if t and q not in waiting:
                    known[q] = t
            pause = Settling(self, waiting, dice=3, before=say("the open throw's outcome"),
                             record=self._settle, then=self._finish, shown=known)
            self.handover = pause
            return effects + pause.pause()
        return effects + self._then()

    @property
    def turns(self) -> ThrowingTurns:
        """The open throw's turns now (a tie plays it again with new ones)."""
        return self.open.turns

    def _settle(self, player: str, dice: Sequence[int]) -> None:
        self.open.turns.settle(player, dice)
        t: Throw = normalise(dice)
        self.note_exposed([Effect("expose", say(""), self.rule, player=player, dice=t)])

    def _finish(self) -> list[Effect]:
        effects = self.open.settle(self.holdings)
        self.note_exposed(effects)
        return effects + self._then()

    def _then(self) -> list[Effect]:
        if self.open.done:
            assert self.open.outcome is not None
            return self.then(self.open.outcome.next_captain)
        return []
