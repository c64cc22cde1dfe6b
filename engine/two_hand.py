"""Two-hand Bidou (source "Two-Hand Bidou", RULINGS T1-T11): the match, its rounds and hands.

This module is the flow: rounds of 9 centre chips (T2), the captain roll, the throwing turns and
the opener (``engine.phases``), the betting of a hand (``engine.two_hand_betting``, shared with
multi-hand Bidou's last two players), the open throw (``engine.open_throw``), the end of a round
(T9) and of the match (T1). Every settlement is performed as soon as the rules decide it, so a
game record holds only what players did.

Held dice in round 2 (T1): the table records only the three values under the cup after each
throw; from values alone nothing tells a held die from a rethrown one, so nothing is checked and
every round accepts any three dice (docs/rules/two-hand.md, D-T1).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, Effect, Game, PlayerView
from engine.open_throw import CENTRE, OpenThrow, open_throw_due
from engine.phases import CaptainRoll, ThrowingTurns, opener
from engine.ranking import Throw
from engine.two_hand_betting import HeadsUpBetting, plural

CHIPS = 9
ROUNDS_TO_LOSE = 2

_PHASE_RULE = {"roll": "T2", "throw": "T3", "bet": "T5", "open": "T10"}
_EXPECTS = {"roll": "roll", "throw": "throw", "bet": "bet", "open": "throw"}


class TwoHandGame(Game):
    """A two-hand Bidou match between two players (T1-T11)."""

    def __init__(self, players: tuple[str, ...], options: dict[str, Any] | None = None) -> None:
        super().__init__(tuple(players), dict(options or {}))
        if len(self.players) != 2:
            raise ValueError(f"two-hand takes exactly 2 players, not {len(self.players)}")
        self.variant = "two-hand"
        self.over_rule = "T1"
        self.ranking: str = self.options.get("ranking", "three-digit")
        self.round = 0
        self.rounds_lost = {p: 0 for p in self.players}
        self.holdings: dict[str, int] = {}
        self.captain: str | None = None
        self.loser: str | None = None
        self.phase = "roll"
        self.hand = 0
        self.exposed: dict[str, Throw] = {}
        self.roll: CaptainRoll | None = None
        self.turns: ThrowingTurns | None = None
        self.betting: HeadsUpBetting | None = None
        self.open: OpenThrow | None = None
        self.opening_effects: list[Effect] = self._start_round()

    # --- helpers -----------------------------------------------------------------------
    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    @property
    def centre(self) -> int:
        return self.holdings[CENTRE]

    @property
    def pot(self) -> int:
        return self.betting.pot if self.betting and self.phase == "bet" else 0

    @property
    def throw_rule(self) -> str:
        """How dice are thrown this round (T1): round 2 may keep dice aside."""
        return "keep dice aside" if self.round == 2 else "rethrow all three"

    # --- the abstract properties -------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> str | None:
        if self.phase == "roll":
            assert self.roll is not None
            return self.roll.next_roller
        if self.phase == "throw":
            assert self.turns is not None
            return self.turns.current
        if self.phase == "bet":
            assert self.betting is not None
            return self.betting.to_act
        if self.phase == "open":
            assert self.open is not None
            return self.open.to_act
        return None

    @property
    def expects(self) -> str | None:
        return _EXPECTS.get(self.phase)

    # --- allowed and check -------------------------------------------------------------
    def allowed(self) -> list[Allowed]:
        p = self.to_act
        if p is None:
            return []
        if self.phase == "roll":
            return [Allowed(p, "roll")]
        if self.phase == "throw":
            assert self.turns is not None
            return self.turns.allowed()
        if self.phase == "bet":
            assert self.betting is not None
            return self.betting.allowed()
        assert self.open is not None
        return self.open.allowed()

    def _check(self, action: Action) -> None:
        rule = _PHASE_RULE[self.phase]
        try:
            action.check_numbers()
        except RuleViolation as e:  # the shape of an action built in code: cite the phase's rule
            raise RuleViolation(e.sentence, e.rule or rule) from None
        p = self.to_act
        if action.player != p:
            raise NotYourTurn(f"it is {p}'s turn to {self.expects}, not {action.player}'s", rule)
        verb = action.verb
        if self.phase == "roll":
            if verb != "roll":
                raise RuleViolation(
                    f"the round starts with the captain roll: {p} rolls one die", "T2"
                )
            assert self.roll is not None
            self.roll.check(p, action.numbers[0])
        elif self.phase == "throw":
            assert self.turns is not None
            if verb == "throw":
                self.turns.check_throw(p, action.numbers)
            elif verb == "stand":
                self.turns.check_stand(p)
            else:
                first = "throws" if self.turns.count(p) == 0 else "throws again or stands"
                raise RuleViolation(
                    f"the betting begins when both players have thrown; {p} {first}", "T3"
                )
        elif self.phase == "bet":
            assert self.betting is not None
            if verb in ("throw", "stand", "roll"):
                raise RuleViolation(
                    f"both players have thrown and the betting is open; {p} may "
                    + " or ".join(a.verb for a in self.betting.allowed()),
                    "T5",
                )
            if verb in ("betpot", "callpot"):
                raise RuleViolation(
                    f"{verb} belongs to Montevideo; in two-hand Bidou {p} may "
                    + " or ".join(a.verb for a in self.betting.allowed()),
                    "T5",
                )
            self.betting.check(action)
        else:
            assert self.open is not None
            self.open.check(action)

    # --- perform -----------------------------------------------------------------------
    def _perform(self, action: Action) -> list[Effect]:
        p, verb = action.player, action.verb
        effects: list[Effect] = []
        if self.phase == "roll":
            assert self.roll is not None
            die = action.numbers[0]
            effects.append(Effect("note", f"{p} rolls {die} for the captaincy", "T2",
                                  player=p, dice=(die,)))
            tied = self.roll.record(p, die)
            if tied:
                effects.append(Effect("note", f"{' and '.join(tied)} tie on {die} and roll "
                                      f"again", "T2"))
            elif self.roll.captain is not None:
                effects.append(Effect("captain", f"{self.roll.captain} is captain: the "
                                      f"higher die", "T2", player=self.roll.captain))
                effects += self._start_hand(self.roll.captain)
            return effects
        if self.phase == "throw":
            assert self.turns is not None
            if verb == "throw":
                if not self.turns.throws:
                    self.exposed = {}  # the last showdown stays on show until the next throw
                self.turns.throw(p, action.numbers)
                effects.append(Effect("note", f"{p} throws ({self.turns.count(p)} of 3)",
                                      "T3", player=p))
            else:
                self.turns.stand(p)
                effects.append(Effect("note", f"{p} stands after "
                                      f"{plural(self.turns.count(p), 'throw')}", "T3",
                                      player=p))
            if self.turns.done:
                effects += self._open_betting()
            return effects
        if self.phase == "bet":
            assert self.betting is not None
            effects += self.betting.perform(action)
            for q, t in self.betting.throws.items():
                if any(e.kind == "expose" and e.player == q for e in effects):
                    self.exposed[q] = t
            if self.betting.done:
                assert self.betting.outcome is not None
                out = self.betting.outcome
                rule = {"passed": "T5", "called": "T7", "dropped": "T8"}[out.kind]
                effects += self._after_hand(out.next_captain, rule)
            return effects
        assert self.open is not None
        if verb == "throw" and not self.open.turns.throws:
            self.exposed = {}
        effects += self.open.perform(action, self.holdings)
        for e in effects:
            if e.kind == "expose" and e.player is not None:
                self.exposed[e.player] = e.dice  # type: ignore[assignment]
        if self.open.done:
            assert self.open.outcome is not None
            effects += self._after_hand(self.open.outcome.next_captain, "T10")
        return effects

    # --- the flow ------------------------------------------------------------------------
    def _start_round(self) -> list[Effect]:
        self.round += 1
        self.holdings = {CENTRE: CHIPS, **{p: 0 for p in self.players}}
        self.phase, self.hand, self.captain = "roll", 0, None
        self.turns = self.betting = self.open = None
        self.exposed = {}
        self.roll = CaptainRoll(list(self.players), rule="T2")
        how = ("a player may keep dice aside and rethrow the rest" if self.round == 2
               else "every throw rethrows all three dice")
        return [Effect("note", f"Round {self.round} begins with {CHIPS} chips in the centre; "
                       f"{how}; each player rolls one die for the captaincy", "T1")]

    def _start_hand(self, captain: str) -> list[Effect]:
        self.captain = captain
        self.hand += 1
        self.phase = "throw"
        self.betting = self.open = None
        self.turns = ThrowingTurns([captain, self.other(captain)], rule="T3")
        return [Effect("hand", f"Hand {self.hand} of round {self.round}: {captain} is captain "
                       f"and throws first", "T3", player=captain, detail="normal")]

    def _open_betting(self) -> list[Effect]:
        assert self.turns is not None and self.captain is not None
        counts = {p: self.turns.count(p) for p in self.players}
        first = opener(self.players, self.captain, counts)
        effects: list[Effect] = []
        if first != self.captain:
            effects.append(Effect("captain", f"{self.captain} threw more times than {first}: "
                                  f"{first} becomes captain and opens the betting", "T4",
                                  player=first))
            self.captain = first
        else:
            effects.append(Effect("note", f"{first} opens the betting", "T4", player=first))
        throws = {p: self.turns.last(p) for p in self.players}
        self.betting = HeadsUpBetting(self.players, first, self.captain, throws,  # type: ignore[arg-type]
                                      self.holdings, ranking=self.ranking)
        self.phase = "bet"
        return effects

    def _after_hand(self, next_captain: str, rule: str) -> list[Effect]:
        """Settle the end of a hand: round lost (T9), open throw (T10), else the next hand."""
        effects: list[Effect] = []
        for p in self.players:
            if self.holdings[p] == CHIPS:
                return effects + self._lose_round(p)
        due = open_throw_due(self.players, self.holdings)
        if due is not None:
            short, holder = due
            self.captain = short
            self.hand += 1
            self.phase = "open"
            self.turns = self.betting = None
            self.open = OpenThrow(short, holder, ranking=self.ranking)
            where = "the centre" if self.centre else short
            return effects + [
                Effect("hand", f"Open throw: {holder} holds {self.holdings[holder]} chips and "
                       f"the last is with {where}; no betting, {short} throws first, exposed",
                       "T10", player=short, detail="open throw"),
                Effect("captain", f"{short} throws first in the open throw", "T10",
                       player=short),
            ]
        effects.append(Effect("captain", f"{next_captain} is captain", rule,
                              player=next_captain))
        return effects + self._start_hand(next_captain)

    def _lose_round(self, p: str) -> list[Effect]:
        self.rounds_lost[p] += 1
        effects = [Effect("round", f"{p} holds all {CHIPS} chips and loses round "
                          f"{self.round}", "T9", player=p)]
        if self.rounds_lost[p] >= ROUNDS_TO_LOSE:
            self.loser, self.phase = p, "over"
            self.betting = self.open = self.turns = None
            winner = self.other(p)
            return effects + [Effect("game", f"{p} has lost {ROUNDS_TO_LOSE} rounds and loses "
                                     f"the match to {winner}", "T1", player=p)]
        return effects + self._start_round()

    # --- what the table shows ------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "over": self.over,
            "loser": self.loser,
            # GAME_RECORD.md: Bidou names the loser, and only multi-hand leaves winner null;
            # a two-hand match has one other player, who won it (D-T15).
            "winner": self.other(self.loser) if self.loser else None,
            "round": self.round,
            "rounds_lost": dict(self.rounds_lost),
            "chips": {p: self.holdings[p] for p in self.players},
            "centre": self.centre,
            "pot": self.pot,
            "removed": 0,
            "captain": self.captain,
            "to_act": self.to_act,
            "expects": self.expects,
        }

    def _throw_count(self, p: str) -> int:
        if self.phase == "open" and self.open is not None:
            return self.open.turns.count(p)
        return self.turns.count(p) if self.turns is not None else 0

    def views(self) -> list[PlayerView]:
        to_act = self.to_act
        return [
            PlayerView(
                name=p,
                chips=self.holdings[p],
                throws=self._throw_count(p),
                stake=self.betting.stake(p) if self.betting and self.phase == "bet" else 0,
                in_hand=not self.over,
                to_act=p == to_act,
                is_captain=p == self.captain,
                exposed=self.exposed.get(p),
            )
            for p in self.players
        ]

    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        if self.phase == "open" and self.open is not None:
            return self.open.turns.last(player)
        if self.phase == "bet" and self.betting is not None:
            return self.betting.throws.get(player)
        if self.turns is not None and self.phase == "throw":
            return self.turns.last(player)
        return None
