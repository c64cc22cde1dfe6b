"""The venue under load (issue 36): 20 simulated tables into one hub on this machine.

Each table is the real forwarder (``venue.forwarder``) on its own SQLite log, fed by a writer
that plays random legal games with the engine at full speed and commits every action as the
controller does (``GameLog.append``, ``finish=`` on the last); the camera is left out, it is
the table's own cost. The hub, the ingester and the screen are their own processes, as at a
pub. Figures, printed with the cores this run had:

1. full speed: entries written and ingested per second into PostgreSQL while the tables
   write, then the ingest rate of the backlog alone (the venue's capacity here);
2. at full speed if the venue kept up with it in 1, else at a rate the venue keeps up
   with (half of the backlog rate of 1, or half of what the tables wrote at full speed if
   that is less: a rate they cannot write is full speed again): commit-on-table to
   venue-screen SSE event, p50/p99, with the rate released.
   An entry with dice leaves when its game ends, so its latency counts from the commit
   that ended the game (the moment it may leave), not from its own. Most entries leave
   so, dozens to hundreds at once (printed): the p99 is the last of the largest of them;
3. catch-up: the link of every table cut for 60 s at that rate, then seconds until the
   venue holds every entry again;
4. the latency of 2 at a pub's pace (one entry a second per table).

``--latency-only`` stops after 2 (a few minutes less, to compare changes to the live path).

Each table is two processes, each in a session of its own: its forwarder, the table's
software, at normal priority as on its own Pi, woken through a pipe at each commit (at most
every ``WAKE_EVERY``); and the writer, which stands for the people playing, whose play costs
the venue nothing: it runs at the lowest priority (``TABLE_NICE``, for the process and, where
the kernel groups the cores by session (``/proc/self/autogroup``), for its session). The
hub, the ingester and the screen are each in a session of their own too (nats-server and
PostgreSQL make theirs). The latency is given to the screen's first ``entry`` event (shown
once the hub has it, ``venue_screen.live``) and to its ``stored`` event (the ingester's
commit). The ingester runs a little lower (``INGEST_NICE``), as its systemd unit has it: the
store may lag a moment in a burst, the live view not. After each phase it prints each
part's CPU seconds (from /proc) and the venue parts' per 1000 entries stored.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

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


def this_script(*args: str, **popen: Any) -> subprocess.Popen:
    """This file run as a child (``table`` or ``forward``), in a session of its own, able to
    import the project's packages from wherever the bench was started."""
    return subprocess.Popen(
        [sys.executable, __file__, *args], start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}, **popen)


class Table:
    """One simulated table's writer (in a child process, ``table_main``): its log, and its
    forwarder in a process of its own (``forward_main``), woken through a pipe."""

    def __init__(self, name: str, folder: Path, url: str, password: str, seed: int):
        self.name = name
        self.log = GameLog(str(folder / f"{name}.db"))
        self.forwarder = this_script("forward", name, str(folder), url, password,
                                     stdin=subprocess.PIPE)
        assert self.forwarder.stdin is not None
        self._wake_fd = self.forwarder.stdin.fileno()
        os.set_blocking(self._wake_fd, False)  # a full pipe already holds a wake
        self.rng = random.Random(seed)
        self.rate = 0.0  # entries a second; 0 = as fast as the log commits
        self.paused = False
        self.released: dict[tuple[int, int], float] = {}  # (game, seq) -> may leave at
        self.written = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, daemon=True)

    def start(self) -> None:
        """Play, once the forwarder is connected to the hub."""
        ready = Path(self.log.path + ".forwarding")
        while not ready.exists() and self.forwarder.poll() is None:
            time.sleep(0.1)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        assert self.forwarder.stdin is not None
        self.forwarder.stdin.close()  # the forwarder drains and stops
        try:
            self.forwarder.wait(20)
        except subprocess.TimeoutExpired:
            self.forwarder.kill()
        self.log.close()

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_fd, b"w")

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
                self._wake()
                if self.rate:
                    self._stop.wait(1.0 / self.rate)


