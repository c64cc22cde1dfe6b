"""The table's forwarder against a real hub (nats-server), without the rest of the venue:
a finished game's entries, more than one read of the log, all leave together and each
exactly once; the position the forwarder leaves in the log is the last entry the hub
acknowledged, so a restart sends nothing again that is not needed."""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import nats
import pytest
from venue_harness import free_port, wait_until

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.gamelog.log import GameLog
from firmware.settings.venue_settings import VenueSettings
from venue.forwarder import BATCH, POSITION_EVERY, Forwarder
from venue.hub import ensure_streams, start_hub
from venue.messages import ENTRY_STREAM
from venue.outbox import POSITION
from venue.settings import build_venue_config, load_venue_config


def play(log: GameLog, games: int, seed: int = 7) -> int:
    """Play ``games`` whole montevideo games into ``log``; its last row id."""
    rng = random.Random(seed)
    for _ in range(games):
        game = new_game("montevideo", ("Ann", "Bob", "Cy"), {})
        gid = log.start_game("montevideo", game.players, {}, "now")
        while not game.over:
            action = random_action(game, rng)
            game.apply(action)
            log.append(gid, "action", str(action), "test", "now",
                       finish=("over", game.state()) if game.over else None)
    return log.entries_after(0, 10**9)[-1][0]


async def held_by_hub(url: str, table: str) -> int:
    """How many of ``table``'s entries the hub's entry stream holds."""
    nc = await nats.connect(url, user="venue", password="admin")
    try:
        js = nc.jetstream()
        await ensure_streams(js, build_venue_config({
            "hub": {"admin_password": "admin"}, "database": {"dsn": "host=127.0.0.1"},
            "tables": {"t1": {"password": "pw"}}}))
        info = await js.stream_info(ENTRY_STREAM, subjects_filter=f"bidou.pub.{table}.entry")
        return sum((info.state.subjects or {}).values())
    finally:
        await nc.close()


@pytest.fixture
def hub() -> Iterator[str]:
    """A hub with table t1 configured and the venue's streams made; its url."""
    folder = Path(tempfile.mkdtemp(prefix="bidou-fwd-"))
    port = free_port()
    (folder / "venue.toml").write_text(
        f'[venue]\nname = "pub"\n[hub]\nport = {port}\nadmin_password = "admin"\n'
        '[database]\ndsn = "host=127.0.0.1"\n[tables.t1]\npassword = "pw"\n')
    server = start_hub(load_venue_config(str(folder / "venue.toml")), str(folder / "hub"))
    url = f"nats://127.0.0.1:{port}"
    try:
        wait_until(lambda: asyncio.run(held_by_hub(url, "t1")) == 0, 20, "the hub to start")
        yield url
    finally:
        server.terminate()
        server.wait(20)
        shutil.rmtree(folder, ignore_errors=True)


def test_every_entry_reaches_the_hub_once_and_the_position_ends_on_the_last(
        hub: str, tmp_path: Path) -> None:
    log = GameLog(str(tmp_path / "t1.db"))
    last = play(log, 12)
    entries = log.count_entries()
    assert entries > 2 * BATCH  # more than one read of the log, all in flight at once
    forwarder = Forwarder(log, VenueSettings(hub, "pub", "t1", "t1", "pw"),
                          state=lambda: {"version": 0})
    forwarder.start()
    try:
        wait_until(lambda: forwarder.position == last, 20, "the hub to acknowledge them all")
        # the position is written into the log at most once a second, so a table's own
        # commits are not slowed by the forwarder's; within that second it is written
        wait_until(lambda: log.position(POSITION) == last, POSITION_EVERY + 5,
                   "the position to be kept in the log")
        assert forwarder.status()["waiting"] == 0
    finally:
        forwarder.stop()
    assert asyncio.run(held_by_hub(hub, "t1")) == entries

    # a restarted forwarder starts from the kept position: nothing more is sent
    again = Forwarder(log, VenueSettings(hub, "pub", "t1", "t1", "pw"),
                      state=lambda: {"version": 0})
    assert again.position == last
    again.start()
    time.sleep(1.0)
    again.stop()
    log.close()
    assert asyncio.run(held_by_hub(hub, "t1")) == entries


def test_a_stopping_forwarder_keeps_the_position_it_reached(hub: str, tmp_path: Path) -> None:
    """Stopped within the second between two writes of its position, the forwarder still
    leaves in the log the last entry the hub acknowledged."""
    log = GameLog(str(tmp_path / "t1.db"))
    forwarder = Forwarder(log, VenueSettings(hub, "pub", "t1", "t1", "pw"),
                          state=lambda: {"version": 0})
    forwarder.start()
    try:
        first = play(log, 1, seed=1)
        forwarder.wake()
        wait_until(lambda: log.position(POSITION) == first, POSITION_EVERY + 5,
                   "the first game's position to be kept")
        last = play(log, 1, seed=2)  # within the second: the position is not written yet
        forwarder.wake()
        wait_until(lambda: forwarder.position == last, 20, "the second game's acknowledgement")
    finally:
        forwarder.stop()
    assert log.position(POSITION) == last
    log.close()
