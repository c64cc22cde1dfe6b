"""make pi-boot's player: a two-hand game on the booted table, across a kill and a reboot.

Run by ``hardware/pi-boot/run.sh`` on the host, through the port forwarded to the table's
dashboard, with nothing but the standard library and make pi-check's client
(``hardware/pi-check/play.py``: its requests and its choice of verbs):

- ``start``: from a new game, play through ``POST /api/act`` (each seat with its token, read
  from the service's journal) until a bet or raise has been acknowledged; what every
  acknowledged answer said is kept in a record file;
- ``resume``: after the service was killed or the machine rebooted, ``GET /api/state`` must
  show the same game with every acknowledged action: the same number of actions, chips, pot,
  round, hand, captain, centre, rounds lost, seat to act and verbs allowed as the last answer
  acknowledged;
- ``finish``: play the same game to its end; its finished record must hold every action
  played since ``start``, one for one (the seat, the verb and a bet's chips), the ones
  acknowledged before a kill or a reboot included;
- ``zones``: the referee gives the table its camera zones again (``POST
  /api/referee/zones``, the referee token from the journal): they must be saved in the
  config, which the service may write only where its unit lets it;
- ``link``: with ``[venue]`` in its config, the table's referee console says it is connected
  to the hub, and names the log the venue is to enroll (``bidou-venue accept-log --log ID``:
  nothing of the game reaches the hub before it is over, its dice being under the cups);
- ``venue``: the venue screen's API lists that game, over, for the table.

Each failure is one sentence on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import random
import re
import sys
import time
from typing import Any

_PLAY = pathlib.Path(__file__).resolve().parents[1] / "pi-check" / "play.py"
_spec = importlib.util.spec_from_file_location("pi_check_play", _PLAY)
assert _spec is not None and _spec.loader is not None
play = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = play
_spec.loader.exec_module(play)
Failed = play.Failed

REFEREE_LINE = re.compile(r"^Referee token:\s+(\S+)", re.M)
#: seconds to wait for a command answered 202 (being applied) to be decided
OUTCOME_POLLS = 300
#: what must be the same after a restart as in the last acknowledged answer
KEPT = ("game_id", "actions", "hand_actions", "chips", "pot", "round", "hand", "rounds_lost",
        "captain", "centre", "to_act", "expects", "allowed", "over")


def snapshot(state: dict[str, Any]) -> dict[str, Any]:
    """The part of ``/api/state`` that a restart must give back as it was."""
    return {key: state.get(key) for key in KEPT}


def act(port: int, tokens: dict[str, str], state: dict[str, Any],
        rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one verb for the seat to act; (the body sent, the state acknowledged)."""
    seat = state["to_act"]
    allowed = state["allowed"].get(seat) or []
    if not seat or not allowed:
        raise Failed(f"nobody can act in a game that is not over: to_act={seat!r}, "
                     f"allowed={state['allowed']}")
    body = {"seat": seat, **play.choose(rng, allowed)}
    for _ in range(30):
        status, answer = play.request(port, "POST", "/api/act", body, tokens[seat])
        if status != 429:  # the seat's press allowance: wait as told
            break
        time.sleep(1)
    if status == 202:  # still being applied (a camera read under emulation): ask until done
        outcome = answer["outcome"]
        for _ in range(OUTCOME_POLLS):
            time.sleep(1)
            status, answer = play.request(port, "GET", outcome, token=tokens[seat])
            if status != 202:
                break
        if status == 200 and answer.get("ok"):
            status, answer["state"] = play.request(port, "GET", "/api/state")
    if status != 200 or not answer.get("ok"):
        raise Failed(f"POST /api/act {body} as {seat}'s seat answered {status}: "
                     f"{answer.get('error') or answer.get('message')}")
    return body, answer["state"]


