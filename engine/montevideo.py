"""Montevideo: Bidou dice with poker's aim -- win the chips; the last player holding chips wins.

RULINGS V1-V6 on top of the source's "Variant: Montevideo". A hand is: antes (taken by the
engine as soon as the previous hand settles or the game starts, GAME_RECORD.md), the
shared captain roll / throwing / opener of engine/phases.py (V2), one no-limit betting
round (engine/poker_betting.py, V3 and V6), and a settlement with side pots and split pots
(engine/side_pots.py, V4). When only two players (three, with six or more starting players)
still hold chips, the ante rises each hand (V5). Choices the source and rulings leave open
are written down with ids (D-V1...) in docs/rules/montevideo.md and pinned by tests.

The flow is a chain of stages, as in the other variants (``engine.game.Stage``): the captain
roll, the throwing (:meth:`MontevideoGame._start_throwing`), the betting
(:meth:`MontevideoGame._open_betting`), whose settlement starts the next hand or ends the game.
Montevideo's stages say things in its own words and cite V2/V3, so they live here.

Pure, like every variant: no I/O, clock or randomness; the dice come in the actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import DICE_VERBS, Action
from engine.chips import POT
from engine.errors import NotYourTurn, RuleViolation
from engine.game import Effect, Game, Over, PlayerView, fewest_throws, not_your_turn
from engine.messages import THE_POT, because, cited, say, then
from engine.phases import CaptainRoll, ThrowingTurns, clockwise_from, left_of, opener
from engine.poker_betting import BettingRound
from engine.ranking import Throw, best
from engine.settling import Settling
from engine.side_pots import build_pots, split
from engine.stages import Delegating, Rolling, Throwing

START_CHIPS = 6
MAX_ANTE = 6


class _Rolling(Rolling):
    """The captain roll (V2): one die each, the tied highest roll again, in Montevideo's
    words; the captain then starts the throwing."""

    def __init__(self, game: MontevideoGame) -> None:
        super().__init__(CaptainRoll(list(game.players), rule="V2"),
                         starts=say("the game starts with the captain roll"),
                         then=game._captain_rolled)

    def check(self, action: Action) -> None:
        if action.verb != "roll":
            raise RuleViolation(because(say("the game starts with the captain roll"),
                                        say("each player rolls one die, and %(p)s rolls next",
                                            p=str(self.roll.next_roller))), "V2")
        self.roll.check(action.player, action.numbers[0] if action.numbers else 0)

    def roll_note(self, player: str, die: int | None) -> Effect:
        if die is None:
            return super().roll_note(player, die)
        return Effect("note", say("%(p)s rolls %(n)s for the captaincy", p=player, n=die), "V2",
                      player=player)

    def tie_note(self, tied: list[str], die: int) -> Effect:
        return Effect("note", say("%(names)s tie for the highest roll and roll again",
                                  names=tuple(tied)), "V2")

    def captain_note(self, captain: str) -> Effect:
        return Effect("captain", cited(say("%(p)s is captain", p=captain), "V2"), "V2",
                      player=captain)


class _Throwing(Throwing):
    """Each player in the hand throws 1 to 3 times clockwise from the captain (V2), in
    Montevideo's words; then the betting opens."""

    def __init__(self, game: MontevideoGame, turns: ThrowingTurns) -> None:
        super().__init__(turns, rule="V2", all_thrown=say("everyone has thrown"),
                         first_throw=lambda: None, then=game._open_betting)
        self.game = game

    def check(self, action: Action) -> None:
        p, verb, current = action.player, action.verb, self._turns.current
        if p != current:
            raise NotYourTurn(not_your_turn(str(current), "throw", p), "V2")
        if verb == "throw":
            self._turns.check_throw(p, action.numbers)
        elif verb == "stand":
            self._turns.check_stand(p)
        else:
            raise RuleViolation(then(because(say("%(p)s is throwing", p=p),
                                             say("throw or stand")),
                                     say("the betting opens when everyone has thrown")), "V2")

    def perform(self, action: Action) -> list[Effect]:
        p, turns = action.player, self._turns
        if action.verb == "throw":
            n = turns.count(p) + 1
            self.game.shown.pop(p, None)
            turns.throw(p, action.numbers)
            effects = [Effect("note", say("%(p)s throws (%(ord)s throw)", p=p, ord=n), "V2",
                              player=p)]
        else:
            turns.stand(p)
            effects = [Effect("note", say("%(p)s stands after %(throws)s", p=p,
                                          throws=turns.count(p)), "V2", player=p)]
        if turns.done:
            effects += self.then()
        return effects


