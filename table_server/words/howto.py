"""How to play: the rules in a few lines for each variant, and Table 1, for the overlay on the
table view and on the phones (``templates/howto.html``, Table 1 loaded from
``/how-to-play/table-1`` when it opens) and its own page, ``/how-to-play``;
said in the request's language (``table_server.words.i18n``).

Table 1's order is the engine's (``engine.ranking``: ``TABLE`` and ``position``), never a copy:
the overlay lists the throws as the referee ranks them, under either ranking option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template

from engine.ranking import RANKINGS, TABLE, position, throw_class
from firmware.words.phrases import N_, Phrase
from firmware.words.throw_words import throw_phrase
from firmware.words.variant_names import VARIANT_WORDS, variant_title
from table_server.context import ctx
from table_server.words.i18n import say

bp = Blueprint("howto", __name__)

#: The rules in a few lines, per variant: what a newcomer needs to follow a game at the table.
RULES: dict[str, list[Phrase]] = {
    "two-hand": [
        N_("Two players; 9 chips start in the centre. Chips are bad: whoever holds all 9 "
           "after a hand loses the round, and two rounds lost lose the match."),
        N_("Each round starts with a captain roll: one die each, the higher die is captain."),
        N_("The captain throws three dice under the cup, up to three times, and may stand "
           "after any throw; then the other player. The dice stay hidden."),
        N_("Betting is one chip at a time: bet or pass; after a bet, call, raise or drop."),
        N_("A call shows both throws: the worse throw takes every chip bet. A drop gives the "
           "bets back and the dropper takes one penalty chip."),
        N_("When one player holds 8 of the 9 chips, the next hand is an open throw: no "
           "betting, the dice thrown in view, the player short of one chip first; the worse "
           "throw takes the last chip."),
        N_("In round 2 a player may keep dice aside and throw the rest."),
    ],
    "multi-hand": [
        N_("Three or more players, six chips each. Chips are bad: empty your stack and you "
           "are out, safe; the last player holding chips loses."),
        N_("A captain roll decides the first captain; every hand, each player throws up to "
           "three times, clockwise from the captain, dice hidden."),
        N_("The player with the fewest throws opens the betting. A bet is at most 3 chips, a "
           "raise at most 2."),
        N_("At a showdown the worst throw takes every chip in the pot. Dropping after "
           "betting costs a penalty."),
        N_("When two players are left they finish as in two-hand Bidou."),
    ],
    "montevideo": [
        N_("Three or more players, six chips each. Chips are good here: the winner takes "
           "all."),
        N_("Every hand each player antes a chip into the pot, then throws up to three times, "
           "dice hidden."),
        N_("The player with the fewest throws opens; betting has no limit, and a player may "
           "bet or call the whole pot."),
        N_("The best throw at the showdown takes the pot (side pots when someone is all in); "
           "a player left alone after drops takes it unshown."),
        N_("A player with no chips is out; the ante rises as the game goes on."),
    ],
}

#: Each variant's title, from the one table of variant names.
TITLES = {variant: variant_title(variant) for variant in VARIANT_WORDS}

POOR_FISH = N_("Poor Fish: if everyone passes, every last throw is shown, and the best "
               "throw (the poor fish) takes one chip from each other player.")

SETTLE = N_("When the camera is not sure of dice that are shown, the players settle them on "
            "their phones before the chips move: the owner says the values, the others agree; "
            "if they do not, the referee decides.")

WHAT_BEATS = N_("Table 1: every throw from best to worst. 1-1-1 beats Bidou (2-1-1), which "
                "beats everything else.")


@dataclass(frozen=True)
class Row:
    """One throw of Table 1: its place (1 = best; equal throws share a place), its dice
    (``"6-5-4"``, highest first) and the name players say in the request's language (empty
    for a plain throw, whose name is its dice)."""

    place: int
    dice: str
    name: str
    named: bool


def table_one(ranking: str = "three-digit") -> list[Row]:
    """All 56 throws, best first, as the engine ranks them under ``ranking``."""
    ordered = sorted(TABLE, key=lambda t: position(t, ranking))  # stable: ties keep TABLE's order
    rows = []
    for t in ordered:
        named = throw_class(t) != "plain"  # a plain throw's name is its dice: said once
        rows.append(Row(position(t, ranking) + 1, "-".join(map(str, t)),
                        say(throw_phrase(t)) if named else "", named))
    return rows


def howto(state: dict[str, Any]) -> dict[str, Any]:
    """What ``templates/howto.html`` draws: the rules of every variant (the one played is shown,
    the others hidden, so a new game of another variant needs no reload), Poor Fish's line,
    how shown dice the camera is unsure of are settled, and Table 1 under each ranking."""
    options = state.get("options") or {}
    return {"rules": {v: [say(line) for line in lines] for v, lines in RULES.items()},
            "titles": {v: say(title) for v, title in TITLES.items()},
            "poor_fish": say(POOR_FISH), "what_beats": say(WHAT_BEATS), "settle": say(SETTLE),
            "variant": state.get("variant") or "two-hand",
            "poor_fish_on": bool(options.get("poor_fish")),
            "ranking": options.get("ranking") or "three-digit",
            "tables": {r: table_one(r) for r in RANKINGS}}


@bp.get("/how-to-play")
def page() -> str:
    """The overlay's content as a page of its own (a link to share, or to print)."""
    return render_template("howto_page.html", howto=howto(ctx().controller.public_state()))


@bp.get("/how-to-play/table-1")
def table_one_part() -> str:
    """Table 1 alone, for the overlay to load when it opens: the table view and the seat pages
    carry no list of dice they do not need (tests/table_server/test_leak.py reads them for
    concealed dice written in any form)."""
    return render_template("_table_one.html", howto=howto(ctx().controller.public_state()))
