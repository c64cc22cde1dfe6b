"""Installing a league (league/deploy): each systemd unit starts a real ``bidou-league`` or
``bidou-venue`` subcommand with arguments it accepts and passes systemd's own check; the two
scripts pass shellcheck and list their steps; ``bidou-league add-venue`` makes the config,
gives each pub a password of its own, keeps those already given, and prints a link file the
pub's hub reads (docs/league.md, "Installing a league")."""

from __future__ import annotations

import argparse
import configparser
import importlib
import os
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from league.cli import COMMANDS as LEAGUE
from league.pubhub import build_link
from league.settings import load_league_config
from venue.cli import COMMANDS as VENUE

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "league" / "deploy"
BIN = Path(sys.executable).parent
UNITS = sorted(p.name for p in DEPLOY.glob("*.service"))


def service(name: str) -> dict[str, str]:
    """The unit's [Service] keys, as systemd reads them (a repeated key: its last value)."""
    unit = configparser.RawConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string((DEPLOY / name).read_text())
    return dict(unit["Service"])


def test_every_part_has_its_unit() -> None:
    assert UNITS == ["bidou-league-cluster@.service", "bidou-league-ingest@.service",
                     "bidou-league-pub-hub.service", "bidou-league-roster.service",
                     "bidou-league-screen.service", "bidou-league-uplink.service",
                     "bidou-venue-roster.service"]


@pytest.mark.parametrize("unit", UNITS)
def test_each_units_execstart_is_a_real_subcommand_that_parses(unit: str) -> None:
    keys = service(unit)
    assert keys["Restart"] == "on-failure"
    program, command, *args = shlex.split(keys["ExecStart"].replace("%i", "1"))
    tool = Path(program).name
    commands = LEAGUE if tool == "bidou-league" else VENUE
    assert program == f"/opt/bidou-table/venv/bin/{tool}" and command in commands
    assert keys["User"] == ("bidou-venue" if "/etc/bidou-venue/" in keys["ExecStart"]
                            else "bidou-league")
    module = importlib.import_module(commands[command][0])
    parser = argparse.ArgumentParser(prog=f"{tool} {command}")
    module.add_arguments(parser)
    assert parser.parse_args(args).config.startswith("/etc/bidou-")


@pytest.mark.parametrize("unit", UNITS)
def test_each_unit_passes_systemd_analyze_verify(unit: str, tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.fail("systemd-analyze is needed to check the units: apt-get install systemd")
    text = (DEPLOY / unit).read_text()
    for tool in ("bidou-league", "bidou-venue"):
        text = text.replace(f"/opt/bidou-table/venv/bin/{tool}", str(BIN / tool))
    path = tmp_path / unit.replace("@.", "@1.")  # a template is checked as an instance
    path.write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@pytest.mark.parametrize("script", ["install-league", "join-league"])
def test_the_scripts_pass_shellcheck(script: str) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        text = "shellcheck is absent; this test needs Debian's (apt-get install shellcheck)"
        if os.environ.get("CI"):
            pytest.fail(text)
        pytest.skip(text)
    done = subprocess.run([shellcheck, str(DEPLOY / script)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout


def test_install_league_dry_run_lists_its_steps_and_each_file_it_installs_exists() -> None:
    done = subprocess.run(["bash", str(DEPLOY / "install-league"), "--dry-run", "north",
                           "south"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    steps = [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]
    assert steps[0].startswith("apt-get install") and "postgresql" in steps[0]
    assert any("add-venue --config /etc/bidou-league/league.toml north south" in s
               for s in steps)
    installed = [s.split()[-2] for s in steps if s.startswith("install -m 0644")]
    assert {Path(p).name for p in installed} == {
        "bidou-league-cluster@.service", "bidou-league-ingest@.service",
        "bidou-league-roster.service", "bidou-league-screen.service"}
    assert all(Path(p).exists() for p in installed)
    assert steps[-1].startswith("systemctl restart bidou-league-cluster@1")
    bad = subprocess.run(["bash", str(DEPLOY / "install-league"), "--dry-run", "a b"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "cannot be a pub's name" in bad.stderr


def test_join_league_dry_run_swaps_the_hub_for_the_leaf_hub() -> None:
    done = subprocess.run(["bash", str(DEPLOY / "join-league"), "--dry-run", "link.toml"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    steps = [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]
    assert "systemctl disable --now bidou-venue-hub" in steps
    assert any(s.startswith("systemctl enable bidou-league-pub-hub bidou-league-uplink "
                            "bidou-venue-roster") for s in steps)


def add_venue(config: Path, *names: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "bidou-league"), "add-venue", "--config", str(config),
                           "--league-address", "league.example", *names],
                          capture_output=True, text=True, timeout=60)


def links(out: str) -> dict[str, str]:
    """Each printed link file, by pub."""
    found: dict[str, str] = {}
    for block in out.split("[league]\n")[1:]:
        text = "[league]\n" + block.split("\n\n")[0].split("\n#")[0] + "\n"
        link = build_link(tomllib.loads(text))
        found[link.user] = link.password
        assert link.urls[0] == "nats-leaf://league.example:7422"
    return found


def test_add_venue_makes_the_config_gives_each_pub_its_password_and_keeps_them(
        tmp_path: Path) -> None:
    config = tmp_path / "league.toml"
    first = add_venue(config, "north", "south")
    assert first.returncode == 0, first.stderr
    assert (config.stat().st_mode & 0o777) == 0o600
    made = load_league_config(str(config))
    printed = links(first.stdout)
    assert printed == made.pubs and len(set(printed.values())) == 2
    assert made.admin_password != "change-me-league"
    again = add_venue(config, "south", "east")
    assert again.returncode == 0, again.stderr
    after = load_league_config(str(config))
    assert after.pubs["north"] == made.pubs["north"] and after.pubs["south"] == made.pubs[
        "south"] and "east" in after.pubs
    assert "# Comments" not in config.read_text() and "# one section per pub" in \
        config.read_text()  # the example's comments kept
    bad = add_venue(config, "no good")
    assert bad.returncode == 2 and "cannot be a pub's name" in bad.stderr
    assert load_league_config(str(config)).pubs == after.pubs  # nothing written


def test_the_example_config_is_valid() -> None:
    example = load_league_config(str(DEPLOY / "league.example.toml"))
    assert Path(example.store_dir).parent == Path("/var/lib/bidou-league")
