"""A log file the table cannot use as it is, given to `bidou-table run`: a read-only log
stops the start with one sentence naming the file and the permission, and nothing in it
is changed; an empty file is made a new log and the start says so."""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import subprocess

import pytest

from firmware.gamelog.log import GameLog

from .conftest import ROOT, bidou_command
from .test_run_contract import free_port, wait_for_state


def without_root_override() -> list[str]:
    """A prefix that makes root obey file permissions as any user does (root's
    CAP_DAC_OVERRIDE dropped for the child), or nothing when not root."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv (util-linux): a read-only file cannot "
                    "be made read-only for root")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--"]


def test_a_read_only_log_stops_run_with_one_sentence_naming_the_file_and_permission(
        tmp_path: pathlib.Path) -> None:
    db = tmp_path / "table.db"
    log = GameLog(str(db))
    game = log.start_game("two-hand", ("Ann", "Bob"), {}, "2026-12-03T12:00:00+00:00")
    log.append(game, "action", "Ann roll 4", "web", "2026-12-03T12:00:01+00:00")
    log.key("seat-tokens")
    log.close()
    db.chmod(0o444)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    done = subprocess.run([*without_root_override(), *bidou_command(
        "run", "--simulate", "--db", str(db), "--port", "0")],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    assert done.stderr.strip() == (
        f"bidou-table run: The game log {db} cannot be written by this user ({user}): the file "
        f"{db} has permissions r--r--r-- (0444, owner {user}). Give its owner write "
        f"permission (chmod u+w {db}), or pass another file with --db.")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    # and nothing is left beside it: were SQLite to make a read-only -wal and -shm there, the
    # next start would be refused for the -shm even after the chmod u+w the sentence asks for
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.db", "table.db.lock"]
    db.chmod(0o644)
    reopened = GameLog(str(db))
    assert [e.text for e in reopened.entries(game)] == ["Ann roll 4"]
    reopened.close()


def test_an_empty_log_file_is_made_a_new_log_and_the_start_says_so(run_table, tmp_path):
    db = tmp_path / "table.db"
    db.write_bytes(b"")
    port = free_port()
    table = run_table("--db", str(db), "--port", str(port))
    assert wait_for_state(port)["game_id"] == 1
    _, err = table.stop()
    assert table.returncode == 0
    assert (f"bidou-table run: The game log {db} was an empty file (0 bytes), so it is now a "
            "new game log with no games. If it should have held games, stop the table and "
            "restore it from a backup.") in err.splitlines()


def test_a_missing_log_file_is_made_without_the_empty_file_notice(run_table, tmp_path):
    db = tmp_path / "table.db"
    port = free_port()
    table = run_table("--db", str(db), "--port", str(port))
    wait_for_state(port)
    _, err = table.stop()
    assert "was an empty file" not in err
