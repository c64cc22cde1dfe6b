"""The venue screen stops promptly on SIGTERM (systemd's stop, Ctrl-C in `make venue`) even
while browsers hold its event streams open: a stream ends when the screen stops, instead of
holding a server thread until its life (five minutes) runs out."""

from __future__ import annotations

import signal
import time

import pytest
from venue_harness import Venue

pytestmark = pytest.mark.slow

#: seconds: systemd's default stop timeout is 90, a person at Ctrl-C waits a few
PROMPT = 3.0


def test_the_screen_stops_within_seconds_with_event_streams_open(venue: Venue) -> None:
    venue.start_hub()
    venue.start_screen()
    for _ in range(3):
        venue.screen_events()
    time.sleep(1.0)  # the streams are being served
    proc = venue.procs["screen"]
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)  # bounded: a hung screen fails the test below, not the run
    took = time.monotonic() - start
    assert took < PROMPT, f"the screen took {took:.1f} s to stop with 3 event streams open"
    assert proc.returncode == 0
