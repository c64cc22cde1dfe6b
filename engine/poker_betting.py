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
from engine.game import Allowed
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
                raise RuleViolation(f"{p} is not in this hand and cannot bet now", RULE)
            raise NotYourTurn(
                f"it is {self.to_act}'s turn to bet, not {p}'s: betting goes clockwise",
                RULE,
            )
        stack = self.stacks[p]
        owed = self.to_call(p)
        if verb in ("throw", "stand", "roll"):
            raise RuleViolation(
                f"every player has thrown and the betting is open: {p} may not {verb} now",
                RULE,
            )
        if not self.opened:
            if verb in ("call", "raise", "drop"):
                raise RuleViolation(
                    f"nobody has bet yet, so {p} cannot {verb}: pass, bet or bet the pot",
                    RULE,
                )
            if verb == "callpot":
                raise RuleViolation(
                    f"nobody has bet the pot, so {p} cannot call it", POT_RULE
                )
            if verb == "bet":
                self._check_chips(p, action.chips, stack, "bet")
            return
        # The betting is open: a bet or a pot bet has been made.
        if verb == "bet":
            raise RuleViolation(
                "the betting is already open: raise instead of betting again", RULE
            )
        if verb == "betpot":
            raise RuleViolation(
                "only the player opening the betting may bet the pot; it is open already",
                POT_RULE,
            )
        if verb == "callpot" and self.pot_bettor is None:
            raise RuleViolation(
                f"nobody has bet the pot, so {p} cannot call it: call {owed}, raise or drop",
                POT_RULE,
            )
        if verb == "callpot" and owed > 0:
            raise RuleViolation(
                f"{self._raiser()} has raised after the pot bet: {p} must call {owed}, "
                "raise or drop",
                POT_RULE,
            )
        if verb == "call" and owed == 0:
            raise RuleViolation(
                f"nobody has bet chips after the pot bet: {p} may call the pot for nothing",
                POT_RULE,
            )
        if verb == "raise":
            if stack <= owed:
                raise RuleViolation(
                    f"{p} has {stack} chips, not more than the {owed} to call, "
                    "so can only call all-in or drop",
                    RULE,
                )
            if not self._someone_answers(p):
                raise RuleViolation(
                    f"every other player in the hand is all-in, so nobody could answer "
                    f"a raise: {p} may call or drop",
                    RULE,
                )
            self._check_chips(p, action.chips, stack - owed, "raise")

    def _raiser(self) -> str:
        return self.last_raiser or "a player"

    @staticmethod
    def _check_chips(p: str, chips: int | None, most: int, verb: str) -> None:
        if chips is None or not 1 <= chips <= most:
            raise RuleViolation(
                f"{p} may {verb} 1 to {most} chips in no-limit Montevideo, not {chips}",
                RULE,
            )

    # --- doing it --------------------------------------------------------------------
    def act(self, action: Action) -> tuple[int, str]:
        """Apply a checked action. Returns the chips it puts in the pot and a sentence."""
        p, verb = action.player, action.verb
        self.last = p
        stack = self.stacks[p]
        if verb == "pass" and not self.opened:
            self.acted.add(p)
            self.passed.append(p)
            return 0, f"{p} passes"
        if verb in ("pass", "drop"):
            self.in_hand.remove(p)
            if verb == "pass":
                return 0, f"{p} passes after the betting has begun, and so drops out (D-V13)"
            return 0, f"{p} drops out of the hand"
        if verb == "betpot":
            self.opened = True
            self.pot_bettor = p
            self.acted = {p}
            return 0, f"{p} bets the pot: stays in without putting up chips (V6)"
        if verb == "callpot":
            self.acted.add(p)
            return 0, f"{p} calls the pot for nothing (V6)"
        if verb == "bet":
            n = action.chips or 0
            self._put(p, n)
            self.opened = True
            self.level = self.bets[p]
            self.last_raiser = p
            self.acted = {p}
            allin = " and is all-in" if self.stacks[p] == 0 else ""
            return n, f"{p} bets {n} chip{'s' if n != 1 else ''}{allin}"
        if verb == "raise":
            n = action.chips or 0
            put = self.to_call(p) + n
            self._put(p, put)
            self.level = self.bets[p]
            self.last_raiser = p
            self.acted = {p}
            allin = " and is all-in" if self.stacks[p] == 0 else ""
            return put, (
                f"{p} raises by {n} chip{'s' if n != 1 else ''} to {self.level}{allin}"
            )
        # call
        put = min(self.to_call(p), stack)
        self._put(p, put)
        self.acted.add(p)
        if self.stacks[p] == 0 and self.bets[p] < self.level:
            return put, f"{p} calls all-in with {put} chip{'s' if put != 1 else ''} (V3)"
        if self.stacks[p] == 0:
            return put, f"{p} calls {put} chip{'s' if put != 1 else ''} and is all-in"
        return put, f"{p} calls {put} chip{'s' if put != 1 else ''}"

    def _put(self, player: str, chips: int) -> None:
        self.stacks[player] -= chips
        self.bets[player] += chips

