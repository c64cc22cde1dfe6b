"""The command queue and the one worker thread that empties it, in order.

Seat panels put ``SeatEvent``s on the queue from gpiozero's callback threads; the dashboard
and tests ``submit`` commands and wait for their Outcome. One thread takes the items one at a
time and hands each to the controller's ``handle``, so two presses can never interleave. A
command that raises becomes a refusing Outcome: the table keeps running whatever happens.

Every outcome a submitter is told is true: a command is never reported refused and played
later. Past ``max_waiting`` submitted commands, a new one is not queued (``busy``). When the
wait runs out, a command still in the queue is withdrawn (it will never be played:
``busy``); one the worker has begun is reported ``pending`` with an id whose outcome
:meth:`Worker.outcome_of` gives once it is known.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware.table.commands import Outcome

log = logging.getLogger(__name__)

_STOP = object()

#: Submitted commands that may wait in the queue at once; more are refused as busy.
MAX_WAITING = 64
#: How many pending commands' outcomes are kept for their submitters to ask about.
KEPT_OUTCOMES = 256


@dataclass
class _Job:
    """A submitted command, the Outcome its submitter waits for, and where it is:
    ``queued``, ``running``, ``done`` or ``withdrawn`` (taken back unplayed)."""

    command: Any
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None
    state: str = "queued"


class Worker:
    """Takes items off ``events`` in order and gives each to ``handle(item) -> Outcome``.

    ``events`` is made by whoever wires the table (the panels put on it before the
    controller exists); ``handle`` gets submitted commands and raw queue items alike.
    """

    def __init__(self, events: queue.Queue[Any], handle: Callable[[Any], Outcome], *,
                 max_waiting: int = MAX_WAITING) -> None:
        self.events = events
        self._handle = handle
        self.max_waiting = max_waiting
        self._thread: threading.Thread | None = None
        self._stopped = False
        self._done = threading.Condition()
        self.processed = 0
        self._jobs = threading.Lock()  # guards every _Job.state, _waiting and _pending
        self._waiting = 0
        self._pending: OrderedDict[str, _Job] = OrderedDict()

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
        with self._jobs:
            if self._waiting >= self.max_waiting:
                return Outcome(False, f"The table is busy ({self._waiting} commands are "
                                      "waiting); nothing was played. Try again in a second.",
                               busy=True)
            self._waiting += 1
        self.events.put(job)
        if job.done.wait(timeout):
            assert job.outcome is not None
            return job.outcome
        with self._jobs:
            if job.state == "queued":  # taken back: the worker will skip it
                job.state = "withdrawn"
                self._waiting -= 1
                return Outcome(False, "The table was too busy to get to this in time, so it "
                                      "was withdrawn; nothing was played. Try again.",
                               busy=True)
            if job.state == "running":
                self._pending[job.id] = job
                while len(self._pending) > KEPT_OUTCOMES:
                    self._pending.popitem(last=False)
                return Outcome(False, "The table is still applying this command; ask for its "
                                      f"outcome with the id {job.id}.", pending=job.id)
        assert job.outcome is not None  # done between the wait and the lock
        return job.outcome

    def outcome_of(self, job_id: str) -> Outcome | None:
        """The outcome of a command reported pending: None when the id is unknown (never
        given, or long forgotten); a ``pending`` Outcome while it is still being applied."""
        with self._jobs:
            job = self._pending.get(job_id)
            if job is None:
                return None
            if job.state != "done":
                return Outcome(False, "The table is still applying this command; ask again "
                                      "in a moment.", pending=job.id)
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
            if isinstance(item, _Job):
                with self._jobs:
                    withdrawn = item.state == "withdrawn"
                    if not withdrawn:
                        item.state = "running"
                        self._waiting -= 1
                if withdrawn:  # its submitter was told it was not played: it never is
                    self._count()
                    continue
            command = item.command if isinstance(item, _Job) else item
            try:
                outcome = self._handle(command)
            except Exception as e:  # the table must keep running whatever happens
                log.error("command %r failed:\n%s", command, traceback.format_exc())
                outcome = Outcome(False, f"The table could not apply this: {e}. Nothing "
                                         "was played; tell the referee.")
            if isinstance(item, _Job):
                with self._jobs:
                    item.outcome = outcome
                    item.state = "done"
                item.done.set()
            self._count()

    def _count(self) -> None:
        """One more queue item handled (or skipped): wake whoever waits for a count."""
        with self._done:
            self.processed += 1
            self._done.notify_all()
