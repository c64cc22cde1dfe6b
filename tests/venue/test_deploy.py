"""The pub's systemd units for the hub, the ingester and the screen (venue/deploy): each
starts a real ``bidou-venue`` subcommand with arguments that subcommand accepts, so a renamed
command or option breaks this test rather than a pub's boot."""

from __future__ import annotations

import argparse
import importlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from venue.cli import COMMANDS
from venue.settings import load_venue_config

DEPLOY = Path(__file__).resolve().parents[2] / "venue" / "deploy"
UNITS = {"hub": "bidou-venue-hub.service", "ingest": "bidou-venue-ingest.service",
         "screen": "bidou-venue-screen.service"}
BIN = Path(sys.executable).parent


def service(name: str) -> dict[str, str]:
    """The [Service] section's keys (the last value of a repeated key, as systemd takes it)."""
    keys: dict[str, str] = {}
    section = ""
    for line in (DEPLOY / name).read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            keys[key] = value
    return keys


@pytest.mark.parametrize("part", sorted(UNITS))
def test_each_units_execstart_is_a_real_bidou_venue_subcommand_that_parses(part: str) -> None:
    keys = service(UNITS[part])
    assert keys["Restart"] == "on-failure" and keys["User"] == "bidou-venue"
    program, command, *args = shlex.split(keys["ExecStart"])
    assert program == "/opt/bidou-table/venv/bin/bidou-venue" and command == part
    assert command in COMMANDS
    assert args == ["--config", "/etc/bidou-venue/venue.toml"]
    # the subcommand's own parser takes the unit's arguments
    module = importlib.import_module(COMMANDS[command][0])
    parser = argparse.ArgumentParser(prog=f"bidou-venue {command}")
    module.add_arguments(parser)
    assert parser.parse_args(args).config == "/etc/bidou-venue/venue.toml"
    # and the installed command answers --help
    done = subprocess.run([str(BIN / "bidou-venue"), command, "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--config" in done.stdout


def test_the_hub_keeps_its_store_where_its_unit_may_write() -> None:
    """``bidou-venue hub`` writes nats.conf beside [hub] store_dir: the example config's
    store_dir must be inside the unit's StateDirectory, the one folder it may write."""
    keys = service(UNITS["hub"])
    assert keys["StateDirectory"] == "bidou-venue"
    assert keys["ReadWritePaths"] == "/var/lib/bidou-venue"
    example = load_venue_config(str(DEPLOY / "venue.example.toml"))  # and it is valid
    assert Path(example.store_dir).parent == Path(keys["ReadWritePaths"])


@pytest.mark.parametrize("part", sorted(UNITS))
def test_each_unit_passes_systemd_analyze_verify(part: str, tmp_path: Path) -> None:
    """systemd's own check of the unit (unknown keys, bad values, a command it cannot run),
    with ExecStart pointed at this checkout's bidou-venue, as the install puts it at
    /opt/bidou-table/venv/bin."""
    if shutil.which("systemd-analyze") is None:
        pytest.fail("systemd-analyze is needed to check the units: apt-get install systemd")
    text = (DEPLOY / UNITS[part]).read_text().replace(
        "/opt/bidou-table/venv/bin/bidou-venue", str(BIN / "bidou-venue"))
    unit = tmp_path / UNITS[part]
    unit.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
