"""What the engine says, said for people in any language: each message id has its phrase.

The engine says what happened as messages (``engine.messages``): an id, which is its English
with ``%(name)s`` holes ("%(p)s is captain"), and the arguments as data. The record and the
referee read the engine's English; players read "What happened" and their refusals, where each
message becomes a :class:`~firmware.words.phrases.Phrase` written for people (no rule code, a
capital, "they" for a player) that each screen says in its own language.

:data:`WORDS` gives each message id its phrase; the arguments are made into words by the
hole's name (``chips`` "2 chips", ``throw`` the throw's name, ``names`` "Ann and Bob", a
message inside a message its own phrase...), never read back from an English sentence.
``tests/firmware/test_engine_words.py`` checks that every message the engine can say has a
phrase here, said in French and Spanish.
"""

from __future__ import annotations

from typing import Any

from engine.errors import Said
from engine.messages import BECAUSE, CITED, THEN, Message
from firmware.words.lists import chips_phrase, list_phrase, or_list
from firmware.words.phrases import N_, NN_, SENTENCE, Phrase
from firmware.words.places import place_phrase, preposition_in
from firmware.words.refusal_words import REFUSALS
from firmware.words.throw_words import ordinal, throw_phrase
from firmware.words.variant_names import variant_phrase
from firmware.words.verbs import verb_name

#: Who settled shown values (``Action.by``), as people say it.
SETTLERS = {"camera": N_("the camera"), "players": N_("the players"),
            "referee": N_("the referee")}

#: The holes whose number is a plural's count (said as ``%(n)s`` in the phrase), first found
#: first.
_COUNTS = ("throws", "own", "numbers", "chips", "n")

