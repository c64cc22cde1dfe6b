"""SIGTERM (systemd's stop) and SIGINT (Ctrl-C) ask a serving command to stop
(``web.stop_signals``, the screens' and ``bidou-venue up``/``bidou-league up``'s wait): the
wait returns, the command goes on to stop its parts and exits by itself, with no traceback;
meanwhile the wait's tick (the supervisor's watch) keeps being called."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

CHILD = """
import sys, time
from web.stop_signals import StopSignals
ticks = []
stop = StopSignals()
print("waiting", flush=True)
stop.wait(0.05, tick=lambda: ticks.append(time.monotonic()))
print(f"stopped by {stop.signals[0]} after {len(ticks)} ticks", flush=True)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_wait_and_the_command_stops_by_itself(sig: int) -> None:
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "waiting\n"
        time.sleep(0.5)  # some ticks
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert err == ""
    said = out.split()
    assert said[:3] == ["stopped", "by", str(int(sig))] and int(said[4]) >= 3, out
