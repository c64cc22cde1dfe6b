"""`bidou-table run` from the outside, as its contract says: flags checked like the config's keys, a
stop that is clean however many signals arrive, and a table that keeps running when whoever started
it stops reading its output."""

from __future__ import annotations

import json
import pathlib
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from web.ports import free_port

ROOT = pathlib.Path(__file__).resolve().parents[2]
PORT_ALLOWED = "a whole number from 1 to 65535 (or 0 for any free port)"



def wait_for_state(port: int, timeout: float = 60.0) -> dict:
    """The table's public state once it answers (polled with a deadline, not slept on)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
                return json.loads(r.read())
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise AssertionError(f"the table did not answer on port {port}") from None
            time.sleep(0.1)


def refused_at_start(capsys, tmp_path, flag: str, value: str) -> str:
    """Run with ``flag value``: exit 2, nothing started; the last line of stderr. In this
    process (``firmware.cli.dispatch.main``, the command's own entry point): argparse
    refuses the value before anything is opened, so no interpreter need start for it."""
    from firmware.cli.dispatch import main

    with pytest.raises(SystemExit) as stopped:
        main(["run", "--simulate", "--db", str(tmp_path / "t.db"), flag, value])
    assert stopped.value.code == 2
    assert not (tmp_path / "t.db").exists()  # nothing was started
    return capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize("port", ["70000", "65536", "-5", "eighty"])
def test_run_port_outside_0_to_65535_is_refused_not_wrapped(tmp_path, port, capsys) -> None:
    assert refused_at_start(capsys, tmp_path, "--port", port) == (
        f"bidou-table run: error: argument --port: {port!r} is not allowed: {PORT_ALLOWED}")


def test_run_host_that_is_not_this_machine_stops_with_a_sentence(tmp_path, bidou) -> None:
    done = subprocess.run(bidou("run", "--simulate", "--db", str(tmp_path / "t.db"),
                                "--host", "203.0.113.77", "--port", "0"),
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "bidou-table run: 203.0.113.77 is not an address of this machine, so the dashboard "
        'cannot listen on it; use "127.0.0.1" (this machine only) or "0.0.0.0" (every network '
        "interface) with --host or [server] host.")


def test_run_stops_cleanly_on_a_burst_of_signals(tmp_path, run_table) -> None:
    """systemd, a supervisor and an impatient Ctrl-C can all signal at once: each signal only
    asks for the stop, and the table still stops once, cleanly, with status 0."""
    port = free_port()
    table = run_table("--db", str(tmp_path / "t.db"), "--port", str(port))
    wait_for_state(port)
    out, err = table.stop(*[signal.SIGTERM, signal.SIGINT] * 10)
    assert table.returncode == 0, err
    assert out.splitlines()[-1] == "Stopped cleanly."
    assert out.count("Stopped cleanly.") == 1


def test_run_keeps_running_when_its_output_is_no_longer_read(tmp_path, bidou) -> None:
    """`bidou-table run | head -3`: a closed standard output must not stop the table."""
    port = free_port()
    proc = subprocess.Popen(bidou("run", "--simulate", "--db", str(tmp_path / "t.db"),
                                  "--port", str(port)),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # the simulation notice, then the reader goes away
        proc.stdout.close()
        assert wait_for_state(port)["variant"] == "two-hand"
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert b"Traceback" not in err


def test_run_after_a_finished_match_starts_a_new_game_to_play(
        tmp_path, finished_log, run_table) -> None:
    """`make run` again after a whole match: the table offers a new game rather than a
    "Game over" nobody at the seats can leave; the finished game stays in the history."""
    db = tmp_path / "t.db"
    finished_log(db)

    port = free_port()
    table = run_table("--db", str(db), "--port", str(port))
    state = wait_for_state(port)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as r:
        games = json.loads(r.read())["games"]
    out, err = table.stop()
    assert table.returncode == 0, err
    assert (state["game_id"], state["status"], state["to_act"]) == (2, "playing", "Ann")
    assert [(g["id"], g["status"]) for g in games] == [(1, "over")]
    assert out.splitlines()[1:3] == ["Game 1 in the log is over; a new game starts.",
                                     "Game 2 (two-hand): Ann, Bob; log " + str(db)]


def test_zones_the_referee_sets_are_saved_in_the_config(tmp_path, run_table) -> None:
    """`run --config FILE`: zones given on the dashboard are written as [zones.SEAT] in the
    file (its comments kept), so a restart reads them."""
    import tomllib

    token = "referee-token-for-tests"
    config = tmp_path / "table.toml"
    config.write_text('# the pub table\n[table]\nplayers = ["Ann", "Bob"]  # clockwise\n'
                      f'[referee]\npin = "246802"\ntoken = "{token}"\n')
    port = free_port()
    table = run_table("--config", str(config), "--db", str(tmp_path / "t.db"),
                      "--port", str(port))
    zones = {"Ann": {"x": 20, "y": 20, "w": 280, "h": 200},
             "Bob": {"x": 340, "y": 260, "w": 280, "h": 200}}
    wait_for_state(port)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/referee/zones", method="POST",
        data=json.dumps({"zones": zones}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        message = json.loads(r.read())["message"]
    _, err = table.stop()
    assert table.returncode == 0, err
    assert message == "The table reads the new zones now; they are saved in the config."
    text = config.read_text()
    assert text.startswith("# the pub table\n") and "# clockwise" in text
    assert tomllib.loads(text)["zones"] == zones


def test_export_to_a_file_instead_of_a_directory_says_so(tmp_path, bidou) -> None:
    from firmware.gamelog.log import GameLog

    log = GameLog(str(tmp_path / "t.db"))
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    log.finish_game(gid, "over", {}, "t1")
    log.close()
    target = tmp_path / "records.json"
    target.write_text("keep me")
    done = subprocess.run(bidou("export", "--db", str(tmp_path / "t.db"), "--out", str(target)),
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"bidou-table export: {target} is a file, not a directory; give a directory with "
        "--out (it is made if needed), or - for standard output.")
    assert target.read_text() == "keep me"


def test_a_short_referee_token_in_the_environment_is_blamed_on_the_environment(tmp_path, bidou):
    import os

    done = subprocess.run(bidou("run", "--simulate", "--db", str(tmp_path / "t.db"), "--port",
                                "0"), cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "BIDOU_REFEREE_TOKEN": "short"})
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "bidou-table run: the environment: BIDOU_REFEREE_TOKEN = '<hidden>' is not allowed: a "
        "secret of at least 16 printable ASCII characters without spaces (for example from "
        "`python3 "
        "-c \"import secrets; print(secrets.token_urlsafe(24))\"`). Set BIDOU_REFEREE_TOKEN to "
        "such a secret, or unset it to have one generated, and start again.")


@pytest.mark.parametrize("share", ["1.5", "-0.1", "some"])
def test_run_unsure_outside_0_to_1_is_refused(tmp_path, share, capsys) -> None:
    assert refused_at_start(capsys, tmp_path, "--unsure", share) == (
        f"bidou-table run: error: argument --unsure: {share!r} is not a share from 0 to 1, "
        "such as 0.3")
