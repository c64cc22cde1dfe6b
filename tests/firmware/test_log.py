"""The durable log: WAL + synchronous=FULL, one committed entry per action, corrections as
entries, rebuilt by replay."""

from __future__ import annotations

import sqlite3

import pytest

from engine import Action
from firmware.gamelog.log import GameLog, LogError
from firmware.gamelog.rebuild import effective_actions, rebuild, record_from_log


@pytest.fixture
def log(tmp_path):
    g = GameLog(str(tmp_path / "t.db"))
    yield g
    g.close()


def test_log_uses_wal_and_synchronous_full(log):
    assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_entry_is_committed_and_visible_to_another_connection_at_once(log, tmp_path):
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    log.append(gid, "action", "Ann roll 5", "panel", "t1")
    other = sqlite3.connect(str(tmp_path / "t.db"))
    assert other.execute("SELECT kind, text, by FROM entries").fetchall() == [
        ("action", "Ann roll 5", "panel")]
    other.close()


def test_entries_keep_order_who_and_why(log):
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    assert log.append(gid, "action", "Ann roll 5", "panel", "t1") == 1
    assert log.append(gid, "undo", "Ann roll 5", "ref", "t2", "pressed by mistake") == 2
    e = log.entries(gid)
    assert [(x.seq, x.kind, x.by, x.why) for x in e] == [
        (1, "action", "panel", ""), (2, "undo", "ref", "pressed by mistake")]


def test_unknown_entry_kind_is_a_programming_error(log):
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    with pytest.raises(ValueError, match="entry kind must be one of"):
        log.append(gid, "edit", "x", "ref", "t1")


def test_corrections_apply_in_order_undo_fix_void(log):
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    for t in ("Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann throw 2 2 2"):
        log.append(gid, "action", t, "panel", "t")
    log.append(gid, "undo", "Ann throw 2 2 2", "ref", "t", "not thrown")
    log.append(gid, "fix-dice", "3 Ann throw 6 6 4", "ref", "t", "misread die")
    assert effective_actions(log.entries(gid)) == [
        Action.parse("Ann roll 5"), Action.parse("Bob roll 3"), Action.parse("Ann throw 6 6 4")]
    log.append(gid, "void-hand", "2", "ref", "t", "dice off the table")
    row = log.game(gid)
    game, _ = rebuild(row, log.entries(gid))
    assert len(game.history) == 2 and game.state()["captain"] == "Ann"
    assert record_from_log(row, log.entries(gid)).actions == tuple(game.history)


def test_finish_game_stores_status_and_result(log):
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    log.finish_game(gid, "over", {"loser": "Bob"}, "t9")
    row = log.game(gid)
    assert (row.status, row.result, row.finished) == ("over", {"loser": "Bob"}, "t9")


def test_unwritable_log_says_which_file_and_what_to_do(tmp_path):
    with pytest.raises(LogError) as e:
        GameLog(str(tmp_path / "missing-dir" / "t.db"))
    assert str(tmp_path / "missing-dir" / "t.db") in str(e.value)
    assert "--db" in str(e.value)


def test_close_is_idempotent_and_writes_after_close_are_refused(tmp_path):
    g = GameLog(str(tmp_path / "t.db"))
    gid = g.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    g.close()
    g.close()
    with pytest.raises(LogError, match="closed"):
        g.append(gid, "action", "Ann roll 5", "panel", "t1")


def test_a_closed_log_refuses_every_read_and_write_with_the_same_sentence(tmp_path):
    g = GameLog(str(tmp_path / "t.db"))
    gid = g.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    g.close()
    for use in (lambda: g.entries(gid), g.pictures, lambda: g.position("venue"),
                lambda: g.set_position("venue", 1), lambda: g.key("seat-tokens"),
                lambda: g.set_key("referee-pin", "123456")):
        with pytest.raises(LogError, match="The game log is closed"):
            use()


def tables(path) -> dict[str, list[tuple[str, str]]]:
    db = sqlite3.connect(path)
    found = {name: [(c[1], c[2]) for c in db.execute(f"PRAGMA table_info({name})")]
             for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    return found


def test_every_table_of_the_log_is_made_when_it_opens(tmp_path):
    GameLog(str(tmp_path / "t.db")).close()
    assert set(tables(str(tmp_path / "t.db"))) == {"games", "entries", "keys", "pictures",
                                                   "positions"}


def test_a_log_written_before_the_tables_were_made_at_opening_gets_the_same_ones(tmp_path):
    """Logs of schema version 1 made keys, pictures and positions on first use: opened
    now, they get them, with the columns a new log has, and keep their games."""
    GameLog(str(tmp_path / "new.db")).close()
    old = str(tmp_path / "old.db")
    g = GameLog(old)
    gid = g.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    g.append(gid, "action", "Ann roll 5", "panel", "t1")
    g.close()
    db = sqlite3.connect(old)
    for name in ("keys", "pictures", "positions"):
        db.execute(f"DROP TABLE {name}")
    db.commit()
    db.close()
    g = GameLog(old)
    assert [e.text for e in g.entries(gid)] == ["Ann roll 5"]
    assert g.position("venue") == 0 and g.pictures() == []
    g.close()
    assert tables(old) == tables(str(tmp_path / "new.db"))
    assert sqlite3.connect(old).execute("PRAGMA user_version").fetchone()[0] == 1
