"""Every change of game is one transaction: fail each write of each multi-step change in turn
(fault injection at the log layer, not timing) and the log holds the old state or the new,
never a mix.

A failed write is what a full disk does; a crash at the same moment leaves on disk exactly what
was committed before it, which is what the reopened log is checked for here.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

from engine import new_game
from engine.actions import DICE_VERBS, Action
from engine.autoplay import random_action
from firmware.table.commands import Act, Command, Correct, EnterDice


class FailingWrites:
    """A stand-in for the log's sqlite3 connection whose ``fail_at``-th INSERT or UPDATE fails
    as a full disk does (None: none fails; ``writes`` counts them)."""

    def __init__(self, db: sqlite3.Connection, fail_at: int | None) -> None:
        self._db, self.fail_at, self.writes = db, fail_at, 0

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            self.writes += 1
            if self.writes == self.fail_at:
                raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def command_for(action: Action) -> Command:
    """The command that plays ``action`` whatever the camera shows."""
    if action.verb in DICE_VERBS:
        return EnterDice(action.player, action.numbers, by="ref")
    return Act(action.player, action.verb, action.numbers[0] if action.numbers else None)


def game_actions(seed: int = 2) -> list[Action]:
    """A whole two-hand match of random legal play."""
    game, rng, actions = new_game("two-hand", ["Ann", "Bob"]), random.Random(seed), []
    while not game.over:
        actions.append(random_action(game, rng))
        game.apply(actions[-1])
    return actions


def snapshot(make, fake, path) -> tuple[Any, ...]:
    """What a table started on the log at ``path`` shows: the live game, its status and
    actions, and every game's status."""
    c = make(fake, str(path))
    try:
        return (c.row.id, c.row.status, [str(a) for a in c.game.history],
                [(g["id"], g["status"]) for g in c.games()])
    finally:
        c.stop()


NEW_GAME = Correct("new-game", by="Ref", why="fresh start", variant="two-hand",
                   players=("Ann", "Bob"))
UNDO = Correct("undo", by="Ref", why="pressed by mistake")

# (name, how many of the match's actions are played first, the change) -- None: all of them
CHANGES = [
    ("the last action ends the game", -1, "last"),
    ("a new game while one is played", 5, NEW_GAME),
    ("a new game after the end", None, NEW_GAME),
    ("an undo reopens a finished game", None, UNDO),
]


def prepare(make, fake, path, played: int | None) -> list[Action]:
    """A log at ``path`` with the match played up to ``played`` actions; the match."""
    actions = game_actions()
    c = make(fake, str(path))
    for action in actions[:played]:
        assert c.submit(command_for(action)).ok, action
    c.stop()
    return actions


def change_with(make, fake, path, change, actions, fail_at: int | None) -> int:
    """Apply ``change`` on the log at ``path`` with write ``fail_at`` failing; writes made."""
    c = make(fake, str(path))
    failing = FailingWrites(c.log._db, fail_at)
    c.log._db = failing
    command = command_for(actions[-1]) if change == "last" else change
    outcome = c.submit(command)
    assert outcome.ok is (fail_at is None or failing.writes < fail_at), outcome
    c.stop()
    return failing.writes


@pytest.mark.parametrize("name,played,change", CHANGES, ids=[c[0] for c in CHANGES])
def test_each_failed_write_of_a_change_leaves_the_old_state_or_the_new(
        make, fake, tmp_path, name, played, change):
    base = tmp_path / "base.db"
    actions = prepare(make, fake, base, played)
    before = snapshot(make, fake, base)
    whole = tmp_path / "whole.db"
    _copy(base, whole)
    writes = change_with(make, fake, whole, change, actions, None)
    after = snapshot(make, fake, whole)
    assert after != before
    for k in range(1, writes + 1):
        db = tmp_path / f"fail{k}.db"
        _copy(base, db)
        change_with(make, fake, db, change, actions, k)
        state = snapshot(make, fake, db)
        assert state in (before, after), f"write {k} of {writes} failed: a mix {state}"
        live, status, _, games = state
        # the game being played is never history, and no other game is still being played
        assert all(s != "playing" for gid, s in games if gid != live), games
        assert status in ("playing", "over")


def test_a_refused_write_leaves_the_running_table_as_the_log_holds_it(make, fake, tmp_path):
    path = tmp_path / "t.db"
    actions = prepare(make, fake, path, -1)
    c = make(fake, str(path))
    shown = c.public_state()["version"], [str(a) for a in c.game.history]
    c.log._db = FailingWrites(c.log._db, 1)
    outcome = c.submit(command_for(actions[-1]))
    assert not outcome.ok and "disk is full" in outcome.message
    assert [str(a) for a in c.game.history] == shown[1] and not c.game.over
    c.log._db = c.log._db._db
    assert c.submit(command_for(actions[-1])).ok and c.game.over
    c.stop()


def test_a_log_whose_last_game_was_abandoned_alone_starts_a_new_game(make, fake, tmp_path):
    """A log written before a new game was one transaction: the old game abandoned, no new
    row. The abandoned game is history now, so it must not be resumed as the live game."""
    path = tmp_path / "t.db"
    prepare(make, fake, path, 5)
    c = make(fake, str(path))
    c.log.finish_game(1, "abandoned", c.game.state(), "t")
    c.stop()
    live, status, history, games = snapshot(make, fake, path)
    assert (live, status, history) == (2, "playing", [])
    assert games == [(1, "abandoned"), (2, "playing")]


def _copy(src, dst) -> None:
    """Copy a closed SQLite log (its WAL is checkpointed on close)."""
    dst.write_bytes(src.read_bytes())
