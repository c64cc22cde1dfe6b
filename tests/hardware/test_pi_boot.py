"""make pi-boot's own pieces, on this machine: its scripts pass shellcheck, every step that
could hang is bounded in time, and its player's resume check names what a restart changed
(hardware/pi-boot/; the boot itself is a developer command, not a test: it needs root, qemu
and minutes of emulation)."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parents[2] / "hardware" / "pi-boot"
SCRIPTS = ("run.sh", "image.sh")
#: programs that can wait without end (a hung machine, network, emulation): each call must
#: be under `timeout`, directly or through a wrapper function that is
UNBOUNDED = ("qemu-system-aarch64", "ssh", "curl", "chroot", "mkfs.ext4", "apt-get", "pip",
             "debootstrap", "python3", "run.sh", "image.sh", "game.py")


def load_game():
    spec = importlib.util.spec_from_file_location("pi_boot_game", HERE / "game.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


#: what separates one simple command from the next on a shell line
SEPARATORS = re.compile(r"\$\(|&&|\|\||[;&|(){}!`]|\b(?:then|do|else)\b")
#: what may stand before a command without bounding it
PREFIXES = re.compile(r"^(?:\s*(?:nice -n \d+|env|\w+=\S*|exec))*\s*")


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, the line with its continuations joined), comments left out."""
    lines, number, held = [], 0, ""
    for n, line in enumerate(text.splitlines(), 1):
        if not held:
            number = n
        if line.lstrip().startswith("#"):
            line = ""
        held += line[:-1] + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            lines.append((number, held))
            held = ""
    return lines


