"""The log is checked before it is trusted: one table per log, a file that is a game log, a
schema version it knows, pages that are not damaged -- each refusal one sentence."""

from __future__ import annotations

import sqlite3
import subprocess
import time

import pytest

from firmware.gamelog.log import GameLog, LogError
from firmware.gamelog.log_guard import SCHEMA_VERSION


def test_a_second_table_on_the_same_log_is_refused_naming_the_first(tmp_path):
    path = str(tmp_path / "t.db")
    first = GameLog(path)
    with pytest.raises(LogError) as e:
        GameLog(path)
    assert str(e.value).startswith(f"The game log {path} is in use by another table (process ")
    assert "one log serves one table" in str(e.value)
    first.close()
    GameLog(path).close()  # released on close


def test_export_reads_a_log_a_table_holds(tmp_path):
    path = str(tmp_path / "t.db")
    table = GameLog(path)
    table.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    reader = GameLog(path, exclusive=False)
    assert [g.id for g in reader.games()] == [1]
    reader.close()
    table.close()


def test_a_second_bidou_table_run_exits_1_naming_the_first(run_table, tmp_path):
    db = str(tmp_path / "t.db")
    first = run_table("--db", db, "--port", "0")
    deadline = time.monotonic() + 30
    while not (tmp_path / "t.db.lock").exists() or (tmp_path / "t.db.lock").stat().st_size == 0:
        assert time.monotonic() < deadline and first.proc.poll() is None
        time.sleep(0.05)
    second = run_table("--db", db, "--port", "0")
    out, err = second.proc.communicate(timeout=60)
    assert second.returncode == 1
    assert f"is in use by another table (process {first.proc.pid}," in err
    assert "Traceback" not in err
    first.stop()
    assert first.returncode == 0


def test_a_new_log_gets_the_schema_version(tmp_path):
    path = str(tmp_path / "t.db")
    GameLog(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_an_unknown_schema_version_is_refused(tmp_path):
    path = str(tmp_path / "t.db")
    GameLog(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 7")
    db.close()
    with pytest.raises(LogError) as e:
        GameLog(path)
    assert str(e.value) == (f"The game log {path} has schema version 7; this bidou-table knows "
                            f"version {SCHEMA_VERSION} only. Run the bidou-table that wrote it, "
                            "or pass another file with --db.")


def test_a_database_of_another_schema_is_refused(tmp_path):
    path = str(tmp_path / "t.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(LogError, match=r"is an SQLite database but not a bidou-table game log "
                                       r"\(its tables are games;"):
        GameLog(path)


def test_a_truncated_file_is_called_truncated_not_unwritable(tmp_path):
    path = tmp_path / "t.db"
    path.write_bytes(b"SQLite for")
    with pytest.raises(LogError) as e:
        GameLog(str(path))
    assert "is truncated" in str(e.value) and "writable" not in str(e.value)


def test_a_file_that_is_not_a_database_is_named_so(tmp_path):
    path = tmp_path / "t.db"
    path.write_text("[table]\nvariant = 'two-hand'\n")
    with pytest.raises(LogError, match="is not an SQLite game log"):
        GameLog(str(path))


def _damage_the_middle(path) -> None:
    """Overwrite a page in the middle of the file, as a bad SD card sector does."""
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    data[2 * page:3 * page] = b"\xa5" * page
    path.write_bytes(bytes(data))


def test_a_database_damaged_in_the_middle_is_refused_at_start(tmp_path):
    path = tmp_path / "t.db"
    log = GameLog(str(path))
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    for i in range(400):
        log.append(gid, "action", f"Ann note {i} " + "x" * 40, "panel", "t")
    log.close()
    _damage_the_middle(path)
    with pytest.raises(LogError) as e:
        GameLog(str(path))
    assert str(e.value).startswith(f"The game log {path} is damaged (SQLite says: ")
    assert "restore it from a backup" in str(e.value)


def test_bidou_table_run_on_a_damaged_log_says_so_and_exits_1(bidou, tmp_path):
    path = tmp_path / "t.db"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"garbage" * 50)
    done = subprocess.run(bidou("run", "--simulate", "--db", str(path), "--port", "0"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith(f"bidou-table run: The game log {path} is damaged") or \
        done.stderr.startswith(f"bidou-table run: {path} is")
    assert "Traceback" not in done.stderr
