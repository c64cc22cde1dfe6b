"""The venue hub side's CPU per entry, alone: hub, ingester, screen and PostgreSQL.

``bench_venue.py`` runs 20 tables' processes on the same cores as the venue, so its
figures move with what the tables (and anything else on the machine) take. This one
publishes ready-made entries of 20 tables (games played by the engine, each entry sent
as a table's forwarder sends it: dice held until the game's end, message ids and all)
from one process, and reads the CPU seconds each venue part spent per 1000 entries
stored, from /proc (CPU time, not wall clock: the figure holds on a busy machine):

1. steady: ``--rate`` entries a second for ``--seconds``, one open event stream on the
   screen (as the pub's wall has);
2. backlog: the ingester stopped, ``--backlog`` entries published, the ingester started
   again: its drain rate and the CPU per 1000 entries of the drain (the hub's catch-up
   capacity after a cut).

``python benchmarks/bench_hub_cost.py [--rate 1000] [--seconds 20] [--backlog 30000]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import nats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from venue_meter import cpu_by_part, entries_held, free_port, stop_processes  # noqa: E402

from engine.autoplay import random_action  # noqa: E402
from engine.variants import new_game  # noqa: E402
from firmware.gamelog.concealment import dice_in_text  # noqa: E402
from venue.hub import start_hub  # noqa: E402
from venue.messages import EntryMessage, entry_subject  # noqa: E402
from venue.pgcluster import PgCluster  # noqa: E402
from venue.settings import load_venue_config  # noqa: E402

TABLES = 20


def table_entries(table: str, count: int, seed: int) -> list[EntryMessage]:
    """``count`` entries of ``table``'s games in the order its forwarder sends them: an
    entry without dice as it is committed (its game playing), the rest of a game from its
    first entry with dice on at the game's end (its game over, with its result)."""
    rng = random.Random(seed)
    out: list[EntryMessage] = []
    game_id = 0
    while len(out) < count:
        game_id += 1
        game = new_game("montevideo", ("Ann", "Bob", "Cy"), {})
        texts = []
        while not game.over:
            action = random_action(game, rng)
            game.apply(action)
            texts.append(str(action))
        result = game.state()
        held = False
        for seq, text in enumerate(texts, 1):
            held = held or bool(dice_in_text(text))
            over = held or seq == len(texts)
            out.append(EntryMessage(
                "pub", table, f"log-{table}", game_id, seq, "action", text, "bench", "", "now",
                "montevideo", ("Ann", "Bob", "Cy"), {}, "now", "over" if over else "playing",
                "now" if over else None, result if over else None))
    return out[:count]


def interleave(per_table: list[list[EntryMessage]]) -> list[EntryMessage]:
    return [m for group in zip(*per_table, strict=False) for m in group]


async def publish(url: str, messages: list[EntryMessage], rate: float) -> None:
    """Publish in order, at ``rate`` entries a second (0: as fast as the hub acknowledges),
    in groups in flight at once, as the forwarders do."""
    nc = await nats.connect(url, user="venue", password="bench")
    js = nc.jetstream()
    start = time.monotonic()
    group = 100
    for i in range(0, len(messages), group):
        chunk = messages[i:i + group]
        await asyncio.gather(*(js.publish(entry_subject(m.venue, m.table), m.to_bytes(),
                                          headers={"Nats-Msg-Id": m.id}, timeout=10)
                               for m in chunk))
        if rate:
            ahead = start + (i + len(chunk)) / rate - time.monotonic()
            if ahead > 0:
                await asyncio.sleep(ahead)
    await nc.close()


def read_events(url: str, stop: threading.Event, seen: list[int]) -> None:
    """One browser on the screen's event stream: read (and count) every event."""
    while not stop.is_set():
        with contextlib.suppress(Exception), urllib.request.urlopen(url, timeout=30) as s:
            for raw in s:
                if raw.startswith(b"event: "):
                    seen[0] += 1
                if stop.is_set():
                    return


def report(label: str, before: dict[str, float], after: dict[str, float], stored: int,
           wall: float) -> None:
    spent = {k: after[k] - before.get(k, 0.0) for k in after}
    per = ", ".join(f"{k} {v * 1000 / max(stored, 1):.3f}" for k, v in spent.items())
    total = sum(spent.values()) * 1000 / max(stored, 1)
    print(f"{label}: {stored} entries stored in {wall:.1f} s ({stored / wall:.0f}/s); CPU "
          f"seconds per 1000 entries: {per}; hub side together {total:.3f} "
          f"({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})", flush=True)