#: Each message id the engine says, with the phrase people read: what happened here, the
#: rules' refusals in ``refusal_words``.
WORDS: dict[str, Phrase] = {
    # two messages in one, and a rule's code (dropped: players read no codes)
    BECAUSE: N_("%(what)s: %(why)s"),
    THEN: N_("%(what)s; %(then)s"),
    # captains
    "%(p)s is captain": N_("%(p)s is captain"),
    "%(p)s is captain: the higher die": N_("%(p)s is captain with the higher die"),
    "%(p)s is captain: the highest die": N_("%(p)s is captain with the highest die"),
    "%(p)s made the fewest throws nearest the captain's left: %(q)s becomes captain and opens "
    "the betting":
        N_("%(p)s made the fewest throws, nearest the captain's left: %(q)s becomes captain "
           "and opens the betting"),
    "%(p)s threw more times than %(q)s: %(r)s becomes captain and opens the betting":
        N_("%(p)s threw more times than %(q)s: %(r)s becomes captain and opens the betting"),
    "%(p)s throws first in the open throw": N_("%(p)s throws first in the open throw"),
    "The captaincy passes to the left of %(p)s": N_("The captaincy passes to the left of %(p)s"),
    "%(p)s is out, so the captaincy goes to %(q)s, the next player with chips":
        N_("%(p)s is out, so the captaincy goes to %(q)s, the next player with chips"),
    "%(p)s rolls %(n)s for the captaincy": N_("%(p)s rolls %(n)s for captain"),
    "%(p)s rolls for the captaincy; the die is not read surely yet":
        N_("%(p)s rolls for captain; the camera is not sure of the die yet"),
    "%(names)s tie for the highest roll and roll again":
        N_("%(names)s tie for the highest roll and roll again"),
    "%(names)s tie on %(n)s and roll again": N_("%(names)s tie on %(n)s and roll again"),
    # throws and shown dice
    "%(p)s throws (%(n)s of 3)": N_("%(p)s throws (throw %(n)s of 3)"),
    "%(p)s throws (%(ord)s throw)": N_("%(p)s throws (%(ord)s throw)"),
    "%(p)s stands after %(throws)s":
        NN_("%(p)s stands after %(n)s throw", "%(p)s stands after %(n)s throws", 0),
    "%(p)s's dice are shown: %(throw)s": N_("%(p)s shows %(throw)s"),
    "%(p)s's open throw %(n)s: %(throw)s": N_("%(p)s's open throw %(n)s: %(throw)s"),
    "%(p)s's open throw %(n)s: not read surely yet":
        N_("%(p)s's open throw %(n)s: the camera is not sure of it yet"),
    "%(p)s's values are settled by %(by)s: %(throw)s":
        N_("%(p)s's dice are settled by %(by)s: %(throw)s"),
    "%(p)s's values are settled by %(by)s: %(n)s":
        N_("%(p)s's die is settled by %(by)s: %(n)s"),
    "%(names)s's dice are shown but not read surely: the table settles the values before "
    "%(before)s":
        N_("The camera is not sure of %(names)s's dice: the players settle them before "
           "%(before)s"),
    "%(names)s's die is shown but not read surely: the table settles the values before "
    "%(before)s":
        N_("The camera is not sure of %(names)s's die: the players settle it before "
           "%(before)s"),
    # hands, rounds and the game
    "Hand %(hand)s of round %(round)s: %(p)s is captain and throws first":
        N_("Hand %(hand)s of round %(round)s: %(p)s is captain and throws first"),
    "Hand %(hand)s: %(p)s is captain and throws first; %(listed)s play under %(rules)s rules":
        N_("Hand %(hand)s: %(p)s is captain and throws first; %(names)s play by the "
           "%(rules)s rules"),
    "Hand %(hand)s: the ante is %(chips)s": N_("Hand %(hand)s: the ante is %(chips)s"),
    "Open throw: %(p)s holds %(chips)s and the last is with %(where)s; no betting, %(q)s "
    "throws first, exposed":
        N_("Open throw: %(p)s holds %(chips)s and the last one is %(at)s; no betting, "
           "%(q)s throws first, dice shown"),
    "The open throw is a tie (%(throw)s): it is played again, %(p)s first":
        N_("The open throw is a tie (%(throw)s): it is played again, %(p)s first"),
    "Round %(round)s begins with %(n)s chips in the centre":
        N_("Round %(round)s begins with %(n)s chips in the centre"),
    "a player may keep dice aside and rethrow the rest":
        N_("a player may keep dice aside and throw the others again"),
    "every throw rethrows all three dice": N_("every throw throws all three dice again"),
    "each player rolls one die for the captaincy": N_("each player rolls one die for captain"),
    "%(p)s holds all %(n)s chips and loses round %(round)s":
        N_("%(p)s holds all %(n)s chips and loses round %(round)s"),
    "%(p)s has lost %(n)s rounds and loses the match to %(q)s":
        N_("%(p)s has lost %(n)s rounds and loses the match to %(q)s"),
    "%(p)s holds every chip and wins the game": N_("%(p)s holds every chip and wins the game"),
    "%(p)s is the last player holding chips and loses the game":
        N_("%(p)s is the last player holding chips and loses the game"),
    "%(p)s has no chips left": N_("%(p)s has no chips left"),
    "he is out, and has won": N_("they are out, and have won"),
    # betting
    "%(p)s opens the betting": N_("%(p)s opens the betting"),
    "%(p)s bets %(chips)s": N_("%(p)s bets %(chips)s"),
    "%(p)s bets %(chips)s and is all-in": N_("%(p)s bets %(chips)s and is all-in"),
    "%(p)s raises by %(chips)s to %(n)s": N_("%(p)s raises by %(chips)s to %(n)s"),
    "%(p)s raises by %(chips)s to %(n)s and is all-in":
        N_("%(p)s raises by %(chips)s to %(n)s and is all-in"),
    "%(p)s calls": N_("%(p)s calls"),
    "%(p)s calls %(chips)s": N_("%(p)s calls %(chips)s"),
    "%(p)s calls %(chips)s and is all-in": N_("%(p)s calls %(chips)s and is all-in"),
    "%(p)s calls all-in with %(chips)s": N_("%(p)s calls all-in with %(chips)s"),
    "%(p)s calls with his last %(chips)s: he is all in":
        N_("%(p)s calls with their last %(chips)s and is all-in"),
    "%(p)s calls short, for %(chips)s": N_("%(p)s calls short, for %(chips)s"),
    "all the chips available to %(q)s": N_("all the chips %(q)s has"),
    "%(p)s calls the pot for nothing": N_("%(p)s calls the pot for nothing"),
    "%(p)s bets the pot": N_("%(p)s bets the pot"),
    "stays in without putting up chips": N_("they stay in without putting up chips"),
    "%(p)s passes": N_("%(p)s passes"),
    "%(p)s passes after a bet": N_("%(p)s passes after a bet"),
    "that is a drop": N_("that is a drop"),
    "%(p)s passes after the betting has begun, and so drops out":
        N_("%(p)s passes after the betting has begun, and so drops out"),
    "%(p)s passes after the betting has begun, so he drops":
        N_("%(p)s passes after the betting has begun, so they drop"),
    "%(p)s drops": N_("%(p)s drops"),
    "%(p)s drops out": N_("%(p)s drops out"),
    "%(p)s drops out of the hand": N_("%(p)s drops out of the hand"),
    "%(p)s had not bet, so he takes no penalty": N_("%(p)s had not bet, so they take no penalty"),
    "Everybody passes": N_("Everybody passes"),
    "Both players pass": N_("Both players pass"),
    "the hand ends and nobody takes chips": N_("the hand ends and nobody takes chips"),
    "everyone passed": N_("Everyone passed"),
    "all throws are shown": N_("all throws are shown"),
    "at most one player has chips left to bet, so the dice are shown at once":
        N_("At most one player has chips left to bet, so the dice are shown at once"),
    "%(names)s hold %(n)s chips together": N_("%(names)s hold %(n)s chips together"),
    "from now on they play two-hand rules with no centre":
        N_("from now on they play by the two-hand rules, with no centre"),
    "whoever bets and is not called discards one chip":
        N_("whoever bets and is not called discards one chip"),
    "%(p)s bet and was not called but has no chip left to discard":
        N_("%(p)s bet and was not called but has no chip left to discard"),
    # stakes, antes and chips moving
    "%(p)s stakes %(chips)s from the centre": N_("%(p)s stakes %(chips)s from the centre"),
    "%(p)s stakes %(own)s":
        NN_("%(p)s stakes %(n)s chip of their own", "%(p)s stakes %(n)s chips of their own", 0),
    "%(p)s antes %(chips)s": N_("%(p)s antes %(chips)s"),
    "%(p)s antes %(chips)s and is all-in": N_("%(p)s antes %(chips)s and is all-in"),
    "%(p)s antes %(chips)s, short of the %(chips2)s ante, and is all-in":
        N_("%(p)s antes %(chips)s, short of the ante of %(chips2)s, and is all-in"),
    "%(chips)s of %(p)s's stake goes back to %(where)s":
        NN_("%(n)s chip of %(p)s's stake goes back %(to)s",
            "%(n)s chips of %(p)s's stake go back %(to)s", 0),
    "%(chips)s of %(p)s's stake go back to %(where)s":
        NN_("%(n)s chip of %(p)s's stake goes back %(to)s",
            "%(n)s chips of %(p)s's stake go back %(to)s", 0),
    "%(chips)s removed from the game":
        NN_("%(n)s chip is removed from the game", "%(n)s chips are removed from the game", 0),
    "%(chips)s of %(where)s cannot be split and stays in the pot for the next hand":
        NN_("%(n)s chip %(of)s cannot be split and stays in the pot for the next hand",
            "%(n)s chips %(of)s cannot be split and stay in the pot for the next hand",
            0),
    "%(p)s takes %(chips)s": N_("%(p)s takes %(chips)s"),
    "%(p)s takes %(chips)s from %(where)s": N_("%(p)s takes %(chips)s %(from)s"),
    "%(p)s takes 1 penalty chip from %(where)s": N_("%(p)s takes 1 penalty chip %(from)s"),
    "%(p)s takes the last chip from %(where)s": N_("%(p)s takes the last chip %(from)s"),
    "%(p)s takes back %(chips)s that nobody could call":
        N_("%(p)s takes back %(chips)s that nobody could call"),
    "%(p)s takes the pot of %(chips)s": N_("%(p)s takes the pot of %(chips)s"),
    "%(p)s discards 1 chip": N_("%(p)s discards 1 chip"),
    "The pot held only %(chips)s of the %(n)s %(q)s owed; he takes it all":
        N_("The pot held only %(chips)s of the %(n)s %(q)s owed; %(q)s takes all of it"),
    "The pot is empty: %(p)s takes no penalty chip":
        N_("The pot is empty: %(p)s takes no penalty chip"),
    "The throws are equal: every chip bet goes back where it came from":
        N_("The throws are equal: every chip bet goes back where it came from"),
    "the centre": N_("the centre"),
    "the pot": N_("the pot"),
    "the main pot": N_("the main pot"),
    "side pot %(n)s": N_("side pot %(n)s"),
    # showdowns and ties
    "%(names)s share the best throw": N_("%(names)s share the best throw"),
    "there is no poor fish": N_("there is no Poor Fish"),
    "%(p)s has the best throw and is the poor fish":
        N_("%(p)s has the best throw and is the Poor Fish"),
    "%(names)s tie for the worst throw": N_("%(names)s tie for the worst throw"),
    "%(names)s tie for the worst throw with a player all in":
        N_("%(names)s tie for the worst throw with a player all-in"),
    "he takes back his bet, the others all but one chip each":
        N_("the all-in player takes back their bet, the others all but one chip each"),
    "each showdown player takes back one chip":
        N_("each player in the showdown takes back one chip"),
    # why chips move
    "the part of the stake not called": N_("the part of the stake not called"),
    "the rest of the pot after a tie": N_("the rest of the pot after a tie"),
    "nobody bet them any more": N_("nobody bet them any more"),
    "he bet and was not called": N_("they bet and were not called"),
    "the only bettor of the hand": N_("the only bettor of the hand"),
    "the poor fish": N_("the Poor Fish"),
    "the worse open throw": N_("the worse open throw"),
    "equal best throws split it": N_("equal best throws split it"),
    "best throw": N_("the best throw"),
    "1 penalty chip for dropping after betting": N_("1 penalty chip for dropping after betting"),
    "his bet back after the tie": N_("their bet back after the tie"),
    "his bet back but one chip after the tie": N_("their bet back, less one chip, after the tie"),
    "one chip back after the tie": N_("one chip back after the tie"),
    "nobody else bet, so his bet goes back to him":
        N_("nobody else bet, so their bet goes back to them"),
    "the rest of his bet, returned": N_("the rest of their bet, returned"),
    "the rest of the pot goes back to the raiser when all others drop":
        N_("the rest of the pot goes back to the raiser when all the others drop"),
    "the worst throw at the showdown": N_("the worst throw at the showdown"),
    "the worse throw at the showdown": N_("the worse throw at the showdown"),
    "the worst throw, all in: his bet of %(n)s back and as much from each other showdown "
    "player":
        N_("the worst throw, all-in: their bet of %(n)s back and as much from each other "
           "player in the showdown"),
    "his stake of %(n)s, %(m)s for each of the %(k)s still in the hand and 1 penalty chip":
        N_("their stake of %(n)s, %(m)s for each of the %(k)s still in the hand, and 1 "
           "penalty chip"),
    "everyone else dropped out": N_("everyone else dropped out"),
    # what the table waits for before settling dice
    "the pots are paid": N_("the pots are paid"),
    "the chips move": N_("the chips move"),
    "the captain is named": N_("the captain is named"),
    "the showdown": N_("the showdown"),
    "the open throw's outcome": N_("the open throw's outcome"),
    # an expose effect made for the engine's own bookkeeping, never shown
    "": Phrase(""),
    **REFUSALS,
}

