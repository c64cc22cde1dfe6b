"""Honest outcomes under load: a command the submitter was told is not played is never
played; one begun when the wait ran out is pending with an id; a full queue says busy; a
state is published once per change, not once per refusal."""

from __future__ import annotations

import queue
import threading
from typing import Any

import pytest

from firmware.table.commands import Outcome, Press
from firmware.table.worker import Worker
from firmware.words.phrases import english


class SlowTable:
    """A handler that records what it handled, and holds a command until ``release``."""

    def __init__(self) -> None:
        self.handled: list[Any] = []
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, command: Any) -> Outcome:
        self.started.set()
        assert self.release.wait(10)
        self.handled.append(command)
        return Outcome(True, f"done {command}")


@pytest.fixture
def slow() -> Any:
    table = SlowTable()
    worker = Worker(queue.Queue(), table, max_waiting=3)
    worker.start()
    yield table, worker
    table.release.set()
    worker.stop()


def test_a_command_still_queued_when_the_wait_ends_is_withdrawn_and_never_played(slow):
    table, worker = slow
    first = threading.Thread(target=worker.submit, args=("first", 10))
    first.start()
    assert table.started.wait(5)
    out = worker.submit("second", timeout=0.05)
    assert (out.ok, out.busy, out.pending) == (False, True, None)
    assert out.message == ("The table was too busy to get to this in time, so it was "
                           "withdrawn; nothing was played. Try again.")
    table.release.set()
    first.join(5)
    assert worker.submit("third", timeout=5).ok
    assert table.handled == ["first", "third"]  # "second" was never played


def test_a_command_begun_when_the_wait_ends_is_pending_with_an_id(slow):
    table, worker = slow
    out = worker.submit("slow one", timeout=0.2)
    assert table.started.is_set()
    assert out.ok is False and out.busy is False and out.pending
    assert out.message.endswith(f"ask for its outcome with the id {out.pending}.")
    assert worker.outcome_of(out.pending).pending == out.pending  # still being applied
    table.release.set()
    assert worker.submit("next", timeout=5).ok
    assert worker.outcome_of(out.pending) == Outcome(True, "done slow one")
    assert worker.outcome_of("0000") is None


def test_past_max_waiting_a_command_is_refused_busy_and_not_queued(slow):
    table, worker = slow
    threads = [threading.Thread(target=worker.submit, args=(f"c{i}", 10)) for i in range(4)]
    threads[0].start()
    assert table.started.wait(5)
    for t in threads[1:]:
        t.start()
    deadline = threading.Event()
    while worker._waiting < 3 and not deadline.wait(0.01):
        pass
    out = worker.submit("one too many", timeout=5)
    assert out.busy and out.message == ("The table is busy (3 commands are waiting); nothing "
                                        "was played. Try again in a second.")
    table.release.set()
    for t in threads:
        t.join(5)
    assert "one too many" not in table.handled and len(table.handled) == 4


def test_a_flood_of_refused_presses_publishes_one_state(controller):
    sub = controller.subscribe()
    assert sub.get(1) is not None  # the current state
    version = controller.public_state()["version"]
    for _ in range(50):
        out = controller.submit(Press("Ann", "CALL"))
        assert not out.ok
    # a refusal is Ann's alone (her LED, her phone): the screens are sent nothing
    assert controller.public_state()["version"] == version
    assert sub.get(0.2) is None
    assert not any(english(e).startswith("Ann: ") for e in controller.public_state()["events"])
    assert english(controller.seat_state("Ann")["refusal"]) == out.message
    sub.close()


def test_a_refusal_with_no_seat_publishes_nothing(controller):
    version = controller.public_state()["version"]
    assert not controller.submit(Press("Zed", "THROW")).ok
    assert controller.public_state()["version"] == version
