"""With real processes: a table's log id is enrolled at the venue, not claimed by whoever publishes
first with the table's password. A forged log and the table's real one both wait with a sentence;
``bidou-venue accept-log`` will not guess between them, and with ``--log`` enrolls the real one,
whose entries are then stored whole."""

from __future__ import annotations

import asyncio
import subprocess
from typing import Any

import psycopg
import pytest
from venue_harness import PYTHON, Venue, planted, wait_until

from venue import cmd_accept_log, store
from venue.messages import parse_entry
from venue.settings import build_venue_config

pytestmark = pytest.mark.slow


def accept_log(venue: Venue, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-m", "venue.cli", "accept-log", "--config",
                           str(venue.config), *args], capture_output=True, text=True,
                          timeout=120)


def enrolled(venue: Venue, table: str) -> str | None:
    with psycopg.connect(venue.dsn) as db:
        row = db.execute("SELECT log_id FROM tables WHERE venue = %s AND table_name = %s",
                         (venue.name, table)).fetchone()
    return row[0] if row else None


def test_a_forged_first_log_claims_nothing_and_the_operator_enrolls_the_real_one(
        venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    venue.start_screen()
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30, "the ingester")
    forged = planted("t2", 1, 1, log_id="EVIL-LOG-ID")
    assert venue.publish_all("t2", [("bidou.pub.t2.entry", forged)]) == [None]
    wait_until(lambda: "EVIL-LOG-ID, which the venue has not enrolled" in venue.log_text(
        "ingester"), 30, "the ingester's sentence on the forged log")
    assert enrolled(venue, "t2") is None and venue.rows("t2") == []
    venue.start_table("t2", seed=51, enroll=False)  # its own log, not enrolled either
    real = wait_until(lambda: venue.referee_state("t2")["venue"]["log_id"], 30,
                      "t2's referee console to name its log")
    wait_until(lambda: f"log {real}, which the venue has not enrolled" in venue.log_text(
        "ingester"), 60, "the ingester's sentence on t2's real, not yet enrolled, log")
    status, tables = venue.get("/api/tables")
    assert "has not enrolled" in {t["name"]: t for t in tables}["t2"]["problem"]
    assert enrolled(venue, "t2") is None and venue.rows("t2") == []
    guess = accept_log(venue, "t2")  # two logs seen: it will not guess
    assert guess.returncode == 1 and "--log ID" in guess.stdout, guess.stdout + guess.stderr
    assert "EVIL-LOG-ID (1 entries)" in guess.stdout and enrolled(venue, "t2") is None
    done = accept_log(venue, "t2", "--log", real)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "first log at the venue" in done.stdout and enrolled(venue, "t2") == real
    wait_until(lambda: venue.finished_games("t2") >= 1, 240, "t2 to finish a game")
    venue.stop("t2")
    wait_until(lambda: venue.caught_up("t2"), 90, "the venue to hold t2's real log")
    venue.check_table("t2")  # the real log whole; nothing of the forged one


def test_the_venue_config_enrolls_a_log_and_keeps_what_the_store_holds(dsn: str) -> None:
    """``[tables.NAME] log_id`` enrolls that log at the ingester's start; the store's
    enrolled log stays when the config names another (accept-log replaces it)."""
    from venue.ingester import Ingester  # lazy: the same module the process runs

    config = build_venue_config({
        "hub": {"admin_password": "x"}, "database": {"dsn": dsn},
        "tables": {"t1": {"password": "a", "log_id": "CONF1"}, "t2": {"password": "b"}}})
    Ingester(config, partitions=1).enroll_configured()
    with psycopg.connect(dsn) as db:
        assert db.execute("SELECT table_name, log_id FROM tables").fetchall() == [("t1", "CONF1")]
    other = build_venue_config({
        "hub": {"admin_password": "x"}, "database": {"dsn": dsn},
        "tables": {"t1": {"password": "a", "log_id": "CONF2"}, "t2": {"password": "b"}}})
    Ingester(other, partitions=1).enroll_configured()
    with psycopg.connect(dsn) as db:
        assert db.execute("SELECT log_id FROM tables").fetchall() == [("CONF1",)]


def test_an_entry_the_ingester_gets_once_accept_log_has_read_the_stream_again_is_stored(
        venue: Venue, monkeypatch: pytest.MonkeyPatch) -> None:
    """accept-log reads the hub's stream again once the log it enrolls is committed: the
    ingester, which refused the log's entries until then, stores (or holds in order) the
    ones it gets from then on. Were the enrolment committed only after that read, an entry
    the ingester got in between would be refused, and read by neither."""
    venue.start_hub()
    venue.start_ingester()  # it makes the hub's streams, and refuses entry 1 (not enrolled)
    first = planted("t2", 1, 1, log_id="REAL")
    assert venue.publish_all("t2", [("bidou.pub.t2.entry", first)]) == [None]
    later = parse_entry("bidou.pub.t2.entry", planted("t2", 1, 2, log_id="REAL"))
    reads: list[int] = []
    outcomes: list[str] = []
    read_stream = cmd_accept_log.sent_by

    async def read_then_ingest(nc: Any, venue_name: str, table: str) -> Any:
        found = await read_stream(nc, venue_name, table)
        reads.append(len(found))
        if len(reads) == 2:  # the read again: an entry comes to the ingester just after it
            with store.connect(venue.dsn) as ingester:
                outcomes.extend(o.kind for o in store.record_many(ingester, [later]))
        return found

    monkeypatch.setattr(cmd_accept_log, "sent_by", read_then_ingest)
    status, line, _ = asyncio.run(cmd_accept_log.accept(venue.venue_config(), "t2", "REAL"))
    assert status == 0 and "first log at the venue" in line, line
    assert reads == [1, 1] and outcomes == ["held"]  # after entry 1, which accept-log stores
    assert venue.rows("t2") == [(1, 1, "Ann bet 1"), (1, 2, "Ann bet 1")]
