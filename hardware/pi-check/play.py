"""make pi-check's client of the table inside the arm64 root: wait, play a game, compare reads.

Run by ``hardware/pi-check/inside.sh`` with the clone's venv, on loopback only, with nothing
but the standard library, so it checks the table's HTTP API as a phone would use it and
depends on nothing the table's own code could get wrong in the same way:

- ``wait``: poll ``GET /api/state`` until the table answers (``make run`` is still installing
  or starting) or the time is up;
- ``play``: play the game on the table (``make run``'s default: two-hand, Ann and Bob) to its
  end through ``POST /api/act``, each seat with its own token from ``make run``'s output,
  choosing among the verbs ``/api/state`` says are allowed (seeded, so a run can be repeated);
- ``compare``: the dice ``bidou-table read-dice --json`` read here against the host's
  readings of the same photographs (same values and boxes, confidences within 0.02).

Each failure is one sentence on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import re
import sys
import time
import urllib.error
import urllib.request
from typing import Any

#: At most this many actions: a two-hand match ends long before (the engine's tests bound it).
MAX_ACTIONS = 2000
#: A match that is not over after this many seconds has hung.
PLAY_LIMIT = 3600.0
#: How far apart two machines' confidences may be (float rounding, another CPU's kernels).
CONFIDENCE_SLACK = 0.02
SEAT_LINE = re.compile(r"^Seat (\S+):\s+http://\S+/seat/\S+\?token=(\S+)$", re.M)


class Failed(Exception):
    """What went wrong, as the sentence to print."""


def request(port: int, method: str, path: str, body: dict[str, Any] | None = None,
            token: str | None = None, timeout: float = 120.0) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) of one request to the table on loopback."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                 headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as e:
        text = e.read()
        try:
            return e.code, json.loads(text or b"{}")
        except ValueError:
            return e.code, {"error": text.decode(errors="replace")}


def wait(port: int, timeout: float) -> float:
    """Seconds until ``GET /api/state`` answered 200; Failed when it did not in time."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            status, state = request(port, "GET", "/api/state", timeout=10)
            if status == 200 and "to_act" in state:
                return time.monotonic() - start
        except (OSError, ValueError):
            pass
        time.sleep(2)
    raise Failed(f"GET /api/state did not answer within {timeout:.0f} s")


def seat_tokens(log: pathlib.Path) -> dict[str, str]:
    """The seat tokens ``make run`` printed ("Seat Ann: http://.../seat/Ann?token=T")."""
    tokens = dict(SEAT_LINE.findall(log.read_text(encoding="utf-8", errors="replace")))
    if not tokens:
        raise Failed(f"{log} has no 'Seat NAME: ...?token=T' line: make run printed no seats")
    return tokens


def choose(rng: random.Random, allowed: list[str]) -> dict[str, Any]:
    """One of the allowed verbs, as the body of ``POST /api/act`` (chips for bet and raise).

    The game is to end soon, so each seat stands on its first throw and raises (nine times in
    ten) until it calls: chips move fast. Played on the engine alone, 8 seeds took 70 actions
    at the median and 134 at most, where picking among the allowed verbs at random took
    about 480 (up to 1,100)."""
    for verb in ("roll", "stand", "throw"):
        if verb in allowed:
            return {"action": verb}
    for verb in ("raise", "bet"):
        if verb in allowed and rng.random() < 0.9:
            return {"action": verb, "chips": 1}
    verb = next((v for v in ("call", "pass", "drop") if v in allowed), None) or allowed[0]
    return {"action": verb, "chips": 1} if verb in ("bet", "raise") else {"action": verb}