def start(port: int, tokens: dict[str, str], seed: int) -> dict[str, Any]:
    """Play a new game up to its first acknowledged bet or raise; the record."""
    rng = random.Random(seed)
    status, state = play.request(port, "GET", "/api/state")
    if status != 200:
        raise Failed(f"GET /api/state answered {status}")
    if state["variant"] != "two-hand" or state["over"] or state.get("actions"):
        raise Failed(f"the table plays {state['variant']} with {state.get('actions')} actions "
                     f"(over: {state['over']}), not a new two-hand game")
    played: list[dict[str, Any]] = []
    while not played or played[-1]["action"] not in ("bet", "raise"):
        if len(played) >= play.MAX_ACTIONS or state["over"]:
            raise Failed(f"no bet after {len(played)} actions")
        body, state = act(port, tokens, state, rng)
        played.append(body)
    return {"seed": seed, "played": played, "last": snapshot(state)}


def resume(port: int, record: dict[str, Any]) -> str:
    """Check that the table shows the recorded game as last acknowledged; a sentence."""
    status, state = play.request(port, "GET", "/api/state")
    if status != 200:
        raise Failed(f"GET /api/state answered {status}")
    now, then = snapshot(state), record["last"]
    differ = [f"{k} {now[k]!r} (was {then.get(k)!r})" for k in KEPT if now[k] != then.get(k)]
    if differ:
        raise Failed("the table did not resume the game as acknowledged: " + "; ".join(differ))
    return (f"game {now['game_id']} resumed with its {now['actions']} acknowledged actions "
            f"(chips {now['chips']}, pot {now['pot']}, {now['to_act']} to act)")


def finish(port: int, tokens: dict[str, str], record: dict[str, Any]) -> str:
    """Play the recorded game to its end and check its finished record; a sentence."""
    rng = random.Random(record["seed"] + len(record["played"]))
    _, state = play.request(port, "GET", "/api/state")
    played = record["played"]
    while not state["over"]:
        if len(played) >= play.MAX_ACTIONS:
            raise Failed(f"the game was not over after {len(played)} actions")
        body, state = act(port, tokens, state, rng)
        played.append(body)
    record["last"] = snapshot(state)
    game = state["game_id"]
    status, finished = play.request(port, "GET", f"/api/games/{game}")
    if status != 200:
        raise Failed(f"GET /api/games/{game} answered {status}: {finished}")
    differ = unlike(played, finished.get("actions", []))
    if differ:
        raise Failed(f"the record of game {game} is not the game played: {differ}")
    return (f"game {game} over after {len(played)} actions, loser {state['loser']}; its "
            f"record has every one of them, one for one")


def unlike(played: list[dict[str, Any]], recorded: list[str]) -> str:
    """Where a finished record ("Ann bet 1", "Bob throw 6 3 1": seat, verb, then chips or the
    dice read) departs from the actions acknowledged; "" when it holds them all, in order.
    The table's own actions (the camera settling shown dice after a call: "Ann settle 6 4 1
    by camera") are nobody's acknowledgement and are left out."""
    recorded = [line for line in recorded
                if not (line.split()[1:2] == ["settle"] and line.endswith(" by camera"))]
    if len(recorded) != len(played):
        return f"{len(recorded)} actions recorded, {len(played)} acknowledged"
    for n, (body, line) in enumerate(zip(played, recorded, strict=True), 1):
        seat, verb, *rest = line.split()
        want = [body["seat"], body["action"]]
        got = [seat, verb]
        if "chips" in body:
            want.append(str(body["chips"]))
            got.append(rest[0] if rest else "")
        if got != want:
            return f"action {n} recorded as {line!r}, acknowledged as {body}"
    return ""


def zones(port: int, journal: pathlib.Path) -> str:
    """Set the zones the table reads now again, as the referee; a sentence."""
    tokens = REFEREE_LINE.findall(journal.read_text(encoding="utf-8", errors="replace"))
    if not tokens:
        raise Failed(f"{journal} has no 'Referee token: T' line")
    status, now = play.request(port, "GET", "/api/referee/zones", token=tokens[-1])
    if status != 200 or not now.get("zones"):
        raise Failed(f"GET /api/referee/zones answered {status}: {now}")
    status, answer = play.request(port, "POST", "/api/referee/zones", {"zones": now["zones"]},
                                  tokens[-1])
    if status != 200 or "saved in the config" not in answer.get("message", ""):
        raise Failed(f"POST /api/referee/zones answered {status}: "
                     f"{answer.get('message') or answer.get('error')}")
    return f"the referee's zones: {answer['message']}"


