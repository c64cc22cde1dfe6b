"""What the recorded games say and move, effect by effect: a changed sentence, rule id, chip
move, shown dice or captaincy is noticed.

Every game record of tests/data/records and tests/data/corners is replayed, and each effect
of each action is written as one line: the action's position, the effect's kind, rule, player,
chips, where they go, the dice, the detail and the words. The lines must be those of the
game's transcript in tests/data/said/. When the table is meant to say something new, write
the transcripts again with ``BIDOU_WRITE_TRANSCRIPTS=1`` and read the difference before
committing it.
"""

from __future__ import annotations

import os
import pathlib

import pytest

from engine import Effect, RuleViolation, new_game, parse_record

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"
SAID = DATA / "said"
#: The game records on file, and short games kept for the corners they reach (pending values
#: settled, equal throws at a showdown, a pass after a bet, a split pot's odd chip...).
GAMES = sorted([*(DATA / "records").glob("*.json"), *(DATA / "corners").glob("*.json")])


def line(position: int, e: Effect) -> str:
    move = f"{e.chips} {e.source}>{e.dest}" if e.source or e.dest else e.chips or ""
    dice = "-".join(map(str, e.dice))
    return " | ".join(map(str, (position, e.kind, e.rule, e.player, move, dice, e.detail,
                                e.text)))


def transcript(path: pathlib.Path) -> str:
    """The game's effects, one line each; a refused action ends it with the refusal."""
    record = parse_record(path.read_text(encoding="utf-8"))
    game = new_game(record.variant, record.players, record.options)
    lines = [line(0, e) for e in getattr(game, "opening_effects", ())]
    for position, action in enumerate(record.actions, start=1):
        try:
            event = game.apply(action)
        except RuleViolation as refusal:
            lines.append(f"{position} | refused | {refusal.rule} | {refusal}")
            break
        lines += [line(position, e) for e in event.effects]
    return "\n".join(lines) + "\n"


def test_there_is_a_transcript_for_every_recorded_game() -> None:
    assert GAMES and sorted(p.stem for p in SAID.glob("*.txt")) == sorted(p.stem for p in GAMES)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_recorded_game_says_and_moves_what_its_transcript_holds(path) -> None:
    said = transcript(path)
    kept = SAID / f"{path.stem}.txt"
    if os.environ.get("BIDOU_WRITE_TRANSCRIPTS") == "1":
        kept.write_text(said, encoding="utf-8")
    assert said.splitlines() == kept.read_text(encoding="utf-8").splitlines()