def play(port: int, tokens: dict[str, str], seed: int) -> str:
    """Play the table's game to its end; a sentence saying how it went."""
    rng = random.Random(seed)
    status, state = request(port, "GET", "/api/state")
    if status != 200:
        raise Failed(f"GET /api/state answered {status}")
    if state["variant"] != "two-hand" or state["over"]:
        raise Failed(f"the table plays {state['variant']} (over: {state['over']}), not a new "
                     "two-hand game: make run's default with a new --db was expected")
    missing = set(state["players"]) - set(tokens)
    if missing:
        raise Failed(f"make run printed no seat token for {', '.join(sorted(missing))}")
    start, actions = time.monotonic(), 0
    while not state["over"]:
        if actions >= MAX_ACTIONS or time.monotonic() - start > PLAY_LIMIT:
            raise Failed(f"the game was not over after {actions} actions in "
                         f"{time.monotonic() - start:.0f} s")
        seat = state["to_act"]
        allowed = state["allowed"].get(seat) or []
        if not seat or not allowed:
            raise Failed(f"nobody can act in a game that is not over: to_act={seat!r}, "
                         f"allowed={state['allowed']}, prompt={state.get('prompt')!r}")
        body = {"seat": seat, **choose(rng, allowed)}
        status, answer = request(port, "POST", "/api/act", body, tokens[seat])
        if status == 429:  # the seat's press allowance: wait as told
            time.sleep(1)
            continue
        if status != 200 or not answer.get("ok"):
            raise Failed(f"POST /api/act {body} as {seat}'s seat answered {status}: "
                         f"{answer.get('error') or answer.get('message')}")
        actions += 1
        state = answer["state"]
    _, games = request(port, "GET", "/api/games")
    finished = [g for g in games.get("games", []) if g["id"] == state["game_id"]]
    if not finished or finished[0]["status"] != "over":
        raise Failed(f"game {state['game_id']} is over but /api/games does not list it as over")
    status, record = request(port, "GET", f"/api/games/{state['game_id']}")
    if status != 200 or len(record.get("actions", [])) != actions:
        raise Failed(f"GET /api/games/{state['game_id']} answered {status} with "
                     f"{len(record.get('actions', []))} actions, not the {actions} played")
    return (f"game {state['game_id']} (two-hand) over after {actions} actions in "
            f"{state.get('round')} rounds, {state.get('hand')} hands of the last round; "
            f"loser {state['loser']}; its record has the {actions} actions")


def compare(mine: pathlib.Path, theirs: pathlib.Path) -> str:
    """The readings of the same photographs here and on the host; Failed naming a difference."""
    here = [json.loads(line) for line in mine.read_text().splitlines() if line.strip()]
    there = {r["image"]: r for r in (json.loads(line) for line in
                                     theirs.read_text().splitlines() if line.strip())}
    if not here:
        raise Failed(f"{mine} holds no reading")
    differ = []
    for reading in here:
        other = there.get(reading["image"])
        if other is None:
            raise Failed(f"the host read no {reading['image']}")
        ours = [(d["value"], d["box"]) for d in reading["dice"]]
        if ours != [(d["value"], d["box"]) for d in other["dice"]] or \
                [u["box"] for u in reading["unsure"]] != [u["box"] for u in other["unsure"]]:
            differ.append(reading["image"])
            continue
        for a, b in zip(reading["dice"], other["dice"], strict=True):
            if abs(a["confidence"] - b["confidence"]) > CONFIDENCE_SLACK:
                differ.append(f"{reading['image']} (confidence {a['confidence']} here, "
                              f"{b['confidence']} on the host)")
    if differ:
        raise Failed(f"{len(differ)} of {len(here)} photographs read differently here: "
                     + "; ".join(differ[:5]))
    dice = sum(len(r["dice"]) for r in here)
    unsure = sum(len(r["unsure"]) for r in here)
    return (f"{len(here)} photographs: {dice} dice and {unsure} unsure places, the same as "
            "on the host")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("wait", "play"):
        p = sub.add_parser(name)
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--log", type=pathlib.Path, required=True,
                       help="make run's output (the seat tokens)")
        p.add_argument("--timeout", type=float, default=600.0)
        p.add_argument("--seed", type=int, default=37)
    p = sub.add_parser("compare")
    p.add_argument("mine", type=pathlib.Path)
    p.add_argument("theirs", type=pathlib.Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "wait":
            print(f"play.py: /api/state answered after {wait(args.port, args.timeout):.0f} s")
        elif args.command == "play":
            print(f"play.py: {play(args.port, seat_tokens(args.log), args.seed)}")
        else:
            print(f"play.py: {compare(args.mine, args.theirs)}")
    except (Failed, OSError, ValueError, KeyError) as e:
        print(f"play.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
