"""Two-hand Bidou (source "Two-Hand Bidou", RULINGS T1-T11): the match, its rounds and hands.

This module is the flow: rounds of 9 centre chips (T2), the captain roll, the throwing turns and
the opener (``engine.phases``), the betting of a hand (``engine.two_hand_betting``, shared with
multi-hand Bidou's last two players), the open throw (``engine.open_throw``), the end of a round
(T9) and of the match (T1). Every settlement is performed as soon as the rules decide it, so a
game record holds only what players did.

The flow is a chain of stages (``engine.stages``): each round begins with the captain roll,
whose captain starts a hand (:meth:`_start_hand`: the throwing), whose last throw opens the
betting (:meth:`_open_betting`), whose settlement ends the hand (:meth:`_after_hand`): a lost
round, an open throw, or the next hand. The game holds only the stage being played.

Held dice in round 2 (T1): the table records only the three values under the cup after each
throw; from values alone nothing tells a held die from a rethrown one, so nothing is checked and
every round accepts any three dice (docs/rules/two-hand.md, D-T1).
"""

from __future__ import annotations

from typing import Any

from engine.chips import CENTRE
from engine.game import Effect, Game, Over, PlayerView
from engine.messages import THE_CENTRE, Arg, say, then
from engine.open_throw import OpenThrow, open_throw_due, open_throw_note
from engine.phases import CaptainRoll, ThrowingTurns, opener
from engine.stages import HeadsUp, OpenThrowing, Rolling, Throwing
from engine.two_hand_betting import HeadsUpBetting

CHIPS = 9
ROUNDS_TO_LOSE = 2

