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


#: Why each record is kept; its expected replay state is tests/data/records/expected/<name>.
#: The one-hand record's chips are worked out by hand in its comment; the whole games were
#: played by random legal play and checked by the properties, and pin the engine's behaviour.
KEPT = {
    # Cid captain after a tie; Dan opens with fewest throws. Dan drops first and takes
    # 1 + 1 x 3 + 1 = 5 of 6; Ann drops later and takes 1; Bob (3-2-2) calls and loses to
    # Cid (bidou), taking the 2 left: Ann 6, Bob 5, Cid 3, Dan 10, Cid captain.
    "multi-hand-one-hand-first-dropper.json": "situation 3 in one hand",
    # Everyone ends all in with 6: Cid (3-2-2), worst and all in, takes his 6 back and 6 from
    # each of the two others (situation 5): Ann and Bob are out and have won; Cid loses.
    "multi-hand-everyone-all-in.json": "a one-hand game, situation 5",
    "multi-hand-three-players-to-the-open-throw.json": "three down to two, M8, open throw",
    "multi-hand-five-players-poor-fish.json": "Poor Fish, five players",
    "multi-hand-eight-players-total-ranking.json": "eight players, ranking by total (R4)",
}


def replay(path: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware.cli.dispatch", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_whole_multi_hand_game_replays_to_its_recorded_final_state(name: str) -> None:
    done = replay(RECORDS / name)
    assert (done.returncode, done.stderr) == (0, "")
    expected = json.loads((RECORDS / "expected" / name).read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == expected


def test_the_hand_worked_record_ends_where_its_comment_says() -> None:
    expected = json.loads((RECORDS / "expected" / "multi-hand-one-hand-first-dropper.json")
                          .read_text(encoding="utf-8"))
    assert expected["chips"] == {"Ann": 6, "Bob": 5, "Cid": 3, "Dan": 10}
    assert (expected["captain"], expected["to_act"], expected["expects"]) == (
        "Cid", "Cid", "throw")


def test_the_one_hand_game_ends_where_its_comment_says() -> None:
    expected = json.loads((RECORDS / "expected" / "multi-hand-everyone-all-in.json")
                          .read_text(encoding="utf-8"))
    assert expected["chips"] == {"Ann": 0, "Bob": 0, "Cid": 18}
    assert (expected["over"], expected["loser"]) == (True, "Cid")


def test_every_multi_hand_record_on_file_is_checked() -> None:
    on_file = {p.name for p in RECORDS.glob("multi-hand-*.json")}
    assert on_file == set(KEPT) | {"multi-hand-refused-bet-of-four.json"}


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
