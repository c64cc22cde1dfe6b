"""Accepting a table's replaced log (`bidou-venue accept-log`, docs/venue.md): the venue
refuses a new log under an old name until its operator says it is genuine; then the old log's
rows are kept under an archived name, and the new log's entries, those refused before and
those still to come, reach PostgreSQL exactly once, in order, with the table left running."""

from __future__ import annotations

import subprocess

import pytest
from venue_harness import PYTHON, Venue, wait_until

pytestmark = pytest.mark.slow


def accept_log(venue: Venue, table: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-m", "venue.cli", "accept-log", "--config",
                           str(venue.config), table], capture_output=True, text=True,
                          timeout=120)


def test_an_accepted_log_is_stored_whole_and_the_old_one_kept(venue: Venue) -> None:
    old = venue.refused_new_log("t1")  # its game ids started again at 1
    venue.check_table("t1", old)  # refused until accepted: the old log, whole
    old_rows, old_results = venue.rows("t1"), venue.results("t1")
    done = accept_log(venue, "t1")
    assert done.returncode == 0, done.stderr
    assert "kept as table t1~1" in done.stdout
    # the table never stopped: what it sent before and after the acceptance, all of it, once
    wait_until(lambda: venue.caught_up("t1"), 90, "the venue to hold t1's new log")
    venue.check_table("t1")
    assert venue.rows("t1~1") == old_rows and venue.results("t1~1") == old_results
    # the screen: t1 is the new log, its problem gone; the old log's games under t1~1
    tables = {t["name"]: t for t in venue.get("/api/tables")[1]}
    assert tables["t1"]["problem"] is None
    assert tables["t1"]["entries"] == len(venue.rows("t1"))
    assert tables["t1~1"]["archived_log_of"] == "t1"
    assert tables["t1~1"]["entries"] == len(old_rows)
    old_ids = sorted({game for game, _, _ in old_rows})
    assert sorted(g["id"] for g in venue.get("/api/tables/t1~1/games")[1]) == old_ids
    new_ids = sorted({game for game, _, _ in venue.rows("t1")})
    assert sorted(g["id"] for g in venue.get("/api/tables/t1/games")[1]) == new_ids
    again = accept_log(venue, "t1")
    assert again.returncode == 1 and "nothing to accept" in again.stdout + again.stderr


def test_accept_log_names_what_is_wrong(venue: Venue) -> None:
    unknown = accept_log(venue, "t9")
    assert unknown.returncode == 2 and "'t9' is not a table" in unknown.stderr
    no_hub = accept_log(venue, "t1")  # nothing started
    assert no_hub.returncode == 1 and "cannot read the hub's stream" in no_hub.stderr
