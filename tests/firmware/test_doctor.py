"""`bidou-table doctor` (firmware/cli/cmd_doctor.py): the pub's shell gets one sentence per part
(config, log, camera, pins, zones, reader files, venue link), a problem named with what to do,
exit 1 when one part is wrong, and never a traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from firmware.cli.dispatch import main
from firmware.gamelog.log import GameLog

EXAMPLE = Path(__file__).resolve().parents[2] / "firmware" / "table.example.toml"
PARTS = ["config", "log", "camera", "pins", "zones", "reader files", "venue link"]


def doctor(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, dict[str, str]]:
    status = main(["doctor", *args])
    out, err = capsys.readouterr()
    assert err == "" and "Traceback" not in out
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == PARTS  # one line each, in order
    return status, {line.split(":")[0]: line.split(":", 1)[1].strip() for line in lines}


def test_a_sound_table_is_ok_on_every_line(tmp_path: Path, capsys) -> None:
    log = tmp_path / "table.db"
    GameLog(str(log)).close()
    status, said = doctor(capsys, "--config", str(EXAMPLE), "--db", str(log))
    assert status == 0
    assert all(s.startswith("ok: ") for s in said.values()), said
    assert said["log"] == f"ok: {log}: no game yet."
    assert said["camera"].startswith("ok: simulated")


def test_a_missing_log_and_a_log_that_is_no_log_are_named(tmp_path: Path, capsys) -> None:
    status, said = doctor(capsys, "--config", str(EXAMPLE), "--db", str(tmp_path / "none.db"))
    assert status == 1
    assert said["log"].startswith(f"PROBLEM: there is no log at {tmp_path / 'none.db'} yet")
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    status, said = doctor(capsys, "--config", str(EXAMPLE), "--db", str(junk))
    assert status == 1 and said["log"].startswith(f"PROBLEM: {junk} cannot be read as a game log")


def test_a_config_that_cannot_be_read_stops_the_checks_that_need_it(tmp_path: Path,
                                                                    capsys) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[table\n")
    status, said = doctor(capsys, "--config", str(config), "--db", str(tmp_path / "x.db"))
    assert status == 1
    assert said["config"].startswith(f"PROBLEM: {config}: ") and "valid TOML" in said["config"]
    assert said["venue link"] == "PROBLEM: not checked: the config cannot be read."


def with_venue(tmp_path: Path, port: int) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(EXAMPLE.read_text() + f'\n[venue]\nurl = "nats://127.0.0.1:{port}"\n'
                      'venue = "pub"\ntable = "t1"\npassword = "secret"\n')
    return config


def test_the_venue_link_says_whether_the_hub_answers(tmp_path: Path, capsys) -> None:
    log = tmp_path / "table.db"
    GameLog(str(log)).close()
    with socket.socket() as hub:
        hub.bind(("127.0.0.1", 0))
        hub.listen()
        port = hub.getsockname()[1]
        status, said = doctor(capsys, "--config", str(with_venue(tmp_path, port)),
                              "--db", str(log))
        assert status == 0
        assert said["venue link"] == (f"ok: the hub at nats://127.0.0.1:{port} answers (table "
                                      "t1 of venue pub).")
    status, said = doctor(capsys, "--config", str(with_venue(tmp_path, port)), "--db", str(log))
    assert status == 1
    assert said["venue link"].startswith(f"PROBLEM: the hub at nats://127.0.0.1:{port} cannot "
                                         "be reached (")


def test_the_reader_line_says_which_reader_an_untaught_table_opens() -> None:
    """No reader named: the learned reader for a real camera on the Pi, the rule reader where
    the table draws its dice (vision.settings.default_reader); a named reader is said as is."""
    from firmware.cli.cmd_doctor import check_reader
    from firmware.settings.config import build_config

    table = {"players": ["Ann", "Bob"]}
    on_the_pi = build_config({"table": table, "camera": {"kind": "usb"},
                              "referee": {"pin": "246813"}}, simulate=False, environ={})
    assert check_reader(on_the_pi) == ("the learned reader (the default for a real camera) "
                                       "opens, with the model's own head")
    off_the_pi = build_config({"table": table, "camera": {"kind": "usb"}}, environ={})
    assert check_reader(off_the_pi) == ("the rules reader (the default for the simulated "
                                        "camera): no file needed")
    named = build_config({"table": table, "camera": {"kind": "usb"}, "referee": {"pin": "246813"},
                          "vision": {"reader": "rules"}}, simulate=False, environ={})
    assert check_reader(named) == "the rules reader: no file needed"
