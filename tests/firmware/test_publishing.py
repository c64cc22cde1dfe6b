"""Publishing: every listener gets each change once, a listener woken by ``wake`` takes only
the newest state, and the worker waits (a bounded time) until such a listener has written
the last change out before a camera read, and before nothing else."""

from __future__ import annotations

import threading
import time

from firmware.table.commands import Press
from firmware.table.publishing import Publisher


def test_a_woken_listener_takes_only_the_newest_state() -> None:
    publisher = Publisher(threading.RLock())
    wakes: list[int] = []
    sub = publisher.subscribe(wake=lambda: wakes.append(1))
    for n in range(3):
        publisher.publish(lambda version, n=n: {"version": version, "n": n})
    assert len(wakes) == 4  # the current state at subscribing, then each change
    assert sub.latest()["n"] == 2 and sub.latest() is None


def test_the_worker_waits_for_the_last_change_to_be_written() -> None:
    publisher = Publisher(threading.RLock())
    sub = publisher.subscribe(wake=lambda: None)
    publisher.publish(lambda version: {"version": version})
    sub.latest()
    writer_done = threading.Event()

    def writer() -> None:
        time.sleep(0.05)
        sub.written()
        writer_done.set()

    threading.Thread(target=writer).start()
    publisher.wait_delivered(timeout=5.0)
    assert writer_done.is_set(), "the worker went on before the change was written out"


def test_a_change_put_after_the_listener_took_its_state_is_still_waited_for() -> None:
    publisher = Publisher(threading.RLock())
    sub = publisher.subscribe(wake=lambda: None)
    sub.latest()
    publisher.publish(lambda version: {"version": version, "late": True})
    sub.written()  # written what it took: not the late change
    began = time.monotonic()
    publisher.wait_delivered(timeout=0.2)
    assert time.monotonic() - began >= 0.19


def test_a_stuck_or_closed_writer_holds_the_worker_a_bounded_time_only() -> None:
    publisher = Publisher(threading.RLock())
    stuck = publisher.subscribe(wake=lambda: None)
    plain = publisher.subscribe()  # read from its queue: never waited for
    publisher.publish(lambda version: {"version": version})
    began = time.monotonic()
    publisher.wait_delivered(timeout=0.1)
    assert 0.09 <= time.monotonic() - began < 2.0
    stuck.close()
    began = time.monotonic()
    publisher.wait_delivered(timeout=5.0)
    assert time.monotonic() - began < 1.0
    assert plain.latest()["version"] == 1


def test_the_controller_waits_for_the_screens_before_a_camera_read_only(controller, fake) -> None:
    """A wait before every command put a whole broadcast between one queued press and the
    next (the soak's press-to-event tail); only a camera read needs the screens served first."""
    waits: list[float] = []
    real = controller.publisher.wait_delivered
    controller.publisher.wait_delivered = lambda timeout: (waits.append(timeout),
                                                           real(timeout))[1]
    assert not controller.submit(Press("Bob", "THROW")).ok  # refused: Ann rolls first
    assert not controller.submit(Press("Ann", "BET")).ok
    assert waits == []
    fake.put("Ann", [5])
    assert controller.submit(Press("Ann", "THROW")).ok
    assert len(waits) == 1