#: The rule a refusal cites when the action ending it is not the outcome's (T5-T8).
_OUTCOME_RULE = {"passed": "T5", "called": "T7", "dropped": "T8"}


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
        self.hand = 0
        #: Dice the rules have shown (showdown, open throw), on show until the next throw.
        self.exposed: dict[str, tuple[int, ...]] = {}
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
        return self.stage.pot

    @property
    def throw_rule(self) -> str:
        """How dice are thrown this round (T1): round 2 may keep dice aside."""
        return "keep dice aside" if self.round == 2 else "rethrow all three"

    def _clear_shown(self) -> None:
        self.exposed = {}

    def _note_exposed(self, effects: list[Effect]) -> None:
        for e in effects:
            if e.kind == "expose" and e.player is not None and e.dice:
                self.exposed[e.player] = e.dice
            elif e.kind == "expose" and e.player is not None:  # shown, values pending
                self.exposed.pop(e.player, None)

    # --- the chain of stages -------------------------------------------------------------
    def _start_round(self) -> list[Effect]:
        self.round += 1
        self.holdings = {CENTRE: CHIPS, **{p: 0 for p in self.players}}
        self.hand, self.captain = 0, None
        self.exposed = {}
        self.stage = Rolling(CaptainRoll(list(self.players), rule="T2"),
                             starts=say("the round starts with the captain roll"),
                             then=self._start_hand)
        how = ("a player may keep dice aside and rethrow the rest" if self.round == 2
               else "every throw rethrows all three dice")
        return [Effect("note", then(say("Round %(round)s begins with %(n)s chips in the centre",
                                        round=self.round, n=CHIPS),
                                    then(say(how),
                                         say("each player rolls one die for the captaincy"))),
                       "T1")]

    def _start_hand(self, captain: str) -> list[Effect]:
        self.captain = captain
        self.hand += 1
        self.stage = Throwing(ThrowingTurns([captain, self.other(captain)], rule="T3"),
                              rule="T3", all_thrown=say("both players have thrown"),
                              first_throw=self._clear_shown, then=self._open_betting)
        return [Effect("hand", say("Hand %(hand)s of round %(round)s: %(p)s is captain and "
                                   "throws first", hand=self.hand, round=self.round, p=captain),
                       "T3", player=captain, detail="normal")]

    def _open_betting(self) -> list[Effect]:
        turns = self.stage.turns
        assert turns is not None and self.captain is not None
        counts = {p: turns.count(p) for p in self.players}
        first = opener(self.players, self.captain, counts)
        effects: list[Effect] = []
        if first != self.captain:
            effects.append(Effect("captain", say("%(p)s threw more times than %(q)s: %(r)s "
                                                 "becomes captain and opens the betting",
                                                 p=self.captain, q=first, r=first), "T4",
                                  player=first))
            self.captain = first
        else:
            effects.append(Effect("note", say("%(p)s opens the betting", p=first), "T4",
                                  player=first))
        a, b = self.players  # two, as __init__ checks
        betting = HeadsUpBetting((a, b), first, self.captain,
                                 turns.last_throws(self.players), self.holdings,
                                 ranking=self.ranking)
        self.stage = HeadsUp(betting, turns, under=False, note_exposed=self._note_exposed,
                             then=self._end_betting)
        return effects

    def _end_betting(self, betting: HeadsUpBetting) -> list[Effect]:
        assert betting.outcome is not None
        out = betting.outcome
        return self._after_hand(out.next_captain, _OUTCOME_RULE[out.kind])

    def _after_open_throw(self, next_captain: str) -> list[Effect]:
        return self._after_hand(next_captain, "T10")

    def _after_hand(self, next_captain: str, rule: str) -> list[Effect]:
        """Settle the end of a hand: round lost (T9), open throw (T10), else the next hand."""
        for p in self.players:
            if self.holdings[p] == CHIPS:
                return self._lose_round(p)
        due = open_throw_due(self.players, self.holdings)
        if due is not None:
            short, holder = due
            self.captain = short
            self.hand += 1
            self.stage = OpenThrowing(OpenThrow(short, holder, ranking=self.ranking),
                                      self.holdings, first_throw=self._clear_shown,
                                      note_exposed=self._note_exposed,
                                      then=self._after_open_throw)
            where: Arg = THE_CENTRE if self.centre else short
            return [
                Effect("hand", open_throw_note(holder, self.holdings[holder], where, short),
                       "T10", player=short, detail="open throw"),
                Effect("captain", say("%(p)s throws first in the open throw", p=short), "T10",
                       player=short),
            ]
        return [Effect("captain", say("%(p)s is captain", p=next_captain), rule,
                       player=next_captain),
                *self._start_hand(next_captain)]

    def _lose_round(self, p: str) -> list[Effect]:
        self.rounds_lost[p] += 1
        effects = [Effect("round", say("%(p)s holds all %(n)s chips and loses round %(round)s",
                                       p=p, n=CHIPS, round=self.round), "T9", player=p)]
        if self.rounds_lost[p] >= ROUNDS_TO_LOSE:
            self.loser, self.stage = p, Over()
            winner = self.other(p)
            return effects + [Effect("game", say("%(p)s has lost %(n)s rounds and loses the "
                                                 "match to %(q)s", p=p, n=ROUNDS_TO_LOSE,
                                                 q=winner), "T1", player=p)]
        return effects + self._start_round()

    # --- what the table shows ------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        # GAME_RECORD.md: Bidou names the loser, and only multi-hand leaves winner null;
        # a two-hand match has one other player, who won it (D-T15).
        return self._replay_state(
            chips={p: self.holdings[p] for p in self.players}, pot=self.pot,
            captain=self.captain, loser=self.loser,
            winner=self.other(self.loser) if self.loser else None, round=self.round,
            rounds_lost=self.rounds_lost, centre=self.centre)

    def views(self) -> list[PlayerView]:
        to_act, turns = self.to_act, self.stage.turns
        return [
            PlayerView(
                name=p,
                chips=self.holdings[p],
                throws=turns.count(p) if turns is not None else 0,
                stake=self.stage.stake(p),
                in_hand=not self.over,
                to_act=p == to_act,
                is_captain=p == self.captain,
                exposed=self.exposed.get(p) or self.stage.shown(p),
                unsettled=p in self.stage.unsettled(),
            )
            for p in self.players
        ]

    def concealed_dice(self, player: str) -> tuple[int, ...] | None:
        turns = self.stage.turns
        return turns.last(player) if turns is not None else None
