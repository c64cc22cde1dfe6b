"""`bidou-table run` (simulation, clean SIGTERM/SIGINT shutdown, bad config) and `export`;
the systemd unit and install script."""

from __future__ import annotations

import argparse
import json
import pathlib
import queue
import signal
import subprocess
import threading

import pytest

from engine import parse_record, replay
from firmware.cli import cmd_export
from firmware.gamelog.log import GameLog
from firmware.settings.machine import default_db, on_raspberry_pi
from table_server.cmd_run import SIMULATION_NOTICE

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "firmware" / "deploy"


def read_until(proc, marker, timeout=60.0):
    """stdout lines until one contains ``marker`` (a reader thread feeds a queue that is
    waited on with a timeout)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump():
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
            if marker in line:
                return
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen = []
    while True:
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no {marker!r} within {timeout}s: {seen}") from None
        if line is None:
            raise AssertionError(f"exited before {marker!r}: {seen}")
        seen.append(line)
        if marker in line:
            return seen


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_run_in_simulation_says_so_serves_and_stops_cleanly_on_signal(tmp_path, sig, run_table):
    db = tmp_path / "table.db"
    table = run_table("--db", str(db), "--port", "0")
    lines = read_until(table.proc, "Press Ctrl-C to stop.")
    assert lines[0] in (SIMULATION_NOTICE,
                        "Simulation requested (--simulate): mock pins, simulated camera")
    assert any(line.startswith("Table view:") for line in lines)
    assert any(line.startswith("Seat Ann:") for line in lines)
    assert any(line.startswith("Referee token:") for line in lines)
    out, err = table.stop(sig)
    assert table.returncode == 0, err
    assert out.splitlines()[-2:] == ["Stopping: LEDs off, camera closed, log flushed.",
                                     "Stopped cleanly."]
    wal = tmp_path / "table.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # the log was checkpointed and closed
    log = GameLog(str(db))
    assert [g.variant for g in log.games()] == ["two-hand"]
    log.close()


def test_run_with_a_bad_config_stops_with_the_key_value_and_what_is_allowed(tmp_path, bidou):
    config = tmp_path / "table.toml"
    config.write_text('[table]\nvariant = "poker"\nplayers = ["Ann", "Bob"]\n')
    done = subprocess.run(bidou("run", "--simulate", "--config", str(config), "--db",
                                str(tmp_path / "t.db")), cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"bidou-table run: {config}: table.variant = 'poker' is not allowed: one of two-hand, "
        "multi-hand, montevideo. Fix the config and start again.")


def test_pi_detection_reads_the_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(str(model)) is True
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert on_raspberry_pi(str(model)) is False
    assert on_raspberry_pi(str(tmp_path / "absent")) is False
    assert default_db(True) == "bidou-table.db"
    assert default_db(False) == "/var/lib/bidou-table/table.db"


def export(**kw):
    args = argparse.Namespace(db=None, out=".", game=None)
    vars(args).update(kw)
    return cmd_export.run(args)


def test_export_writes_finished_games_as_records_that_replay(tmp_path, capsys, finished_log):
    game = finished_log(tmp_path / "t.db", then_playing=True)
    assert export(db=str(tmp_path / "t.db"), out=str(tmp_path / "out")) == 0
    files = sorted((tmp_path / "out").iterdir())
    assert [f.name for f in files] == ["game-1.json"]
    record = parse_record(files[0].read_text())
    assert replay(record).state() == game.state()
    assert "game 1 (two-hand, Ann, Bob, over)" in capsys.readouterr().out


def test_export_to_stdout_and_one_game(tmp_path, capsys, finished_log):
    finished_log(tmp_path / "t.db", then_playing=True)
    assert export(db=str(tmp_path / "t.db"), out="-", game=2) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == []


def test_export_unknown_game_and_missing_log_say_what_to_do(tmp_path, capsys, finished_log):
    finished_log(tmp_path / "t.db", then_playing=True)
    assert export(db=str(tmp_path / "t.db"), game=9) == 1
    assert capsys.readouterr().err.strip() == (
        f"bidou-table export: there is no game 9 in {tmp_path / 't.db'}; the games are: 1, 2.")
    assert export(db=str(tmp_path / "none.db")) == 2
    assert "give its path with --db" in capsys.readouterr().err


def test_systemd_unit_runs_as_bidou_in_gpio_and_video_and_restarts_on_failure():
    unit = (DEPLOY / "bidou-table.service").read_text().splitlines()
    for line in ("User=bidou", "SupplementaryGroups=gpio video", "Restart=on-failure",
                 "StateDirectory=bidou-table", "KillSignal=SIGTERM",
                 "ExecStart=/opt/bidou-table/venv/bin/bidou-table run --config "
                 "/etc/bidou-table/table.toml --db /var/lib/bidou-table/table.db",
                 "WantedBy=multi-user.target"):
        assert line in unit


def test_systemd_unit_raises_the_descriptor_limit_and_sandboxes_the_table():
    unit = (DEPLOY / "bidou-table.service").read_text().splitlines()
    limit = next(int(line.split("=")[1]) for line in unit if line.startswith("LimitNOFILE="))
    assert limit > 2000 + 64  # the dashboard's connection bound, and the table's own files
    for line in ("NoNewPrivileges=true", "ProtectSystem=strict", "PrivateTmp=true",
                 "ReadWritePaths=/var/lib/bidou-table /etc/bidou-table", "ProtectHome=true",
                 "CapabilityBoundingSet="):
        assert line in unit
    assert not any(line.startswith("PrivateDevices=") for line in unit)  # pins and camera


def test_install_script_is_valid_bash_and_installs_what_the_unit_needs():
    script = DEPLOY / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    text = script.read_text()
    for needed in ("python3-picamera2", "python3-venv", "--system-site-packages",
                   "usermod -a -G gpio,video", "CONF=/etc/bidou-table",
                   "STATE=/var/lib/bidou-table",
                   'if [[ ! -e "$CONF/table.toml" ]]', "systemctl enable bidou-table.service",
                   '-c "$HERE/pi-constraints.txt"'):
        assert needed in text


def test_the_pis_install_brings_the_learn_extra_so_learn_teaches_the_network_there():
    """The Dice page's Learn and the table's own teaching fine-tune its network wherever the
    learn extra is installed: the Pi's install installs it, with the constraints that keep
    PyTorch CPU-only on aarch64, and lets the service write the reader a calibration keeps
    beside its config."""
    text = (DEPLOY / "install.sh").read_text()
    assert '-c "$HERE/pi-constraints.txt" "$PREFIX/src[learn]"' in text
    assert 'install -d -m 0770 -g "$USER_NAME" "$CONF"' in text
    unit = (DEPLOY / "bidou-table.service").read_text().splitlines()
    assert "ConfigurationDirectoryMode=0770" in unit


def test_pi_constraints_keep_the_system_numpy_that_picamera2_is_built_against():
    pins = (DEPLOY / "pi-constraints.txt").read_text().splitlines()
    assert "numpy<2" in pins and "opencv-python-headless<4.12" in pins


def test_pi_constraints_keep_pytorch_to_its_cpu_only_aarch64_wheels():
    """PyPI's aarch64 torch wheels require CUDA 13's libraries from 2.11 on (gigabytes a Pi
    cannot use), and ml_dtypes from 0.6 on requires numpy 2."""
    pins = (DEPLOY / "pi-constraints.txt").read_text().splitlines()
    assert "torch<2.11" in pins and "ml_dtypes<0.6" in pins