def table_main(name: str, folder: str, url: str, password: str, seed: int) -> None:
    """A child process: one table, told what to do on stdin (``rate R``, ``pause``,
    ``resume``, ``dump PATH``, ``stop``), saying ``written released`` on stdout four times
    a second. It runs at the lowest priority, its session too: it stands for the people
    playing, whose play costs the venue nothing."""
    lower_priority(os.getpid(), TABLE_NICE)
    table = Table(name, Path(folder), url, password, seed)
    table.start()
    done = threading.Event()

    said = threading.Lock()

    def say(line: str) -> None:  # one whole line at a time from two threads
        with said:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def report() -> None:
        while not done.wait(0.25):
            say(f"count {table.written} {len(table.released)}")

    threading.Thread(target=report, daemon=True).start()
    for line in sys.stdin:
        word, _, arg = line.strip().partition(" ")
        if word == "rate":
            table.rate = float(arg)
        elif word == "pause":
            table.paused = True
        elif word == "resume":
            table.paused = False
        elif word == "dump":
            Path(arg).write_text(json.dumps([[g, q, at] for (g, q), at
                                             in list(table.released.items())]))
            say("dumped")
        elif word == "stop":
            break
    done.set()
    table.stop()


#: at most this many entries still to store at a pause: the venue kept up (what was in flight)
KEPT_UP = 5
#: each table's writer runs this much nicer than the venue and the forwarders (docs/venue.md)
TABLE_NICE = 19
#: the ingester's lower share of the cores, as its systemd unit gives it (CPUWeight=40 of 100;
#: nice 4 is a weight of 423 of 1024): in a finished game's burst, the live view first
INGEST_NICE = 4
#: seconds: a forwarder is woken at most this often (the commits meanwhile go at once)
WAKE_EVERY = 0.01


