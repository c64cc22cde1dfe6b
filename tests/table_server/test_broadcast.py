"""The broadcaster: one thread writes every event stream; a viewer that stops reading is
dropped once too much waits for it, and holds nobody else up; stop ends every stream."""

from __future__ import annotations

import socket
import threading
import time

from firmware.table.publishing import Publisher
from table_server.streams.broadcast import Broadcaster


def publish(publisher: Publisher, n: int, size: int = 0) -> None:
    publisher.publish(lambda version: {"version": version, "n": n, "pad": "x" * size})


def wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.01)


def read_until(sock: socket.socket, needle: bytes, timeout: float = 10.0) -> bytes:
    sock.settimeout(timeout)
    deadline = time.monotonic() + timeout
    got = b""
    while needle not in got:
        assert time.monotonic() < deadline, f"{needle!r} never came"
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended before {needle!r}"
        got += chunk
    return got


def test_a_viewer_that_stops_reading_is_dropped_and_the_others_still_get_every_change():
    publisher = Publisher(threading.RLock())
    publish(publisher, 0)
    released: list[str] = []
    broadcaster = Broadcaster(publisher, transform=lambda s: s, keepalive=60.0,
                              max_pending=64 * 1024).start()
    stalled_server, stalled = socket.socketpair()
    reader_server, reader = socket.socketpair()
    for s in (stalled_server, stalled):  # small kernel buffers: the pending bytes pile up
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        broadcaster.add(stalled_server, chunked=False, release=lambda: released.append("stalled"))
        broadcaster.add(reader_server, chunked=True, release=lambda: released.append("reader"))
        read_until(reader, b"id: 1\n")
        got = b""
        for n in range(1, 60):  # 60 states of 4 KB: far past 64 KiB for the stalled one
            publish(publisher, n, size=4000)
            got += read_until(reader, f"id: {n + 1}\n".encode())
        wait_for(lambda: released == ["stalled"])
        assert len(broadcaster) == 1
        assert b"0\r\n\r\n" not in got  # the reader's stream goes on
    finally:
        broadcaster.stop()
        for s in (stalled, reader):
            s.close()
    assert sorted(released) == ["reader", "stalled"]  # stop ends the rest


def test_each_stream_starts_with_retry_and_the_current_state_and_ends_with_the_last_chunk():
    publisher = Publisher(threading.RLock())
    publish(publisher, 7)
    broadcaster = Broadcaster(publisher, transform=lambda s: {**s, "public": True},
                              keepalive=0.1).start()
    server, client = socket.socketpair()
    try:
        broadcaster.add(server, chunked=True, release=lambda: None)
        first = read_until(client, b'"public":true')  # retry, then the state, chunked
        assert first.split(b"\r\n")[1].startswith(b"retry: 2000\n\nid: 1\n")
        assert b'"n":7' in first
        read_until(client, b": keep-alive")  # nothing changes: a comment keeps it open
        broadcaster.stop()
        assert read_until(client, b"0\r\n\r\n").endswith(b"0\r\n\r\n")
        assert client.recv(10) == b""  # and the socket is closed
    finally:
        broadcaster.stop()
        client.close()


def test_an_error_while_writing_drops_the_streams_but_not_the_broadcaster():
    publisher = Publisher(threading.RLock())
    publish(publisher, 0)
    calls: list[int] = []

    def transform(state: dict) -> dict:
        calls.append(state["n"])
        if state["n"] == 1:
            raise RuntimeError("a bug in making a state public")
        return state

    broadcaster = Broadcaster(publisher, transform=transform, keepalive=60.0).start()
    first_server, first = socket.socketpair()
    second_server, second = socket.socketpair()
    try:
        broadcaster.add(first_server, chunked=False, release=lambda: None)
        read_until(first, b'"n":0')
        publish(publisher, 1)  # the bug: every stream is dropped, the thread goes on
        first.settimeout(10)
        while first.recv(65536):  # the rest of state 0, then the end: the stream was closed
            pass
        broadcaster.add(second_server, chunked=False, release=lambda: None)
        publish(publisher, 2)
        assert b'"n":2' in read_until(second, b'"n":2')
    finally:
        broadcaster.stop()
        first.close()
        second.close()
