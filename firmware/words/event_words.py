"""The engine's sentences said for people, in any language: each one recognised and reworded.

The engine says what happened in short English sentences with rule codes, made for the
record and the referee ("Bob had not bet, so he takes no penalty (M6/2)"). Players read them
in "What happened": there they get a :class:`~firmware.words.wording.Phrase` written for people
(no rule code, a capital, "they" for a player) that each screen says in its own language.

Each entry below is the engine's sentence as a pattern (``%(name)s`` holes, the rest a regular
expression) and the phrase people read. A hole's name says what it holds: a player (``p``,
``q``, ``r``), a list of players (``names``, ``players``), a number (``n``, ``m``, ``k``,
``hand``, ``round``), ``chips`` ("2 chips"), a ``throw`` ("bidou (2-1-1)"), a place the chips
go (``where``), an ordinal (``ord``), a variant (``rules``). A sentence no pattern takes whole
is tried as "what: why" and "this; that", each part recognised on its own.
``tests/firmware/test_event_words.py`` plays every variant and checks that every sentence the
engine says is recognised and said in French and Spanish.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from firmware.words.phrases import N_, NN_, SENTENCE, Phrase
from firmware.words.throw_words import ordinal, throw_phrase

#: A rule code at the end of an engine sentence: "(T2)", "(M6/2)", "(D-V9)".
RULE_CODE = re.compile(r"\s*\((?:D-)?[A-Z]\d+(?:/\d+)?\)$")


def chips_phrase(n: int) -> Phrase:
    return NN_("%(n)s chip", "%(n)s chips", n)


def list_phrase(names: list[str]) -> Phrase | str:
    """``Ann, Bob and Cy`` in the listener's language."""
    if len(names) == 1:
        return names[0]
    return N_("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])


def _names(text: str) -> Phrase | str:
    return list_phrase([n for n in re.split(r", | and ", text) if n])


def _where(text: str) -> Phrase | str:
    side = re.fullmatch(r"side pot (\d+)", text)
    if side:
        return N_("side pot %(n)s", n=int(side.group(1)))
    return {"the centre": N_("the centre"), "the pot": N_("the pot"),
            "the main pot": N_("the main pot")}.get(text, text)


def _throw(text: str) -> Phrase | str:
    dice = re.search(r"(\d)-(\d)-(\d)", text)
    return throw_phrase([int(d) for d in dice.groups()]) if dice else text


def _rules(text: str) -> Phrase | str:
    return {"two-hand": N_("two-hand"), "multi-hand": N_("multi-hand")}.get(text, text)


def _by(text: str) -> Phrase | str:
    return {"camera": N_("the camera"), "players": N_("the players"),
            "referee": N_("the referee")}.get(text, text)


def _ord(text: str) -> Phrase:
    return ordinal(int(re.match(r"\d+", text).group(0)))  # type: ignore[union-attr]


def _chips(text: str) -> Phrase:
    return chips_phrase(int(text.split()[0]))


#: The verbs as a player may be told them ("it is Ann's turn to throw").
VERBS = {"roll": N_("roll for captain"), "throw": N_("throw"), "bet": N_("bet"),
         "raise": N_("raise"), "call": N_("call"), "pass": N_("pass"), "drop": N_("drop"),
         "stand": N_("stand"), "betpot": N_("bet the pot"), "callpot": N_("call the pot")}


def _verb(text: str) -> Phrase | str:
    return VERBS.get(text, text)


def _option(text: str) -> Phrase | str:
    """One thing a player may do: "call", "bet 1 chip", "raise 1 to 2 chips"."""
    m = re.fullmatch(r"(bet|raise) (\d+) to (\d+) chips", text)
    if m:
        return N_("%(verb)s %(n)s to %(m)s chips", verb=_verb(m.group(1)), n=int(m.group(2)),
                  m=int(m.group(3)))
    m = re.fullmatch(r"(bet|raise) (\d+ chips?)", text)
    if m:
        return N_("%(verb)s %(chips)s", verb=_verb(m.group(1)), chips=_chips(m.group(2)))
    return _verb(text)


def _options(text: str) -> Phrase | str:
    """"call, raise 1 chip, drop or pass" in the listener's language."""
    return or_list([_option(i) for i in re.split(r", | or ", text) if i])


def or_list(items: list[Phrase | str]) -> Phrase | str:
    """"call, raise or drop" in the listener's language ("" for no item)."""
    if len(items) <= 1:
        return items[0] if items else ""
    some: Phrase | str = items[0]
    for item in items[1:-1]:
        some = N_("%(some)s, %(next)s", some=some, next=item)
    return N_("%(some)s or %(last)s", some=some, last=items[-1])


#: Each hole's pattern and how its text becomes an argument (by the hole's name, less digits).
HOLES: dict[str, tuple[str, Callable[[str], Any]]] = {
    "p": (r"\S+?", str), "q": (r"\S+?", str), "r": (r"\S+?", str),
    "names": (r".+?", _names), "players": (r".+?", _names),
    "n": (r"\d+", int), "m": (r"\d+", int), "k": (r"\d+", int),
    "hand": (r"\d+", int), "round": (r"\d+", int),
    "chips": (r"\d+ chips?", _chips), "throw": (r".+?", _throw),
    "where": (r"the centre|the pot|the main pot|side pot \d+|\S+", _where),
    "ord": (r"\d+(?:st|nd|rd|th)", _ord), "rules": (r"two-hand|multi-hand", _rules),
    "by": (r"camera|players|referee", _by),
    "verb": (r"roll|throw|bet|raise|call|pass|drop|stand", _verb),
    "options": (r"(?:bet|raise|call|pass|drop)[a-z0-9 ,]*", _options),
}

#: The engine's whole sentences, each with the phrase people read (``None``: the same words).
SENTENCES: list[tuple[str, Phrase | None]] = [
    # captains
    ("%(p)s is captain", N_("%(p)s is captain")),
    ("%(p)s is captain: the higher die", N_("%(p)s is captain with the higher die")),
    ("%(p)s is captain: the highest die", N_("%(p)s is captain with the highest die")),
    ("%(p)s made the fewest throws nearest the captain's left: %(q)s becomes captain and "
     "opens the betting",
     N_("%(p)s made the fewest throws, nearest the captain's left: %(q)s becomes captain and "
        "opens the betting")),
    ("%(p)s threw more times than %(q)s: %(r)s becomes captain and opens the betting",
     N_("%(p)s threw more times than %(q)s: %(r)s becomes captain and opens the betting")),
    ("%(p)s throws first in the open throw", N_("%(p)s throws first in the open throw")),
    ("The captaincy passes to the left of %(p)s",
     N_("The captaincy passes to the left of %(p)s")),
    ("%(p)s is out, so the captaincy goes to %(q)s, the next player with chips",
     N_("%(p)s is out, so the captaincy goes to %(q)s, the next player with chips")),
    ("%(p)s rolls %(n)s for the captaincy", N_("%(p)s rolls %(n)s for captain")),
    ("%(p)s rolls for the captaincy; the die is not read surely yet",
     N_("%(p)s rolls for captain; the camera is not sure of the die yet")),
    ("%(names)s tie for the highest roll and roll again",
     N_("%(names)s tie for the highest roll and roll again")),
    ("%(names)s tie on %(n)s and roll again", N_("%(names)s tie on %(n)s and roll again")),
    # throws and shown dice
    (r"%(p)s throws \(%(n)s of 3\)", N_("%(p)s throws (throw %(n)s of 3)")),
    (r"%(p)s throws \(%(ord)s throw\)", N_("%(p)s throws (%(ord)s throw)")),
    ("%(p)s stands after %(n)s throws?",
     NN_("%(p)s stands after %(n)s throw", "%(p)s stands after %(n)s throws", 0)),
    ("%(p)s's dice are shown: %(throw)s", N_("%(p)s shows %(throw)s")),
    ("%(p)s's open throw %(n)s: %(throw)s", N_("%(p)s's open throw %(n)s: %(throw)s")),
    ("%(p)s's values are settled by %(by)s: %(throw)s",
     N_("%(p)s's dice are settled by %(by)s: %(throw)s")),
    ("%(names)s's dice are shown but not read surely: the table settles the values before "
     "%(before)s",
     N_("The camera is not sure of %(names)s's dice: the players settle them before "
        "%(before)s")),
    ("%(names)s's die is shown but not read surely: the table settles the values before "
     "%(before)s",
     N_("The camera is not sure of %(names)s's die: the players settle it before "
        "%(before)s")),
    # hands, rounds and the game
    ("Hand %(hand)s of round %(round)s: %(p)s is captain and throws first",
     N_("Hand %(hand)s of round %(round)s: %(p)s is captain and throws first")),
    ("Hand %(hand)s: %(p)s is captain and throws first; %(players)s play under %(rules)s "
     "rules",
     N_("Hand %(hand)s: %(p)s is captain and throws first; %(players)s play by the %(rules)s "
        "rules")),
    ("Hand %(hand)s: the ante is %(chips)s", N_("Hand %(hand)s: the ante is %(chips)s")),
    ("Open throw: %(p)s holds %(chips)s and the last is with %(where)s; no betting, %(q)s "
     "throws first, exposed",
     N_("Open throw: %(p)s holds %(chips)s and the last one is with %(where)s; no betting, "
        "%(q)s throws first, dice shown")),
    (r"The open throw is a tie \(%(throw)s\): it is played again, %(p)s first",
     N_("The open throw is a tie (%(throw)s): it is played again, %(p)s first")),
    ("Round %(round)s begins with %(n)s chips in the centre",
     N_("Round %(round)s begins with %(n)s chips in the centre")),
    ("a player may keep dice aside and rethrow the rest",
     N_("a player may keep dice aside and throw the others again")),
    ("every throw rethrows all three dice", N_("every throw throws all three dice again")),
    ("each player rolls one die for the captaincy",
     N_("each player rolls one die for captain")),
    ("%(p)s holds all %(n)s chips and loses round %(round)s",
     N_("%(p)s holds all %(n)s chips and loses round %(round)s")),
    ("%(p)s has lost %(n)s rounds and loses the match to %(q)s",
     N_("%(p)s has lost %(n)s rounds and loses the match to %(q)s")),
    ("%(p)s holds every chip and wins the game", N_("%(p)s holds every chip and wins the game")),
    ("%(p)s is the last player holding chips and loses the game",
     N_("%(p)s is the last player holding chips and loses the game")),
    ("%(p)s has no chips left", N_("%(p)s has no chips left")),
    ("he is out, and has won", N_("they are out, and have won")),
    # betting
    ("%(p)s opens the betting", N_("%(p)s opens the betting")),
    ("%(p)s bets %(chips)s", N_("%(p)s bets %(chips)s")),
    ("%(p)s bets %(chips)s and is all-in", N_("%(p)s bets %(chips)s and is all-in")),
    ("%(p)s raises by %(chips)s to %(n)s", N_("%(p)s raises by %(chips)s to %(n)s")),
    ("%(p)s raises by %(chips)s to %(n)s and is all-in",
     N_("%(p)s raises by %(chips)s to %(n)s and is all-in")),
    ("%(p)s calls", N_("%(p)s calls")),
    ("%(p)s calls %(chips)s", N_("%(p)s calls %(chips)s")),
    ("%(p)s calls %(chips)s and is all-in", N_("%(p)s calls %(chips)s and is all-in")),
    ("%(p)s calls all-in with %(chips)s", N_("%(p)s calls all-in with %(chips)s")),
    ("%(p)s calls with his last %(chips)s: he is all in",
     N_("%(p)s calls with their last %(chips)s and is all-in")),
    ("%(p)s calls short, for %(chips)s", N_("%(p)s calls short, for %(chips)s")),
    ("all the chips available to %(q)s", N_("all the chips %(q)s has")),
    ("%(p)s calls the pot for nothing", N_("%(p)s calls the pot for nothing")),
    ("%(p)s bets the pot", N_("%(p)s bets the pot")),
    ("stays in without putting up chips", N_("they stay in without putting up chips")),
    ("%(p)s passes", N_("%(p)s passes")),
    ("%(p)s passes after a bet", N_("%(p)s passes after a bet")),
    ("that is a drop", N_("that is a drop")),
    ("%(p)s passes after the betting has begun, and so drops out",
     N_("%(p)s passes after the betting has begun, and so drops out")),
    ("%(p)s passes after the betting has begun, so he drops",
     N_("%(p)s passes after the betting has begun, so they drop")),
    ("%(p)s drops", N_("%(p)s drops")),
    ("%(p)s drops out", N_("%(p)s drops out")),
    ("%(p)s drops out of the hand", N_("%(p)s drops out of the hand")),
    ("%(p)s had not bet, so he takes no penalty",
     N_("%(p)s had not bet, so they take no penalty")),
    ("Everybody passes", N_("Everybody passes")),
    ("Both players pass", N_("Both players pass")),
    ("the hand ends and nobody takes chips", N_("the hand ends and nobody takes chips")),
    ("everyone passed", N_("Everyone passed")),
    ("all throws are shown", N_("all throws are shown")),
    ("at most one player has chips left to bet, so the dice are shown at once",
     N_("At most one player has chips left to bet, so the dice are shown at once")),
    ("%(names)s hold %(n)s chips together", N_("%(names)s hold %(n)s chips together")),
    ("from now on they play two-hand rules with no centre",
     N_("from now on they play by the two-hand rules, with no centre")),
    ("whoever bets and is not called discards one chip",
     N_("whoever bets and is not called discards one chip")),
    ("%(p)s bet and was not called but has no chip left to discard",
     N_("%(p)s bet and was not called but has no chip left to discard")),
    # stakes, antes and chips moving
    ("%(p)s stakes %(chips)s from the centre", N_("%(p)s stakes %(chips)s from the centre")),
    ("%(p)s stakes %(n)s own chips?",
     NN_("%(p)s stakes %(n)s chip of their own", "%(p)s stakes %(n)s chips of their own", 0)),
    ("%(p)s antes %(chips)s", N_("%(p)s antes %(chips)s")),
    ("%(p)s antes %(chips)s and is all-in", N_("%(p)s antes %(chips)s and is all-in")),
    ("%(p)s antes %(chips)s, short of the %(n)s chips ante, and is all-in",
     N_("%(p)s antes %(chips)s, short of the ante of %(n)s, and is all-in")),
    ("%(n)s chips? of %(p)s's stake go(?:es)? back to %(where)s",
     NN_("%(n)s chip of %(p)s's stake goes back to %(where)s",
         "%(n)s chips of %(p)s's stake go back to %(where)s", 0)),
    ("%(n)s chips? removed from the game",
     NN_("%(n)s chip is removed from the game", "%(n)s chips are removed from the game", 0)),
    ("%(n)s chips? of %(where)s cannot be split and stays in the pot for the next hand",
     NN_("%(n)s chip of %(where)s cannot be split and stays in the pot for the next hand",
         "%(n)s chips of %(where)s cannot be split and stay in the pot for the next hand", 0)),
    ("%(p)s takes %(chips)s", N_("%(p)s takes %(chips)s")),
    ("%(p)s takes %(chips)s from %(where)s", N_("%(p)s takes %(chips)s from %(where)s")),
    ("%(p)s takes 1 penalty chip from %(where)s",
     N_("%(p)s takes 1 penalty chip from %(where)s")),
    ("%(p)s takes the last chip from %(where)s", N_("%(p)s takes the last chip from %(where)s")),
    ("%(p)s takes back %(chips)s that nobody could call",
     N_("%(p)s takes back %(chips)s that nobody could call")),
    ("%(p)s takes the pot of %(chips)s", N_("%(p)s takes the pot of %(chips)s")),
    ("%(p)s discards 1 chip", N_("%(p)s discards 1 chip")),
    ("The pot held only %(chips)s of the %(n)s %(q)s owed; he takes it all",
     N_("The pot held only %(chips)s of the %(n)s %(q)s owed; %(q)s takes all of it")),
    ("The pot is empty: %(p)s takes no penalty chip",
     N_("The pot is empty: %(p)s takes no penalty chip")),
    ("The throws are equal: every chip bet goes back where it came from",
     N_("The throws are equal: every chip bet goes back where it came from")),
    # showdowns and ties
    ("%(names)s share the best throw", N_("%(names)s share the best throw")),
    ("there is no poor fish", N_("there is no Poor Fish")),
    ("%(p)s has the best throw and is the poor fish",
     N_("%(p)s has the best throw and is the Poor Fish")),
    ("%(names)s tie for the worst throw", N_("%(names)s tie for the worst throw")),
    ("%(names)s tie for the worst throw with a player all in",
     N_("%(names)s tie for the worst throw with a player all-in")),
    ("he takes back his bet, the others all but one chip each",
     N_("the all-in player takes back their bet, the others all but one chip each")),
    ("each showdown player takes back one chip",
     N_("each player in the showdown takes back one chip")),
    # why chips move
    ("the part of the stake not called", N_("the part of the stake not called")),
    ("the rest of the pot after a tie", N_("the rest of the pot after a tie")),
    ("nobody bet them any more", N_("nobody bet them any more")),
    ("he bet and was not called", N_("they bet and were not called")),
    ("the only bettor of the hand", N_("the only bettor of the hand")),
    ("the poor fish", N_("the Poor Fish")),
    ("the worse open throw", N_("the worse open throw")),
    ("equal best throws split it", N_("equal best throws split it")),
    ("best throw", N_("the best throw")),
    ("1 penalty chip for dropping after betting", N_("1 penalty chip for dropping after betting")),
    ("his bet back after the tie", N_("their bet back after the tie")),
    ("his bet back but one chip after the tie", N_("their bet back, less one chip, after the tie")),
    ("one chip back after the tie", N_("one chip back after the tie")),
    ("nobody else bet, so his bet goes back to him",
     N_("nobody else bet, so their bet goes back to them")),
    ("the rest of his bet, returned", N_("the rest of their bet, returned")),
    ("the rest of the pot goes back to the raiser when all others drop",
     N_("the rest of the pot goes back to the raiser when all the others drop")),
    ("the worst throw at the showdown", N_("the worst throw at the showdown")),
    ("the worse throw at the showdown", N_("the worse throw at the showdown")),
    ("the worst throw, all in: his bet of %(n)s back and as much from each other showdown "
     "player",
     N_("the worst throw, all-in: their bet of %(n)s back and as much from each other player "
        "in the showdown")),
    ("his stake of %(n)s, %(m)s for each of the %(k)s still in the hand and 1 penalty chip",
     N_("their stake of %(n)s, %(m)s for each of the %(k)s still in the hand, and 1 penalty "
        "chip")),
    ("everyone else dropped out", N_("everyone else dropped out")),
    # the rules' refusals, as the engine says them (to the player who pressed, on their phone)
    ("it is %(q)s's turn to %(verb)s, not %(p)s's",
     N_("it is %(q)s's turn to %(verb)s, not yours")),
    ("it is %(q)s's turn to %(verb)s", N_("it is %(q)s's turn to %(verb)s")),
    ("betting goes clockwise", N_("betting goes clockwise")),
    ("a bet is one chip in two-hand Bidou", N_("a bet is one chip in two-hand Bidou")),
    ("a raise is one chip in two-hand Bidou", N_("a raise is one chip in two-hand Bidou")),
    ("a raise is 1 or 2 chips in multi-hand Bidou",
     N_("a raise is 1 or 2 chips in multi-hand Bidou")),
    ("both players have thrown and the betting is open",
     N_("both players have thrown and the betting is open")),
    ("both players have thrown and the betting is open under two-hand rules",
     N_("both players have thrown and the betting is open under the two-hand rules")),
    ("every player has thrown and the betting is open",
     N_("every player has thrown and the betting is open")),
    ("%(p)s may %(options)s", N_("%(p)s may %(options)s")),
    ("%(p)s may not %(verb)s now", N_("%(p)s may not %(verb)s now")),
    ("captain rolls go in seat order", N_("captain rolls go in seat order")),
    ("%(p)s rolls before %(q)s", N_("%(p)s rolls before %(q)s")),
    (r"%(p)s has no chips left and is out of the game \(he has won\)",
     N_("%(p)s has no chips left and is out of the game (they have won)")),
    ("%(p)s holds %(chips)s and cannot bet %(n)s",
     N_("%(p)s holds %(chips)s and cannot bet %(n)s")),
    ("bets are the bettor's own chips", N_("bets are the bettor's own chips")),
    ("%(p)s is not in this captain roll", N_("%(p)s is not in this captain roll")),
    ("only %(names)s roll again after the tie", N_("only %(names)s roll again after the tie")),
    ("%(p)s is not in this hand and cannot bet now",
     N_("%(p)s is not in this hand and cannot bet now")),
    ("%(p)s may %(verb)s %(n)s to %(m)s chips in no-limit Montevideo, not %(k)s",
     N_("%(p)s may %(verb)s %(n)s to %(m)s chips in no-limit Montevideo, not %(k)s")),
    ("%(p)s must throw at least once before standing",
     N_("%(p)s must throw at least once before standing")),
    ("the game starts with the captain roll", N_("the game starts with the captain roll")),
    ("the round starts with the captain roll", N_("the round starts with the captain roll")),
    ("%(p)s rolls one die", N_("%(p)s rolls one die")),
    ("each player rolls one die, and %(p)s rolls next",
     N_("each player rolls one die, and %(p)s rolls next")),
    ("a player throws at most three times", N_("a player throws at most three times")),
    # what the table waits for before settling dice
    ("the pots are paid", N_("the pots are paid")),
    ("the chips move", N_("the chips move")),
    ("the captain is named", N_("the captain is named")),
    ("the showdown", N_("the showdown")),
    ("the open throw's outcome", N_("the open throw's outcome")),
]

#: Holes matched as a sub-sentence (a "before" clause).
_SUB = {"before"}


@cache
def _compiled() -> list[tuple[re.Pattern[str], Phrase]]:
    out = []
    for pattern, phrase in SENTENCES:
        def hole(m: re.Match[str]) -> str:
            name = m.group(1)
            if name in _SUB:
                return f"(?P<{name}>.+?)"
            return f"(?P<{name}>{HOLES[name][0]})"
        regex = re.sub(r"%\((\w+)\)s", hole, pattern)
        out.append((re.compile(regex), phrase or N_(pattern)))
    return out


def _whole(text: str) -> Phrase | None:
    for regex, phrase in _compiled():
        m = regex.fullmatch(text)
        if m is None:
            continue
        args: dict[str, Any] = {}
        for name, value in m.groupdict().items():
            if name in _SUB:
                sub = recognise(value)
                if sub is None:
                    break
                args[name] = sub
            else:
                args[name] = HOLES[name][1](value)
        else:
            n = args.get("n") if phrase.plural is not None else None
            return Phrase(phrase.msgid, args, phrase.plural, n)
    return None


def recognise(text: str) -> Phrase | None:
    """The phrase for one engine sentence (its rule code dropped), or None if unknown."""
    text = RULE_CODE.sub("", text.strip()).rstrip(".")
    found = _whole(text) or _whole(text[:1].swapcase() + text[1:])
    if found is not None:
        return found
    for sep, joined in ((": ", N_("%(what)s: %(why)s")), ("; ", N_("%(what)s; %(then)s"))):
        at = text.find(sep)
        while at > 0:
            head, tail = _whole(text[:at]), recognise(text[at + len(sep):])
            if head is not None and tail is not None:
                keys = list(re.findall(r"%\((\w+)\)s", joined.msgid))
                return Phrase(joined.msgid, {keys[0]: head, keys[1]: tail})
            at = text.find(sep, at + 1)
    return None


def sentence(text: str) -> Phrase:
    """An engine sentence as a whole sentence for people: its phrase with a full stop, or
    (for a sentence no pattern knows) the English with its rule code dropped."""
    found = recognise(text)
    if found is None:
        plain = RULE_CODE.sub("", text.strip()).rstrip(".")
        return Phrase(plain[:1].upper() + plain[1:] + ".")
    return N_(SENTENCE, said=found)