def lower_priority(pid: int, nice: int) -> None:
    """Run process ``pid`` (a session leader) ``nice`` lower, its session's autogroup too
    where the kernel groups the cores by session (Linux): there, a process's own nice
    weighs only against its own session's."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/autogroup").write_text(str(nice))
    os.setpriority(os.PRIO_PROCESS, pid, nice)


class TableProcess:
    """The bench's handle on a table's child process."""

    def __init__(self, name: str, folder: Path, url: str, password: str, seed: int):
        self.name = name
        self.folder = folder
        self.written = 0
        self.released = 0
        self._dumped = threading.Event()
        self.ready = threading.Event()  # its first count: imported and playing
        self.proc = this_script("table", name, str(folder), url, password, str(seed),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            parts = line.split()
            if parts[:1] == ["count"]:
                self.written, self.released = int(parts[1]), int(parts[2])
                self.ready.set()
            elif parts[:1] == ["dumped"]:
                self._dumped.set()

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()

    def released_at(self) -> dict[tuple[int, int], float]:
        """When each entry of this table became free to leave (its commit, or its game's end)."""
        path = self.folder / f"{self.name}.released.json"
        self._dumped.clear()
        self.send(f"dump {path}")
        self._dumped.wait(30)
        return {(g, q): at for g, q, at in json.loads(path.read_text())}

    def stop(self) -> None:
        self.send("stop")
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def _events(screen: str, arrivals: dict[str, dict[tuple[str, int, int], float]],
            stop: threading.Event) -> None:
    """Read the screen's SSE stream, noting when each entry is first shown (``entry``) and
    when it is stored (``stored``). Read as a browser's EventSource does, in whatever the
    socket holds at once (``read1``), not a line at a time: the instrument's own cost would
    be counted in the latency it measures (a finished game's burst is hundreds of events)."""
    while not stop.is_set():
        with contextlib.suppress(Exception), \
                urllib.request.urlopen(screen + "api/events", timeout=30) as stream:
            rest = b""
            while not stop.is_set():
                data = stream.read1(1 << 16)
                if not data:
                    break
                now = time.time()
                *events, rest = (rest + data).split(b"\n\n")
                for event in events:
                    _note(event, now, arrivals)


def _note(event: bytes, now: float,
          arrivals: dict[str, dict[tuple[str, int, int], float]]) -> None:
    """One SSE event (``event: KIND`` then ``data: JSON``) received at ``now``."""
    kind, data = None, None
    for line in event.split(b"\n"):
        if line.startswith(b"event: "):
            kind = line[7:].decode()
        elif line.startswith(b"data: "):
            data = line[6:]
    if kind not in arrivals or data is None:
        return
    d = json.loads(data)
    key = (d["table"], d["game"], d["seq"])
    arrivals[kind].setdefault(key, now)
    if kind == "entry" and d.get("stored") is False:
        arrivals["live"][key] = arrivals[kind][key]
        if isinstance(d.get("hub_at"), (int, float)):
            arrivals["hub"][key] = d["hub_at"]


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of one process so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def cpu_by_part(parts: dict[str, list[int]], postmaster: int) -> dict[str, float]:
    """CPU seconds so far of each part's processes and of PostgreSQL's (postmaster, children)."""
    now = {name: sum(_cpu_seconds(p) for p in pids) for name, pids in parts.items()}
    now["postgres"] = sum(_cpu_seconds(p) for p in [postmaster, *_children(postmaster)])
    return now


def _busy_seconds() -> float:
    """CPU seconds every core of the machine has been busy since boot (/proc/stat), whoever
    ran: less the parts' own, what other processes (another session's jobs) and the kernel
    (this run's loopback traffic and disk writes among it) took from the run's cores."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


#: the venue's own parts, whose CPU per entry stored the bench prints
HUB_SIDE = ("ingester", "postgres", "hub", "screen")


class CpuMeter:
    """CPU seconds each part of the run spent in a phase, read from /proc: on one machine
    the 20 tables' processes and the venue's share its cores, which a pub's do not."""

    def __init__(self, parts: dict[str, list[int]], postmaster: int, dsn: str) -> None:
        self.parts = parts
        self.postmaster = postmaster
        self.dsn = dsn
        self.last = cpu_by_part(self.parts, self.postmaster)
        self.busy = _busy_seconds()
        self.at = time.monotonic()
        self.held = _held(dsn)

    def phase(self) -> str:
        """The CPU seconds of each part since the last call, and the cores' seconds; and,
        for the venue's parts, per 1000 entries stored meanwhile (the hub side's cost of an
        entry, whatever the wall clock and the machine's other load did)."""
        now, at, held = cpu_by_part(self.parts, self.postmaster), time.monotonic(), _held(self.dsn)
        busy = _busy_seconds()
        spent = {k: max(0.0, now[k] - self.last.get(k, 0.0)) for k in now}
        wall, stored = at - self.at, held - self.held
        other = max(0.0, busy - self.busy - sum(spent.values()))
        self.last, self.at, self.held, self.busy = now, at, held, busy
        parts = ", ".join(f"{k} {v:.1f}" for k, v in sorted(spent.items(), key=lambda kv: -kv[1]))
        per = ", ".join(f"{k} {spent[k] * 1000 / stored:.2f}" for k in HUB_SIDE
                        if k in spent) if stored >= 1000 else "too few to say"
        return (f"CPU seconds in it: {parts} (of {os.cpu_count()} cores x {wall:.1f} s = "
                f"{(os.cpu_count() or 1) * wall:.1f}; other processes and the kernel took "
                f"{other:.1f}, the rest was idle); "
                f"{stored} entries stored, CPU seconds per 1000 of them: {per}")


def _held(dsn: str) -> int:
    with psycopg.connect(dsn) as db:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def _wanted(tables: list[TableProcess]) -> int:
    return sum(t.released for t in tables)


def _percentiles(lat: list[float]) -> str:
    if not lat:
        return "no event"
    lat = sorted(lat)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    return f"p50 {p50:.0f} ms, p99 {p99:.0f} ms"


def latency(tables: list[TableProcess], arrivals: dict[str, dict[tuple[str, int, int], float]],
            label: str) -> str:
    """Commit (or release) on the table to the screen's SSE events, over LATENCY_SECONDS:
    to the entry shown (live from the hub) and to the entry stored (PostgreSQL)."""
    t0 = time.time()
    time.sleep(LATENCY_SECONDS)
    t1 = time.time()
    time.sleep(3)
    released = [(t.name, g, s, at) for t in tables for (g, s), at in t.released_at().items()
                if t0 <= at <= t1]
    shown = [arrivals["entry"][(n, g, s)] - at for n, g, s, at in released
             if (n, g, s) in arrivals["entry"]]
    stored = [arrivals["stored"][(n, g, s)] - at for n, g, s, at in released
              if (n, g, s) in arrivals["stored"]]
    if not shown:
        return f"{label}: no entry event reached the screen in {LATENCY_SECONDS:.0f} s"
    live = sum((n, g, s) in arrivals["live"] for n, g, s, _ in released)
    hub = arrivals["hub"]
    to_hub = [hub[(n, g, s)] - at for n, g, s, at in released if (n, g, s) in hub]
    from_hub = [arrivals["live"][k] - hub[k] for n, g, s, _ in released
                if (k := (n, g, s)) in hub and k in arrivals["live"]]
    label += f", {len(released) / (t1 - t0):.0f} entries/s released"
    together = sorted(collections.Counter((n, at) for n, _, _, at in released).values())
    return (f"{label}: commit-on-table to venue-screen entry event {_percentiles(shown)} "
            f"({len(shown)} of {len(released)} entries, {live} of them shown live from the "
            f"hub, the rest from the store); to its stored event {_percentiles(stored)} "
            f"({len(stored)}). Split of the live path: release to stored on the hub "
            f"{_percentiles(to_hub)} (the tables' forwarders and the hub), hub to screen "
            f"event {_percentiles(from_hub)} (the screen and its event stream); entries "
            f"released at once (a game's end lets its dice go): median "
            f"{statistics.median(together):.0f}, most {together[-1]}")


def stop_processes(procs: list[subprocess.Popen[bytes]]) -> None:
    """Terminate the venue's parts, the last started first; kill what is up after 20 s."""
    for p in reversed(procs):
        p.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(20)
        if p.poll() is None:
            p.kill()


def main(latency_only: bool = False) -> None:
    cores = os.cpu_count()
    top = Path(tempfile.mkdtemp(prefix="bidou-bench-venue-"))
    top.chmod(0o711)
    procs: list[subprocess.Popen[bytes]] = []
    tables: list[TableProcess] = []
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
        for cmd in ("ingest", "screen"):  # each in a session of its own, as the hub is
            with open(top / f"{cmd}.log", "ab") as log:
                procs.append(subprocess.Popen([sys.executable, "-m", "venue.cli", cmd,
                                               "--config", str(top / "venue.toml")],
                                              stdout=log, stderr=subprocess.STDOUT,
                                              start_new_session=True))
        lower_priority(procs[1].pid, INGEST_NICE)
        time.sleep(3)
        screen = f"http://127.0.0.1:{screen_port}/"
        arrivals: dict[str, dict[tuple[str, int, int], float]] = {
            "entry": {}, "stored": {}, "live": {}, "hub": {}}
        threading.Thread(target=_events, args=(screen, arrivals, stop), daemon=True).start()
        relay = Relay(hub_port)
        tables = [TableProcess(n, top, f"nats://127.0.0.1:{relay.port}", f"pw-{n}", i)
                  for i, n in enumerate(names)]
        for t in tables:  # 20 interpreters importing on 2 busy cores take a while
            if not t.ready.wait(180):
                raise RuntimeError(f"table {t.name}'s process did not start in 180 s")
        time.sleep(2)
        postmaster = int((Path(pg.data) / "postmaster.pid").read_text().split()[0])
        cpu = CpuMeter({"tables": [t.proc.pid for t in tables],
                        "forwarders": [p for t in tables for p in _children(t.proc.pid)],
                        "hub": [procs[0].pid],
                        "ingester": [procs[1].pid], "screen": [procs[2].pid],
                        "bench": [os.getpid()]}, postmaster, pg.dsn)

        # 1. full speed
        start, held0 = time.monotonic(), _held(pg.dsn)
        written0 = sum(t.written for t in tables)
        cpu.phase()
        time.sleep(FULL_SPEED_SECONDS)
        spent, ingested = time.monotonic() - start, _held(pg.dsn) - held0
        written = sum(t.written for t in tables) - written0
        full = written / spent
        print(f"full speed, {TABLES} tables, {cores} cores: tables wrote {full:.0f} "
              f"entries/s, the venue ingested {ingested / spent:.0f} entries/s meanwhile. "
              f"{cpu.phase()}", flush=True)
        for t in tables:
            t.send("pause")
        time.sleep(0.5)  # the last counts
        start, held0 = time.monotonic(), _held(pg.dsn)
        target = _wanted(tables)
        while _held(pg.dsn) < target and time.monotonic() - start < 300:
            time.sleep(0.25)
        spent = time.monotonic() - start
        backlog = target - held0
        rate = backlog / spent
        kept_up = backlog <= KEPT_UP * TABLES
        if kept_up:
            print(f"the backlog alone: {backlog} entries, none to measure: the venue kept up "
                  f"with the tables' full speed ({cores} cores). {cpu.phase()}", flush=True)
        else:
            print(f"the backlog alone ({backlog} entries): ingested at {rate:.0f} "
                  f"entries/s ({cores} cores). {cpu.phase()}", flush=True)

        # 2. latency at full speed when the venue kept up with it; otherwise at half the
        # ingest rate, or half what the tables can write here if that is less (an offered
        # rate the tables cannot reach would be full speed again)
        per_s = 0.0 if kept_up else min(rate, full) / 2
        for t in tables:
            t.send(f"rate {max(0.5, per_s / TABLES) if per_s else 0}")
            t.send("resume")
        time.sleep(5)
        cpu.phase()
        offered = "at full speed" if kept_up else f"at {per_s:.0f} entries/s offered"
        print(latency(tables, arrivals, f"{offered} ({TABLES} tables, {cores} cores)")
              + f". {cpu.phase()}", flush=True)

        if latency_only:
            return
        # 3. catch-up after a 60 s cut
        relay.cut()
        time.sleep(CUT_SECONDS)
        relay.restore()
        cpu.phase()  # from the link's return
        cut_end = time.monotonic()
        target = _wanted(tables)
        while _held(pg.dsn) < target and time.monotonic() - cut_end < 300:
            time.sleep(0.25)
        before = time.monotonic() - cut_end
        while (_held(pg.dsn) < _wanted(tables) - KEPT_UP * TABLES
               and time.monotonic() - cut_end < 300):
            time.sleep(0.25)  # the tables kept playing: until the venue is current again
        behind = _wanted(tables) - _held(pg.dsn)
        current = (f"{time.monotonic() - cut_end:.1f} s until it was current again"
                   if behind <= KEPT_UP * TABLES else
                   f"still {behind} entries behind after 300 s: it did not catch up at this rate")
        print(f"catch-up after a {CUT_SECONDS:.0f} s cut {offered}: "
              f"{before:.1f} s until the venue held all {target} entries released before the "
              f"link came back, {current} ({cores} cores). {cpu.phase()}", flush=True)

        # 4. latency at a pub's pace: one entry a second per table
        for t in tables:
            t.send("rate 1.0")
        paced = time.monotonic()  # the venue catches up first (bounded, as above)
        while (_held(pg.dsn) < _wanted(tables) - KEPT_UP * TABLES
               and time.monotonic() - paced < 300):
            time.sleep(0.25)
        time.sleep(5)
        cpu.phase()
        print(latency(tables, arrivals, f"at a pub's pace, 1 entry/s per table ({TABLES} "
                                        f"entries/s, {cores} cores)") + f". {cpu.phase()}",
              flush=True)
    finally:
        stop.set()
        for t in tables:
            t.stop()
        if relay is not None:
            relay.close()
        stop_processes(procs)
        pg.stop()
        shutil.rmtree(top, ignore_errors=True)


def forward_main(name: str, folder: str, url: str, password: str) -> None:
    """A child process of a table's: its forwarder (the real ``venue.forwarder``) on the
    table's log, woken by a byte on stdin per commit, and stopped when stdin closes."""
    path = str(Path(folder) / f"{name}.db")
    log = GameLog(path, exclusive=False)  # the writer's process holds the table's lock
    changes = 0

    def state() -> dict[str, Any]:  # changes at every commit, as a table's does
        return {"version": changes, "status": "playing", "seats": []}

    forwarder = Forwarder(log, VenueSettings(url, "pub", name, name, password), state=state)
    forwarder.start()
    while not forwarder.connected:
        time.sleep(0.05)
    Path(path + ".forwarding").write_text("connected\n")
    while data := os.read(0, 1 << 16):
        changes += len(data)
        forwarder.wake()
        time.sleep(WAKE_EVERY)
    forwarder.stop()
    log.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["forward"]:
        forward_main(*sys.argv[2:6])
    elif sys.argv[1:2] == ["table"]:
        table_main(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a kill stops its servers too
        main(latency_only="--latency-only" in sys.argv[1:])
