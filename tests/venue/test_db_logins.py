"""`bidou-venue db-logins` (venue/cmd_db_logins.py): the hub's services log in to PostgreSQL
with passwords of their own, written into the venue config, not by the peer rule; the screen's
login only reads. A database it cannot reach leaves the config as it was, with one sentence."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import psycopg
import pytest

from venue.cli import main
from venue.settings import load_venue_config


def new_config(tmp_path: Path) -> Path:
    config = tmp_path / "venue.toml"
    assert main(["add-tables", "--config", str(config), "t1"]) == 0
    return config


def test_the_ingester_and_the_screen_get_password_logins_in_the_config(
        dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = new_config(tmp_path)
    before = config.stat().st_mode
    assert main(["db-logins", "--config", str(config), "--owner-dsn", dsn]) == 0
    assert "bidou_ingest" in capsys.readouterr().out
    settings = load_venue_config(str(config))
    assert "user=bidou_ingest" in settings.dsn and "password=" in settings.dsn
    assert "user=bidou_screen" in settings.reader_dsn and "password=" in settings.reader_dsn
    assert "host=127.0.0.1" in settings.dsn  # over TCP, where PostgreSQL asks the password
    assert config.stat().st_mode == before
    assert "# The venue config of this pub's hub" in config.read_text()  # comments kept
    with psycopg.connect(settings.dsn) as db:
        assert db.execute("SELECT current_user").fetchone() == ("bidou_ingest",)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("CREATE TABLE mine (x int)")
    with psycopg.connect(settings.reader_dsn) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            db.execute("DELETE FROM events")


def test_an_owner_it_cannot_reach_changes_nothing(
        dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    config = new_config(tmp_path)
    text = config.read_text()
    wrong = dsn.replace("password=", "password=wrong")
    assert main(["db-logins", "--config", str(config), "--owner-dsn", wrong]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bidou-venue db-logins: cannot set up the database's logins")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert config.read_text() == text


def test_an_owner_as_install_hub_makes_it_without_a_port_in_its_dsn(
        dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """venue/deploy/install-hub's owner: the database's owner, no superuser, allowed to make
    roles for this step only (CREATEROLE), reached by a DSN that names no port (libpq's
    default): the DSNs written name the server's port, and each logs in."""
    owner, password = f"owner_{uuid.uuid4().hex[:8]}", "for-this-step"
    dbname = re.search(r"dbname=(\w+)", dsn).group(1)
    with psycopg.connect(dsn, autocommit=True) as db:
        port = db.info.port
        db.execute(f"CREATE ROLE {owner} LOGIN CREATEROLE PASSWORD '{password}'")
        db.execute(f"ALTER DATABASE {dbname} OWNER TO {owner}")
    monkeypatch.setenv("PGPORT", str(port))
    owner_dsn = f"host=127.0.0.1 dbname={dbname} user={owner} password={password}"
    config = new_config(tmp_path)
    assert main(["db-logins", "--config", str(config), "--owner-dsn", owner_dsn]) == 0
    settings = load_venue_config(str(config))
    monkeypatch.delenv("PGPORT")
    for role, login in (("bidou_ingest", settings.dsn), ("bidou_screen", settings.reader_dsn)):
        assert f"port={port}" in login
        with psycopg.connect(login) as db:
            assert db.execute("SELECT current_user").fetchone() == (role,)
