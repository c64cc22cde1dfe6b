"""Whole Montevideo games as records, replayed by `bidou-table replay` in a real process.

Each tests/data/records/montevideo-*.json replays to the state stored beside it in
tests/data/records/expected/. The hand-made records' final chips are worked out in the
comments of test_montevideo_rules.py / test_montevideo_decisions.py (same hands); the
eight-player game is random legal play (seed 2026), kept as a regression record.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from engine import Action, new_game, parse_record, record_of, replay

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "data" / "records"
GAMES = sorted(p for p in RECORDS.glob("montevideo-*.json") if "-refused-" not in p.name)


def bidou_table(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "firmware.cli.dispatch", *args], capture_output=True, text=True,
        timeout=60, cwd=RECORDS.parent.parent.parent,
    )


def test_there_are_whole_montevideo_games_to_replay():
    names = {p.stem for p in GAMES}
    assert {"montevideo-all-in-game", "montevideo-rising-ante", "montevideo-side-pots",
            "montevideo-pot-bets", "montevideo-eight-players"} <= names
    finished = [p.stem for p in GAMES if json.loads(
        (RECORDS / "expected" / p.name).read_text(encoding="utf-8"))["over"]]
    assert len(finished) >= 3


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_replay_cli_prints_the_expected_final_state(path: pathlib.Path):
    done = bidou_table("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    expected = json.loads((RECORDS / "expected" / path.name).read_text(encoding="utf-8"))
    state = json.loads(done.stdout)
    assert state == expected
    n = len(state["chips"])
    assert sum(state["chips"].values()) + state["pot"] + state["removed"] == 6 * n
    if state["over"]:
        assert state["chips"][state["winner"]] == 6 * n and state["loser"] is None


def test_replay_cli_stops_at_a_refused_action_and_names_the_rule():
    done = bidou_table("replay", str(RECORDS / "montevideo-refused-callpot-after-raise.json"))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.strip() == (
        "action 24 (Ann callpot): Bob has raised after the pot bet: Ann must call 2, "
        "raise or drop (V6)"
    )


def test_a_record_of_a_game_replays_to_the_same_state():
    record = parse_record((RECORDS / "montevideo-pot-bets.json").read_text(encoding="utf-8"))
    game = replay(record)
    again = parse_record(record_of(game).to_json())
    assert again == record
    assert replay(again).state() == game.state()


def test_R4_the_total_ranking_option_makes_equal_totals_split_the_pot():
    g = new_game("montevideo", ["Ann", "Bob", "Cy"], {"ranking": "total"})
    for text in ("Ann roll 6", "Bob roll 2", "Cy roll 1",
                 "Ann throw 6 5 2", "Ann stand", "Bob throw 6 4 3", "Bob stand",
                 "Cy throw 5 4 2", "Cy stand", "Ann bet 1", "Bob call", "Cy call"):
        g.apply(Action.parse(text))
    # 6-5-2 and 6-4-3 both total 13: they split 6 chips, 3 each (three-digit: Ann alone).
    assert g.state()["chips"] == {"Ann": 4 + 3 - 1, "Bob": 4 + 3 - 1, "Cy": 4 - 1}
