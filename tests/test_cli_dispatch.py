"""The `bidou-table` dispatcher: every subcommand named in the issues is reachable."""

from __future__ import annotations

import subprocess
import sys

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


def test_each_command_has_help_through_the_installed_entry_point() -> None:
    for name in COMMANDS:
        done = subprocess.run(
            [sys.executable, "-m", "firmware.cli.dispatch", name, "--help"],
            capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 0, f"{name}: {done.stderr}"
        assert f"bidou-table {name}" in done.stdout
