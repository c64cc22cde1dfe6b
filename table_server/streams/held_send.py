"""A send on a non-blocking socket that keeps the interpreter lock through the system call.

Why: the broadcaster writes each change to every event stream, 200 sends in a row. ``socket.send``
releases the interpreter lock around its system call, and taking it back waits until the thread that
took it meanwhile lets it go: up to the switch interval (5 ms) when that thread is busy. In a soak
of 200 viewers under a press flood, the 200 sends of one change with ``socket.send`` take 8 ms
(median) and 20-30 ms (p99) among the request threads, where alone they take 3: the broadcaster
gives the lock away 200 times per change. A send on a non-blocking socket never waits
(``MSG_DONTWAIT``: it copies what fits and says how much), so holding the lock through it costs the
other threads microseconds.

The C library's ``send`` is called through :class:`ctypes.PyDLL`, which (unlike ``CDLL``)
keeps the lock. Where there is no such function (not a POSIX C library), and for anything
but ``bytes``, this is ``socket.send``.
"""

from __future__ import annotations

import ctypes
import os
import socket

#: Never wait, and give EPIPE rather than SIGPIPE when the viewer has gone.
_FLAGS = getattr(socket, "MSG_DONTWAIT", 0) | getattr(socket, "MSG_NOSIGNAL", 0)


def _c_send() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    try:
        send = ctypes.PyDLL(None, use_errno=True).send
    except (OSError, AttributeError, TypeError):
        return None
    send.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int)
    send.restype = ctypes.c_ssize_t
    return send


_SEND = _c_send() if _FLAGS & getattr(socket, "MSG_DONTWAIT", 0) else None


def send_holding_lock(sock: socket.socket, data: bytes | bytearray) -> int:
    """Send what ``sock`` takes of ``data`` now; how many bytes it took. Raises as
    ``socket.send`` does: BlockingIOError when it takes nothing, OSError when it is gone."""
    if _SEND is None or type(data) is not bytes:
        return sock.send(data)
    sent = _SEND(sock.fileno(), data, len(data), _FLAGS)
    if sent < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))  # BlockingIOError for EAGAIN, as socket.send
    return int(sent)
