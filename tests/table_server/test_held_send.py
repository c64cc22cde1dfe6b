"""``send_holding_lock`` behaves as ``socket.send`` does: how much was taken, BlockingIOError
when the socket takes nothing, OSError once the peer has gone."""

from __future__ import annotations

import socket

import pytest

from table_server.streams.held_send import send_holding_lock


def test_it_sends_and_says_how_much() -> None:
    a, b = socket.socketpair()
    with a, b:
        a.setblocking(False)
        assert send_holding_lock(a, b"hello") == 5
        assert b.recv(16) == b"hello"
        assert send_holding_lock(a, bytearray(b"buffer")) == 6  # not bytes: socket.send
        assert b.recv(16) == b"buffer"


def test_a_full_socket_takes_nothing_and_a_gone_peer_is_an_error() -> None:
    a, b = socket.socketpair()
    with a:
        a.setblocking(False)
        with pytest.raises(BlockingIOError):
            while True:
                send_holding_lock(a, b"x" * 65536)
        b.close()
        with pytest.raises(OSError):
            send_holding_lock(a, b"x")
