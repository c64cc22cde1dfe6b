"""`bidou-table replay FILE|-` (GAME_RECORD.md): the state JSON, exit statuses 0 / 1 / 2, stderr.

The whole matches under tests/data/records/two-hand-*.json replay to the states stored beside
them in tests/data/records/expected/. Exit statuses are checked through a real subprocess.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from firmware.cli.dispatch import main

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "data" / "records"
TWO_HAND = sorted(RECORDS.glob("two-hand-*.json"))
REFUSED = [
    "Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1",
    "Bob stand", "Ann bet 1", "Bob raise 2", "Ann call",
]


def bidou_table(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "firmware.cli.dispatch", *args], input=data, capture_output=True,
        timeout=60, cwd=RECORDS.parent.parent.parent,
    )


def record_text(actions: list[str], **extra: object) -> str:
    return json.dumps({"format": "bidou-record/1", "variant": "two-hand", "options": {},
                       "players": ["Ann", "Bob"], "actions": actions, **extra})


def test_there_are_whole_two_hand_matches_to_replay() -> None:
    names = {p.stem for p in TWO_HAND}
    assert {"two-hand-two-rounds", "two-hand-three-rounds", "two-hand-round-two"} <= names


@pytest.mark.parametrize("path", TWO_HAND, ids=lambda p: p.stem)
def test_replay_prints_the_expected_final_state(path: pathlib.Path, capsys) -> None:
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    expected = json.loads((RECORDS / "expected" / path.name).read_text(encoding="utf-8"))
    assert json.loads(out) == expected
    assert list(json.loads(out)) == [
        "variant", "over", "loser", "winner", "round", "rounds_lost", "chips", "centre", "pot",
        "removed", "captain", "to_act", "expects",
    ]
    assert err == ""


def test_replay_exit_0_prints_one_json_line_through_a_real_process() -> None:
    path = RECORDS / "two-hand-three-rounds.json"
    done = bidou_table("replay", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == json.loads(
        (RECORDS / "expected" / path.name).read_text(encoding="utf-8")
    )
    assert done.stderr == b""


def test_replay_reads_standard_input_for_dash() -> None:
    done = bidou_table("replay", "-", stdin=(RECORDS / "two-hand-two-rounds.json").read_text())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["loser"] == "Ann"


def test_replay_exit_1_names_the_refused_action_its_position_and_rule() -> None:
    done = bidou_table("replay", "-", stdin=record_text(REFUSED))
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode() == (
        "action 8 (Bob raise 2): a raise is one chip in two-hand Bidou (T5)\n"
    )


def test_replay_exit_1_for_an_action_after_the_match_is_over(tmp_path, capsys) -> None:
    record = json.loads((RECORDS / "two-hand-two-rounds.json").read_text())
    record["actions"].append("Ann roll 4")
    path = tmp_path / "late.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    n = len(record["actions"])
    assert err == f"action {n} (Ann roll 4): the game is over; start a new game (T1)\n"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not JSON: Expecting property name enclosed in double quotes at line 1, "
                      "column 2"),
        (record_text(["Ann roll 5", "Bob dance"]), "action 2: 'dance' is not a verb; the "
         "verbs are roll, throw, stand, bet, raise, call, pass, drop, betpot, callpot, settle"),
        (record_text(["Ann roll 5", "Bob roll 3", "Ann throw 7 1 1"]),
         "action 3: a die shows 1 to 6, not 7, in 'Ann throw 7 1 1'"),
    ],
    ids=["bad-json", "unknown-verb", "die-of-7"],
)
def test_replay_exit_2_one_line_saying_what_and_where(tmp_path, text, why) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    done = bidou_table("replay", str(path))
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode() == f"{path}: not a valid game record: {why}\n"


def test_replay_exit_2_for_a_duplicate_name(capsys, tmp_path) -> None:
    path = tmp_path / "dup.json"
    path.write_text(json.dumps({"format": "bidou-record/1", "variant": "two-hand",
                                "players": ["Ann", "Ann"], "actions": []}))
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{path}: not a valid game record: player name 'Ann' appears "
                              f"twice; names must be unique\n")


def test_replay_exit_2_for_a_missing_file(tmp_path, capsys) -> None:
    path = tmp_path / "nowhere.json"
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"bidou-table replay: cannot read {path}: No such file or directory; check the path\n"
    )


def test_replay_exit_2_for_a_file_that_is_not_utf8(tmp_path, capsys) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(record_text(["Ann roll 5"]).encode()[:-2] + b"\xe9]}")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: not a valid game record: it is not UTF-8 text (byte ")
    assert err.count("\n") == 1


def test_replay_accepts_a_utf8_byte_order_mark(tmp_path, capsys) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + record_text(["Ann roll 5"]).encode())
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["to_act"] == "Bob"


def test_replay_reads_a_bidou_record_2_with_pending_values_and_settles(tmp_path, capsys) -> None:
    path = tmp_path / "pending.json"
    path.write_text(json.dumps({
        "format": "bidou-record/2", "variant": "two-hand", "options": {},
        "players": ["Ann", "Bob"],
        "actions": ["Ann roll 5", "Bob roll ?", "Bob settle 3 by camera", "Ann throw ?",
                    "Ann stand", "Bob throw 3 3 1", "Bob stand", "Ann bet 1", "Bob call",
                    "Ann settle 6 5 4 by players"]}))
    assert main(["replay", str(path)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["chips"] == {"Ann": 2, "Bob": 0} and state["expects"] == "throw"
    path.write_text(path.read_text().replace(', "Ann settle 6 5 4 by players"', ""))
    assert main(["replay", str(path)]) == 0  # the showdown waits: expects settle
    assert json.loads(capsys.readouterr().out)["expects"] == "settle"
