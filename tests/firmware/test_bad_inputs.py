"""Every bad input at start-up is one sentence naming what is wrong and what to do: a config
that is not UTF-8, a log whose rows are not what this table writes, a seating the table would
not have."""

from __future__ import annotations

import sqlite3

import pytest

from engine.errors import ConfigError
from firmware.gamelog.log import GameLog, LogError
from firmware.settings.config import build_config, load_config


def test_a_config_that_is_not_utf8_is_one_sentence(tmp_path):
    path = tmp_path / "table.toml"
    path.write_bytes(b'[table]\nplayers = ["Ann", "B\xf6b"]\n')  # Latin-1
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    assert str(e.value) == (f"--config = {str(path)!r} is not allowed: a TOML file in UTF-8 "
                            "(byte 28 is not UTF-8; save the file as UTF-8)")


def test_bidou_table_run_with_a_latin1_config_exits_2_with_one_line(bidou, tmp_path):
    import subprocess

    path = tmp_path / "table.toml"
    path.write_bytes(b'[table]\nplayers = ["Ann", "B\xf6b"]\n')
    done = subprocess.run(bidou("run", "--simulate", "--config", str(path), "--db",
                                str(tmp_path / "t.db"), "--port", "0"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"bidou-table run: {path}: --config = {str(path)!r} is not allowed: a TOML file in "
        "UTF-8 (byte 28 is not UTF-8; save the file as UTF-8). Fix the config and start "
        "again."]


@pytest.mark.parametrize("players", [
    ["a\u0000", "Bob"], ["..", "Bob"], ["a/b", "Bob"], ["x" * 25, "Bob"],
])
def test_config_names_the_table_cannot_show_or_route_are_refused(players):
    with pytest.raises(ConfigError) as e:
        build_config({"table": {"variant": "two-hand", "players": players}}, environ={})
    assert e.value.key == "table.players"
    assert "names of 1 to 24 printable characters, without spaces, / or \\ and not . or .." \
        in str(e.value)


def _log_with_game(path) -> None:
    log = GameLog(str(path))
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    log.append(gid, "action", "Ann roll 5", "panel", "t1")
    log.close()


def test_a_log_with_players_that_are_not_json_is_one_sentence(make, fake, tmp_path):
    path = tmp_path / "t.db"
    _log_with_game(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET players = '[\"Ann\", ' WHERE id = 1")
    db.commit()
    db.close()
    with pytest.raises(LogError) as e:
        make(fake, str(path))
    assert str(e.value).startswith(f"Game 1 in the game log {path} has players, options or a "
                                   "result that are not the JSON this table writes (")
    assert "Restore it from a backup, or pass another file with --db." in str(e.value)


def test_a_malformed_fix_dice_entry_is_one_sentence(make, fake, tmp_path):
    path = tmp_path / "t.db"
    _log_with_game(path)
    log = GameLog(str(path))
    log.append(1, "fix-dice", "first Ann roll 6", "ref", "t2", "typo")
    log.close()
    with pytest.raises(LogError) as e:
        make(fake, str(path))
    assert str(e.value) == (
        f"Game 1 in the log {path} cannot be replayed: log entry 2 (fix-dice 'first Ann roll "
        "6') is not a position and an action, such as '7 Ann throw 6 5 3'. Export it with "
        "bidou-table export and start with a new --db file.")
