"""What a seat-panel press means now: pure mapping from (press, offered stake, game) to a decision.

A panel has four buttons and no display, so one button means different things at different
moments (see docs/controller.md, "Presses"). Keeping the mapping here, apart from threads,
the camera and the log, lets every case be tested against the real engine in microseconds,
and gives every refusal one clear sentence that the seat's LED and the dashboard can show.

The decision is one of:

- ``read``: "throw" or "roll" -- the controller must read the seat's dice from the camera
  and then play the throw (or captain roll) with the values it reads;
- ``action``: an engine :class:`~engine.actions.Action` to play now;
- ``stake``: the new chip count of the stake being offered (BET adds, PASS cancels); the
  offered stake is the controller's, not the engine's, until CALL commits it;
- ``refusal``: a :class:`Refusal` (sentence + rule id), nothing else happens.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.errors import RuleViolation, Said
from engine.game import Allowed, Game
from firmware.table.commands import Refusal
from firmware.words import engine_words
from firmware.words.phrases import N_, NN_, Phrase
from firmware.words.verbs import verb_name
from hardware.panel import BUTTONS

#: Said to a player in any language whose catalogue lacks the engine's own sentence.
RULES_SAY_NO = N_("The rules do not allow that now.")
GAME_OVER = N_("The game is over; the referee starts a new game.")


@dataclass(frozen=True)
class Decision:
    """What one press does; exactly one of the fields is set."""

    read: str | None = None
    action: Action | None = None
    stake: int | None = None
    refusal: Refusal | None = None


def _refuse(sentence: str | Phrase, rule: str | None = None) -> Decision:
    if isinstance(sentence, Phrase):
        return Decision(refusal=Refusal.said(sentence, rule))
    return Decision(refusal=Refusal(sentence, rule))


def expects(game: Game) -> Phrase:
    """What the game waits for, said for people ("throw", "roll for captain")."""
    said = verb_name(str(game.expects))
    return said if isinstance(said, Phrase) else Phrase(said)


def rule_refusal(said: Said | str, rule: str | None) -> Refusal:
    """The engine's refusal for players: its message made a sentence for people (a refusal
    with no phrase is said in English word for word, and :data:`RULES_SAY_NO` in the other
    languages)."""
    phrase = engine_words.sentence(said)
    if not engine_words.known(said):
        phrase = dataclasses.replace(phrase, otherwise=RULES_SAY_NO)
    return Refusal.said(phrase, rule)


def _open(game: Game, seat: str) -> dict[str, Allowed]:
    return {a.verb: a for a in game.allowed() if a.player == seat}


def _engine_refusal(game: Game, action: Action) -> Decision | None:
    """The engine's own refusal of ``action`` as a Decision, or None when it is allowed."""
    try:
        game.verify(action)
    except RuleViolation as e:
        return Decision(refusal=rule_refusal(e.said, e.rule))
    return None


def _not_now(game: Game, seat: str, what: str) -> Decision:
    if game.over:
        return _refuse(GAME_OVER)
    if game.to_act != seat:
        return _refuse(N_("It is %(q)s's turn to %(what)s, not yours.", q=str(game.to_act),
                          what=expects(game)))
    return _refuse(N_("You cannot %(what)s now: it is time to %(expects)s.",
                      what=verb_name(what), expects=expects(game)))


def decide(game: Game, seat: str, button: str, long: bool, offered: int) -> Decision:
    """The meaning of ``seat`` pressing ``button`` (``long`` for a long press) now.

    ``offered`` is the stake this seat is offering (chips added with BET, not yet committed).
    """
    if button not in BUTTONS:
        return _refuse(f"{button!r} is not a panel button; the buttons are "
                       f"{', '.join(BUTTONS)}.")
    if seat not in game.players:
        return _refuse(f"{seat!r} is not a seat at this table; the seats are "
                       f"{', '.join(game.players)}.")
    if game.over:
        return _refuse(GAME_OVER)
    return {"THROW": _throw, "BET": _bet, "CALL": _call, "PASS": _pass}[button](
        game, seat, long, offered
    )


def _throw(game: Game, seat: str, long: bool, offered: int) -> Decision:
    if long:
        stand = Action(seat, "stand")
        refusal = _engine_refusal(game, stand)
        return refusal or Decision(action=stand)
    if game.expects == "roll":
        refusal = _engine_refusal(game, Action(seat, "roll", (1,)))
        return refusal or Decision(read="roll")
    refusal = _engine_refusal(game, Action(seat, "throw", (1, 1, 1)))
    return refusal or Decision(read="throw")


def _bet(game: Game, seat: str, long: bool, offered: int) -> Decision:
    open_ = _open(game, seat)
    if long:
        for verb in ("betpot", "callpot"):
            if verb in open_:
                return Decision(action=Action(seat, verb))
        if game.variant != "montevideo":
            return _refuse(N_("Holding BET bets or calls the pot, which only Montevideo has; "
                              "press BET briefly to offer a chip."), "V6")
        return _refuse(N_("You cannot bet or call the pot now."), "V6")
    stake_verbs = [open_[v] for v in ("bet", "raise") if v in open_]
    if not stake_verbs:
        if game.expects == "bet" and game.to_act == seat:
            return _refuse(N_("You cannot bet or raise now; press CALL to call, or PASS to "
                              "pass or drop."))
        return _not_now(game, seat, "bet")
    top = max(a.max_chips or 0 for a in stake_verbs)
    wanted = offered + 1
    if wanted > top:
        verb = stake_verbs[-1].verb
        rule = {"two-hand": "T5", "multi-hand": "M5", "montevideo": "V3"}.get(game.variant)
        said = NN_("You may %(verb)s at most %(n)s chip now; press CALL to commit %(offered)s "
                   "or PASS to cancel.",
                   "You may %(verb)s at most %(n)s chips now; press CALL to commit %(offered)s "
                   "or PASS to cancel.", top, offered=offered,
                   verb=N_("raise") if verb == "raise" else N_("bet"))
        return _refuse(said, rule)
    return Decision(stake=wanted)


def _call(game: Game, seat: str, long: bool, offered: int) -> Decision:
    open_ = _open(game, seat)
    if offered > 0:
        for verb in ("bet", "raise"):
            if verb in open_:
                action = Action(seat, verb, (offered,))
                return _engine_refusal(game, action) or Decision(action=action)
        return _not_now(game, seat, "bet")
    for verb in ("call", "callpot"):
        if verb in open_:
            return Decision(action=Action(seat, verb))
    if "bet" in open_ or "betpot" in open_:
        return _refuse(N_("There is no bet to call; press BET to offer chips, then CALL to "
                          "bet them, or PASS to pass."))
    return _not_now(game, seat, "call")


#: What a PASS press plays: the first of these that is open. Once betting has begun a pass IS a
#: drop (source situation 9, D-T2), so where both are open the press writes what it means.
PASS_PLAYS = ("drop", "pass")


def _pass(game: Game, seat: str, long: bool, offered: int) -> Decision:
    if offered > 0:
        return Decision(stake=0)
    open_ = _open(game, seat)
    for verb in PASS_PLAYS:
        if verb in open_:
            return Decision(action=Action(seat, verb))
    return _not_now(game, seat, "pass")


def pressable(verbs: Sequence[str]) -> list[str]:
    """The verbs of ``verbs`` (a seat's open verbs) its buttons can play: all but the ones a
    PASS press passes over (a pass where a drop is open), in their order."""
    first = next((v for v in PASS_PLAYS if v in verbs), None)
    return [v for v in verbs if v not in PASS_PLAYS or v == first]
