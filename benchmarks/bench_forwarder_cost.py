"""A table's forwarder's CPU per entry: a log of finished games sent whole to a hub.

The forwarder (``venue.forwarder``) is each table's own software, on its own Pi at a pub;
on one machine (``bench_venue.py``) its CPU is taken from the venue's. This writes
``--entries`` entries of finished montevideo games into a fresh SQLite log, then starts the
forwarder against a real hub and reads this process's CPU seconds (``getrusage``, CPU time,
not wall clock) until the hub has acknowledged every entry: the cost of a catch-up after a
cut, per 1000 entries.

``python benchmarks/bench_forwarder_cost.py [--entries 20000]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import nats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from venue_meter import cpu_seconds, free_port  # noqa: E402

from engine.autoplay import random_action  # noqa: E402
from engine.variants import new_game  # noqa: E402
from firmware.gamelog.log import GameLog  # noqa: E402
from firmware.settings.venue_settings import VenueSettings  # noqa: E402
from venue.forwarder import Forwarder  # noqa: E402
from venue.hub import ensure_streams, start_hub  # noqa: E402
from venue.outbox import POSITION  # noqa: E402
from venue.settings import VenueConfig, load_venue_config  # noqa: E402


def write_games(log: GameLog, entries: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    written = 0
    while written < entries:
        game = new_game("montevideo", ("Ann", "Bob", "Cy"), {})
        gid = log.start_game("montevideo", game.players, {}, "now")
        while not game.over:
            action = random_action(game, rng)
            game.apply(action)
            log.append(gid, "action", str(action), "bench", "now",
                       finish=("over", game.state()) if game.over else None)
            written += 1


async def make_streams(url: str, config: VenueConfig) -> None:
    """The streams, as the ingester makes them at a venue."""
    nc = await nats.connect(url, user="venue", password="bench")
    await ensure_streams(nc.jetstream(), config)
    await nc.close()


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--entries", type=int, default=20000)
    args = ap.parse_args()
    top = Path(tempfile.mkdtemp(prefix="bidou-bench-fwd-"))
    hub = None
    try:
        port = free_port()
        (top / "venue.toml").write_text(
            f'[venue]\nname = "pub"\n[hub]\nport = {port}\nadmin_password = "bench"\n'
            '[database]\ndsn = "host=127.0.0.1"\n[tables.t1]\npassword = "pw"\n')
        config = load_venue_config(str(top / "venue.toml"))
        hub = start_hub(config, str(top / "hub"))
        log = GameLog(str(top / "t1.db"))
        write_games(log, args.entries)
        last = log.entries_after(0, 10**9)[-1][0]
        time.sleep(1)
        asyncio.run(make_streams(f"nats://127.0.0.1:{port}", config))
        forwarder = Forwarder(log, VenueSettings(f"nats://127.0.0.1:{port}", "pub", "t1", "t1",
                                                 "pw"), state=lambda: {"version": 0})
        c0, h0, t0 = cpu(), cpu_seconds(hub.pid), time.monotonic()
        forwarder.start()
        while log.position(POSITION) < last and time.monotonic() - t0 < 300:
            time.sleep(0.05)
        wall, spent, hub_spent = time.monotonic() - t0, cpu() - c0, cpu_seconds(hub.pid) - h0
        per = 1000 / args.entries
        print(f"forwarder: {args.entries} entries sent in {wall:.1f} s "
              f"({args.entries / wall:.0f}/s; position {log.position(POSITION)} of {last}); "
              f"CPU seconds per 1000 entries: forwarder's process {spent * per:.3f}, hub "
              f"{hub_spent * per:.3f}", flush=True)
        forwarder.stop()
        log.close()
    finally:
        if hub is not None:
            hub.terminate()
            hub.wait(20)
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a kill, too, stops its servers
    main()
