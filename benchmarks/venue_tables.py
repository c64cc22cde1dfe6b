"""The venue bench's simulated tables: each table a writer process playing random legal games
into its SQLite log, and its forwarder (the real ``venue.forwarder``) in a process of its own.

Run as a script, this file is one of those children (``table`` or ``forward``); the bench
drives each table through ``TableProcess``. The writer stands for the people playing, whose
play costs the venue nothing, so it runs at the lowest priority (``TABLE_NICE``); the forwarder
is the table's own software, at normal priority as on its own Pi, woken through a pipe at each
commit (at most every ``WAKE_EVERY``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.gamelog.concealment import dice_in_text
from firmware.gamelog.log import GameLog
from firmware.settings.venue_settings import VenueSettings
from venue.forwarder import Forwarder

#: each table's writer runs this much nicer than the venue and the forwarders (docs/venue.md)
TABLE_NICE = 19
#: seconds: a forwarder is woken at most this often (the commits meanwhile go at once)
WAKE_EVERY = 0.01


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
