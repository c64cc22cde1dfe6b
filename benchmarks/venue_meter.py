"""What the venue bench measures its parts with: a free port, each part's CPU seconds read from
/proc, the cores' busy time, and the entries PostgreSQL holds.

On one machine the 20 simulated tables and the venue share the cores, which a pub's do not, so
the benches (``bench_venue``, ``bench_hub_cost``, ``bench_forwarder_cost``) say what each part
took, not only the wall clock.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
from pathlib import Path

import psycopg


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of one process so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def cpu_by_part(parts: dict[str, list[int]], postmaster: int) -> dict[str, float]:
    """CPU seconds so far of each part's processes and of PostgreSQL's (postmaster, children)."""
    now = {name: sum(cpu_seconds(p) for p in pids) for name, pids in parts.items()}
    now["postgres"] = sum(cpu_seconds(p) for p in [postmaster, *children_of(postmaster)])
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
        self.held = entries_held(dsn)

    def phase(self) -> str:
        """The CPU seconds of each part since the last call, and the cores' seconds; and,
        for the venue's parts, per 1000 entries stored meanwhile (the hub side's cost of an
        entry, whatever the wall clock and the machine's other load did)."""
        now, at = cpu_by_part(self.parts, self.postmaster), time.monotonic()
        held = entries_held(self.dsn)
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


def entries_held(dsn: str) -> int:
    with psycopg.connect(dsn) as db:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])



def stop_processes(procs: list[subprocess.Popen[bytes]]) -> None:
    """Terminate the venue's parts, the last started first; kill what is up after 20 s."""
    for p in reversed(procs):
        p.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(20)
        if p.poll() is None:
            p.kill()

