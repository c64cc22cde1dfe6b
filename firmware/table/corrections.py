"""The referee's corrections, decided before anything is written: what to log, and what to say.

A correction is a log entry, never an edit of the past (``firmware.gamelog.rebuild`` replays the log
with it). Deciding here -- which action an undo takes back, where a hand began, which throw a
fix-dice replaces and whether its dice fit -- keeps the controller to the part that needs
its state and its lock: replay the candidate log, and commit it only when every action still
stands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import DICE_VERBS, Action, dice_fit, dice_words
from engine.errors import RecordError
from engine.variants import check_setup
from firmware.table.commands import CORRECTIONS, Correct, Refusal
from firmware.table.seating import seating_problem, setup_problem
from firmware.words.phrases import N_, NN_, Phrase
from firmware.words.wording import unsentence


@dataclass(frozen=True)
class Plan:
    """A correction to log: the entry's ``text`` and the sentence saying what was ``done``."""

    text: str
    done: Phrase


@dataclass(frozen=True)
class NewGame:
    """The set-up of the game a ``new-game`` correction starts."""

    variant: str
    players: tuple[str, ...]
    options: dict[str, Any]


def check(cmd: Correct) -> Refusal | None:
    """A refusal for a correction that is not one, or that lacks who or why."""
    if cmd.kind not in CORRECTIONS:
        return Refusal(f"{cmd.kind!r} is not a correction; the corrections are "
                       f"{', '.join(CORRECTIONS)}.")
    if not cmd.by.strip() or not cmd.why.strip():
        return Refusal("A correction needs who makes it and why; fill in both and send it again.")
    return None


def plan(cmd: Correct, actions: list[Action], hand_start: int,
         say: Callable[[Action], Phrase]) -> Plan | Refusal:
    """The log entry of an ``undo``, ``void-hand`` or ``fix-dice`` on a game whose effective
    actions are ``actions`` and whose current hand began after action ``hand_start``;
    ``say(action)`` is the public sentence of an action (for "took back ...")."""
    if cmd.kind == "undo":
        if not actions:
            return Refusal("There is no action to undo in this game.")
        return Plan(str(actions[-1]), N_("%(by)s took back “%(what)s”: %(why)s.",
                                         by=cmd.by, what=unsentence(say(actions[-1])),
                                         why=cmd.why))
    if cmd.kind == "void-hand":
        if hand_start >= len(actions):
            return Refusal("Nothing has been played in this hand yet; there is nothing to void.")
        return Plan(str(hand_start), NN_("%(by)s voided the hand (%(n)s action): %(why)s.",
                                         "%(by)s voided the hand (%(n)s actions): %(why)s.",
                                         len(actions) - hand_start, by=cmd.by, why=cmd.why))
    found = fix_target(cmd, actions)
    if isinstance(found, Refusal):
        return found
    pos, fixed = found
    return Plan(f"{pos} {fixed}", N_("%(by)s fixed the dice of action %(n)s: %(why)s.",
                                     by=cmd.by, n=pos, why=cmd.why))


def fix_target(cmd: Correct, actions: list[Action]) -> tuple[int, Action] | Refusal:
    """The position of the throw or roll a ``fix-dice`` replaces, and its replacement."""
    pos = cmd.position
    if pos is None:
        if cmd.seat is None:
            return Refusal("Say whose dice to fix (a seat) or which action (a position).")
        for i in range(len(actions), 0, -1):
            a = actions[i - 1]
            if a.player == cmd.seat and a.verb in (*DICE_VERBS, "settle"):
                pos = i
                break
        else:
            return Refusal(f"{cmd.seat} has no throw or roll in this game to fix.")
    if not isinstance(pos, int) or not 1 <= pos <= len(actions):
        return Refusal(f"There is no action {pos} in this game; the actions are numbered "
                       f"1 to {len(actions)}.")
    old = actions[pos - 1]
    if old.verb not in (*DICE_VERBS, "settle"):
        return Refusal(f"Action {pos} ({old.verb}) has no dice to fix.")
    values = tuple(cmd.values)
    # a settle gives a throw's three values or a roll's one (docs/rules/pending.md, D-S6)
    kind = old.verb if old.verb != "settle" else ("roll" if len(old.numbers) == 1 else "throw")
    if not dice_fit(kind, values):
        return Refusal(f"A {kind} is {dice_words(kind)}, each 1 to 6, not {list(values)}.")
    if old.verb == "settle":
        return pos, Action(old.player, "settle", values, "referee")
    return pos, Action(old.player, old.verb, values)


def refused_new_game(problem: Phrase) -> Phrase:
    """The sentence of a new game refused for ``problem`` (``seating.setup_problem``)."""
    return N_("The new game cannot start: %(problem)s", problem=problem)


def new_game(cmd: Correct, variant: str, players: tuple[str, ...],
             options: dict[str, Any], zones: Sequence[str] | None = None) -> NewGame | Refusal:
    """The game a ``new-game`` starts: the command's set-up, else the table's own.

    ``zones``: the seats the camera has a zone for (None: no camera). A game of more players
    than that is refused here: accepted, every throw of its extra seats would be refused, each
    with a traceback in the log, and the console's zones form can only redraw the zones of the
    game being played."""
    setup = NewGame(cmd.variant or variant,
                    tuple(cmd.players) if cmd.players is not None else players,
                    dict(cmd.options) if cmd.options is not None else dict(options))
    problem = setup_problem(setup.variant, setup.players, setup.options)
    if problem:
        return Refusal.said(refused_new_game(problem))
    try:
        check_setup(setup.variant, setup.players, setup.options)
    except RecordError as e:
        return Refusal(f"The new game cannot start: {e}.")
    problem = seating_problem(setup.variant, setup.players)  # as [table] players is checked
    if problem:
        return Refusal(f"The new game cannot start: the players must be {problem}.")
    if zones is not None and len(setup.players) > len(zones):
        return Refusal(f"The new game cannot start: the camera has zones for "
                       f"{len(zones)} seats ({', '.join(zones)}) and the game has "
                       f"{len(setup.players)} players. Start a game of at most {len(zones)} "
                       "players, or name every player in the config's [table] players "
                       "(bidou-table calibrate then gives each seat its zone) and restart "
                       "the table.")
    return setup