class _Betting(Delegating):
    """One no-limit betting round (V3, V6), settled into the pots when it ends (V4)."""

    expects = "bet"
    rule = "V3"

    def __init__(self, game: MontevideoGame, betting: BettingRound,
                 turns: ThrowingTurns) -> None:
        self.game = game
        self.betting = self.inner = betting
        self._turns = turns

    def perform(self, action: Action) -> list[Effect]:
        game, p, verb = self.game, action.player, action.verb
        put, said = self.betting.act(action)
        effects = [Effect("note" if not put else "move", said, "V3" if verb not in
                          ("betpot", "callpot") else "V6", player=p, chips=put,
                          source=p if put else None, dest=POT if put else None)]
        if put:
            game.stakes[p] = game.stakes.get(p, 0) + put
            game.pot += put
        if self.betting.done:
            effects += game._settle(self.betting)
        return effects


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
        #: The hand's throws (kept after the hand for the views and the settlement).
        self.turns: ThrowingTurns | None = None
        self.stage = _Rolling(self)
        #: Dice made public at the last showdown; each stays shown until its owner throws again.
        self.shown: dict[str, Throw] = {}
        self.opening_effects: tuple[Effect, ...] = tuple(self._take_antes())

    # --- the contract ----------------------------------------------------------------
    def _check_turn(self, action: Action) -> None:
        """Each Montevideo stage checks the turn itself, in its own words."""

    def _numbers_rule(self, action: Action) -> str:
        return "V2" if action.verb in DICE_VERBS else "V3"

    def state(self) -> dict[str, Any]:
        return self._replay_state(chips=self.chips, pot=self.pot, captain=self.captain,
                                  winner=self.winner)

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
                exposed=self.shown.get(p) or self.stage.shown(p),
                unsettled=p in self.stage.unsettled(),
                out=self.chips[p] == 0 and p not in live,
            )
            for p in self.players
        ]

    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        if self.turns is None:
            return None
        return self.turns.last(player)

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
        rule = "V5" if self.rising_hands else "V2"
        effects = [Effect("hand", cited(say("Hand %(hand)s: the ante is %(chips)s",
                                            hand=self.hand, chips=self.ante), rule),
                          rule, detail="normal")]
        for p in holders:
            put = min(self.ante, self.chips[p])
            self.chips[p] -= put
            self.stakes[p] = put
            self.pot += put
            if put < self.ante:
                said = cited(say("%(p)s antes %(chips)s, short of the %(chips2)s ante, and is "
                                 "all-in", p=p, chips=put, chips2=self.ante), "V5")
            elif self.chips[p] == 0:
                said = cited(say("%(p)s antes %(chips)s and is all-in", p=p, chips=put), rule)
            else:
                said = cited(say("%(p)s antes %(chips)s", p=p, chips=put), rule)
            effects.append(Effect("move", said, rule, player=p, chips=put, source=p, dest="pot"))
        return effects

    def _captain_rolled(self, captain: str) -> list[Effect]:
        self.captain = captain
        return self._start_throwing()

    def _start_throwing(self) -> list[Effect]:
        assert self.captain is not None
        self.turns = ThrowingTurns(clockwise_from(self.players, self.captain, self.in_hand),
                                   rule="V2")
        self.stage = _Throwing(self, self.turns)
        return []

    def _open_betting(self) -> list[Effect]:
        assert self.turns is not None and self.captain is not None
        counts = {p: self.turns.count(p) for p in self.in_hand}
        first = opener(self.players, self.captain, counts)
        betting = BettingRound(self.players, list(self.in_hand), self.chips, first)
        self.stage = _Betting(self, betting, self.turns)
        if first != self.captain:
            # M4 as the source writes it: the fewest throws nearest the captain's left
            # "becomes captain" (a captain among the fewest keeps it), as in multi-hand Bidou.
            effects = [Effect("captain", cited(fewest_throws(first), "M4"), "M4",
                              player=first)]
            self.captain = first
        else:
            effects = [Effect("note", cited(say("%(p)s opens the betting", p=first), "M4"),
                              "M4", player=first)]
        if betting.done:
            effects.append(Effect("note", cited(say("at most one player has chips left to bet, "
                                                    "so the dice are shown at once"), "D-V8"),
                                  "D-V8"))
            effects += self._settle(betting)
        return effects

    def _settle(self, betting: BettingRound) -> list[Effect]:
        """Pay the pot(s) out at the end of the betting, then begin the next hand."""
        assert self.turns is not None and self.captain is not None
        live = list(betting.in_hand)
        effects: list[Effect] = []
        if len(live) == 1:
            w = live[0]
            effects.append(Effect("move", cited(because(
                say("%(p)s takes the pot of %(chips)s", p=w, chips=self.pot),
                say("everyone else dropped out")), "V3"), "V3", player=w, chips=self.pot,
                source="pot", dest=w))
            self.chips[w] += self.pot
            self.pot = self.carried = 0
            next_captain = w
        else:
            waiting = self.turns.unsettled(live)
            if waiting:  # the shown throws decide the pots: their values first (D-S3)
                known = {q: t for q in live if q not in waiting and (t := self.turns.last(q))}
                pause = Settling(self.stage, waiting, dice=3, before=say("the pots are paid"),
                                 record=self.turns.settle, then=lambda: self._settle(betting),
                                 shown=known)
                self.stage = pause
                return pause.pause()
            if betting.all_passed:
                effects.append(Effect("note", cited(because(say("everyone passed"),
                                                            say("all throws are shown")), "V4"),
                                      "V4"))
            throws: dict[str, Throw] = {}
            for p in live:
                t = self.turns.last(p)
                assert t is not None
                throws[p] = t
                self.shown[p] = t
                effects.append(Effect("expose", say("%(p)s's dice are shown: %(throw)s", p=p,
                                                    throw=t), "V4", player=p, dice=t))
            pots = build_pots(self.stakes, live, self.carried)
            carry = 0
            main_winners: list[str] = []
            for i, pot in enumerate(pots):
                where = THE_POT if len(pots) == 1 else (
                    say("the main pot") if i == 0 else say("side pot %(n)s", n=i))
                if len(pot.eligible) == 1:
                    w = pot.eligible[0]
                    self.chips[w] += pot.chips
                    effects.append(Effect("move", cited(say("%(p)s takes back %(chips)s that "
                                                            "nobody could call", p=w,
                                                            chips=pot.chips), "D-V9"),
                                          "D-V9", player=w, chips=pot.chips, source="pot",
                                          dest=w))
                    continue
                idx = best([throws[p] for p in pot.eligible], self.ranking)
                winners = [pot.eligible[k] for k in idx]
                if i == 0:
                    main_winners = winners
                shares, odd = split(pot.chips, winners)
                carry += odd
                for w, n in shares.items():
                    self.chips[w] += n
                    why = say("best throw" if len(winners) == 1
                              else "equal best throws split it")
                    took = say("%(p)s takes %(chips)s from %(where)s", p=w, chips=n, where=where)
                    effects.append(Effect("move", cited(because(took, why), "V4"), "V4",
                                          player=w, chips=n, source="pot", dest=w,
                                          detail=str(where) if where.args else None))
                if odd:
                    effects.append(Effect("note", cited(say(
                        "%(chips)s of %(where)s cannot be split and stays in the pot for the "
                        "next hand", chips=odd, where=where), "V4"), "V4"))
            self.pot = self.carried = carry
            holders = [p for p in self.players if self.chips[p] > 0]
            if betting.all_passed:
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
            self.stage = Over()
            return [Effect("game", cited(say("%(p)s holds every chip and wins the game", p=w),
                                         "V1"), "V1", player=w)]
        effects = [Effect("captain", cited(say("%(p)s is captain", p=captain), "M9"), "M9",
                          player=captain)]
        effects += self._take_antes()
        effects += self._start_throwing()
        return effects

    def _live(self) -> list[str]:
        if self.over:
            return []
        stage = self.stage.underlying()
        if isinstance(stage, _Betting):
            return list(stage.betting.in_hand)
        return list(self.in_hand)
