"""Montevideo: Bidou dice with poker's aim -- win the chips; the last player holding chips wins.

RULINGS V1-V6 on top of the source's "Variant: Montevideo". A hand is: antes (taken by the
engine as soon as the previous hand settles or the game starts, GAME_RECORD.md), the
shared captain roll / throwing / opener of engine/phases.py (V2), one no-limit betting
round (engine/poker_betting.py, V3 and V6), and a settlement with side pots and split pots
(engine/side_pots.py, V4). When only two players (three, with six or more starting players)
still hold chips, the ante rises each hand (V5). Choices the source and rulings leave open
are written down with ids (D-V1...) in docs/rules/montevideo.md and pinned by tests.

Pure, like every variant: no I/O, clock or randomness; the dice come in the actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import VERBS, Action
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Allowed, Effect, Game, PlayerView
from engine.phases import CaptainRoll, ThrowingTurns, clockwise_from, left_of, opener
from engine.poker_betting import BettingRound
from engine.ranking import Throw, best, throw_name
from engine.side_pots import build_pots, split

START_CHIPS = 6
MAX_ANTE = 6


def _chips(n: int) -> str:
    return f"{n} chip{'s' if n != 1 else ''}"


@dataclass(eq=False)
class MontevideoGame(Game):
    """A game of Montevideo for 3 or more players in seat (clockwise) order."""

    def __post_init__(self) -> None:
        self.variant = "montevideo"
        self.over_rule = "V1"
        self.ranking: str = self.options.get("ranking", "three-digit")
        self.chips: dict[str, int] = {p: START_CHIPS for p in self.players}
        #: Every chip in the pot: what was carried from the last hand plus this hand's stakes.
        self.pot = 0
        self.carried = 0
        self.stakes: dict[str, int] = {}
        self.in_hand: list[str] = []
        self.captain: str | None = None
        self.winner: str | None = None
        self.hand = 0
        self.ante = 1
        self.rising_hands = 0
        #: V5: the ante rises once this many players (or fewer) hold chips.
        self.rising_at = 3 if len(self.players) >= 6 else 2
        self.phase = "roll"
        self.roll = CaptainRoll(list(self.players), rule="V2")
        self.turns: ThrowingTurns | None = None
        self.betting: BettingRound | None = None
        #: Dice made public at the last showdown; each stays shown until its owner throws again.
        self.shown: dict[str, Throw] = {}
        self.opening_effects: tuple[Effect, ...] = tuple(self._take_antes())

    # --- the contract ----------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def to_act(self) -> str | None:
        if self.over:
            return None
        if self.phase == "roll":
            return self.roll.next_roller
        if self.phase == "throw":
            assert self.turns is not None
            return self.turns.current
        assert self.betting is not None
        return self.betting.to_act

    @property
    def expects(self) -> str | None:
        return None if self.over else self.phase

    def allowed(self) -> list[Allowed]:
        who = self.to_act
        if who is None:
            return []
        if self.phase == "roll":
            return [Allowed(who, "roll")]
        if self.phase == "throw":
            assert self.turns is not None
            return self.turns.allowed()
        assert self.betting is not None
        return [Allowed(who, o.verb, o.min_chips, o.max_chips) for o in self.betting.options(who)]

    def state(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "over": self.over,
            "loser": None,
            "winner": self.winner,
            "round": 1,
            "rounds_lost": {},
            "chips": dict(self.chips),
            "centre": 0,
            "pot": self.pot,
            "removed": 0,
            "captain": self.captain,
            "to_act": self.to_act,
            "expects": self.expects,
        }

    def views(self) -> list[PlayerView]:
        live = self._live()
        who = self.to_act
        return [
            PlayerView(
                name=p,
                chips=self.chips[p],
                throws=self.turns.count(p) if self.turns is not None else 0,
                stake=self.stakes.get(p, 0),
                in_hand=p in live,
                to_act=p == who,
                is_captain=p == self.captain,
                exposed=self.shown.get(p),
                out=self.chips[p] == 0 and p not in live,
            )
            for p in self.players
        ]

    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        if self.turns is None:
            return None
        return self.turns.last(player)

    # --- checking --------------------------------------------------------------------
    def _check(self, action: Action) -> None:
        p, verb = action.player, action.verb
        count, kind = VERBS[verb]
        if len(action.numbers) != count:
            raise RuleViolation(
                f"{verb} takes {count} number{'s' if count != 1 else ''}, "
                f"not {len(action.numbers)}",
                "V2" if kind == "die" else "V3",
            )
        for n in action.numbers:
            if not isinstance(n, int) or isinstance(n, bool):
                raise RuleViolation(f"{n!r} is not a whole number", "V2" if kind == "die" else "V3")
        if kind == "die":
            for d in action.numbers:
                if not 1 <= d <= 6:
                    raise RuleViolation(f"a die shows 1 to 6, not {d}", "V2")
        if self.phase == "roll":
            if verb != "roll":
                raise RuleViolation(
                    "the game starts with the captain roll: each player rolls one die, "
                    f"and {self.roll.next_roller} rolls next",
                    "V2",
                )
            self.roll.check(p, action.numbers[0])
            return
        if self.phase == "throw":
            assert self.turns is not None
            current = self.turns.current
            if p != current:
                raise NotYourTurn(f"it is {current}'s turn to throw, not {p}'s", "V2")
            if verb == "throw":
                self.turns.check_throw(p, action.numbers)
            elif verb == "stand":
                self.turns.check_stand(p)
            else:
                raise RuleViolation(
                    f"{p} is throwing: throw or stand; the betting opens when everyone "
                    "has thrown",
                    "V2",
                )
            return
        assert self.betting is not None
        self.betting.check(action)

    # --- performing ------------------------------------------------------------------
    def _perform(self, action: Action) -> list[Effect]:
        p, verb = action.player, action.verb
        if self.phase == "roll":
            return self._perform_roll(p, action.numbers[0])
        if self.phase == "throw":
            assert self.turns is not None
            if verb == "throw":
                n = self.turns.count(p) + 1
                self.shown.pop(p, None)
                self.turns.throw(p, action.numbers)
                effects = [Effect("note", f"{p} throws ({_ordinal(n)} throw)", "V2", player=p)]
            else:
                self.turns.stand(p)
                n = self.turns.count(p)
                effects = [Effect("note", f"{p} stands after {n} throw{'s' if n != 1 else ''}",
                                  "V2", player=p)]
            if self.turns.done:
                effects += self._open_betting()
            return effects
        assert self.betting is not None
        put, text = self.betting.act(action)
        effects = [Effect("note" if not put else "move", text, "V3" if verb not in
                          ("betpot", "callpot") else "V6", player=p, chips=put,
                          source=p if put else None, dest="pot" if put else None)]
        if put:
            self.stakes[p] = self.stakes.get(p, 0) + put
            self.pot += put
        if self.betting.done:
            effects += self._settle()
        return effects

    def _perform_roll(self, player: str, die: int) -> list[Effect]:
        effects = [Effect("note", f"{player} rolls {die} for the captaincy", "V2", player=player)]
        tied = self.roll.record(player, die)
        if tied:
            effects.append(Effect("note", f"{' and '.join(tied)} tie for the highest roll "
                                  "and roll again", "V2"))
        if self.roll.captain is not None:
            self.captain = self.roll.captain
            effects.append(Effect("captain", f"{self.captain} is captain (V2)", "V2",
                                  player=self.captain))
            effects += self._start_throwing()
        return effects

    # --- the stages of a hand --------------------------------------------------------
    def _take_antes(self) -> list[Effect]:
        """Begin a hand: every player holding chips antes into the pot (V2, V5)."""
        holders = [p for p in self.players if self.chips[p] > 0]
        if len(holders) <= self.rising_at:
            self.rising_hands += 1
        self.ante = min(MAX_ANTE, 1 + self.rising_hands)
        self.hand += 1
        self.stakes = {}
        self.in_hand = holders
        self.betting = None
        rule = "V5" if self.rising_hands else "V2"
        effects = [Effect("hand", f"Hand {self.hand}: the ante is {_chips(self.ante)} ({rule})",
                          rule, detail="normal")]
        for p in holders:
            put = min(self.ante, self.chips[p])
            self.chips[p] -= put
            self.stakes[p] = put
            self.pot += put
            if put < self.ante:
                text = (f"{p} antes {_chips(put)}, short of the {_chips(self.ante)} ante, "
                        "and is all-in (V5)")
            elif self.chips[p] == 0:
                text = f"{p} antes {_chips(put)} and is all-in ({rule})"
            else:
                text = f"{p} antes {_chips(put)} ({rule})"
            effects.append(Effect("move", text, rule, player=p, chips=put, source=p, dest="pot"))
        return effects

    def _start_throwing(self) -> list[Effect]:
        assert self.captain is not None
        self.phase = "throw"
        self.turns = ThrowingTurns(clockwise_from(self.players, self.captain, self.in_hand),
                                   rule="V2")
        return []

    def _open_betting(self) -> list[Effect]:
        assert self.turns is not None and self.captain is not None
        counts = {p: self.turns.count(p) for p in self.in_hand}
        first = opener(self.players, self.captain, counts)
        self.phase = "bet"
        self.betting = BettingRound(self.players, list(self.in_hand), self.chips, first)
        if first != self.captain:
            # M4 as the source writes it: the fewest throws nearest the captain's left
            # "becomes captain" (a captain among the fewest keeps it), as in multi-hand Bidou.
            effects = [Effect("captain", f"{first} made the fewest throws nearest the "
                              f"captain's left: {first} becomes captain and opens the betting "
                              "(M4)", "M4", player=first)]
            self.captain = first
        else:
            effects = [Effect("note", f"{first} opens the betting (M4)", "M4", player=first)]
        if self.betting.done:
            effects.append(Effect("note", "at most one player has chips left to bet, so the "
                                  "dice are shown at once (D-V8)", "D-V8"))
            effects += self._settle()
        return effects

    def _settle(self) -> list[Effect]:
        """Pay the pot(s) out at the end of the betting, then begin the next hand."""
        assert self.betting is not None and self.turns is not None and self.captain is not None
        live = list(self.betting.in_hand)
        effects: list[Effect] = []
        if len(live) == 1:
            w = live[0]
            effects.append(Effect("move", f"{w} takes the pot of {_chips(self.pot)}: everyone "
                                  "else dropped out (V3)", "V3", player=w, chips=self.pot,
                                  source="pot", dest=w))
            self.chips[w] += self.pot
            self.pot = self.carried = 0
            next_captain = w
        else:
            if self.betting.all_passed:
                effects.append(Effect("note", "everyone passed: all throws are shown (V4)", "V4"))
            throws: dict[str, Throw] = {}
            for p in live:
                t = self.turns.last(p)
                assert t is not None
                throws[p] = t
                self.shown[p] = t
                effects.append(Effect("expose", f"{p}'s dice are shown: {throw_name(t)}", "V4",
                                      player=p, dice=t))
            pots = build_pots(self.stakes, live, self.carried)
            carry = 0
            main_winners: list[str] = []
            for i, pot in enumerate(pots):
                name = "the pot" if len(pots) == 1 else (
                    "the main pot" if i == 0 else f"side pot {i}")
                if len(pot.eligible) == 1:
                    w = pot.eligible[0]
                    self.chips[w] += pot.chips
                    effects.append(Effect("move", f"{w} takes back {_chips(pot.chips)} that "
                                          "nobody could call (D-V9)", "D-V9", player=w,
                                          chips=pot.chips, source="pot", dest=w))
                    continue
                idx = best([throws[p] for p in pot.eligible], self.ranking)
                winners = [pot.eligible[k] for k in idx]
                if i == 0:
                    main_winners = winners
                shares, odd = split(pot.chips, winners)
                carry += odd
                for w, n in shares.items():
                    self.chips[w] += n
                    why = "best throw" if len(winners) == 1 else "equal best throws split it"
                    effects.append(Effect("move", f"{w} takes {_chips(n)} from {name}: {why} "
                                          "(V4)", "V4", player=w, chips=n, source="pot", dest=w))
                if odd:
                    effects.append(Effect("note", f"{_chips(odd)} of {name} cannot be split "
                                          "and stays in the pot for the next hand (V4)", "V4"))
            self.pot = self.carried = carry
            holders = [p for p in self.players if self.chips[p] > 0]
            if self.betting.all_passed:
                next_captain = left_of(self.players, self.captain, holders)
            else:
                ring = clockwise_from(self.players, self.captain, main_winners)
                next_captain = ring[0]
        return effects + self._next_hand(next_captain)

    def _next_hand(self, captain: str) -> list[Effect]:
        self.captain = captain
        holders = [p for p in self.players if self.chips[p] > 0]
        if len(holders) == 1:
            # Odd chips stay in the pot only after a split, and every winner of a split gets
            # at least one chip; so the winner here holds every chip (D-V12).
            w = holders[0]
            self.winner = w
            self.in_hand = []
            self.betting = None
            return [Effect("game", f"{w} holds every chip and wins the game (V1)", "V1",
                           player=w)]
        effects = [Effect("captain", f"{captain} is captain (M9)", "M9", player=captain)]
        effects += self._take_antes()
        effects += self._start_throwing()
        return effects

    def _live(self) -> list[str]:
        if self.over:
            return []
        if self.betting is not None:
            return list(self.betting.in_hand)
        return list(self.in_hand)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
