"""One no-limit betting round of Montevideo: poker betting with betting and calling the pot.

RULINGS V3 says "betting as in poker, no limit" and V6 adds the pot bet. This module is
that round and nothing else: whose turn it is, what each player may do (with the chip
range of a bet or raise), and what an action puts into the pot. The game around it
(engine/montevideo.py) does the antes, the throwing and the settlement. The choices the
rules leave open are documented in docs/rules/montevideo.md (D-V1 to D-V6, D-V13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.actions import Action
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, not_your_turn
from engine.messages import Arg, Message, because, cited, say, then
from engine.phases import clockwise_from

RULE = "V3"
POT_RULE = "V6"


@dataclass(frozen=True)
class Option:
    """A verb open to the player to act; for bet and raise the chip range."""

    verb: str
    min_chips: int | None = None
    max_chips: int | None = None


@dataclass
class BettingRound:
    """The betting of one hand, clockwise from the opener over the players in the hand.

    ``stacks`` is the game's own chip count per player (this round takes bets out of it);
    ``bets`` what each player has put in during this round (the ante is not a bet).
    A player with no chips left is all-in: he is skipped but stays in the hand.
    """

    seats: tuple[str, ...]
    in_hand: list[str]
    stacks: dict[str, int]
    first: str
    bets: dict[str, int] = field(default_factory=dict)
    level: int = 0
    opened: bool = False
    pot_bettor: str | None = None
    acted: set[str] = field(default_factory=set)
    passed: list[str] = field(default_factory=list)
    last: str | None = None
    last_raiser: str | None = None

    def __post_init__(self) -> None:
        for p in self.in_hand:
            self.bets.setdefault(p, 0)

    # --- who acts --------------------------------------------------------------------
    def can_bet(self, player: str) -> bool:
        """In the hand with chips left to bet (not dropped, not all-in)."""
        return player in self.in_hand and self.stacks[player] > 0

    def _needs(self, player: str) -> bool:
        return self.can_bet(player) and (
            player not in self.acted or self.bets[player] < self.level
        )

    @property
    def done(self) -> bool:
        """True when the betting is over: one player left, or nobody else has to act (D-V8)."""
        if len(self.in_hand) <= 1:
            return True
        bettors = [p for p in self.in_hand if self.can_bet(p)]
        if len(bettors) <= 1 and all(self.bets[p] >= self.level for p in bettors):
            return True
        return not any(self._needs(p) for p in self.in_hand)

    @property
    def to_act(self) -> str | None:
        """The next player to act, clockwise from the opener or after the last actor (D-V6)."""
        if self.done:
            return None
        if self.last is None:
            ring = clockwise_from(self.seats, self.first, self.seats)
        else:
            ring = clockwise_from(self.seats, self.last, self.seats)
            ring = ring[1:] + ring[:1]
        # Not done: somebody in the hand still needs to act, and the ring holds every seat.
        return next(p for p in ring if self._needs(p))

    @property
    def all_passed(self) -> bool:
        """Nobody bet and at least one player passed: V4's "everyone passes"."""
        return not self.opened and bool(self.passed)

    def to_call(self, player: str) -> int:
        """Chips ``player`` must add to stay in: the bet to call minus what he has bet."""
        return max(0, self.level - self.bets.get(player, 0))

    def _someone_answers(self, player: str) -> bool:
        return any(self.can_bet(q) for q in self.in_hand if q != player)

    # --- what is open ----------------------------------------------------------------
    def options(self, player: str) -> list[Option]:
        """Every verb ``player`` may use now (empty if it is not his turn)."""
        if player != self.to_act:
            return []
        stack = self.stacks[player]
        if not self.opened:
            return [Option("pass"), Option("bet", 1, stack), Option("betpot")]
        owed = self.to_call(player)
        opts: list[Option] = []
        if owed == 0:
            opts.append(Option("callpot"))
        else:
            opts.append(Option("call"))
        if stack > owed and self._someone_answers(player):
            opts.append(Option("raise", 1, stack - owed))
        opts += [Option("drop"), Option("pass")]
        return opts

    def allowed(self) -> list[Allowed]:
        """The options of the player to act, as the game lists them (none once it is over)."""
        who = self.to_act
        if who is None:
            return []
        return [Allowed(who, o.verb, o.min_chips, o.max_chips) for o in self.options(who)]

    def check(self, action: Action) -> None:
        """Raise RuleViolation naming the rule if ``action`` is not open now."""
        p, verb = action.player, action.verb
        if p != self.to_act:
            if p not in self.in_hand:
                raise RuleViolation(say("%(p)s is not in this hand and cannot bet now", p=p),
                                    RULE)
            raise NotYourTurn(because(not_your_turn(str(self.to_act), "bet", p),
                                      say("betting goes clockwise")), RULE)
        stack = self.stacks[p]
        owed = self.to_call(p)
        if verb in ("throw", "stand", "roll"):
            raise RuleViolation(because(say("every player has thrown and the betting is open"),
                                        say("%(p)s may not %(verb)s now", p=p, verb=verb)),
                                RULE)
        if not self.opened:
            if verb in ("call", "raise", "drop"):
                raise RuleViolation(because(
                    say("nobody has bet yet, so %(p)s cannot %(verb)s", p=p, verb=verb),
                    say("pass, bet or bet the pot")), RULE)
            if verb == "callpot":
                raise RuleViolation(say("nobody has bet the pot, so %(p)s cannot call it", p=p),
                                    POT_RULE)
            if verb == "bet":
                self._check_chips(p, action.chips, stack, "bet")
            return
        # The betting is open: a bet or a pot bet has been made.
        if verb == "bet":
            raise RuleViolation(because(say("the betting is already open"),
                                        say("raise instead of betting again")), RULE)
        if verb == "betpot":
            raise RuleViolation(then(say("only the player opening the betting may bet the pot"),
                                     say("it is open already")), POT_RULE)
        if verb == "callpot" and self.pot_bettor is None:
            raise RuleViolation(because(
                say("nobody has bet the pot, so %(p)s cannot call it", p=p),
                say("call %(n)s, raise or drop", n=owed)), POT_RULE)
        if verb == "callpot" and owed > 0:
            raise RuleViolation(because(
                say("%(p)s has raised after the pot bet", p=self._raiser()),
                say("%(p)s must call %(n)s, raise or drop", p=p, n=owed)), POT_RULE)
        if verb == "call" and owed == 0:
            raise RuleViolation(because(say("nobody has bet chips after the pot bet"),
                                        say("%(p)s may call the pot for nothing", p=p)),
                                POT_RULE)
        if verb == "raise":
            if stack <= owed:
                raise RuleViolation(say("%(p)s has %(n)s chips, not more than the %(m)s to "
                                        "call, so can only call all-in or drop", p=p, n=stack,
                                        m=owed), RULE)
            if not self._someone_answers(p):
                raise RuleViolation(because(
                    say("every other player in the hand is all-in, so nobody could answer a "
                        "raise"),
                    say("%(p)s may %(verbs)s", p=p, verbs=("call", "drop"))), RULE)
            self._check_chips(p, action.chips, stack - owed, "raise")

    def _raiser(self) -> Arg:
        return self.last_raiser or say("a player")

    @staticmethod
    def _check_chips(p: str, chips: int | None, most: int, verb: str) -> None:
        if chips is None or not 1 <= chips <= most:
            raise RuleViolation(say("%(p)s may %(verb)s %(n)s to %(m)s chips in no-limit "
                                    "Montevideo, not %(k)s", p=p, verb=verb, n=1, m=most,
                                    k=str(chips)), RULE)

    # --- doing it --------------------------------------------------------------------
    def act(self, action: Action) -> tuple[int, Message]:
        """Apply a checked action. Returns the chips it puts in the pot and what it says."""
        p, verb = action.player, action.verb
        self.last = p
        stack = self.stacks[p]
        if verb == "pass" and not self.opened:
            self.acted.add(p)
            self.passed.append(p)
            return 0, say("%(p)s passes", p=p)
        if verb in ("pass", "drop"):
            self.in_hand.remove(p)
            if verb == "pass":
                return 0, cited(say("%(p)s passes after the betting has begun, and so drops out",
                                    p=p), "D-V13")
            return 0, say("%(p)s drops out of the hand", p=p)
        if verb == "betpot":
            self.opened = True
            self.pot_bettor = p
            self.acted = {p}
            return 0, cited(because(say("%(p)s bets the pot", p=p),
                                    say("stays in without putting up chips")), "V6")
        if verb == "callpot":
            self.acted.add(p)
            return 0, cited(say("%(p)s calls the pot for nothing", p=p), "V6")
        if verb == "bet":
            n = action.chips or 0
            self._put(p, n)
            self.opened = True
            self.level = self.bets[p]
            self.last_raiser = p
            self.acted = {p}
            bets = ("%(p)s bets %(chips)s and is all-in" if self.stacks[p] == 0
                    else "%(p)s bets %(chips)s")
            return n, say(bets, p=p, chips=n)
        if verb == "raise":
            n = action.chips or 0
            put = self.to_call(p) + n
            self._put(p, put)
            self.level = self.bets[p]
            self.last_raiser = p
            self.acted = {p}
            raises = ("%(p)s raises by %(chips)s to %(n)s and is all-in" if self.stacks[p] == 0
                      else "%(p)s raises by %(chips)s to %(n)s")
            return put, say(raises, p=p, chips=n, n=self.level)
        # call
        put = min(self.to_call(p), stack)
        self._put(p, put)
        self.acted.add(p)
        if self.stacks[p] == 0 and self.bets[p] < self.level:
            return put, cited(say("%(p)s calls all-in with %(chips)s", p=p, chips=put), "V3")
        if self.stacks[p] == 0:
            return put, say("%(p)s calls %(chips)s and is all-in", p=p, chips=put)
        return put, say("%(p)s calls %(chips)s", p=p, chips=put)

    def _put(self, player: str, chips: int) -> None:
        self.stacks[player] -= chips
        self.bets[player] += chips

