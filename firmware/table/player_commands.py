"""The players' commands: a seat panel's press, a phone's press, a verb chosen directly.

What a press means now is decided by ``firmware.table.presses`` (pure: the press, the stake
being offered and the game); here the decision is carried out on the table's state: a stake
offered is kept and shown, a throw or roll is read from the camera, an action is played.
Each function is one command's handler, called by the controller's dispatch under its lock.
"""

from __future__ import annotations

from engine.actions import VERBS, Action
from firmware.table.commands import Act, Outcome, Press, Refusal
from firmware.table.playing import play, read_and_play
from firmware.table.presses import decide
from firmware.table.state import TableState
from firmware.words.wording import offer_sentence
from hardware.panel import SeatEvent


def panel_event(t: TableState, event: SeatEvent) -> Outcome:
    """A seat panel's button, put on the queue by the panels directly: a Press."""
    seat = t.seat_names.get(event.seat, event.seat)
    return press(t, Press(str(seat), event.button, bool(event.long), "panel"))


def press(t: TableState, cmd: Press) -> Outcome:
    """A press; a repeat of one (the same id within a moment) gets its first outcome."""
    outcome = t.repeats.outcome(cmd.seat, cmd.id) or _press_once(t, cmd)
    t.repeats.remember(cmd.seat, cmd.id, outcome)
    return outcome


def _press_once(t: TableState, cmd: Press) -> Outcome:
    decision = decide(t.game, cmd.seat, cmd.button, cmd.long, t.offered.get(cmd.seat, 0))
    if decision.refusal is not None:
        return t.refuse(cmd.seat, decision.refusal)
    t.refusals.pop(cmd.seat, None)
    if decision.stake is not None:
        t.offered[cmd.seat] = decision.stake
        t.publish()
        said = offer_sentence(cmd.seat, decision.stake)
        return Outcome(True, str(said), phrase=said)
    if decision.read is not None:
        return read_and_play(t, cmd.seat, decision.read, cmd.source)
    assert decision.action is not None
    return play(t, decision.action, cmd.source)


def act(t: TableState, cmd: Act) -> Outcome:
    """A verb chosen directly: ``throw`` and ``roll`` read the camera when it is time for
    them; ``bet`` and ``raise`` take ``chips``, or the stake being offered. A repeat of one
    (the same id within a moment: the seat page's one-tap bet tapped twice) gets its first
    outcome, as a press does."""
    outcome = t.repeats.outcome(cmd.seat, cmd.id) or _act_once(t, cmd)
    t.repeats.remember(cmd.seat, cmd.id, outcome)
    return outcome


def _act_once(t: TableState, cmd: Act) -> Outcome:
    bad = t.known_seat(cmd.seat)
    if bad:
        return t.refuse(None, bad)
    if cmd.verb not in VERBS:
        return t.refuse(cmd.seat, Refusal(
            f"{cmd.verb!r} is not a verb of the game; the verbs are {', '.join(VERBS)}."))
    if cmd.verb in ("throw", "roll"):
        decision = decide(t.game, cmd.seat, "THROW", False, 0)
        if decision.refusal is not None:
            return t.refuse(cmd.seat, decision.refusal)
        if decision.read != cmd.verb:
            return t.refuse(cmd.seat, Refusal(
                f"It is time to {decision.read}, not to {cmd.verb}."))
        return read_and_play(t, cmd.seat, cmd.verb, cmd.source)
    numbers: tuple[int, ...] = ()
    if VERBS[cmd.verb][1] == "chips":
        chips = cmd.chips if cmd.chips is not None else t.offered.get(cmd.seat, 0)
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 1:
            return t.refuse(cmd.seat, Refusal(
                f"A {cmd.verb} needs a number of chips, at least 1, not {chips!r}."))
        numbers = (chips,)
    return play(t, Action(cmd.seat, cmd.verb, numbers), cmd.source)
