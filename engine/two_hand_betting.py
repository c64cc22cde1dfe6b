"""The betting of one two-hand Bidou hand (T5-T8), from any chip position, centre or none.

Two-hand Bidou bets one chip at a time, takes each staked chip from the centre while it has
one and then from the bettor's own chips (T6), and on a drop or a tie sends every staked chip
back where it came from. So each stake here is a list of *origins* ("centre" or the bettor's
name), one per chip. The same betting settles multi-hand Bidou's last two players (M8: T3-T11
with no centre), so nothing here assumes a centre of 9 or any centre at all: ``holdings`` maps
each of the two players (and optionally ``"centre"``) to the chips there, and is changed in
place as chips move.

Use: build :class:`HeadsUpBetting` once both players have thrown, ask ``allowed()`` and
``check(action)``, then ``perform(action)``; when ``done``, ``outcome`` says how the hand
ended and who captains the next hand. Chips are conserved: ``sum(holdings) + pot`` is
constant throughout.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field

from engine.actions import BETTING_VERBS, Action
from engine.chips import CENTRE, POT, plural
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, Effect
from engine.ranking import Throw, compare, is_pending, throw_name


@dataclass(frozen=True)
class HandOutcome:
    """How a hand's betting ended: ``kind`` is "passed", "called" or "dropped".

    ``next_captain`` captains the next hand (T5, T7, T8); ``loser`` is the worse throw at a
    showdown (None on a tie or without a showdown); ``dropper`` who dropped, if anyone.
    """

    kind: str
    next_captain: str
    loser: str | None = None
    dropper: str | None = None


@dataclass
class HeadsUpBetting:
    """One hand's betting between two players under two-hand rules (T5-T8).

    ``players`` are the two players, ``opener`` bets or passes first (T4), ``captain`` is this
    hand's captain (he keeps the captaincy after a tie, T7; the other takes it after two passes,
    T5), ``throws`` the dice under each cup (compared at a showdown with ``ranking``), and
    ``holdings`` the chips of each player and of the centre (absent or 0 for no centre).
    """

    players: tuple[str, str]
    opener: str
    captain: str
    throws: dict[str, Throw]
    holdings: MutableMapping[str, int]
    ranking: str = "three-digit"
    label: str = "two-hand Bidou"
    stakes: dict[str, list[str]] = field(default_factory=dict)
    to_act: str | None = None
    passes: int = 0
    outcome: HandOutcome | None = None
    #: Set by a call when a throw's values are pending: the showdown waits for them (D-S3).
    called: str | None = None

    def __post_init__(self) -> None:
        if self.opener not in self.players or self.captain not in self.players:
            raise ValueError("the opener and the captain must be among the two players")
        for p in self.players:
            self.stakes.setdefault(p, [])
            self.holdings.setdefault(p, 0)
        self.to_act = self.opener

    # --- what anyone may ask ---------------------------------------------------------
    @property
    def unsettled(self) -> list[str]:
        """After a call, the players whose throws wait for their values (D-S3)."""
        if self.called is None or self.outcome is not None:
            return []
        return [p for p in self.players if is_pending(self.throws[p])]

    @property
    def done(self) -> bool:
        """True once the hand is settled (two passes, a call or a drop)."""
        return self.outcome is not None

    @property
    def pot(self) -> int:
        """Chips staked this hand and not yet settled."""
        return sum(len(s) for s in self.stakes.values())

    def stake(self, player: str) -> int:
        """Chips ``player`` has staked this hand."""
        return len(self.stakes[player])

    def other(self, player: str) -> str:
        """The opponent of ``player``."""
        a, b = self.players
        return b if player == a else a

    def available(self, player: str) -> int:
        """Chips ``player`` may stake: the centre's, then his own (T6)."""
        return self.holdings.get(CENTRE, 0) + self.holdings[player]

    @property
    def betting_open(self) -> bool:
        """True once somebody has bet this hand."""
        return self.pot > 0

    def to_call(self, player: str) -> int:
        """Chips ``player`` must add to match the other's stake."""
        return max(0, self.stake(self.other(player)) - self.stake(player))

    def allowed(self) -> list[Allowed]:
        """Exactly the betting actions ``check`` accepts now."""
        if self.done or self.to_act is None:
            return []
        p = self.to_act
        if not self.betting_open:
            opts = [Allowed(p, "bet", 1, 1)] if self.available(p) >= 1 else []
            return [*opts, Allowed(p, "pass")]
        opts = [Allowed(p, "call")]
        if self.available(p) >= self.to_call(p) + 1:
            opts.append(Allowed(p, "raise", 1, 1))
        opts.append(Allowed(p, "drop"))
        opts.append(Allowed(p, "pass"))  # a drop by another name (D-T2)
        return opts

    # --- check -------------------------------------------------------------------------
    def check(self, action: Action) -> None:
        """Raise RuleViolation (naming the rule) unless ``action`` is allowed now."""
        if self.done:
            raise RuleViolation("this hand's betting is over", "T5")
        p, verb = action.player, action.verb
        if p != self.to_act:
            raise NotYourTurn(f"it is {self.to_act}'s turn to bet, not {p}'s", "T5")
        if verb not in BETTING_VERBS:
            raise RuleViolation(
                f"{verb} is not a betting action; {p} may {self._choices(p)}", "T5"
            )
        if not self.betting_open:
            if verb in ("call", "raise", "drop"):
                raise RuleViolation(
                    f"nobody has bet yet, so there is nothing to {verb}; "
                    f"{p} may {self._choices(p)}",
                    "T5",
                )
            if verb == "bet":
                if action.chips != 1:
                    raise RuleViolation(f"a bet is one chip in {self.label}", "T5")
                if self.available(p) < 1:
                    raise RuleViolation(
                        f"{p} has no chip to bet: the centre is empty and {p} holds none; "
                        f"{p} may pass",
                        "T6",
                    )
            return
        if verb == "bet":
            raise RuleViolation(
                f"the betting is already open; {p} may {self._choices(p)}", "T5"
            )
        if verb == "raise":
            if action.chips != 1:
                raise RuleViolation(f"a raise is one chip in {self.label}", "T5")
            need = self.to_call(p) + 1
            if self.available(p) < need:
                raise RuleViolation(
                    f"{p} cannot raise: calling and raising takes {plural(need)} and the "
                    f"centre and {p}'s own chips hold {self.available(p)}; {p} may call "
                    f"or drop",
                    "T6",
                )

    def _choices(self, p: str) -> str:
        # After a bet, "pass" is only another word for "drop" (D-T2): name it once.
        verbs = [a.verb for a in self.allowed()
                 if not (self.betting_open and a.verb == "pass")]
        return " or ".join(verbs) if verbs else "do nothing"

    # --- perform -----------------------------------------------------------------------
    def perform(self, action: Action) -> list[Effect]:
        """Apply a checked action; returns its effects, settlements included."""
        p, verb = action.player, action.verb
        o = self.other(p)
        effects: list[Effect] = []
        if verb == "pass" and self.betting_open:
            note = Effect("note", f"{p} passes after a bet: that is a drop", "D-T2", player=p)
            return [note, *self._drop(p)]
        if verb == "pass":
            self.passes += 1
            effects.append(Effect("note", f"{p} passes", "T5", player=p))
            if self.passes == 2:
                nxt = self.other(self.captain)
                self.outcome = HandOutcome("passed", nxt)
                self.to_act = None
                effects.append(
                    Effect("note", "Both players pass: the hand ends and nobody takes chips",
                           "T5")
                )
            else:
                self.to_act = o
            return effects
        if verb == "bet":
            effects.append(Effect("note", f"{p} bets 1 chip", "T5", player=p, chips=1))
            effects += self._stake(p, 1)
            self.to_act = o
            return effects
        if verb == "raise":
            total = self.stake(o) + 1
            effects.append(
                Effect("note", f"{p} raises by 1 chip to {total}", "T5", player=p, chips=1)
            )
            effects += self._stake(p, self.to_call(p) + 1)
            self.to_act = o
            return effects
        if verb == "call":
            return self._call(p)
        return self._drop(p)

    def _stake(self, p: str, n: int) -> list[Effect]:
        """Move ``n`` chips into ``p``'s stake, from the centre while it lasts (T6)."""
        from_centre = min(n, self.holdings.get(CENTRE, 0))
        from_own = n - from_centre
        assert from_own <= self.holdings[p], "check() refuses a stake beyond the chips (T6)"
        effects = []
        if from_centre:
            self.holdings[CENTRE] -= from_centre
            self.stakes[p] += [CENTRE] * from_centre
            effects.append(Effect("move", f"{p} stakes {plural(from_centre)} from the centre",
                                  "T6", player=p, chips=from_centre,
                                  source=CENTRE, dest=POT))
        if from_own:
            self.holdings[p] -= from_own
            self.stakes[p] += [p] * from_own
            effects.append(Effect("move", f"{p} stakes {plural(from_own, 'own chip')}", "T6",
                                  player=p, chips=from_own, source=p, dest=POT))
        return effects

    def _return(
        self, p: str, n: int | None = None, why: str = "", rule: str = "T8"
    ) -> list[Effect]:
        """Send the last ``n`` (default all) of ``p``'s staked chips back where they came from."""
        stake = self.stakes[p]
        n = len(stake) if n is None else n
        back, self.stakes[p] = stake[len(stake) - n:], stake[: len(stake) - n]
        effects = []
        for origin in (CENTRE, p):
            k = back.count(origin)
            if not k:
                continue
            self.holdings[origin] = self.holdings.get(origin, 0) + k
            where = "the centre" if origin == CENTRE else p
            verb = "goes" if k == 1 else "go"
            effects.append(Effect("move", f"{plural(k)} of {p}'s stake {verb} back to {where}"
                                  f"{why}", rule, player=p, chips=k, source=POT, dest=origin))
        return effects

    def _call(self, p: str) -> list[Effect]:
        o = self.other(p)
        effects: list[Effect] = []
        need = self.to_call(p)
        short = max(0, need - self.available(p))
        put = need - short
        effects.append(Effect(
            "note",
            f"{p} calls" if not short else f"{p} calls short, for {plural(put)}: all the chips "
            f"available to {p}",
            "T7" if not short else "T6", player=p, chips=put,
        ))
        effects += self._stake(p, put)
        if short:
            effects += self._return(o, short, ": the part of the stake not called", "T6")
        self.called, self.to_act = p, None
        if self.unsettled:
            return effects  # the showdown waits for the values (D-S3)
        return effects + self.showdown()

    def showdown(self) -> list[Effect]:
        """Both throws shown and compared (T7); every value is known by now."""
        p = self.called
        assert p is not None
        o = self.other(p)
        effects: list[Effect] = []
        for q in (p, o):
            effects.append(Effect("expose", f"{q}'s dice are shown: {throw_name(self.throws[q])}",
                                  "T7", player=q, dice=self.throws[q]))
        c = compare(self.throws[p], self.throws[o], self.ranking)
        if c == 0:
            effects.append(Effect("note", "The throws are equal: every chip bet goes back "
                                  "where it came from", "T7"))
            for q in (p, o):
                effects += self._return(q, rule="T7")
            self.outcome = HandOutcome("called", self.captain)
            return effects
        loser, winner = (p, o) if c < 0 else (o, p)
        pot = self.pot
        for q in self.players:
            self.stakes[q] = []
        self.holdings[loser] += pot
        effects.append(Effect("move", f"{loser} takes {plural(pot)}: the worse throw at the "
                              f"showdown", "T7", player=loser, chips=pot, source=POT,
                              dest=loser))
        self.outcome = HandOutcome("called", winner, loser=loser)
        return effects

    def _drop(self, p: str) -> list[Effect]:
        o = self.other(p)
        effects = [Effect("note", f"{p} drops", "T8", player=p)]
        for q in (p, o):
            effects += self._return(q, rule="T8")
        # A hand is never played while the dropper holds every chip (T9 ends the round
        # first; under M8 a player without chips is out), so a penalty chip is there (D-T10).
        source = CENTRE if self.holdings.get(CENTRE, 0) > 0 else o
        assert self.holdings[source] > 0, "no penalty chip: the dropper holds every chip"
        self.holdings[source] -= 1
        self.holdings[p] += 1
        where = "the centre" if source == CENTRE else o
        effects.append(Effect("move", f"{p} takes 1 penalty chip from {where}", "T8",
                              player=p, chips=1, source=source, dest=p))
        self.to_act = None
        self.outcome = HandOutcome("dropped", o, dropper=p)
        return effects
