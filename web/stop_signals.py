"""SIGTERM and SIGINT as a request to stop, for the commands that serve until one comes: the
screens (``bidou-venue screen``, ``bidou-league screen``) and the whole venue or league on
one machine (``bidou-venue up``, ``bidou-league up``), which then stop their parts in order.

The handler only notes the signal: it runs on the main thread between two bytecodes, so it
must take no lock the main thread may hold (``threading.Event.set`` takes the lock its
``wait`` holds). The main thread looks at the note every ``every`` seconds.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable


class StopSignals:
    """From its making on, SIGTERM and SIGINT ask the process to stop (no traceback, no
    default action): :meth:`wait` returns once one came."""

    def __init__(self) -> None:
        self.signals: list[int] = []
        for s in (signal.SIGTERM, signal.SIGINT):
            signal.signal(s, lambda signum, frame: self.signals.append(signum))

    @property
    def asked(self) -> bool:
        return bool(self.signals)

    def wait(self, every: float = 0.5, tick: Callable[[], None] | None = None) -> None:
        """Return once SIGTERM or SIGINT came (at once if one came already); meanwhile call
        ``tick`` every ``every`` seconds (``Supervisor.watch``: restart stopped parts)."""
        while not self.signals:
            if tick is not None:
                tick()
            time.sleep(every)
