"""Multi-hand Bidou (source "Multi-Hand Bidou", RULINGS M1-M9) with the Poor Fish option (P1).

This module is the flow of the game: 6 chips each (M1), the captain roll, throwing turns and
opener (``engine.phases``), the betting (``engine.multi_hand_betting``), the settlements of the
source's situations (``engine.multi_hand_settle``), players going out as they empty their
stacks (M7), and the end game of M8: two players discarding down to nine chips, then two-hand
rules with no centre, reusing the two-hand engine's ``HeadsUpBetting`` and ``OpenThrow``.
Every settlement is performed as soon as the rules decide it, so a game record holds only what
players did. The flow is a chain of stages (``engine.stages``, and :class:`MultiBettingStage`
here): the captain roll starts the first hand (:meth:`_start_hand`), the last throw opens the
betting (:meth:`_open_betting`), each settlement ends the hand (:meth:`_end_hand`), which
starts the next one, an open throw, or ends the game. The game holds only the stage played.
Choices the source leaves open are written in docs/rules/multi-hand.md (D-M..).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.chips import POT, REMOVED
from engine.errors import RuleViolation
from engine.game import Effect, Game, Over, PlayerView, fewest_throws
from engine.messages import Message, because, say, then
from engine.multi_hand_betting import MultiBetting
from engine.multi_hand_settle import first_drop, last_player, later_drop, poor_fish, showdown
from engine.open_throw import OpenThrow, open_throw_due, open_throw_note
from engine.phases import CaptainRoll, ThrowingTurns, clockwise_from, left_of, opener
from engine.settling import Settling
from engine.stages import Delegating, HeadsUp, OpenThrowing, Rolling, Throwing
from engine.two_hand_betting import HeadsUpBetting

START_CHIPS = 6
TWO_HAND_LIMIT = 9


class MultiBettingStage(Delegating):
    """The betting of a multi-hand hand (M5, M6) and its settlement (situations 1-7, M9, P1).

    Holds what only this betting needs -- the betting itself, the hand's throws, who dropped
    first -- and moves chips through the game, which then ends the hand.
    """

    expects = "bet"
    rule = "M5"

    def __init__(self, game: MultiHandGame, betting: MultiBetting,
                 turns: ThrowingTurns) -> None:
        self.game = game
        self.betting = self.inner = betting
        self._turns = turns
        self.first_dropper: str | None = None

    def stake(self, player: str) -> int:
        return self.betting.stake.get(player, 0)

    def perform(self, action: Action) -> list[Effect]:
        game, betting = self.game, self.betting
        p, verb = action.player, action.verb
        opened = betting.opened
        put = betting.act(action)
        effects: list[Effect] = []
        if verb == "bet":
            effects.append(game._stake(p, put, say("%(p)s bets %(chips)s", p=p, chips=put),
                                       "M5"))
        elif verb == "raise":
            effects.append(game._stake(p, put, say("%(p)s raises by %(chips)s to %(n)s", p=p,
                                                   chips=action.chips or 0, n=betting.level),
                                       "M5"))
        elif verb == "call":
            all_in = p in betting.all_in
            said = (say("%(p)s calls with his last %(chips)s: he is all in", p=p, chips=put)
                    if all_in
                    else say("%(p)s calls %(chips)s", p=p, chips=put))
            effects.append(game._stake(p, put, said, "M6/5" if all_in else "M5"))
        elif not opened:
            effects.append(Effect("note", say("%(p)s passes", p=p), "M5", player=p))
        else:
            effects += self._drop(p, verb)
        if betting.outcome is not None:
            effects += self._settle()
        return effects

    def _drop(self, p: str, verb: str) -> list[Effect]:
        game, betting = self.game, self.betting
        said = ("%(p)s passes after the betting has begun, so he drops" if verb == "pass"
                else "%(p)s drops out")
        effects = [Effect("note", say(said, p=p), "M6/9" if verb == "pass" else "M5",
                          player=p)]
        stake = betting.stake[p]
        if stake == 0:
            effects.append(Effect("note", say("%(p)s had not bet, so he takes no penalty", p=p),
                                  "M6/2", player=p))
        elif self.first_dropper is None:
            self.first_dropper = p
            effects += first_drop(p, stake, len(betting.in_hand), game.staked)
        else:
            effects += later_drop(p, game.staked)
        return game._apply(effects)

    def _settle(self) -> list[Effect]:
        game, betting = self.game, self.betting
        captain = game.captain
        assert captain is not None
        how = betting.outcome
        throws = self._turns.last_throws(game.hand_players)
        shown = {"passed": game.hand_players if game.poor_fish else [], "alone": [],
                 }.get(how or "", betting.in_hand)
        waiting = self._turns.unsettled(clockwise_from(game.players, captain, shown))
        if waiting:  # P1 or a showdown exposes a pending throw: its values first (D-S3)
            known = {q: throws[q] for q in shown if q not in waiting}
            pause = Settling(self, waiting, dice=3, before=say("the chips move"),
                             record=self._turns.settle, then=self._settle, shown=known)
            self.handover = pause
            return pause.pause()
        if how == "passed":
            effects = [Effect("note", say("Everybody passes"), "M9")]
            if game.poor_fish:
                effects += game._apply(poor_fish(
                    clockwise_from(game.players, captain, game.hand_players), throws,
                    game.ranking))
            nxt = left_of(game.players, captain, game.hand_players)
            effects.append(Effect("note", say("The captaincy passes to the left of %(p)s",
                                              p=captain), "M9"))
            return effects + game._end_hand(nxt)
        if how == "alone":
            last = betting.in_hand[0]
            lone = betting.bettors == [last]
            effects = game._apply(last_player(last, lone, game.staked, game.discarding,
                                              game.chips[last]))
            return effects + game._end_hand(last)
        order = clockwise_from(game.players, captain, betting.in_hand)
        owed = {p: betting.stake[p] for p in betting.bettors if p != self.first_dropper}
        effects, winner = showdown(game.players, order, betting.stake, throws,
                                   betting.all_in, owed, game.staked, game.ranking)
        return game._apply(effects) + game._end_hand(winner)


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
        self.hand = 0
        self.two_hand = False  # M8: the last two play two-hand rules
        self.hand_players: list[str] = list(self.players)
        self.out: list[str] = []
        #: Dice the rules have shown (showdown, open throw, Poor Fish), until the next throw.
        self.exposed: dict[str, tuple[int, ...]] = {}
        self.stage = Rolling(CaptainRoll(list(self.players), rule="M2"),
                             starts=say("the game starts with the captain roll"),
                             then=self._start_hand)

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

    # --- the table's own questions -------------------------------------------------------
    @property
    def pot(self) -> int:
        """Chips bet and not yet settled."""
        return self.staked + self.stage.pot

    @property
    def discarding(self) -> bool:
        """M8: two players left holding more than nine together discard when not called."""
        return not self.two_hand and len(self.hand_players) == 2

    def _check_turn(self, action: Action) -> None:
        if action.player in self.out:
            raise RuleViolation(then(say("%(p)s has no chips left and is out of the game (he "
                                         "has won)", p=action.player),
                                     say("it is %(q)s's turn to %(verb)s", q=str(self.to_act),
                                         verb=str(self.expects))), "M7")
        super()._check_turn(action)

    # --- chips ---------------------------------------------------------------------------
    def _stake(self, p: str, n: int, said: Message, rule: str) -> Effect:
        return self._move(Effect("move", said, rule, player=p, chips=n, source=p, dest=POT))

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
            if e.kind == "expose" and e.player is not None and e.dice:
                self.exposed[e.player] = e.dice
            elif e.kind == "expose" and e.player is not None:  # shown, values pending
                self.exposed.pop(e.player, None)

    def _clear_shown(self) -> None:
        self.exposed = {}  # the last hand's shown dice stay on show until its first throw

    # --- the chain of stages -------------------------------------------------------------
    def _start_hand(self, captain: str) -> list[Effect]:
        self.captain = captain
        self.hand += 1
        self.hand_players = [p for p in self.players if self.chips[p] > 0]
        rule = "T3" if self.two_hand else "M3"
        order = clockwise_from(self.players, captain, self.hand_players)
        self.stage = Throwing(ThrowingTurns(order, rule=rule), rule="M3",
                              all_thrown=say("every player has thrown"),
                              first_throw=self._clear_shown, then=self._open_betting)
        return [Effect("hand", say("Hand %(hand)s: %(p)s is captain and throws first; "
                                   "%(listed)s play under %(rules)s rules", hand=self.hand,
                                   p=captain, listed=tuple(order),
                                   rules="two-hand" if self.two_hand else "multi-hand"),
                       rule, player=captain,
                       detail="two-hand" if self.two_hand else "normal")]

    def _open_betting(self) -> list[Effect]:
        turns = self.stage.turns
        assert turns is not None and self.captain is not None
        counts = {p: turns.count(p) for p in self.hand_players}
        first = opener(self.players, self.captain, counts)
        rule = "T4" if self.two_hand else "M4"
        if first != self.captain:
            effects = [Effect("captain", fewest_throws(first), rule, player=first)]
            self.captain = first
        else:
            effects = [Effect("note", say("%(p)s opens the betting", p=first), rule,
                              player=first)]
        if self.two_hand:
            a, b = self.hand_players
            duel = HeadsUpBetting((a, b), first, self.captain,
                                  turns.last_throws(self.hand_players), self.chips,
                                  ranking=self.ranking)
            self.stage = HeadsUp(duel, turns, under=True,
                                 note_exposed=self._note_exposed, then=self._end_duel)
        else:
            betting = MultiBetting(clockwise_from(self.players, first, self.hand_players),
                                   self.chips)
            self.stage = MultiBettingStage(self, betting, turns)
        return effects

    def _end_duel(self, duel: HeadsUpBetting) -> list[Effect]:
        assert duel.outcome is not None
        return self._end_hand(duel.outcome.next_captain)

    def _end_hand(self, candidate: str) -> list[Effect]:
        """After a settlement: players out (M7), the game's end, M8, then the next hand."""
        effects: list[Effect] = []
        for p in self.hand_players:
            if self.chips[p] == 0 and p not in self.out:
                self.out.append(p)
                effects.append(Effect("note", because(say("%(p)s has no chips left", p=p),
                                                      say("he is out, and has won")),
                                      "M7", player=p))
        holders = [p for p in self.players if self.chips[p] > 0]
        if len(holders) == 1:
            self.loser = holders[0]
            self.stage = Over()
            self.hand_players = []
            return effects + [Effect("game", say("%(p)s is the last player holding chips and "
                                                 "loses the game", p=self.loser), "M7",
                                     player=self.loser)]
        captain = clockwise_from(self.players, candidate, holders)[0]
        if captain != candidate:
            effects.append(Effect("note", say("%(p)s is out, so the captaincy goes to %(q)s, "
                                              "the next player with chips", p=candidate,
                                              q=captain), "D-M10", player=captain))
        effects.append(Effect("captain", say("%(p)s is captain", p=captain), "M9",
                              player=captain))
        together = sum(self.chips[p] for p in holders)
        if len(holders) == 2 and together <= TWO_HAND_LIMIT and not self.two_hand:
            self.two_hand = True
            effects.append(Effect("note", because(
                say("%(names)s hold %(n)s chips together", names=tuple(holders), n=together),
                say("from now on they play two-hand rules with no centre")), "M8"))
        elif len(holders) == 2 and not self.two_hand:
            effects.append(Effect("note", because(
                say("%(names)s hold %(n)s chips together", names=tuple(holders), n=together),
                say("whoever bets and is not called discards one chip")), "M8"))
        if self.two_hand:
            due = open_throw_due(holders, self.chips)
            if due is not None:
                return effects + self._start_open_throw(*due, holders)
        return effects + self._start_hand(captain)

    def _start_open_throw(self, short: str, holder: str, holders: list[str]) -> list[Effect]:
        self.hand += 1
        self.hand_players = holders
        self.captain = short
        self.stage = OpenThrowing(OpenThrow(short, holder, ranking=self.ranking), self.chips,
                                  first_throw=self._clear_shown,
                                  note_exposed=self._note_exposed, then=self._end_hand)
        return [
            Effect("hand", open_throw_note(holder, self.chips[holder], short, short), "T10",
                   player=short, detail="open throw"),
            Effect("captain", say("%(p)s throws first in the open throw", p=short), "T10",
                   player=short),
        ]

    # --- what the table shows ------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return self._replay_state(chips={p: self.chips[p] for p in self.players},
                                  pot=self.pot, captain=self.captain, loser=self.loser,
                                  removed=self.removed)

    def _in_hand(self, p: str) -> bool:
        if self.over or isinstance(self.stage, Rolling) or p not in self.hand_players:
            return False
        stage = self.stage.underlying()
        return not (isinstance(stage, MultiBettingStage) and p in stage.betting.dropped)

    def views(self) -> list[PlayerView]:
        to_act, turns = self.to_act, self.stage.turns
        return [
            PlayerView(
                name=p,
                chips=self.chips[p],
                throws=turns.count(p) if turns is not None else 0,
                stake=self.stage.stake(p),
                in_hand=self._in_hand(p),
                to_act=p == to_act,
                is_captain=p == self.captain,
                exposed=self.exposed.get(p) or self.stage.shown(p),
                unsettled=p in self.stage.unsettled(),
                out=p in self.out,
            )
            for p in self.players
        ]

    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        turns = self.stage.turns
        return turns.last(player) if turns is not None else None
