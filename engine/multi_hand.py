"""Multi-hand Bidou (source "Multi-Hand Bidou", RULINGS M1-M9) with the Poor Fish option (P1).

This module is the flow of the game: 6 chips each (M1), the captain roll, throwing turns and
opener (``engine.phases``), the betting (``engine.multi_hand_betting``), the settlements of the
source's situations (``engine.multi_hand_settle``), players going out as they empty their
stacks (M7), and the end game of M8: two players discarding down to nine chips, then two-hand
rules with no centre, reusing the two-hand engine's ``HeadsUpBetting`` and ``OpenThrow``.
Every settlement is performed as soon as the rules decide it, so a game record holds only what
players did. Choices the source leaves open are written in docs/rules/multi-hand.md (D-M..).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, Effect, Game, PlayerView
from engine.multi_hand_betting import MultiBetting, plural
from engine.multi_hand_settle import (
    POT,
    REMOVED,
    first_drop,
    last_player,
    later_drop,
    poor_fish,
    showdown,
)
from engine.open_throw import OpenThrow, open_throw_due
from engine.phases import CaptainRoll, ThrowingTurns, clockwise_from, left_of, opener
from engine.ranking import Throw
from engine.two_hand_betting import HeadsUpBetting

START_CHIPS = 6
TWO_HAND_LIMIT = 9

_EXPECTS = {"roll": "roll", "throw": "throw", "bet": "bet", "open": "throw"}


class MultiHandGame(Game):
    """A game of multi-hand Bidou for 3 or more players in seat order (M1-M9, P1)."""

    def __init__(self, players: tuple[str, ...], options: dict[str, Any] | None = None) -> None:
        super().__init__(tuple(players), dict(options or {}))
        if len(self.players) < 3:
            raise ValueError(f"multi-hand takes 3 or more players, not {len(self.players)}")
        self.variant = "multi-hand"
        self.over_rule = "M7"
        self.ranking: str = self.options.get("ranking", "three-digit")
        self.poor_fish: bool = bool(self.options.get("poor_fish", False))
        self.chips: dict[str, int] = {p: START_CHIPS for p in self.players}
        self.staked = 0  # chips in the multi-hand pot (the two-hand finish keeps its own)
        self.removed = 0
        self.captain: str | None = None
        self.loser: str | None = None
        self.phase = "roll"
        self.hand = 0
        self.two_hand = False  # M8: the last two play two-hand rules
        self.hand_players: list[str] = list(self.players)
        self.out: list[str] = []
        self.exposed: dict[str, Throw] = {}
        self.first_dropper: str | None = None
        self.roll = CaptainRoll(list(self.players), rule="M2")
        self.turns: ThrowingTurns | None = None
        self.betting: MultiBetting | None = None
        self.duel: HeadsUpBetting | None = None
        self.open: OpenThrow | None = None

    @classmethod
    def from_position(
        cls,
        players: tuple[str, ...],
        chips: dict[str, int],
        captain: str,
        options: dict[str, Any] | None = None,
    ) -> MultiHandGame:
        """A game resumed at the start of a hand from a chip position, ``captain`` to throw.

        Chips missing from the 6 per player count as removed. For tests of late-game positions
        and for a referee restarting a game by hand; such a game has no full record.
        """
        game = cls(players, options)
        if set(chips) != set(game.players) or any(n < 0 for n in chips.values()):
            raise ValueError("chips must give a count of 0 or more for every player")
        if sum(chips.values()) > START_CHIPS * len(game.players):
            raise ValueError(f"the players hold at most {START_CHIPS} chips each together")
        game.chips = {p: chips[p] for p in game.players}
        game.removed = START_CHIPS * len(game.players) - sum(chips.values())
        game.hand_players = list(game.players)
        game._end_hand(captain)
        return game

    # --- the abstract properties ---------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> str | None:
        if self.phase == "roll":
            return self.roll.next_roller
        if self.phase == "throw":
            assert self.turns is not None
            return self.turns.current
        if self.phase == "bet":
            return self.duel.to_act if self.duel else self.betting.to_act  # type: ignore[union-attr]
        if self.phase == "open":
            assert self.open is not None
            return self.open.to_act
        return None

    @property
    def expects(self) -> str | None:
        return _EXPECTS.get(self.phase)

    @property
    def pot(self) -> int:
        """Chips bet and not yet settled."""
        return self.staked + (self.duel.pot if self.duel and self.phase == "bet" else 0)

    @property
    def discarding(self) -> bool:
        """M8: two players left holding more than nine together discard when not called."""
        return not self.two_hand and len(self.hand_players) == 2

    # --- allowed and check ---------------------------------------------------------------
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
            return self.duel.allowed() if self.duel else self.betting.allowed()  # type: ignore[union-attr]
        assert self.open is not None
        return self.open.allowed()

    def _check(self, action: Action) -> None:
        rule = {"roll": "M2", "throw": "M3", "open": "T10"}.get(
            self.phase, "T5" if self.duel else "M5")
        try:
            action.check_numbers()
        except RuleViolation as e:
            raise RuleViolation(e.sentence, e.rule or rule) from None
        p, verb = self.to_act, action.verb
        if action.player in self.out:
            raise RuleViolation(f"{action.player} has no chips left and is out of the game (he "
                                f"has won); it is {p}'s turn to {self.expects}", "M7")
        if action.player != p:
            raise NotYourTurn(f"it is {p}'s turn to {self.expects}, not {action.player}'s", rule)
        if self.phase == "roll":
            if verb != "roll":
                raise RuleViolation(f"the game starts with the captain roll: {p} rolls one die",
                                    "M2")
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
                    f"the betting begins when every player has thrown; {p} {first}", "M3")
        elif self.phase == "bet" and self.duel is not None:
            if verb not in ("bet", "raise", "call", "pass", "drop"):
                raise RuleViolation(
                    f"both players have thrown and the betting is open under two-hand rules; "
                    f"{p} may " + " or ".join(a.verb for a in self.duel.allowed()), "T5")
            self.duel.check(action)
        elif self.phase == "bet":
            assert self.betting is not None
            self.betting.check(action)
        else:
            assert self.open is not None
            self.open.check(action)

    # --- perform -------------------------------------------------------------------------
    def _perform(self, action: Action) -> list[Effect]:
        p, verb = action.player, action.verb
        if self.phase == "roll":
            die = action.numbers[0]
            effects = [Effect("note", f"{p} rolls {die} for the captaincy", "M2", player=p,
                              dice=(die,))]
            tied = self.roll.record(p, die)
            if tied:
                effects.append(Effect("note", f"{' and '.join(tied)} tie on {die} and roll "
                                      "again", "M2"))
            elif self.roll.captain is not None:
                effects.append(Effect("captain", f"{self.roll.captain} is captain: the highest "
                                      "die", "M2", player=self.roll.captain))
                effects += self._start_hand(self.roll.captain)
            return effects
        if self.phase == "throw":
            return self._throwing(p, action)
        if self.phase == "open":
            assert self.open is not None
            if verb == "throw" and not self.open.turns.throws:
                self.exposed = {}
            effects = self.open.perform(action, self.chips)
            self._note_exposed(effects)
            if self.open.done:
                assert self.open.outcome is not None
                effects += self._end_hand(self.open.outcome.next_captain)
            return effects
        if self.duel is not None:
            effects = self.duel.perform(action)
            self._note_exposed(effects)
            if self.duel.done:
                assert self.duel.outcome is not None
                effects += self._end_hand(self.duel.outcome.next_captain)
            return effects
        return self._betting(action)

    def _throwing(self, p: str, action: Action) -> list[Effect]:
        assert self.turns is not None
        if action.verb == "throw":
            if not self.turns.throws:
                self.exposed = {}  # the last hand's shown dice stay on show until now
            self.turns.throw(p, action.numbers)
            effects = [Effect("note", f"{p} throws ({self.turns.count(p)} of 3)",
                              self.turns.rule, player=p)]
        else:
            self.turns.stand(p)
            effects = [Effect("note", f"{p} stands after "
                              f"{plural(self.turns.count(p), 'throw')}", self.turns.rule,
                              player=p)]
        if self.turns.done:
            effects += self._open_betting()
        return effects

    def _betting(self, action: Action) -> list[Effect]:
        betting = self.betting
        assert betting is not None
        p, verb = action.player, action.verb
        opened = betting.opened
        put = betting.act(action)
        effects: list[Effect] = []
        if verb == "bet":
            effects.append(self._stake(p, put, f"{p} bets {plural(put)}", "M5"))
        elif verb == "raise":
            effects.append(self._stake(p, put, f"{p} raises by {plural(action.chips or 0)} to "
                                       f"{betting.level}", "M5"))
        elif verb == "call":
            all_in = p in betting.all_in
            text = (f"{p} calls with his last {plural(put)}: he is all in" if all_in
                    else f"{p} calls {plural(put)}")
            effects.append(self._stake(p, put, text, "M6/5" if all_in else "M5"))
        elif not opened:
            effects.append(Effect("note", f"{p} passes", "M5", player=p))
        else:
            effects += self._drop(p, verb)
        if betting.outcome is not None:
            effects += self._settle()
        return effects

    def _stake(self, p: str, n: int, text: str, rule: str) -> Effect:
        return self._move(Effect("move", text, rule, player=p, chips=n, source=p, dest=POT))

    def _drop(self, p: str, verb: str) -> list[Effect]:
        betting = self.betting
        assert betting is not None
        why = " after the betting has begun, so he drops" if verb == "pass" else " out"
        effects = [Effect("note", f"{p} passes{why}" if verb == "pass" else f"{p} drops{why}",
                          "M6/9" if verb == "pass" else "M5", player=p)]
        stake = betting.stake[p]
        if stake == 0:
            effects.append(Effect("note", f"{p} had not bet, so he takes no penalty", "M6/2",
                                  player=p))
        elif self.first_dropper is None:
            self.first_dropper = p
            effects += first_drop(p, stake, len(betting.in_hand), self.staked)
        else:
            effects += later_drop(p, self.staked)
        return self._apply(effects)

    def _settle(self) -> list[Effect]:
        betting = self.betting
        assert betting is not None and self.turns is not None and self.captain is not None
        how = betting.outcome
        throws = {p: self.turns.last(p) for p in self.hand_players}
        if how == "passed":
            effects = [Effect("note", "Everybody passes", "M9")]
            if self.poor_fish:
                effects += self._apply(poor_fish(
                    clockwise_from(self.players, self.captain, self.hand_players),
                    throws, self.ranking))  # type: ignore[arg-type]
            nxt = left_of(self.players, self.captain, self.hand_players)
            effects.append(Effect("note", f"The captaincy passes to the left of {self.captain}",
                                  "M9"))
            return effects + self._end_hand(nxt)
        if how == "alone":
            last = betting.in_hand[0]
            lone = betting.bettors == [last]
            effects = self._apply(last_player(last, lone, self.staked, self.discarding,
                                              self.chips[last]))
            return effects + self._end_hand(last)
        order = clockwise_from(self.players, self.captain, betting.in_hand)
        owed = {p: betting.stake[p] for p in betting.bettors if p != self.first_dropper}
        effects, winner = showdown(self.players, order, betting.stake, throws,  # type: ignore[arg-type]
                                   betting.all_in, owed, self.staked, self.ranking)
        return self._apply(effects) + self._end_hand(winner)

    # --- chips ---------------------------------------------------------------------------
    def _move(self, e: Effect) -> Effect:
        """Perform one ``move`` effect on the counts."""
        for where, sign in ((e.source, -1), (e.dest, 1)):
            if where == POT:
                self.staked += sign * e.chips
            elif where == REMOVED:
                self.removed += sign * e.chips
            else:
                assert where is not None
                self.chips[where] += sign * e.chips
        return e

    def _apply(self, effects: list[Effect]) -> list[Effect]:
        """Perform every move among ``effects`` and remember exposed dice; returns them."""
        for e in effects:
            if e.kind == "move":
                self._move(e)
        self._note_exposed(effects)
        return effects

    def _note_exposed(self, effects: list[Effect]) -> None:
        for e in effects:
            if e.kind == "expose" and e.player is not None:
                self.exposed[e.player] = e.dice  # type: ignore[assignment]

    # --- the flow ------------------------------------------------------------------------
    def _start_hand(self, captain: str) -> list[Effect]:
        self.captain = captain
        self.hand += 1
        self.phase = "throw"
        self.betting = self.duel = self.open = None
        self.first_dropper = None
        self.hand_players = [p for p in self.players if self.chips[p] > 0]
        rule = "T3" if self.two_hand else "M3"
        order = clockwise_from(self.players, captain, self.hand_players)
        self.turns = ThrowingTurns(order, rule=rule)
        form = "two-hand rules" if self.two_hand else "multi-hand rules"
        return [Effect("hand", f"Hand {self.hand}: {captain} is captain and throws first; "
                       f"{', '.join(order)} play under {form}", rule, player=captain,
                       detail="two-hand" if self.two_hand else "normal")]

    def _open_betting(self) -> list[Effect]:
        assert self.turns is not None and self.captain is not None
        counts = {p: self.turns.count(p) for p in self.hand_players}
        first = opener(self.players, self.captain, counts)
        rule = "T4" if self.two_hand else "M4"
        if first != self.captain:
            effects = [Effect("captain", f"{first} made the fewest throws nearest the captain's "
                              f"left: {first} becomes captain and opens the betting", rule,
                              player=first)]
            self.captain = first
        else:
            effects = [Effect("note", f"{first} opens the betting", rule, player=first)]
        self.phase = "bet"
        if self.two_hand:
            throws = {p: self.turns.last(p) for p in self.hand_players}
            a, b = self.hand_players
            self.duel = HeadsUpBetting((a, b), first, self.captain, throws,  # type: ignore[arg-type]
                                       self.chips, ranking=self.ranking)
        else:
            self.betting = MultiBetting(clockwise_from(self.players, first, self.hand_players),
                                        self.chips)
        return effects

    def _end_hand(self, candidate: str) -> list[Effect]:
        """After a settlement: players out (M7), the game's end, M8, then the next hand."""
        effects: list[Effect] = []
        for p in self.hand_players:
            if self.chips[p] == 0 and p not in self.out:
                self.out.append(p)
                effects.append(Effect("note", f"{p} has no chips left: he is out, and has won",
                                      "M7", player=p))
        holders = [p for p in self.players if self.chips[p] > 0]
        if len(holders) == 1:
            self.loser = holders[0]
            self.phase = "over"
            self.turns = self.betting = self.duel = self.open = None
            self.hand_players = []
            return effects + [Effect("game", f"{self.loser} is the last player holding chips "
                                     "and loses the game", "M7", player=self.loser)]
        captain = clockwise_from(self.players, candidate, holders)[0]
        if captain != candidate:
            effects.append(Effect("note", f"{candidate} is out, so the captaincy goes to "
                                  f"{captain}, the next player with chips", "D-M10",
                                  player=captain))
        effects.append(Effect("captain", f"{captain} is captain", "M9", player=captain))
        together = sum(self.chips[p] for p in holders)
        if len(holders) == 2 and together <= TWO_HAND_LIMIT and not self.two_hand:
            self.two_hand = True
            effects.append(Effect("note", f"{' and '.join(holders)} hold {together} chips "
                                  "together: from now on they play two-hand rules with no "
                                  "centre", "M8"))
        elif len(holders) == 2 and not self.two_hand:
            effects.append(Effect("note", f"{' and '.join(holders)} hold {together} chips "
                                  "together: whoever bets and is not called discards one chip",
                                  "M8"))
        if self.two_hand:
            due = open_throw_due(holders, self.chips)
            if due is not None:
                return effects + self._start_open_throw(*due, holders)
        return effects + self._start_hand(captain)

    def _start_open_throw(self, short: str, holder: str, holders: list[str]) -> list[Effect]:
        self.hand += 1
        self.hand_players = holders
        self.captain = short
        self.phase = "open"
        self.turns = self.betting = self.duel = None
        self.open = OpenThrow(short, holder, ranking=self.ranking)
        return [
            Effect("hand", f"Open throw: {holder} holds {plural(self.chips[holder])} and the "
                   f"last is with {short}; no betting, {short} throws first, exposed", "T10",
                   player=short, detail="open throw"),
            Effect("captain", f"{short} throws first in the open throw", "T10", player=short),
        ]

    # --- what the table shows ------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "over": self.over,
            "loser": self.loser,
            "winner": None,
            "round": 1,
            "rounds_lost": {},
            "chips": {p: self.chips[p] for p in self.players},
            "centre": 0,
            "pot": self.pot,
            "removed": self.removed,
            "captain": self.captain,
            "to_act": self.to_act,
            "expects": self.expects,
        }

    def _stake_of(self, p: str) -> int:
        if self.phase != "bet":
            return 0
        if self.duel is not None:
            return self.duel.stake(p) if p in self.duel.players else 0
        assert self.betting is not None
        return self.betting.stake.get(p, 0)

    def _in_hand(self, p: str) -> bool:
        if self.over or self.phase == "roll" or p not in self.hand_players:
            return False
        return not (self.betting is not None and p in self.betting.dropped)

    def _turns(self) -> ThrowingTurns | None:
        return self.open.turns if self.open is not None else self.turns

    def views(self) -> list[PlayerView]:
        to_act = self.to_act
        turns = self._turns()
        return [
            PlayerView(
                name=p,
                chips=self.chips[p],
                throws=turns.count(p) if turns is not None else 0,
                stake=self._stake_of(p),
                in_hand=self._in_hand(p),
                to_act=p == to_act,
                is_captain=p == self.captain,
                exposed=self.exposed.get(p),
                out=p in self.out,
            )
            for p in self.players
        ]

    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        if self.over or self.phase == "roll":
            return None
        turns = self._turns()
        return turns.last(player) if turns is not None else None
