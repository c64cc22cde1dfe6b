"""Fixtures for the hardware tests: a MockFactory for gpiozero, restored afterwards."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh MockFactory as gpiozero's default, the previous default restored after."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def events() -> queue.Queue:
    return queue.Queue()


def _wait_until(predicate: Callable[[], bool], timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


@pytest.fixture
def wait_until() -> Callable[..., bool]:
    """``wait_until(predicate, timeout=2.0)``: poll until it holds or the timeout passes."""
    return _wait_until