def wait_held(dsn: str, target: int, limit: float) -> float:
    start = time.monotonic()
    while entries_held(dsn) < target and time.monotonic() - start < limit:
        time.sleep(0.1)
    return time.monotonic() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rate", type=float, default=1000.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--backlog", type=int, default=30000)
    ap.add_argument("--hogs", type=int, default=0, help="processes spinning 9 nicer than the "
                    "venue meanwhile, as the tables' writers in bench_venue (default none)")
    args = ap.parse_args()
    steady_n = int(args.rate * args.seconds)
    per_table = (steady_n + args.backlog) // TABLES + 1
    tables = [table_entries(f"b{i + 1}", per_table, i) for i in range(TABLES)]
    cut = steady_n // TABLES
    steady = interleave([t[:cut] for t in tables])
    backlog = interleave([t[cut:] for t in tables])[:args.backlog]

    top = Path(tempfile.mkdtemp(prefix="bidou-bench-hub-"))
    top.chmod(0o711)
    pg = PgCluster(str(top / "pg"), free_port())
    procs: dict[str, subprocess.Popen[bytes]] = {}
    stop = threading.Event()

    def start(cmd: str) -> subprocess.Popen[bytes]:
        with open(top / f"{cmd}.log", "ab") as log:
            return subprocess.Popen([sys.executable, "-m", "venue.cli", cmd, "--config",
                                     str(top / "venue.toml")], stdout=log,
                                    stderr=subprocess.STDOUT)
    try:
        pg.init()
        pg.start()
        hub_port, screen_port = free_port(), free_port()
        (top / "venue.toml").write_text(
            f'[venue]\nname = "pub"\n[hub]\nport = {hub_port}\nadmin_password = "bench"\n'
            f'[database]\ndsn = "{pg.dsn}"\n[screen]\nport = {screen_port}\n'
            + "".join(f'[tables.b{i + 1}]\npassword = "pw"\nlog_id = "log-b{i + 1}"\n'
                      for i in range(TABLES)))
        config = load_venue_config(str(top / "venue.toml"))
        for i in range(args.hogs):
            procs[f"hog{i}"] = subprocess.Popen(
                [sys.executable, "-c", "import os; os.nice(9)\nwhile True: pass"])
        procs["hub"] = start_hub(config, str(top / "hub"))
        time.sleep(1)
        procs["ingester"], procs["screen"] = start("ingest"), start("screen")
        time.sleep(3)
        seen = [0]
        threading.Thread(target=read_events, daemon=True, args=(
            f"http://127.0.0.1:{screen_port}/api/events", stop, seen)).start()
        url = f"nats://127.0.0.1:{hub_port}"
        postmaster = int((Path(pg.data) / "postmaster.pid").read_text().split()[0])
        parts = {k: [p.pid] for k, p in procs.items() if not k.startswith("hog")}

        t0, c0, h0 = time.monotonic(), cpu_by_part(parts, postmaster), entries_held(pg.dsn)
        asyncio.run(publish(url, steady, args.rate))
        wait_held(pg.dsn, h0 + len(steady), 120)
        time.sleep(1)  # the screen's last events
        report(f"steady, {args.rate:.0f} entries/s offered ({seen[0]} screen events)",
               c0, cpu_by_part(parts, postmaster), entries_held(pg.dsn) - h0, time.monotonic() - t0)

        procs["ingester"].terminate()
        procs["ingester"].wait(20)
        asyncio.run(publish(url, backlog, 0))
        time.sleep(1)
        procs["ingester"] = start("ingest")
        parts["ingester"] = [procs["ingester"].pid]
        c0, h0 = cpu_by_part(parts, postmaster), entries_held(pg.dsn)
        c0["ingester"] = 0.0
        wall = wait_held(pg.dsn, h0 + len(backlog), 300)
        report("backlog drained by a fresh ingester (its start included)", c0,
               cpu_by_part(parts, postmaster), entries_held(pg.dsn) - h0, wall)
    finally:
        stop.set()
        stop_processes(list(procs.values()))
        pg.stop()
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a kill, too, stops its servers
    main()
