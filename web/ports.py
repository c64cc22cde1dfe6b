"""Loopback ports for the processes ``make venue`` and ``make league`` start on this machine:
one that is free now, and waiting until a started process listens on its own."""

from __future__ import annotations

import socket
import time


def free_port() -> int:
    """A port nothing listens on now, on 127.0.0.1 (the OS's choice)."""
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
