"""The venue under load: 20 simulated tables into one hub on this machine.

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

Each table is two processes in sessions of their own (``venue_tables``): its forwarder at
normal priority, and the writer at the lowest. The hub, the ingester and the screen are each
in a session of their own too (nats-server and PostgreSQL make theirs). The latency is given
to the screen's first ``entry`` event (shown once the hub has it, ``venue_screen.live``) and
to its ``stored`` event (the ingester's commit), ``venue_latency``. The ingester runs a little
lower (``INGEST_NICE``), as its systemd unit has it: the store may lag a moment in a burst,
the live view not. After each phase it prints each part's CPU seconds (``venue_meter``) and
the venue parts' per 1000 entries stored. The figures are appended, dated, to
``benchmarks/results/venue.md`` (``--no-record``: not).
"""

from __future__ import annotations

import datetime
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from venue_latency import latency, read_events, wanted  # noqa: E402
from venue_meter import CpuMeter, children_of, entries_held, free_port, stop_processes  # noqa: E402
from venue_tables import TableProcess, lower_priority  # noqa: E402

from venue.hub import start_hub  # noqa: E402
from venue.pgcluster import PgCluster  # noqa: E402
from venue.relay import Relay  # noqa: E402
from venue.settings import load_venue_config  # noqa: E402

TABLES = 20
FULL_SPEED_SECONDS = 8.0
CUT_SECONDS = 60.0
#: at most this many entries still to store at a pause: the venue kept up (what was in flight)
KEPT_UP = 5
#: the ingester's lower share of the cores, as its systemd unit gives it (CPUWeight=40 of 100;
#: nice 4 is a weight of 423 of 1024): in a finished game's burst, the live view first
INGEST_NICE = 4
#: where a run's figures are appended, dated, with the machine and the code
RESULTS = Path(__file__).resolve().parent / "results" / "venue.md"


def _say(lines: list[str], line: str) -> None:
    """Print one figure now, and keep it for the results file."""
    print(line, flush=True)
    lines.append(line)


def _code() -> str:
    """The checkout's commit (with ``+`` when files differ from it), or "unknown"."""
    here = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--",
                                "venue", "venue_screen", "firmware", "benchmarks/*.py"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("+" if dirty else "")) if head else "unknown"


