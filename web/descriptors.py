"""How many connections the dashboard may hold open: sized from the file descriptors it has.

Every open connection is a file descriptor. Under a soft ``RLIMIT_NOFILE`` of 1024 (what a
shell or a plain ``systemd-run`` gives; ``make run`` too) a bound of 2000 connections could
never be reached: past about a thousand idle sockets ``accept`` failed with EMFILE, cheroot's
accept loop restarted on every failure (so its read timeout never expired anybody), and a
new client waited unanswered for as long as the idle sockets stayed open.

So at start the process raises its own soft limit towards the hard one, as Go's runtime and
nginx's ``worker_rlimit_nofile`` do: only as far as the table can use (a soft limit above
1024 breaks any library that still calls ``select()``, so it is not raised further than
needed). It then sizes the connection bound from what it really has: the limit, less the
descriptors already open (log, camera, pins, the interpreter's own), less a reserve for what
opens later, less the event streams (handed over to the broadcaster, so not counted as
connections). One address may hold half of the bound at most.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass

#: Descriptors kept free for what opens after the dashboard starts: the log's WAL and shm
#: files, a camera reopened, GPIO lines, a config written, the accept of one more client.
RESERVE = 128
#: The fewest connections the table runs with, however few descriptors it has (a pub screen
#: and a few phones); below that it would rather meet EMFILE, which it survives, than refuse.
MIN_CONNECTIONS = 16


@dataclass(frozen=True)
class Bound:
    """The connection bound chosen, and what it was chosen from (for the start-up line)."""

    connections: int
    per_address: int
    soft: int
    hard: int
    was: int
    in_use: int
    streams: int

    def sentence(self) -> str:
        raised = f"raised from {self.was}" if self.soft > self.was else "not raised"
        hard = "unlimited" if self.hard == resource.RLIM_INFINITY else str(self.hard)
        return (f"Connections:      at most {self.connections} open at once, "
                f"{self.per_address} from one address (open-file limit {self.soft}, {raised}; "
                f"hard limit {hard}; {self.in_use} open now, {RESERVE} kept for the log, "
                f"camera and pins, {self.streams} for event streams)")


def descriptors_in_use() -> int:
    """How many file descriptors this process has open now (0 where it cannot be told)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return max(0, len(os.listdir(folder)) - 1)  # less the one listdir opened
        except OSError:
            continue
    return 0


def raise_open_file_limit(wanted: int) -> tuple[int, int, int]:
    """Raise the soft ``RLIMIT_NOFILE`` to ``wanted``, or to the hard limit if that is lower
    (never lower it); (soft now, hard, soft before)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # a hard limit this process may not reach after all
            return soft, hard, soft
        return target, hard, soft
    return soft, hard, soft


def choose_bound(max_connections: int, streams: int) -> Bound:
    """Raise the limit as far as ``max_connections`` and ``streams`` need, then the bound."""
    in_use = descriptors_in_use()
    soft, hard, was = raise_open_file_limit(in_use + RESERVE + streams + max_connections)
    room = (max_connections if soft == resource.RLIM_INFINITY
            else soft - in_use - RESERVE - streams)
    connections = min(max_connections, max(MIN_CONNECTIONS, room))
    return Bound(connections, max(1, connections // 2), soft, hard, was, in_use, streams)
