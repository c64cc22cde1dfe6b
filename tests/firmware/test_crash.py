"""Crash safety: a game played in a child process killed with SIGKILL at random moments, 200
times in the soak (``make soak``) and 25 in ``make test``, its camera unsure of 30% of the dice
(kills land during reads still coming and during settles of exposed values pending); after
each restart the state equals the replay of the log, chips are conserved and nothing is
counted twice (tests/firmware/crash_harness.py does the killing and the checks)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

HARNESS = pathlib.Path(__file__).with_name("crash_harness.py")


def kill_many(tmp_path: pathlib.Path, kills: int) -> dict:
    """Run the harness for ``kills`` kills; its summary (every kill's checks passed)."""
    done = subprocess.run([sys.executable, str(HARNESS), str(tmp_path / "crash.db"),
                           str(kills), "7"], capture_output=True, text=True, timeout=230)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"kills survived: {summary['kills_survived']} ({summary['games']} games, "
          f"{summary['finished']} finished, {summary['seconds']} s)")
    assert summary["kills_survived"] == kills
    return summary


@pytest.mark.slow
def test_sigkill_at_25_random_moments_never_loses_an_acknowledged_action_or_a_chip(tmp_path):
    """Every check of every kill, on fewer kills than the soak."""
    summary = kill_many(tmp_path, 25)
    assert summary["pending"] >= 5 and summary["settled"] >= 1  # D-S1, D-S4 under kills


@pytest.mark.slow
@pytest.mark.soak
@pytest.mark.timeout(240)
def test_sigkill_at_200_random_moments_never_loses_an_acknowledged_action_or_a_chip(tmp_path):
    summary = kill_many(tmp_path, 200)
    assert summary["finished"] >= 1  # the kills landed across whole games, not one hand
    assert summary["pending"] >= 20 and summary["settled"] >= 5  # D-S1, D-S4 under kills
