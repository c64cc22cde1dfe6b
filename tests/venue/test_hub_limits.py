"""With real processes: a table's password reads only its own replies, and one table's flood fills
only its own quota. The hub refuses ``_INBOX.>`` (and another table's inbox) to a table's user while
its forwarder works; the entry stream has a per-table quota, a message size, a max age and bounded
bytes, and junk the ingester refuses is deleted from it. After each, the real table's rows equal its
log."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import nats
import pytest
from venue_harness import Venue, planted, wait_until

from venue.hub import MAX_AGE, MAX_ENTRY_BYTES, server_config
from venue.messages import ENTRY_STREAM, inbox_prefix

pytestmark = pytest.mark.slow


async def subscribe_as(venue: Venue, table: str, subjects: list[str]) -> list[str]:
    """Subscribe to each subject as ``table``; the hub's refusals (its error words)."""
    errors: list[str] = []

    async def on_error(e: Exception) -> None:
        errors.append(str(e))

    nc = await nats.connect(venue.url, user=table, password=venue.passwords[table],
                            error_cb=on_error, max_reconnect_attempts=0)
    try:
        for subject in subjects:
            await nc.subscribe(subject)
        await nc.flush()
        await asyncio.sleep(0.5)
    finally:
        await nc.close()
    return errors


def test_a_table_reads_only_its_own_inbox_and_its_forwarder_works(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    own = f"{inbox_prefix('pub', 't1')}.>"
    assert own == "_INBOX.pub.t1.>"
    refused = asyncio.run(subscribe_as(venue, "t1", ["_INBOX.>", "_INBOX.pub.t2.>", ">"]))
    assert len(refused) == 3 and all("permissions violation" in e.lower() for e in refused), \
        refused
    assert '"_inbox.>"' in refused[0].lower()
    assert asyncio.run(subscribe_as(venue, "t1", [own])) == []
    venue.start_table("t1", seed=61)
    wait_until(lambda: venue.finished_games("t1") >= 1, 240, "t1 to finish a game")
    venue.stop("t1")
    wait_until(lambda: venue.caught_up("t1"), 90, "the venue to hold t1's log")
    venue.check_table("t1")


async def stream(venue: Venue) -> tuple[object, dict[str, int]]:
    """The entry stream's config and messages per subject."""
    nc = await nats.connect(venue.url, user=venue.admin[0], password=venue.admin[1])
    try:
        info = await nc.jetstream().stream_info(ENTRY_STREAM, subjects_filter=">")
        return info.config, dict(info.state.subjects or {})
    finally:
        await nc.close()


@pytest.fixture
def small_venue(dsn: str) -> Iterator[Venue]:
    """A venue whose hub keeps 300 entries per table."""
    folder = Path(tempfile.mkdtemp(prefix="bidou-venue-"))
    v = Venue(folder, dsn, table_quota=300)
    try:
        yield v
    finally:
        v.stop_all()
        shutil.rmtree(folder, ignore_errors=True)


def test_one_tables_flood_fills_only_its_own_quota(small_venue: Venue) -> None:
    """t1 floods 1000 junk messages and one too large while the ingester is away: the hub
    keeps 300 (its quota) and refuses the rest with its words; t2, a real table, is stored
    all the same; the ingester, started, refuses the junk and deletes it from the hub."""
    venue = small_venue
    venue.start_hub()
    venue.start_ingester()
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30, "the streams made")
    config, _ = asyncio.run(stream(venue))
    assert (config.max_msgs_per_subject, config.discard_new_per_subject) == (300, True)
    assert config.max_msg_size == MAX_ENTRY_BYTES and config.max_age == MAX_AGE
    assert str(getattr(config.discard, "value", config.discard)) == "new"
    assert 0 < config.max_bytes < 2**40
    venue.stop("ingester")
    junk = [("bidou.pub.t1.entry", b"junk %d" % i) for i in range(1000)]
    answers = venue.publish_all("t1", junk, headers=True)
    assert answers[:300] == [None] * 300
    assert all(a and "maximum messages per subject exceeded" in a for a in answers[300:]), \
        {a for a in answers[300:]}
    big = venue.publish_all("t1", [("bidou.pub.t1.entry", planted(
        "t1", 1, 1, why="x" * MAX_ENTRY_BYTES))])
    assert big[0] and "maximum" in big[0].lower(), big
    venue.start_table("t2", seed=71)
    wait_until(lambda: asyncio.run(stream(venue))[1].get("bidou.pub.t2.entry", 0) > 0, 60,
               "t2's entries taken by the hub beside t1's full quota")
    venue.start_ingester()
    wait_until(lambda: venue.rows("t2"), 60, "t2's entries stored")
    wait_until(lambda: asyncio.run(stream(venue))[1].get("bidou.pub.t1.entry", 0) == 0, 60,
               "t1's refused junk deleted from the hub")
    assert any("is not JSON" in s for t, s in venue.problems() if t == "t1")
    wait_until(lambda: venue.finished_games("t2") >= 1, 240, "t2 to finish a game")
    venue.stop("t2")
    wait_until(lambda: venue.caught_up("t2"), 90, "the venue to hold t2's log")
    venue.check_table("t2")


def test_the_hub_bounds_its_disk_and_memory() -> None:
    """The hub's own limits (nats-server's jetstream block), beside the stream's."""
    from venue.settings import build_venue_config  # lazy: only this test builds one

    config = build_venue_config({"hub": {"admin_password": "x"}, "database": {"dsn": "x"},
                                 "tables": {f"t{i}": {"password": "p"} for i in range(10)}})
    jetstream = json.loads(server_config(config))["jetstream"]
    per_table = config.table_quota * MAX_ENTRY_BYTES
    assert per_table < jetstream["max_file_store"] < 10 * per_table
    assert 0 < jetstream["max_memory_store"] <= 64 * 2**20