def link(port: int, journal: pathlib.Path, timeout: float) -> str:
    """Wait until the referee console says the table is connected to its venue's hub; a
    sentence starting "the venue link: log ID;"."""
    tokens = REFEREE_LINE.findall(journal.read_text(encoding="utf-8", errors="replace"))
    if not tokens:
        raise Failed(f"{journal} has no 'Referee token: T' line")
    start_time, venue_status = time.monotonic(), None
    while time.monotonic() - start_time < timeout:
        status, state = play.request(port, "GET", "/api/referee/state", token=tokens[-1])
        if status != 200:
            raise Failed(f"GET /api/referee/state answered {status}: {state}")
        venue_status = state.get("venue")
        if venue_status is None:
            raise Failed("the referee console shows no venue: the config has no [venue]")
        if venue_status["connected"]:
            return f"the venue link: log {venue_status['log_id']}; {venue_status['sentence']}"
        time.sleep(3)
    raise Failed(f"the table was not connected to its hub within {timeout:.0f} s: "
                 f"{venue_status and venue_status['sentence']}")


def venue(port: int, table: str, game: int, timeout: float) -> str:
    """Wait until the venue screen's API lists ``game`` of ``table`` as over; a sentence."""
    start_time = time.monotonic()
    seen: Any = None
    while time.monotonic() - start_time < timeout:
        try:
            status, games = play.request(port, "GET", f"/api/tables/{table}/games", timeout=10)
        except (OSError, ValueError) as e:
            status, games = 0, str(e)
        if status == 200 and isinstance(games, list):
            seen = [(g["id"], g["status"]) for g in games]
            for g in games:
                if g["id"] == game and g["status"] != "playing":
                    return (f"the venue screen lists {table}'s game {game} as {g['status']} "
                            f"({g['entries']} entries) {time.monotonic() - start_time:.0f} s "
                            "after it ended")
        else:
            seen = (status, games)
        time.sleep(3)
    raise Failed(f"the venue screen did not list {table}'s game {game} as over within "
                 f"{timeout:.0f} s; it answered {seen}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("start", "resume", "finish"):
        p = sub.add_parser(name)
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--record", type=pathlib.Path, required=True)
        if name != "resume":
            p.add_argument("--tokens", type=pathlib.Path, required=True,
                           help="the service's journal, with its 'Seat NAME: URL' lines")
    sub.choices["start"].add_argument("--seed", type=int, default=37)
    p = sub.add_parser("zones")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--record", type=pathlib.Path, required=True)
    p.add_argument("--tokens", type=pathlib.Path, required=True)
    p = sub.add_parser("link")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--record", type=pathlib.Path, required=True)
    p.add_argument("--tokens", type=pathlib.Path, required=True)
    p.add_argument("--timeout", type=float, default=300.0)
    p = sub.add_parser("venue")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--record", type=pathlib.Path, required=True)
    p.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    try:
        if args.command == "start":
            record = start(args.port, play.seat_tokens(args.tokens), args.seed)
            args.record.write_text(json.dumps(record))
            print(f"game.py: game {record['last']['game_id']} played to a bet: "
                  f"{len(record['played'])} actions acknowledged, the last "
                  f"{record['played'][-1]}")
            return 0
        if args.command == "zones":
            print(f"game.py: {zones(args.port, args.tokens)}")
            return 0
        if args.command == "link":
            print(f"game.py: {link(args.port, args.tokens, args.timeout)}")
            return 0
        record = json.loads(args.record.read_text())
        if args.command == "resume":
            print(f"game.py: {resume(args.port, record)}")
        elif args.command == "finish":
            try:
                print(f"game.py: {finish(args.port, play.seat_tokens(args.tokens), record)}")
            finally:  # what was acknowledged is kept, passed or failed
                args.record.write_text(json.dumps(record))
        else:
            game = record["last"]["game_id"]
            print(f"game.py: {venue(args.port, args.table, game, args.timeout)}")
    except (Failed, OSError, ValueError, KeyError) as e:
        print(f"game.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
