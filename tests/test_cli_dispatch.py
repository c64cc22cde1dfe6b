"""The `bidou-table` dispatcher: every subcommand named in the issues is reachable."""

from __future__ import annotations

import subprocess
import sys

import pytest

from firmware.cli.dispatch import COMMANDS, main


def test_every_contract_command_is_registered() -> None:
    assert {"run", "replay", "read-dice", "calibrate", "export"} <= set(COMMANDS)


def test_overview_lists_every_command(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_exit_2_with_a_sentence(capsys) -> None:
    assert main(["fly"]) == 2
    assert "unknown command 'fly'" in capsys.readouterr().err


def test_no_command_prints_usage_and_exits_2(capsys) -> None:
    assert main([]) == 2
    assert "usage: bidou-table COMMAND" in capsys.readouterr().out


def test_each_command_has_its_help(capsys) -> None:
    for name in COMMANDS:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0, name
        assert f"bidou-table {name}" in capsys.readouterr().out


def test_a_commands_help_through_the_installed_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli.dispatch", "replay", "--help"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "bidou-table replay" in done.stdout
