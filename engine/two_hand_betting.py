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
from engine.chips import CENTRE, POT
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, Effect, not_your_turn
from engine.messages import THE_CENTRE, Arg, Message, because, say, then
from engine.ranking import Throw, compare, is_pending


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
            raise RuleViolation(say("this hand's betting is over"), "T5")
        p, verb = action.player, action.verb
        if p != self.to_act:
            raise NotYourTurn(not_your_turn(str(self.to_act), "bet", p), "T5")
        if verb not in BETTING_VERBS:
            raise RuleViolation(then(say("%(verb)s is not a betting action", verb=verb),
                                     self._choices(p)), "T5")
        if not self.betting_open:
            if verb in ("call", "raise", "drop"):
                raise RuleViolation(then(say("nobody has bet yet, so there is nothing to "
                                             "%(verb)s", verb=verb), self._choices(p)), "T5")
            if verb == "bet":
                if action.chips != 1:
                    raise RuleViolation(say("a bet is one chip in two-hand Bidou"), "T5")
                if self.available(p) < 1:
                    raise RuleViolation(then(because(
                        say("%(p)s has no chip to bet", p=p),
                        say("the centre is empty and %(p)s holds none", p=p)),
                        say("%(p)s may %(verbs)s", p=p, verbs=("pass",))), "T6")
            return
        if verb == "bet":
            raise RuleViolation(then(say("the betting is already open"), self._choices(p)),
                                "T5")
        if verb == "raise":
            if action.chips != 1:
                raise RuleViolation(say("a raise is one chip in two-hand Bidou"), "T5")
            need = self.to_call(p) + 1
            if self.available(p) < need:
                raise RuleViolation(then(because(
                    say("%(p)s cannot raise", p=p),
                    say("calling and raising takes %(chips)s and the centre and %(p)s's own "
                        "chips hold %(n)s", chips=need, p=p, n=self.available(p))),
                    say("%(p)s may %(verbs)s", p=p, verbs=("call", "drop"))), "T6")

    def _choices(self, p: str) -> Message:
        # After a bet, "pass" is only another word for "drop" (D-T2): name it once.
        verbs = tuple(a.verb for a in self.allowed()
                      if not (self.betting_open and a.verb == "pass"))
        return (say("%(p)s may %(verbs)s", p=p, verbs=verbs) if verbs
                else say("%(p)s may do nothing", p=p))

    # --- perform -----------------------------------------------------------------------
    def perform(self, action: Action) -> list[Effect]:
        """Apply a checked action; returns its effects, settlements included."""
        p, verb = action.player, action.verb
        o = self.other(p)
        effects: list[Effect] = []
        if verb == "pass" and self.betting_open:
            note = Effect("note", because(say("%(p)s passes after a bet", p=p),
                                          say("that is a drop")), "D-T2", player=p)
            return [note, *self._drop(p)]
        if verb == "pass":
            self.passes += 1
            effects.append(Effect("note", say("%(p)s passes", p=p), "T5", player=p))
            if self.passes == 2:
                nxt = self.other(self.captain)
                self.outcome = HandOutcome("passed", nxt)
                self.to_act = None
                effects.append(
                    Effect("note", because(say("Both players pass"),
                                           say("the hand ends and nobody takes chips")), "T5")
                )
            else:
                self.to_act = o
            return effects
        if verb == "bet":
            effects.append(Effect("note", say("%(p)s bets %(chips)s", p=p, chips=1), "T5",
                                  player=p, chips=1))
            effects += self._stake(p, 1)
            self.to_act = o
            return effects
        if verb == "raise":
            total = self.stake(o) + 1
            effects.append(
                Effect("note", say("%(p)s raises by %(chips)s to %(n)s", p=p, chips=1, n=total),
                       "T5", player=p, chips=1)
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
            effects.append(Effect("move", say("%(p)s stakes %(chips)s from the centre", p=p,
                                              chips=from_centre), "T6", player=p, chips=from_centre,
                                  source=CENTRE, dest=POT))
        if from_own:
            self.holdings[p] -= from_own
            self.stakes[p] += [p] * from_own
            effects.append(Effect("move", say("%(p)s stakes %(own)s", p=p, own=from_own), "T6",
                                  player=p, chips=from_own, source=p, dest=POT))
        return effects

    def _return(
        self, p: str, n: int | None = None, why: Message | None = None, rule: str = "T8"
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
            where: Arg = THE_CENTRE if origin == CENTRE else p
            back_to = say("%(chips)s of %(p)s's stake goes back to %(where)s" if k == 1 else
                          "%(chips)s of %(p)s's stake go back to %(where)s",
                          chips=k, p=p, where=where)
            effects.append(Effect("move", because(back_to, why) if why else back_to, rule,
                                  player=p, chips=k, source=POT, dest=origin))
        return effects

    def _call(self, p: str) -> list[Effect]:
        o = self.other(p)
        effects: list[Effect] = []
        need = self.to_call(p)
        short = max(0, need - self.available(p))
        put = need - short
        effects.append(Effect(
            "note",
            say("%(p)s calls", p=p) if not short else
            because(say("%(p)s calls short, for %(chips)s", p=p, chips=put),
                    say("all the chips available to %(q)s", q=p)),
            "T7" if not short else "T6", player=p, chips=put,
        ))
        effects += self._stake(p, put)
        if short:
            effects += self._return(o, short, say("the part of the stake not called"), "T6")
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
            effects.append(Effect("expose", say("%(p)s's dice are shown: %(throw)s", p=q,
                                                throw=self.throws[q]),
                                  "T7", player=q, dice=self.throws[q]))
        c = compare(self.throws[p], self.throws[o], self.ranking)
        if c == 0:
            effects.append(Effect("note", say("The throws are equal: every chip bet goes back "
                                              "where it came from"), "T7"))
            for q in (p, o):
                effects += self._return(q, rule="T7")
            self.outcome = HandOutcome("called", self.captain)
            return effects
        loser, winner = (p, o) if c < 0 else (o, p)
        pot = self.pot
        for q in self.players:
            self.stakes[q] = []
        self.holdings[loser] += pot
        effects.append(Effect("move", because(say("%(p)s takes %(chips)s", p=loser, chips=pot),
                                              say("the worse throw at the showdown")),
                              "T7", player=loser, chips=pot, source=POT, dest=loser))
        self.outcome = HandOutcome("called", winner, loser=loser)
        return effects

    def _drop(self, p: str) -> list[Effect]:
        o = self.other(p)
        effects = [Effect("note", say("%(p)s drops", p=p), "T8", player=p)]
        for q in (p, o):
            effects += self._return(q, rule="T8")
        # A hand is never played while the dropper holds every chip (T9 ends the round
        # first; under M8 a player without chips is out), so a penalty chip is there (D-T10).
        source = CENTRE if self.holdings.get(CENTRE, 0) > 0 else o
        assert self.holdings[source] > 0, "no penalty chip: the dropper holds every chip"
        self.holdings[source] -= 1
        self.holdings[p] += 1
        where: Arg = THE_CENTRE if source == CENTRE else o
        effects.append(Effect("move", say("%(p)s takes 1 penalty chip from %(where)s", p=p,
                                          where=where), "T8",
                              player=p, chips=1, source=source, dest=p))
        self.to_act = None
        self.outcome = HandOutcome("dropped", o, dropper=p)
        return effects
