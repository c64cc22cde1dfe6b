"""The venue under load (issue 36): 20 simulated tables into one hub on this machine.

Each table is the real forwarder (``venue.forwarder``) on its own SQLite log, fed by a writer
that plays random legal games with the engine at full speed and commits every action as the
controller does (``GameLog.append``, ``finish=`` on the last); the camera is left out, it is
the table's own cost. The hub, the ingester and the screen are their own processes, as at a
pub. Figures, printed with the cores this run had:

1. full speed: entries written and ingested per second into PostgreSQL while the tables
   write, then the ingest rate of the backlog alone (the venue's capacity here);
2. at a rate the venue keeps up with (half of 1): commit-on-table to venue-screen SSE event,
   p50/p99. An entry with dice leaves when its game ends, so its latency counts from the
   commit that ended the game (the moment it may leave), not from its own;
3. catch-up: the link of every table cut for 60 s at that rate, then seconds until the
   venue holds every entry again;
4. the latency of 2 at a pub's pace (one entry a second per table).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import psycopg

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.log import GameLog
from firmware.venue_settings import VenueSettings
from firmware.views import dice_in_text
from venue.forwarder import Forwarder
from venue.hub import start_hub
from venue.pgcluster import PgCluster
from venue.relay import Relay
from venue.settings import load_venue_config

TABLES = 20
FULL_SPEED_SECONDS = 8.0
LATENCY_SECONDS = 20.0
CUT_SECONDS = 60.0


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Table:
    """One simulated table: its log, its forwarder, its writer thread."""

    def __init__(self, name: str, folder: Path, url: str, password: str, seed: int):
        self.name = name
        self.log = GameLog(str(folder / f"{name}.db"))
        self.state = {"version": 0, "status": "playing", "seats": []}
        self.forwarder = Forwarder(self.log, VenueSettings(url, "pub", name, name, password),
                                   state=lambda: self.state)
        self.rng = random.Random(seed)
        self.rate = 0.0  # entries a second; 0 = as fast as the log commits
        self.paused = False
        self.released: dict[tuple[int, int], float] = {}  # (game, seq) -> may leave at
        self.written = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, daemon=True)

    def start(self) -> None:
        self.forwarder.start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.forwarder.stop()
        self.log.close()

    def _play(self) -> None:
        while not self._stop.is_set():
            game = new_game("montevideo", ("Ann", "Bob", "Cy"), {})
            gid = self.log.start_game("montevideo", game.players, {}, "now")
            held: list[int] = []
            while not game.over and not self._stop.is_set():
                if self.paused:
                    self._stop.wait(0.1)
                    continue
                action = random_action(game, self.rng)
                game.apply(action)
                finish = ("over", game.state()) if game.over else None
                seq = self.log.append(gid, "action", str(action), "bench", "now",
                                      finish=finish)
                now = time.time()
                if held or dice_in_text(str(action)):
                    held.append(seq)
                else:
                    self.released[(gid, seq)] = now
                if game.over:
                    for s in held:
                        self.released[(gid, s)] = now
                self.written += 1
                self.state = {**self.state, "version": self.written}
                self.forwarder.wake()
                if self.rate:
                    self._stop.wait(1.0 / self.rate)


def _events(screen: str, arrivals: dict[tuple[str, int, int], float],
            stop: threading.Event) -> None:
    """Read the screen's SSE stream, noting when each entry's event arrives."""
    while not stop.is_set():
        with contextlib.suppress(Exception), \
                urllib.request.urlopen(screen + "api/events", timeout=30) as stream:
            kind = None
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "entry":
                    d = json.loads(line[6:])
                    arrivals.setdefault((d["table"], d["game"], d["seq"]), time.time())
                if stop.is_set():
                    return


def _held(dsn: str) -> int:
    with psycopg.connect(dsn) as db:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def _wanted(tables: list[Table]) -> int:
    return sum(len(t.released) for t in tables)


def latency(tables: list[Table], arrivals: dict[tuple[str, int, int], float],
            label: str) -> str:
    """Commit (or release) on the table to the screen's SSE event, over LATENCY_SECONDS."""
    t0 = time.time()
    time.sleep(LATENCY_SECONDS)
    t1 = time.time()
    time.sleep(3)
    lat = sorted(arrivals[(t.name, g, s)] - at for t in tables
                 for (g, s), at in list(t.released.items())
                 if t0 <= at <= t1 and (t.name, g, s) in arrivals)
    if not lat:
        return f"{label}: no entry event reached the screen in {LATENCY_SECONDS:.0f} s"
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    return (f"{label}: commit-on-table to venue-screen event p50 {p50:.0f} ms, "
            f"p99 {p99:.0f} ms ({len(lat)} entries)")


