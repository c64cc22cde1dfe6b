"""The standing: one line for the pub's screen saying who is closest to losing, and at game
over the result for the game-over screen.

In Bidou chips are what a player wants to be rid of: in two-hand Bidou the player who ends a
hand holding all 9 loses the round (T9) and two rounds lose the match (T1); in multi-hand Bidou
players with no chips are out and the last holder loses (M7). In Montevideo chips are won, so
the player with the fewest is closest to losing. Pure: from the public state alone. The lines
are phrases (``firmware.words.phrases``): the page says them in its reader's language.
"""

from __future__ import annotations

from typing import Any

from firmware.words.lists import list_phrase
from firmware.words.phrases import N_, NN_, Phrase


def standing(state: dict[str, Any]) -> Phrase | None:
    """``"Ann is closest to losing: 8 of 9 chips."``, or who is level; None while the game is
    over (the game-over screen says how it ended) or before anyone holds a chip."""
    if state.get("over"):
        return None
    seats = [s for s in state.get("seats", []) if not s.get("out")]
    if len(seats) < 2:
        return None
    total = sum(int(s.get("chips") or 0) for s in state.get("seats", [])) \
        + int(state.get("pot") or 0) + int(state.get("centre") or 0)
    rounds = state.get("rounds_lost") or {}
    winning_game = state.get("variant") == "montevideo"

    def danger(seat: dict[str, Any]) -> tuple[int, int]:
        chips = int(seat.get("chips") or 0)
        return (int(rounds.get(seat["name"], 0)), -chips if winning_game else chips)

    worst = max(danger(s) for s in seats)
    if not winning_game and worst == (0, 0):
        return None  # nobody holds a chip yet (the chips are in the centre)
    closest = [s["name"] for s in seats if danger(s) == worst]
    held = NN_("%(n)s chip of %(total)s", "%(n)s chips of %(total)s", abs(worst[1]), total=total)
    if worst[0]:
        held = N_("%(chips)s, %(rounds)s", chips=held, rounds=NN_(
            "%(n)s round lost", "%(n)s rounds lost", worst[0]))
    if len(closest) == len(seats):
        return N_("All level: %(held)s each.", held=held)
    if len(closest) > 1:
        return N_("%(names)s are closest to losing: %(held)s each.", names=list_phrase(closest),
                 held=held)
    return N_("%(name)s is closest to losing: %(held)s.", name=closest[0], held=held)


def result(state: dict[str, Any]) -> Phrase | None:
    """The game-over screen's line: ``"Cy loses to Ann."``, ``"Ann wins."``; None while the
    game goes on."""
    if not state.get("over"):
        return None
    loser, winner = state.get("loser"), state.get("winner")
    if loser and winner:  # Bidou names the loser (a two-hand match has a winner too)
        return N_("%(loser)s loses to %(winner)s.", loser=loser, winner=winner)
    if loser:
        return N_("%(loser)s loses.", loser=loser)
    return N_("%(winner)s wins.", winner=winner) if winner else None
