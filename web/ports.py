"""Loopback ports for the processes ``make venue`` and ``make league`` start on this machine
(and the tests' servers): one that is free now, and waiting until a started process listens on
its own.

Why a port outside the kernel's ephemeral range: a port the OS hands out for port 0 comes from
that range, the same one every outgoing connection and every other port-0 listener draws from,
so between choosing it and the started process binding it, any of them may take it (a venue's
screen once found its port taken by another program that way). Outside the range only another
program choosing a fixed port can collide, and a random one of about 17,000 rarely does.
"""

from __future__ import annotations

import random
import socket
import time
from pathlib import Path

#: the kernel's ephemeral range where /proc does not say (Linux's default)
EPHEMERAL = (32768, 60999)
#: the lowest port chosen: under it lie the well-known services' ports (NATS 4222, PostgreSQL
#: 5432, the dashboard's 8000-8080)
LOWEST = 20000


def ephemeral_range() -> tuple[int, int]:
    """The ports the kernel hands out for port 0 and outgoing connections, lowest and highest."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return EPHEMERAL


def free_port() -> int:
    """A port nothing listens on now on 127.0.0.1, outside the ephemeral range (module
    docstring); the OS's choice where every port tried outside it is taken."""
    low, high = ephemeral_range()
    outside = [range(LOWEST, low), range(max(high + 1, LOWEST), 65536)]
    ports = [r for r in outside if len(r)]
    chooser = random.SystemRandom()
    for _ in range(100 if ports else 0):
        part = chooser.choices(ports, weights=[len(r) for r in ports])[0]
        port = chooser.choice(part)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float) -> bool:
    """Whether something listens on 127.0.0.1:``port`` within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.2)
    return False