def main() -> None:
    cores = os.cpu_count()
    top = Path(tempfile.mkdtemp(prefix="bidou-bench-venue-"))
    top.chmod(0o711)
    procs: list[subprocess.Popen[bytes]] = []
    tables: list[Table] = []
    pg = PgCluster(str(top / "pg"), _port())
    relay: Relay | None = None
    stop = threading.Event()
    try:
        pg.init()
        pg.start()
        hub_port, screen_port = _port(), _port()
        names = [f"b{i + 1}" for i in range(TABLES)]
        (top / "venue.toml").write_text(
            f'[venue]\nname = "pub"\n[hub]\nport = {hub_port}\nadmin_password = "bench"\n'
            f'[database]\ndsn = "{pg.dsn}"\n[screen]\nport = {screen_port}\n'
            + "".join(f'[tables.{n}]\npassword = "pw-{n}"\n' for n in names))
        config = load_venue_config(str(top / "venue.toml"))
        procs.append(start_hub(config, str(top / "hub")))
        time.sleep(1)
        for cmd in ("ingest", "screen"):
            with open(top / f"{cmd}.log", "ab") as log:
                procs.append(subprocess.Popen([sys.executable, "-m", "venue.cli", cmd,
                                               "--config", str(top / "venue.toml")],
                                              stdout=log, stderr=subprocess.STDOUT))
        time.sleep(3)
        screen = f"http://127.0.0.1:{screen_port}/"
        arrivals: dict[tuple[str, int, int], float] = {}
        threading.Thread(target=_events, args=(screen, arrivals, stop), daemon=True).start()
        relay = Relay(hub_port)
        tables = [Table(n, top, f"nats://127.0.0.1:{relay.port}", f"pw-{n}", i)
                  for i, n in enumerate(names)]
        for t in tables:
            t.start()

        # 1. full speed
        start, held0 = time.monotonic(), _held(pg.dsn)
        time.sleep(FULL_SPEED_SECONDS)
        spent, ingested = time.monotonic() - start, _held(pg.dsn) - held0
        written = sum(t.written for t in tables)
        print(f"full speed, {TABLES} tables, {cores} cores: tables wrote {written / spent:.0f} "
              f"entries/s, the venue ingested {ingested / spent:.0f} entries/s meanwhile")
        for t in tables:
            t.paused = True
        start, held0 = time.monotonic(), _held(pg.dsn)
        target = _wanted(tables)
        while _held(pg.dsn) < target and time.monotonic() - start < 300:
            time.sleep(0.25)
        spent = time.monotonic() - start
        rate = (_held(pg.dsn) - held0) / spent
        print(f"the backlog alone ({target - held0} entries): ingested at {rate:.0f} "
              f"entries/s ({cores} cores)")

        # 2. latency at half the ingest rate
        for t in tables:
            t.rate = max(0.5, rate / 2 / TABLES)
            t.paused = False
        time.sleep(5)
        per_s = rate / 2
        print(latency(tables, arrivals, f"at {per_s:.0f} entries/s offered ({TABLES} tables, "
                                        f"{cores} cores)"))

        # 3. catch-up after a 60 s cut
        relay.cut()
        time.sleep(CUT_SECONDS)
        relay.restore()
        cut_end = time.monotonic()
        target = _wanted(tables)
        while _held(pg.dsn) < target and time.monotonic() - cut_end < 300:
            time.sleep(0.25)
        before = time.monotonic() - cut_end
        while _held(pg.dsn) < _wanted(tables) - 5 * TABLES and time.monotonic() - cut_end < 600:
            time.sleep(0.25)  # the tables kept playing: until the venue is current again
        print(f"catch-up after a {CUT_SECONDS:.0f} s cut at {per_s:.0f} entries/s: "
              f"{before:.1f} s until the venue held all {target} entries released before the "
              f"link came back, {time.monotonic() - cut_end:.1f} s until it was current again "
              f"({cores} cores)")

        # 4. latency at a pub's pace: one entry a second per table
        for t in tables:
            t.rate = 1.0
        while _held(pg.dsn) < _wanted(tables) - 5 * TABLES:
            time.sleep(0.25)
        time.sleep(5)
        print(latency(tables, arrivals, f"at a pub's pace, 1 entry/s per table ({TABLES} "
                                        f"entries/s, {cores} cores)"))
    finally:
        stop.set()
        for t in tables:
            t.stop()
        if relay is not None:
            relay.close()
        for p in reversed(procs):
            p.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(20)
            if p.poll() is None:
                p.kill()
        pg.stop()
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()
