"""The betting of one multi-hand Bidou hand (M5): who acts next, what he may do, and the stakes.

Multi-hand betting is poker-shaped but with Bidou's limits: before any bet a player passes or
bets 1 to 3 chips; after it he calls, raises by 1 or 2, or drops, and a pass is a drop
(situation 9). Players who passed before the first bet answer it when it comes round. This
module only keeps that bookkeeping -- the stakes, who still has to answer, who dropped, who is
all in -- and says how the betting closed. It moves no chips: the game moves them, and
``engine.multi_hand_settle`` decides the settlements, so each piece stays small and testable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.actions import BETTING_VERBS, Action
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, not_your_turn
from engine.messages import Message, because, say, then

MAX_BET = 3
MAX_RAISE = 2
RULE = "M5"


@dataclass
class MultiBetting:
    """One hand's betting among ``order`` (the players in the hand, clockwise from the opener).

    ``chips`` is the game's own mapping of what each player holds (read, never written here):
    a bet or raise may use only the bettor's own chips (M5, D-M1).
    """

    order: list[str]
    chips: dict[str, int]
    stake: dict[str, int] = field(default_factory=dict)
    level: int = 0
    need: set[str] = field(default_factory=set)
    dropped: list[str] = field(default_factory=list)
    all_in: set[str] = field(default_factory=set)
    raisers: list[str] = field(default_factory=list)
    last: str | None = None

    def __post_init__(self) -> None:
        self.stake = {p: 0 for p in self.order}
        self.need = set(self.order)

    # --- questions -----------------------------------------------------------------------
    @property
    def opened(self) -> bool:
        """True once somebody has bet this hand."""
        return self.level > 0

    @property
    def in_hand(self) -> list[str]:
        """Players who have not dropped, in betting order (all-in players included)."""
        return [p for p in self.order if p not in self.dropped]

    @property
    def bettors(self) -> list[str]:
        """Players who have put chips in this hand, in betting order."""
        return [p for p in self.order if self.stake[p] > 0]

    @property
    def outcome(self) -> str | None:
        """How the betting closed: "passed", "alone", "showdown", or None while it runs."""
        if self.opened and len(self.in_hand) == 1:
            return "alone"
        if self.need:
            return None
        return "showdown" if self.opened else "passed"

    @property
    def to_act(self) -> str | None:
        """The next player clockwise after the last one to act who still has to answer (D-M5)."""
        if self.outcome is not None:
            return None
        start = 0 if self.last is None else self.order.index(self.last) + 1
        ring = self.order[start:] + self.order[:start]
        # The betting runs (no outcome), so somebody in the hand still has to answer.
        return next(p for p in ring if p in self.need)

    def to_call(self, player: str) -> int:
        """Chips ``player`` must add to match the highest stake."""
        return self.level - self.stake[player]

    def allowed(self) -> list[Allowed]:
        """Exactly the betting actions ``check`` accepts now."""
        p = self.to_act
        if p is None:
            return []
        held = self.chips[p]
        if not self.opened:
            return [Allowed(p, "bet", 1, min(MAX_BET, held)), Allowed(p, "pass")]
        opts = [Allowed(p, "call")]
        room = held - self.to_call(p)
        if room >= 1:
            opts.append(Allowed(p, "raise", 1, min(MAX_RAISE, room)))
        return opts + [Allowed(p, "drop"), Allowed(p, "pass")]

    def choices(self, p: str) -> Message:
        """What the player to act may do: "Ann may bet 1 to 3 chips or pass"."""
        words = []
        for a in self.allowed():
            if a.min_chips is None:
                words.append(say("%(verb)s", verb=a.verb))
            elif a.min_chips == a.max_chips:
                words.append(say("%(verb)s %(chips)s", verb=a.verb, chips=a.min_chips))
            else:
                words.append(say("%(verb)s %(n)s to %(m)s chips", verb=a.verb, n=a.min_chips,
                                 m=a.max_chips or 0))
        return say("%(p)s may %(options)s", p=p, options=tuple(words))

    # --- check ---------------------------------------------------------------------------
    def check(self, action: Action) -> None:
        """Raise RuleViolation (naming the rule) unless ``action`` is allowed now."""
        p, verb = action.player, action.verb
        who = self.to_act
        if p != who:
            raise NotYourTurn(not_your_turn(str(who), "bet", p), RULE)
        if verb in ("betpot", "callpot"):
            raise RuleViolation(then(say("%(verb)s belongs to Montevideo", verb=verb),
                                     say("in multi-hand Bidou %(what)s", what=self.choices(p))),
                                RULE)
        if verb not in BETTING_VERBS:
            raise RuleViolation(then(say("every player has thrown and the betting is open"),
                                     self.choices(p)), RULE)
        held = self.chips[p]
        n = action.chips or 0
        if not self.opened:
            if verb in ("call", "raise", "drop"):
                raise RuleViolation(then(say("nobody has bet yet, so there is nothing to "
                                             "%(verb)s", verb=verb), self.choices(p)),
                                    "D-M2" if verb == "drop" else RULE)
            if verb == "bet":
                if n > MAX_BET:
                    raise RuleViolation(say("a bet is 1 to %(n)s chips in multi-hand Bidou",
                                            n=MAX_BET), RULE)
                if n > held:
                    raise RuleViolation(because(
                        say("%(p)s holds %(chips)s and cannot bet %(n)s", p=p, chips=held, n=n),
                        say("bets are the bettor's own chips")), "D-M1")
            return
        if verb == "bet":
            raise RuleViolation(then(say("there is already a bet of %(chips)s",
                                         chips=self.level), self.choices(p)), RULE)
        if verb == "raise":
            if n > MAX_RAISE:
                raise RuleViolation(say("a raise is 1 or %(n)s chips in multi-hand Bidou",
                                        n=MAX_RAISE), RULE)
            need = self.to_call(p) + n
            if need > held:
                raise RuleViolation(then(because(
                    say("%(p)s cannot raise by %(chips)s", p=p, chips=n),
                    say("calling and raising takes %(chips)s and he holds %(n)s", chips=need,
                        n=held)),
                    say("he may %(options)s", options=self.choices(p).kwargs["options"])),
                    "D-M1")

    # --- perform -------------------------------------------------------------------------
    def act(self, action: Action) -> int:
        """Record a checked action; returns how many chips the player puts into the pot."""
        p, verb = action.player, action.verb
        self.last = p
        held = self.chips[p]
        if verb == "pass" and not self.opened:
            self.need.discard(p)
            return 0
        if verb in ("pass", "drop"):
            self.dropped.append(p)
            self.need.discard(p)
            return 0
        if verb == "call":
            put = min(self.to_call(p), held)
            self.stake[p] += put
            self.need.discard(p)
            if put == held:
                self.all_in.add(p)
            return put
        put = (action.chips or 0) + (self.to_call(p) if verb == "raise" else 0)
        self.stake[p] += put
        self.level = self.stake[p]
        if verb == "raise":
            self.raisers.append(p)
        if put == held:
            self.all_in.add(p)
        self.need = {q for q in self.in_hand if q != p and q not in self.all_in}
        return put
