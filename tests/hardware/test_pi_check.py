"""make pi-check's own pieces, on this machine: what it asks for when a tool is missing, and its
client's choices and comparisons (hardware/pi-check/; the arm64 run itself is a developer
command, not a test: it needs root, qemu and the package registries)."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import platform
import random
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parents[2] / "hardware" / "pi-check"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"pi_check_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and the like look their module up
    spec.loader.exec_module(module)
    return module


play = load("play")
wheels = load("wheels")


@pytest.mark.skipif(os.geteuid() != 0, reason="run.sh asks for root before it looks for tools")
def test_run_sh_names_the_missing_tools_and_the_apt_get_line(tmp_path: pathlib.Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "dirname", "git", "chroot"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    done = subprocess.run([str(bin_dir / "bash"), str(HERE / "run.sh")], capture_output=True,
                          text=True, env={"PATH": str(bin_dir)}, timeout=30)
    assert done.returncode == 1
    assert done.stderr == ("pi-check: missing debootstrap qemu-user-static: apt-get install "
                           "debootstrap qemu-user-static binfmt-support\n")


def test_the_seat_tokens_are_read_from_make_runs_output(tmp_path: pathlib.Path) -> None:
    log = tmp_path / "run.log"
    log.write_text("Table view:       http://127.0.0.1:8765/\n"
                   "Seat Ann:         http://127.0.0.1:8765/seat/Ann?token=AAA\n"
                   "Seat Bob:         http://127.0.0.1:8765/seat/Bob?token=BBB\n")
    assert play.seat_tokens(log) == {"Ann": "AAA", "Bob": "BBB"}
    log.write_text("Table view:       http://127.0.0.1:8765/\n")
    with pytest.raises(play.Failed, match="make run printed no seats"):
        play.seat_tokens(log)


def test_the_client_plays_the_dice_first_then_raises_or_calls() -> None:
    rng = random.Random(1)
    assert play.choose(rng, ["roll"]) == {"action": "roll"}
    assert play.choose(rng, ["throw", "stand"]) == {"action": "stand"}
    assert play.choose(rng, ["throw"]) == {"action": "throw"}
    picks = [play.choose(rng, ["raise", "call", "drop"]) for _ in range(200)]
    assert {"action": "raise", "chips": 1} in picks and {"action": "call"} in picks
    assert {"action": "drop"} not in picks
    assert play.choose(rng, ["drop"]) == {"action": "drop"}


def readings(tmp_path: pathlib.Path, name: str, rows: list[dict]) -> pathlib.Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_compare_accepts_the_same_readings_and_names_a_different_one(
        tmp_path: pathlib.Path) -> None:
    die = {"value": 3, "box": [1, 2, 30, 30], "confidence": 0.9}
    ours = [{"image": "a.jpg", "dice": [die], "unsure": []},
            {"image": "b.jpg", "dice": [], "unsure": [{"box": [5, 5, 9, 9], "reason": "x"}]}]
    same = readings(tmp_path, "same.jsonl", ours)
    close = readings(tmp_path, "close.jsonl", [
        {**ours[0], "dice": [{**die, "confidence": 0.91}]}, ours[1]])
    assert play.compare(same, close) == ("2 photographs: 1 dice and 1 unsure places, the same "
                                         "as on the host")
    other = readings(tmp_path, "other.jsonl", [
        {**ours[0], "dice": [{**die, "value": 5}]}, ours[1]])
    with pytest.raises(play.Failed, match=r"1 of 2 photographs read differently here: a\.jpg"):
        play.compare(same, other)
    far = readings(tmp_path, "far.jsonl", [
        {**ours[0], "dice": [{**die, "confidence": 0.5}]}, ours[1]])
    with pytest.raises(play.Failed, match="confidence 0.9 here, 0.5 on the host"):
        play.compare(same, far)
    with pytest.raises(play.Failed, match="the host read no b.jpg"):
        play.compare(same, readings(tmp_path, "half.jsonl", ours[:1]))


@pytest.mark.skipif(platform.machine() == "aarch64", reason="checks the refusal off arm64")
def test_wheels_refuses_to_vouch_for_another_machine(capsys: pytest.CaptureFixture) -> None:
    assert wheels.main([]) == 1
    assert capsys.readouterr().err == f"wheels.py: this is {platform.machine()}, not aarch64\n"
    assert wheels.main(["--pie"]) == 2


def test_wheels_reads_the_installed_wheels_tags() -> None:
    tags = wheels.wheel_tags("numpy")
    assert tags and all("-" in t for t in tags)
    assert wheels.wheel_tags("gpiozero")[0].endswith("-none-any")
