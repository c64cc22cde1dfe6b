"""Whole multi-hand games kept as records (tests/data/records/multi-hand-*.json), replayed from
the outside by ``bidou-table replay`` exactly as GAME_RECORD.md specifies."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from engine import Effect, new_game, parse_record

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "data" / "records"


def state(chips: dict[str, int], *, loser: str | None = None, removed: int = 0,
          captain: str, to_act: str | None = None, expects: str | None = None) -> dict:
    return {"variant": "multi-hand", "over": loser is not None, "loser": loser,
            "winner": None, "round": 1, "rounds_lost": {}, "chips": chips, "centre": 0,
            "pot": 0, "removed": removed, "captain": captain, "to_act": to_act,
            "expects": expects}


EIGHT = ["Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
EXPECTED = {
    # One hand of situation 3: Dan drops first (1 + 1 x 3 + 1), Ann later (1), Bob loses.
    "multi-hand-one-hand-first-dropper.json": state(
        {"Ann": 6, "Bob": 5, "Cid": 3, "Dan": 10}, captain="Cid", to_act="Cid",
        expects="throw"),
    # Three players down to two, discards under M8, two-hand finish ending in an open throw.
    "multi-hand-three-players-to-the-open-throw.json": state(
        {"Ann": 9, "Bob": 0, "Cid": 0}, loser="Ann", removed=9, captain="Bob"),
    # Five players with Poor Fish: Cid was the poor fish and ends with every chip left.
    "multi-hand-five-players-poor-fish.json": state(
        {"Ann": 0, "Bob": 0, "Cid": 28, "Dan": 0, "Eve": 0}, loser="Cid", removed=2,
        captain="Cid"),
    # Eight players, plain throws ranked by total (R4).
    "multi-hand-eight-players-total-ranking.json": state(
        {"Ann": 46, **{p: 0 for p in EIGHT}}, loser="Ann", removed=2, captain="Dan"),
}


def replay(path: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware.cli", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_whole_multi_hand_game_replays_to_its_recorded_final_state(name: str) -> None:
    done = replay(RECORDS / name)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == EXPECTED[name]


def test_every_multi_hand_record_on_file_is_checked() -> None:
    on_file = {p.name for p in RECORDS.glob("multi-hand-*.json")}
    assert on_file == set(EXPECTED) | {"multi-hand-refused-bet-of-four.json"}


def test_M5_a_refused_action_stops_the_replay_naming_position_action_and_rule() -> None:
    done = replay(RECORDS / "multi-hand-refused-bet-of-four.json")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "action 10 (Ann bet 4): a bet is 1 to 3 chips in multi-hand Bidou (M5)\n")


def test_the_records_on_file_show_the_situations_they_are_kept_for() -> None:
    def effects(name: str) -> list[Effect]:
        record = parse_record((RECORDS / name).read_text(encoding="utf-8"))
        game = new_game(record.variant, record.players, record.options)
        return [e for a in record.actions for e in game.apply(a).effects]

    rules = {e.rule for e in effects("multi-hand-three-players-to-the-open-throw.json")}
    assert {"M6/3", "M6/4", "M6/5", "M8", "T7", "T10"} <= rules
    texts = [e.text for e in effects("multi-hand-five-players-poor-fish.json")]
    assert "Cid has the best throw and is the poor fish" in texts
    rules = {e.rule for e in effects("multi-hand-eight-players-total-ranking.json")}
    assert {"M6/5", "M6/6"} <= rules
