"""How a multi-hand Bidou hand's chips are settled: the source's betting situations 1-7 and P1.

Each function here is pure: it gets the pot and the hand's facts and returns the chip
movements as ``move`` effects (plus ``expose`` effects for dice the rules show), in the order
the table performs them. Every payment from the pot is made "as far as it goes" (M6), so the
order of the effects is part of the rule and is documented in docs/rules/multi-hand.md. The
game applies the effects to its counts; nothing here holds state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.chips import POT, REMOVED
from engine.game import Effect
from engine.messages import THE_POT, Message, because, say
from engine.phases import clockwise_from
from engine.ranking import Throw, best, worst


@dataclass
class Payout:
    """Pays players from a pot as far as it goes, writing one ``move`` effect per payment."""

    pot: int
    effects: list[Effect] = field(default_factory=list)

    def take(self, player: str, wanted: int, why: Message, rule: str) -> int:
        """``player`` takes ``wanted`` chips, or what is left; returns how many he took."""
        n = min(wanted, self.pot)
        if n > 0:
            self.pot -= n
            took = say("%(p)s takes %(chips)s from %(where)s", p=player, chips=n, where=THE_POT)
            self.effects.append(Effect("move", because(took, why), rule, player=player, chips=n,
                                       source=POT, dest=player))
        return n

    def remove_rest(self, why: Message, rule: str) -> None:
        """Whatever is left in the pot leaves the game."""
        if self.pot > 0:
            removed = say("%(chips)s removed from the game", chips=self.pot)
            self.effects.append(Effect("move", because(removed, why), rule, chips=self.pot,
                                       source=POT, dest=REMOVED))
            self.pot = 0


def first_drop(player: str, stake: int, still_in: int, pot: int) -> list[Effect]:
    """Situation 3, first dropper: his stake, that again per player still in, and 1 (M6/3)."""
    wanted = stake + stake * still_in + 1
    pay = Payout(pot)
    why = say("his stake of %(n)s, %(m)s for each of the %(k)s still in the hand and 1 penalty "
              "chip", n=stake, m=stake, k=still_in)
    took = pay.take(player, wanted, why, "M6/3")
    if took < wanted:
        pay.effects.append(Effect("note", say("The pot held only %(chips)s of the %(n)s %(q)s "
                                              "owed; he takes it all", chips=took, n=wanted,
                                              q=player), "M6/3", player=player))
    return pay.effects


def later_drop(player: str, pot: int) -> list[Effect]:
    """Situation 3, each later dropper who bet: one penalty chip from the pot, if any (M6/3)."""
    pay = Payout(pot)
    if not pay.take(player, 1, say("1 penalty chip for dropping after betting"), "M6/3"):
        pay.effects.append(Effect("note", say("The pot is empty: %(p)s takes no penalty chip",
                                              p=player), "M6/3", player=player))
    return pay.effects


def expose(players: Sequence[str], throws: Mapping[str, Throw], rule: str) -> list[Effect]:
    """Show each player's dice."""
    return [Effect("expose", say("%(p)s's dice are shown: %(throw)s", p=p, throw=throws[p]),
                   rule, player=p, dice=throws[p]) for p in players]