def unbounded_calls(text: str) -> list[str]:
    """Lines where a simple command starts with one of UNBOUNDED: not under `timeout` (whose
    command is its argument, never a command's first word), nor under a wrapper function
    (whose own body is checked the same way)."""
    found = []
    for number, line in logical_lines(text):
        # messages in double quotes (but a command substitution's), then single-quoted
        # text, then array literals (SSH=(ssh -i ...): words, not commands) are left out
        code = re.sub(r'"(?:[^"\\]|\\.)*"',
                      lambda m: m.group(0) if "$(" in m.group(0) else '""', line)
        code = re.sub(r"'[^']*'", "''", code).split(" #")[0]
        code = re.sub(r"\w+\+?=\([^)]*\)?", "", code)
        for command in SEPARATORS.split(code):
            words = PREFIXES.sub("", command).split()
            if words and words[0].strip('"').rsplit("/", 1)[-1] in UNBOUNDED:
                found.append(f"{number}: {line.strip()}")
    return found


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_pi_boot_scripts_pass_shellcheck(script: str) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:  # Debian's package: fail in CI, skip elsewhere
        text = "shellcheck is absent; this test needs Debian's (apt-get install shellcheck)"
        if os.environ.get("CI"):
            pytest.fail(f"{text}. CI must install it (.ci/run).")
        pytest.skip(text)
    done = subprocess.run([shellcheck, str(HERE / script)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_step_that_could_hang_is_under_timeout(script: str) -> None:
    text = (HERE / script).read_text()
    assert unbounded_calls(text) == []
    # no loop that waits without end: every wait is a count or a deadline
    assert not re.search(r"while (true|:)\b", text)


def test_the_boundedness_check_finds_a_bare_call() -> None:
    script = ('vm() {\n    timeout 5 ssh host "$1"\n}\n'
              'vm 20 true\n'
              'ssh host reboot  # no bound\n'
              'say "the ssh answer"\n'
              'qemu-system-aarch64 -M virt &\n')
    assert unbounded_calls(script) == ["5: ssh host reboot  # no bound",
                                       "7: qemu-system-aarch64 -M virt &"]


def test_the_machine_is_powered_off_on_every_exit() -> None:
    text = (HERE / "run.sh").read_text()
    assert "trap power_off EXIT" in text
    assert "-M virt -cpu cortex-a72" in text
    # no way out of the machine but the forwarded ports, each on loopback only
    netdev = re.search(r'-netdev "([^"]+)"', text).group(1)
    assert "restrict=on" in netdev
    assert re.findall(r"hostfwd=tcp:([\d.]+):", netdev) == ["127.0.0.1"] * 3


def test_resume_names_what_the_restart_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game()
    then = {"game_id": 1, "actions": 5, "hand_actions": 3, "chips": {"Ann": 4, "Bob": 6},
            "pot": 2, "round": 1, "hand": 2, "rounds_lost": {"Ann": 0, "Bob": 0},
            "captain": "Ann", "centre": 0, "to_act": "Bob", "expects": "bet",
            "allowed": {"Ann": [], "Bob": ["call", "raise", "drop"]}, "over": False}
    record = {"seed": 1, "played": [], "last": then}
    answer = {**then, "events": [], "seats": []}
    monkeypatch.setattr(game.play, "request", lambda *a, **k: (200, answer))
    assert game.resume(8080, record).startswith("game 1 resumed with its 5 acknowledged")
    answer["actions"] = 4
    with pytest.raises(game.Failed, match=r"actions 4 \(was 5\)"):
        game.resume(8080, record)


def test_a_command_still_being_applied_is_followed_to_its_outcome(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under emulation the table answered a roll 202 (still applying it); the player asks
    for its outcome until it is decided, then reads the state, as a phone does."""
    game = load_game()
    asked = []
    answers = {("POST", "/api/act"): [(202, {"ok": False, "outcome": "/api/commands/c1"})],
               ("GET", "/api/commands/c1"): [(202, {"ok": False}), (200, {"ok": True})],
               ("GET", "/api/state"): [(200, {"actions": 1})]}

    def request(port, method, path, body=None, token=None, timeout=120.0):
        asked.append((method, path))
        return answers[(method, path)].pop(0)

    monkeypatch.setattr(game.play, "request", request)
    monkeypatch.setattr(game.time, "sleep", lambda s: None)
    state = {"to_act": "Ann", "allowed": {"Ann": ["roll"]}}
    body, after = game.act(8080, {"Ann": "T"}, state, game.random.Random(1))
    assert body == {"seat": "Ann", "action": "roll"} and after == {"actions": 1}
    assert asked == [("POST", "/api/act"), ("GET", "/api/commands/c1"),
                     ("GET", "/api/commands/c1"), ("GET", "/api/state")]


def test_the_finished_record_must_hold_every_acknowledged_action_one_for_one() -> None:
    """The game played across a kill and a reboot is checked action by action in its record:
    the seat, the verb and a bet's chips (a throw's dice are the camera's)."""
    game = load_game()
    played = [{"seat": "Ann", "action": "roll"}, {"seat": "Bob", "action": "throw"},
              {"seat": "Bob", "action": "bet", "chips": 1}]
    recorded = ["Ann roll 1", "Bob throw 6 3 1", "Bob bet 1"]
    assert game.unlike(played, recorded) == ""
    assert game.unlike(played, recorded[:2]) == "2 actions recorded, 3 acknowledged"
    assert game.unlike(played, ["Ann roll 1", "Bob throw 6 3 1", "Bob bet 2"]) == (
        "action 3 recorded as 'Bob bet 2', acknowledged as "
        "{'seat': 'Bob', 'action': 'bet', 'chips': 1}")
    assert "action 1 recorded as 'Bob roll 1'" in game.unlike(
        played, ["Bob roll 1", "Bob throw 6 3 1", "Bob bet 1"])


def test_the_camera_s_own_settle_is_no_player_s_acknowledgement() -> None:
    game = load_game()
    played = [{"seat": "Ann", "action": "call"}, {"seat": "Bob", "action": "throw"}]
    assert game.unlike(played, ["Ann call", "Ann settle 6 4 1 by camera",
                                "Bob throw 5 3 1"]) == ""
    assert game.unlike(played, ["Ann call", "Ann settle 6 4 1", "Bob throw 5 3 1"]) == (
        "3 actions recorded, 2 acknowledged")
