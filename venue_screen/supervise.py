"""`bidou-venue up`'s parts kept running as the systemd units keep a pub's (``Restart=``):
a part that stops is started again after a short pause, and it is said in the output.

Why: under ``make venue`` one crashed part (kill -9 of the ingester) would otherwise stop the
whole venue, tables included. A pub's units restart a part on its own and the tables never
notice; the hub keeps what they send meanwhile, and the ingester and the screen start from
what the hub and PostgreSQL hold. The pause doubles at each restart in a row (1, 2, 4, 8 s at
most), and is back to 1 s once a part has run a minute.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

#: seconds before a stopped part is started again: its first restart in a row, and at most
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 8.0
#: seconds a part must run for its next stop to count as a first one again
SETTLED = 60.0


class Part:
    """One process of the venue and how to start it again."""

    def __init__(self, name: str, start: Callable[[], subprocess.Popen[bytes]], log: Path,
                 clock: Callable[[], float]) -> None:
        self.name, self.start, self.log, self.clock = name, start, log, clock
        self.proc = start()
        self.started = clock()
        self.restarts = 0  # in a row
        self.due: float | None = None  # when it is to start again, once stopped

    def pause(self) -> float:
        return min(LONGEST_PAUSE, FIRST_PAUSE * 2 ** self.restarts)


class Supervisor:
    """The parts of one venue; :meth:`watch` is called every fraction of a second."""

    def __init__(self, say: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.say, self.clock = say, clock
        self.parts: list[Part] = []

    def add(self, name: str, start: Callable[[], subprocess.Popen[bytes]], log: Path) -> Part:
        """Start a part now, and keep it running."""
        part = Part(name, start, log, self.clock)
        self.parts.append(part)
        return part

    def spawn(self, name: str, cmd: list[str], log: Path) -> Part:
        """Start the command ``cmd`` now as a part, its output appended to ``log``, in a
        session of its own (a Ctrl-C at the terminal reaches this process only, which stops
        the parts in order), and keep it running."""

        def start() -> subprocess.Popen[bytes]:
            with open(log, "ab") as out:
                return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                        start_new_session=True)

        return self.add(name, start, log)

    def watch(self) -> None:
        """Notice the parts that stopped, and start those whose pause is over."""
        now = self.clock()
        for part in self.parts:
            if part.due is None and part.proc.poll() is not None:
                if now - part.started >= SETTLED:
                    part.restarts = 0
                part.due = now + part.pause()
                self.say(f"bidou-venue up: the {part.name} stopped (exit {part.proc.returncode})"
                         f"; starting it again in {part.pause():g} s (see {part.log}).")
            elif part.due is not None and now >= part.due:
                try:
                    part.proc = part.start()
                except OSError as e:
                    part.restarts += 1
                    part.due = now + part.pause()
                    self.say(f"bidou-venue up: the {part.name} could not start ({e}); trying "
                             f"again in {part.pause():g} s.")
                    continue
                part.restarts += 1
                part.started, part.due = now, None
                self.say(f"bidou-venue up: the {part.name} is running again (pid "
                         f"{part.proc.pid}, restart {part.restarts} in a row).")

    def stop_all(self) -> None:
        """Stop every part, the last added first (the tables, then the venue's parts)."""
        for part in reversed(self.parts):
            if part.proc.poll() is None:
                part.proc.terminate()
        for part in reversed(self.parts):
            try:
                part.proc.wait(30)
            except subprocess.TimeoutExpired:
                part.proc.kill()
                part.proc.wait(5)
