"""The ports `make venue` and `make league` hand their parts: chosen where no outgoing
connection or port-0 listener can take them before the part binds, and a screen whose port is
taken says so once, naming its own settings."""

from __future__ import annotations

import errno
import socket

import pytest
from flask import Flask

from venue_screen.server import ScreenServer
from web.ports import LOWEST, ephemeral_range, free_port


def test_a_free_port_lies_outside_the_range_the_kernel_hands_out() -> None:
    low, high = ephemeral_range()
    ports = {free_port() for _ in range(50)}
    assert all(LOWEST <= p < low or p > high for p in ports), sorted(ports)
    assert len(ports) > 40  # drawn at random, not the same port each time


def test_a_free_port_is_free_to_listen_on() -> None:
    port = free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
        s.listen(1)


@pytest.mark.parametrize(("who", "hosts", "ports"), [
    ("The venue screen", "[screen] host", "--port or [screen] port"),
    ("The league screen", "--host", "--port"),
])
def test_a_screen_whose_port_is_taken_names_its_own_setting_once(who, hosts, ports) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        server = ScreenServer(Flask("screen"), "127.0.0.1", port, who=who, hosts=hosts,
                              ports=ports)
        with pytest.raises(OSError) as e:
            server.start()
    assert e.value.errno == errno.EADDRINUSE
    assert e.value.strerror == (f"Port {port} on 127.0.0.1 is in use by another program; "
                                f"stop it, or choose a free port with {ports}.")
