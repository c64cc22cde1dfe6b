"""`make venue`'s contract from outside (docs/venue.md): it prints ``Venue screen: URL`` and one
``Table NAME: URL`` per table, the tables are their own ``bidou-table run --port`` processes,
and Ctrl-C stops every part it started, leaving no process behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest
from venue_harness import wait_until

pytestmark = pytest.mark.slow


def children_of(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


def test_make_venue_prints_the_addresses_and_ctrl_c_leaves_nothing(pg_cluster: object) -> None:
    # pytest's tmp_path is not passable for PostgreSQL's unprivileged user: our own folder
    top = Path(tempfile.mkdtemp(prefix="bidou-make-venue-"))
    top.chmod(0o711)
    folder = top / "venue-data"
    proc = subprocess.Popen([sys.executable, "-m", "venue.cli", "up", "--tables", "2",
                             "--folder", str(folder), "--pace", "0.05"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        while not any(line.startswith("Logs and data") for line in lines):
            line = proc.stdout.readline()
            assert line, f"make venue ended early: {''.join(lines)}"
            lines.append(line)
        screen = next(x for x in lines if x.startswith("Venue screen: ")).split()[-1]
        tables = {x.split()[1].rstrip(":"): x.split()[-1] for x in lines
                  if x.startswith("Table ")}
        assert sorted(tables) == ["t1", "t2"]
        kids = children_of(proc.pid)
        runs = [p for p in kids
                if b"bidou-table\x00run" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert len(runs) == 2  # each table its own bidou-table run process
        for url in tables.values():
            with urllib.request.urlopen(url + "api/state", timeout=10) as r:
                assert json.loads(r.read())["status"] == "playing"

        def both_online() -> bool:
            with urllib.request.urlopen(screen + "api/tables", timeout=10) as r:
                return all(t["online"] for t in json.loads(r.read()))

        wait_until(both_online, 60, "both tables online on the venue screen")
        pg_pid = int((folder / "pg" / "data" / "postmaster.pid").read_text().split()[0])
        proc.send_signal(signal.SIGINT)
        proc.wait(90)
        assert proc.returncode == 0
        left = [p for p in kids | {pg_pid} if alive(p)]
        assert left == [], f"processes left behind: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        shutil.rmtree(folder.parent, ignore_errors=True)
