"""`bidou-venue add-tables` (venue/cmd_add_tables.py) gives each table of the pub a password of
its own in the venue config and prints the [venue] section its table needs; run again, it adds
the new tables and keeps every password already given. And `venue/deploy/install-hub`, which
runs it when a pub installs the hub, is a script shellcheck finds nothing wrong in, whose
steps name files that exist."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest

from firmware.settings.venue_settings import parse_venue_settings
from venue.cli import main
from venue.cmd_add_tables import NEW_CONFIG
from venue.settings import load_venue_config

DEPLOY = Path(__file__).resolve().parents[2] / "venue" / "deploy"
INSTALL = DEPLOY / "install-hub"


def sections(out: str) -> dict[str, dict]:
    """The [venue] sections printed, by table."""
    found = {}
    for block in out.split("\n\n"):
        if "[venue]" in block:
            section = tomllib.loads(block[block.index("[venue]"):])["venue"]
            found[section["table"]] = section
    return found


def test_a_new_config_gets_each_table_a_password_of_its_own_readable_by_the_group_only(
        tmp_path, capsys) -> None:
    config = tmp_path / "etc" / "venue.toml"
    assert main(["add-tables", "--config", str(config), "--hub-address", "192.168.1.5",
                 "t1", "t2"]) == 0
    venue = load_venue_config(str(config))
    assert sorted(venue.tables) == ["t1", "t2"]
    passwords = [*venue.tables.values(), venue.admin_password]
    assert len(set(passwords)) == 3 and all(len(p) >= 24 for p in passwords)
    assert not any("change-me" in p for p in passwords)
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    printed = sections(capsys.readouterr().out)
    for table in ("t1", "t2"):  # what each table pastes is a valid [venue] section of its own
        settings = parse_venue_settings(printed[table])
        assert settings is not None and settings.table == table
        assert settings.password == venue.tables[table]
        assert printed[table]["url"] == "nats://192.168.1.5:4222"


def test_run_again_it_adds_the_new_tables_and_keeps_every_password_given(tmp_path,
                                                                         capsys) -> None:
    config = tmp_path / "venue.toml"
    assert main(["add-tables", "--config", str(config), "t1", "t2"]) == 0
    config.write_text("# the pub's own note, kept\n" + config.read_text())
    os.chmod(config, 0o600)
    before = load_venue_config(str(config))
    capsys.readouterr()
    assert main(["add-tables", "--config", str(config), "t2", "t3"]) == 0
    out = capsys.readouterr().out
    assert "Table t2: already in" in out and "its password unchanged" in out
    assert list(sections(out)) == ["t3"]
    assert "sudo systemctl restart bidou-venue-hub" in out
    after = load_venue_config(str(config))
    assert {k: after.tables[k] for k in ("t1", "t2")} == before.tables
    assert after.admin_password == before.admin_password
    assert config.read_text().startswith("# the pub's own note, kept\n")
    assert stat.S_IMODE(config.stat().st_mode) == 0o600  # its mode kept


@pytest.mark.parametrize("names", [["t 1"], ["t1", "t~2"], ["x" * 41]])
def test_a_name_that_cannot_be_a_table_s_is_one_sentence_and_nothing_is_written(
        tmp_path, capsys, names) -> None:
    config = tmp_path / "venue.toml"
    assert main(["add-tables", "--config", str(config), *names]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bidou-venue add-tables: ") and "cannot be a table's name" in err
    assert not config.exists()


def test_a_broken_config_is_named_and_left_as_it_was(tmp_path, capsys) -> None:
    config = tmp_path / "venue.toml"
    config.write_text("[venue]\nname = 'pub'\n[tables.t1]\npasword = 'typo'\n")
    assert main(["add-tables", "--config", str(config), "t2"]) == 2
    err = capsys.readouterr().err
    assert str(config) in err and "fix it and run this again" in err
    assert config.read_text() == "[venue]\nname = 'pub'\n[tables.t1]\npasword = 'typo'\n"


def test_install_hub_passes_shellcheck() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:  # Debian's package, as PostgreSQL is: fail in CI, skip elsewhere
        text = "shellcheck is absent; this test needs Debian's (apt-get install shellcheck)"
        if os.environ.get("CI"):
            pytest.fail(f"{text}. CI must install it (.ci/run).")
        pytest.skip(text)
    done = subprocess.run([shellcheck, str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout


def test_install_hub_dry_run_lists_its_steps_and_each_file_it_installs_exists() -> None:
    done = subprocess.run(["bash", str(INSTALL), "--dry-run", "t1", "t2"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    steps = [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]
    order = ["apt-get install", "useradd", "rsync -a", "/usr/bin/python3 -m venv", "pip install",
             "createuser", "createdb", "bidou-venue add-tables", "chgrp",
             "LOGIN CREATEROLE PASSWORD", "bidou-venue db-logins",
             "NOLOGIN NOCREATEROLE PASSWORD NULL", "install -m 0644",
             "systemctl daemon-reload", "systemctl enable", "systemctl restart"]
    at = [next(i for i, s in enumerate(steps) if word in s) for word in order]
    assert at == sorted(at), steps
    add = next(s for s in steps if "add-tables" in s).split()
    assert add[-2:] == ["t1", "t2"] and add[1:3] == ["add-tables", "--config"]
    units = [Path(s.split()[3]) for s in steps if s.startswith("install -m 0644")]
    assert sorted(u.name for u in units) == sorted(p.name for p in DEPLOY.glob("*.service"))
    assert all(u.is_file() for u in units)
    enabled = next(s for s in steps if s.startswith("systemctl enable")).split()[2:]
    assert sorted(f"{u}.service" for u in enabled) == sorted(u.name for u in units)


@pytest.mark.parametrize("args, says", [
    ([], "name at least one table"),
    (["t 1"], "cannot be a venue's or table's name"),
    (["--venue", "the pub", "t1"], "cannot be a venue's or table's name"),
    (["--bogus", "t1"], "unknown option --bogus"),
])
def test_install_hub_refuses_bad_arguments_before_any_step(args, says) -> None:
    done = subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert says in done.stderr
    assert "+ " not in done.stdout


def test_a_new_config_holds_the_example_s_settings_for_the_units() -> None:
    """add-tables writes what venue/deploy/venue.example.toml documents (the units' paths, the
    peer-login database), so the two cannot drift apart."""
    example = tomllib.loads((DEPLOY / "venue.example.toml").read_text())
    for section, keys in NEW_CONFIG.items():
        assert keys == {k: v for k, v in example[section].items() if k != "admin_password"}