def record(lines: list[str], kind: str, path: Path = RESULTS) -> None:
    """Append this run's figures to ``path``: one dated heading with the machine, the load
    at the end and the code, then the figures as printed."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0]
    machine = (f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()} "
               f"{platform.release()}, load {load:.2f} at the end")
    with path.open("a", encoding="utf-8") as out:
        out.write(f"\n### {now}, {kind}, code {_code()}, {machine}\n")
        out.writelines(f"- {line}\n" for line in lines)


def main(latency_only: bool = False, record_to: Path | None = RESULTS) -> None:
    """Run the phases and print each figure; append them to ``record_to`` (None: not)."""
    cores = os.cpu_count()
    lines: list[str] = []
    top = Path(tempfile.mkdtemp(prefix="bidou-bench-venue-"))
    top.chmod(0o711)
    procs: list[subprocess.Popen[bytes]] = []
    tables: list[TableProcess] = []
    pg = PgCluster(str(top / "pg"), free_port())
    relay: Relay | None = None
    stop = threading.Event()
    try:
        pg.init()
        pg.start()
        hub_port, screen_port = free_port(), free_port()
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
        threading.Thread(target=read_events, args=(screen, arrivals, stop), daemon=True).start()
        relay = Relay(hub_port)
        tables = [TableProcess(n, top, f"nats://127.0.0.1:{relay.port}", f"pw-{n}", i)
                  for i, n in enumerate(names)]
        for t in tables:  # 20 interpreters importing on 2 busy cores take a while
            if not t.ready.wait(180):
                raise RuntimeError(f"table {t.name}'s process did not start in 180 s")
        time.sleep(2)
        postmaster = int((Path(pg.data) / "postmaster.pid").read_text().split()[0])
        cpu = CpuMeter({"tables": [t.proc.pid for t in tables],
                        "forwarders": [p for t in tables for p in children_of(t.proc.pid)],
                        "hub": [procs[0].pid],
                        "ingester": [procs[1].pid], "screen": [procs[2].pid],
                        "bench": [os.getpid()]}, postmaster, pg.dsn)

        # 1. full speed
        start, held0 = time.monotonic(), entries_held(pg.dsn)
        written0 = sum(t.written for t in tables)
        cpu.phase()
        time.sleep(FULL_SPEED_SECONDS)
        spent, ingested = time.monotonic() - start, entries_held(pg.dsn) - held0
        written = sum(t.written for t in tables) - written0
        full = written / spent
        _say(lines, f"full speed, {TABLES} tables, {cores} cores: tables wrote {full:.0f} "
              f"entries/s, the venue ingested {ingested / spent:.0f} entries/s meanwhile. "
              f"{cpu.phase()}")
        for t in tables:
            t.send("pause")
        time.sleep(0.5)  # the last counts
        start, held0 = time.monotonic(), entries_held(pg.dsn)
        target = wanted(tables)
        while entries_held(pg.dsn) < target and time.monotonic() - start < 300:
            time.sleep(0.25)
        spent = time.monotonic() - start
        backlog = target - held0
        rate = backlog / spent
        kept_up = backlog <= KEPT_UP * TABLES
        if kept_up:
            _say(lines, f"the backlog alone: {backlog} entries, none to measure: the venue kept up "
                  f"with the tables' full speed ({cores} cores). {cpu.phase()}")
        else:
            _say(lines, f"the backlog alone ({backlog} entries): ingested at {rate:.0f} "
                  f"entries/s ({cores} cores). {cpu.phase()}")

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
        _say(lines, latency(tables, arrivals, f"{offered} ({TABLES} tables, {cores} cores)")
              + f". {cpu.phase()}")

        if latency_only:
            return
        # 3. catch-up after a 60 s cut
        relay.cut()
        time.sleep(CUT_SECONDS)
        relay.restore()
        cpu.phase()  # from the link's return
        cut_end = time.monotonic()
        target = wanted(tables)
        while entries_held(pg.dsn) < target and time.monotonic() - cut_end < 300:
            time.sleep(0.25)
        before = time.monotonic() - cut_end
        while (entries_held(pg.dsn) < wanted(tables) - KEPT_UP * TABLES
               and time.monotonic() - cut_end < 300):
            time.sleep(0.25)  # the tables kept playing: until the venue is current again
        behind = wanted(tables) - entries_held(pg.dsn)
        current = (f"{time.monotonic() - cut_end:.1f} s until it was current again"
                   if behind <= KEPT_UP * TABLES else
                   f"still {behind} entries behind after 300 s: it did not catch up at this rate")
        _say(lines, f"catch-up after a {CUT_SECONDS:.0f} s cut {offered}: "
              f"{before:.1f} s until the venue held all {target} entries released before the "
              f"link came back, {current} ({cores} cores). {cpu.phase()}")

        # 4. latency at a pub's pace: one entry a second per table
        for t in tables:
            t.send("rate 1.0")
        paced = time.monotonic()  # the venue catches up first (bounded, as above)
        while (entries_held(pg.dsn) < wanted(tables) - KEPT_UP * TABLES
               and time.monotonic() - paced < 300):
            time.sleep(0.25)
        time.sleep(5)
        cpu.phase()
        _say(lines, latency(tables, arrivals, f"at a pub's pace, 1 entry/s per table ({TABLES} "
                                        f"entries/s, {cores} cores)") + f". {cpu.phase()}",)
    finally:
        stop.set()
        for t in tables:
            t.stop()
        if relay is not None:
            relay.close()
        stop_processes(procs)
        pg.stop()
        shutil.rmtree(top, ignore_errors=True)
        if record_to is not None and lines:
            record(lines, "phases 1-2 (--latency-only)" if latency_only else "full run", record_to)



if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a kill stops its servers too
    main(latency_only="--latency-only" in sys.argv[1:], record_to=None if "--no-record"
         in sys.argv[1:] else RESULTS)
