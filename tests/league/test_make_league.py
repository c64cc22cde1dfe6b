"""`make league`'s contract from outside (docs/league.md, "make league"): it prints the league
screen's address, its servers' and every pub's, its tables play with rostered players until a
rated game reaches the standings, and Ctrl-C stops every part it started, leaving nothing."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import tomllib
import urllib.request
from pathlib import Path

import psycopg
import pytest
from test_make_venue import children_of
from venue_harness import wait_until

pytestmark = pytest.mark.slow

#: Seconds the test gives the league to finish and rate a game (a two-hand match at 0.1 s
#: an action is some hundred actions; the machine is shared)
RATED_WITHIN = 300


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_make_league_rates_a_game_of_rostered_players_and_ctrl_c_leaves_nothing(
        pg_cluster: object) -> None:
    top = Path(tempfile.mkdtemp(prefix="bidou-make-league-"))
    top.chmod(0o711)  # PostgreSQL's unprivileged user walks into it
    folder = top / "league-data"
    proc = subprocess.Popen([sys.executable, "-m", "league.cli", "up", "--folder", str(folder),
                             "--pace", "0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    kids: set[int] = set()
    try:
        assert proc.stdout is not None
        while not any(line.startswith("Logs and data") for line in lines):
            line = proc.stdout.readline()
            assert line, f"make league ended early: {''.join(lines)}"
            lines.append(line)
        screen = next(x for x in lines if x.startswith("League screen: ")).split()[-1]
        assert sum(x.startswith("League server: nats://") for x in lines) == 3
        assert sum(x.startswith("Pub ") and " table " in x for x in lines) == 4
        assert {x.split()[1] for x in lines if x.startswith("Pub ")} == {"north", "south"}
        kids = children_of(proc.pid)

        def rated() -> list[dict]:
            return get(screen + "api/standings")["standings"]

        standings = wait_until(rated, RATED_WITHIN, "a rated game in the standings", every=2)
        best = standings[0]
        player = get(screen + f"api/players/{best['player_id']}")
        assert player["home_venue"] in ("north", "south") and player["history"]
        assert any(g["ordinal"] is not None for g in player["games"])
        assert get(screen + "api/flags")["double_seats"] == []  # each table its own players

        def table_copy() -> list[dict]:  # the roster reached a table through its pub's hub
            path = folder / "north" / "t1.db.roster.json"
            return json.loads(path.read_text())["players"] if path.exists() else []

        copy = wait_until(table_copy, 60, "the roster in north t1's copy")
        assert {p["home"] for p in copy} == {"north", "south"}
        # each pub taken by an ingester of its own; the screen reads as a role that only reads
        for k, pub in enumerate(("north", "south")):
            assert f"(pubs {pub})" in (folder / f"ingester-{k}.log").read_text()
        database = tomllib.loads((folder / "league.toml").read_text())["database"]
        with psycopg.connect(database["dsn"]) as db:
            users = {r[0] for r in db.execute("SELECT usename FROM pg_stat_activity WHERE "
                                              "datname = current_database()").fetchall()}
        assert "bidou_league_screen" in users and "bidou_league_screen" in database["screen_dsn"]
        with pytest.raises(psycopg.errors.InsufficientPrivilege), \
                psycopg.connect(database["screen_dsn"]) as db:
            db.execute("DELETE FROM ratings")
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
        lines.append(out)
        shutil.rmtree(top, ignore_errors=True)
    assert proc.returncode == 0, "".join(lines)[-3000:]
    assert "League stopped" in "".join(lines)
    left = [p for p in kids if Path(f"/proc/{p}").exists()]
    assert not left, f"processes left behind: {left}"
