"""The command queue and the one worker thread that empties it, in order.

Seat panels put ``SeatEvent``s on the queue from gpiozero's callback threads; the dashboard
and tests ``submit`` commands and wait for their Outcome. One thread takes the items one at a
time and hands each to the controller's ``handle``, so two presses can never interleave. A
command that raises becomes a refusing Outcome: the table keeps running whatever happens.
"""

from __future__ import annotations

import logging
import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware.commands import Outcome

log = logging.getLogger(__name__)

_STOP = object()


@dataclass
class _Job:
    """A submitted command and the Outcome its submitter waits for."""

    command: Any
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None


class Worker:
    """Takes items off ``events`` in order and gives each to ``handle(item) -> Outcome``.

    ``events`` is made by whoever wires the table (the panels put on it before the
    controller exists); ``handle`` gets submitted commands and raw queue items alike.
    """

    def __init__(self, events: queue.Queue[Any], handle: Callable[[Any], Outcome]) -> None:
        self.events = events
        self._handle = handle
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._done = threading.Condition()
        self.processed = 0

    @property
    def running(self) -> bool:
        """Whether the worker thread is alive and taking commands."""
        return self._thread is not None and self._thread.is_alive() and not self._stopped

    def start(self) -> None:
        self._thread = threading.Thread(target=self._work, name="table-controller",
                                        daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the item in hand and end the thread; idempotent."""
        if self._stopped:
            return
        self._stopped = True
        if self._thread is not None:
            self.events.put(_STOP)
            self._thread.join(timeout)

    def submit(self, command: Any, timeout: float | None = 30.0) -> Outcome:
        """Queue ``command`` and wait until it has been applied; its Outcome."""
        if self._stopped or self._thread is None:
            return Outcome(False, "The table is not running; start it with bidou-table run.")
        job = _Job(command)
        self.events.put(job)
        if not job.done.wait(timeout):
            return Outcome(False, "The table did not answer in time; the command is still "
                                  "queued and will be applied in turn.")
        assert job.outcome is not None
        return job.outcome

    def wait_processed(self, count: int, timeout: float = 10.0) -> bool:
        """Wait until ``count`` queue items (commands and panel events) have been handled
        since start; False on timeout. For tests and the simulation's button presses."""
        with self._done:
            return self._done.wait_for(lambda: self.processed >= count, timeout)

    def _work(self) -> None:
        while True:
            item = self.events.get()
            if item is _STOP:
                return
            command = item.command if isinstance(item, _Job) else item
            try:
                outcome = self._handle(command)
            except Exception as e:  # the table must keep running whatever happens
                log.error("command %r failed:\n%s", command, traceback.format_exc())
                outcome = Outcome(False, f"The table could not apply this: {e}. Nothing "
                                         "was played; tell the referee.")
            if isinstance(item, _Job):
                item.outcome = outcome
                item.done.set()
            with self._done:
                self.processed += 1
                self._done.notify_all()