def showdown(
    seats: Sequence[str],
    order: Sequence[str],
    stakes: Mapping[str, int],
    throws: Mapping[str, Throw],
    all_in: set[str],
    owed: Mapping[str, int],
    pot: int,
    ranking: str = "three-digit",
) -> tuple[list[Effect], str]:
    """Settle a showdown among ``order`` (clockwise from the captain): situations 1, 5 and 6.

    ``owed`` maps every player with chips of his own still in the pot (showdown players and
    droppers after the first) to those chips, for "returned to the players who bet them".
    Returns the effects and the best throw, the next captain (M9; a shared best goes to the
    first of them clockwise from the captain, D-M10).
    """
    effects = expose(order, throws, "M6/1")
    dice = [throws[p] for p in order]
    losers = [order[i] for i in worst(dice, ranking)]
    winner = order[best(dice, ranking)[0]]
    pay = Payout(pot)
    if len(losers) == 1 and losers[0] not in all_in:
        pay.take(losers[0], pay.pot, say("the worst throw at the showdown"), "M6/1")
    elif len(losers) == 1:
        loser = losers[0]
        s = stakes[loser]
        paid = {q: min(s, stakes[q]) for q in order if q != loser}
        pay.take(loser, s + sum(paid.values()),
                 say("the worst throw, all in: his bet of %(n)s back and as much from each "
                     "other showdown player", n=s), "M6/5")
        for q in clockwise_from(seats, loser, [p for p in owed if p != loser]):
            pay.take(q, owed[q] - paid.get(q, 0), say("the rest of his bet, returned"), "M6/5")
        pay.remove_rest(say("nobody bet them any more"), "M6/5")
    else:
        tied_all_in = [p for p in losers if p in all_in]
        names = tuple(losers)
        if tied_all_in:
            effects.append(Effect("note", because(
                say("%(names)s tie for the worst throw with a player all in", names=names),
                say("he takes back his bet, the others all but one chip each")), "M6/6"))
            for p in tied_all_in:
                pay.take(p, stakes[p], say("his bet back after the tie"), "M6/6")
            for q in order:
                if q not in tied_all_in:
                    pay.take(q, stakes[q] - 1, say("his bet back but one chip after the tie"),
                             "M6/6")
        else:
            effects.append(Effect("note", because(
                say("%(names)s tie for the worst throw", names=names),
                say("each showdown player takes back one chip")), "M6/6"))
            for q in order:
                pay.take(q, 1, say("one chip back after the tie"), "M6/6")
        pay.remove_rest(say("the rest of the pot after a tie"), "M6/6")
    return effects + pay.effects, winner


def last_player(player: str, lone_bettor: bool, pot: int, discard: bool,
                held_after: int) -> list[Effect]:
    """Everybody else dropped: situation 7 (lone bettor) or 4 (the raiser), and M8's discard.

    ``held_after`` is what ``player`` holds before taking anything back; ``discard`` is set when
    the two last players hold more than nine together (M8).
    """
    pay = Payout(pot)
    if lone_bettor:
        pay.take(player, pot, say("nobody else bet, so his bet goes back to him"), "M6/7")
        pay.effects.append(Effect("move", because(say("%(p)s discards 1 chip", p=player),
                                                  say("the only bettor of the hand")),
                                  "M6/7", player=player, chips=1, source=player, dest=REMOVED))
        return pay.effects
    took = pay.take(player, pot, say("the rest of the pot goes back to the raiser when all "
                                     "others drop"), "M6/4")
    if discard:
        if held_after + took > 0:
            pay.effects.append(Effect("move", because(say("%(p)s discards 1 chip", p=player),
                                                      say("he bet and was not called")),
                                      "M8", player=player, chips=1, source=player, dest=REMOVED))
        else:
            pay.effects.append(Effect("note", say("%(p)s bet and was not called but has no chip "
                                                  "left to discard", p=player), "M8",
                                      player=player))
    return pay.effects


def poor_fish(order: Sequence[str], throws: Mapping[str, Throw],
              ranking: str = "three-digit") -> list[Effect]:
    """P1: all passed, so all throws are shown; the single best takes a chip from each other."""
    effects = expose(order, throws, "P1")
    top = best([throws[p] for p in order], ranking)
    if len(top) > 1:
        names = tuple(order[i] for i in top)
        return effects + [Effect("note", because(say("%(names)s share the best throw",
                                                     names=names),
                                                 say("there is no poor fish")), "P1")]
    fish = order[top[0]]
    effects.append(Effect("note", say("%(p)s has the best throw and is the poor fish", p=fish),
                          "P1", player=fish))
    for q in order:
        if q != fish:
            effects.append(Effect("move", because(say("%(p)s takes %(chips)s from %(where)s",
                                                      p=fish, chips=1, where=q),
                                                  say("the poor fish")), "P1",
                                  player=fish, chips=1, source=q, dest=fish))
    return effects