#: Holes said under another name in the phrase (players listed are ``names``, verbs ``options``).
_RENAMED = {"listed": "names", "verbs": "options"}
#: Holes holding a list of players, said "Ann, Bob and Cy".
_LISTS = ("names", "listed")


def _arg(name: str, value: Any) -> Any:
    if isinstance(value, Message):
        return phrase(value)
    hole = name.rstrip("0123456789")
    if hole in _LISTS:
        return list_phrase([str(v) for v in value])
    if hole == "chips":
        return chips_phrase(value)
    if hole == "throw":
        return throw_phrase(value)
    if hole == "ord":
        return ordinal(value)
    if hole == "rules":
        return variant_phrase(value)
    if hole == "by":
        return SETTLERS.get(value, value)
    if hole == "verb":
        return verb_name(value)
    if hole == "verbs":
        return or_list([verb_name(v) for v in value])
    if hole == "options":
        return or_list([phrase(v) for v in value])
    return value


def phrase(said: Said | str) -> Phrase:
    """What ``said`` (an engine message) says, as a phrase for people (no full stop)."""
    if not isinstance(said, Message):
        return Phrase(str(said))
    args = said.kwargs
    if said.id == CITED:  # players read no rule codes
        return phrase(args["said"])  # type: ignore[arg-type]
    words = WORDS.get(said.id)
    if words is None:
        return Phrase(str(said))
    out = {_RENAMED.get(k, k): _arg(k, v) for k, v in args.items()}
    preposition = preposition_in(words.msgid)
    if preposition is not None and "where" in args:  # "from Ann", "from the centre"
        out[preposition] = place_phrase(preposition, args["where"])
        del out["where"]
    if words.plural is None:
        return Phrase(words.msgid, out)
    key = next(k for k in _COUNTS if isinstance(args.get(k), int))
    out.pop(key)
    if key != "n" and "n" in out:  # "throw takes 3 numbers, not 2": the count is the 3
        out["m"] = out.pop("n")
    return Phrase(words.msgid, out, words.plural, int(args[key]))  # type: ignore[call-overload]


def known(said: Said | str) -> bool:
    """Whether every message in ``said`` has its phrase here (an engine refusal that some
    other code made from a plain string has none)."""
    if not isinstance(said, Message):
        return False
    if said.id != CITED and said.id not in WORDS:
        return False
    inner = [v for _, v in said.args if isinstance(v, Message)]
    inner += [m for _, v in said.args if isinstance(v, tuple) for m in v if isinstance(m, Message)]
    return all(known(m) for m in inner)


def sentence(said: Said | str) -> Phrase:
    """What ``said`` says as a whole sentence for people: a capital and a full stop."""
    return N_(SENTENCE, said=phrase(said))
