"""Soak: 200 event-stream viewers, 1000 idle connections and a press flood at once, on loopback.

The real table (simulated camera, multi-hand for Ann, Bob and Cid) and its dashboard run in
this process; the viewers, the idle connections and the flood run in three other processes
(``soak_clients.py``), so they do not share this interpreter's lock. A driver plays the game
through ``POST /api/press``, the phones' own endpoint, for ``BENCH_SOAK_SECONDS`` (default
60). The flood holds all three seat tokens, so each seat's presses are past its
rate limit (429) all along, as they should be; the driver therefore presses with the referee's
token, which is not rate-limited, on the same endpoint, server and streams. Reported: press-to-
event latency (the press sent -> the new state at each viewer) p50/p99, ``GET /api/state``
latency under the flood, whether chips were conserved in every state the driver was answered
with, and whether every action the driver was told was played is in the log. Figures only: this
machine is shared, so nothing is asserted.
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

from firmware.camera.simulation import players_settle, random_presses
from firmware.gamelog.rebuild import effective_actions
from firmware.settings.config import build_config
from firmware.settings.server_settings import ServerSettings
from firmware.table.commands import Correct
from firmware.table.house import build_house
from table_server.server import Dashboard

STREAMS = int(os.environ.get("BENCH_SOAK_STREAMS", "200"))
IDLE = int(os.environ.get("BENCH_SOAK_IDLE", "1000"))
CLIENTS = pathlib.Path(__file__).with_name("soak_clients.py")
REFEREE = "soak-referee-token-000000"


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _start(*args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, str(CLIENTS), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"{args[0]} did not start")
    return proc


def _finish(proc: subprocess.Popen[str]) -> dict:
    out, _ = proc.communicate("stop\n", timeout=120)
    return json.loads(out.strip().splitlines()[-1])


def _chips(state: dict) -> int:
    return sum(state["chips"].values()) + state["centre"] + state["pot"] + state["removed"]


def main() -> None:
    seconds = float(os.environ.get("BENCH_SOAK_SECONDS", "60"))
    config = build_config({"table": {"variant": "multi-hand", "players": ["Ann", "Bob", "Cid"]}},
                          environ={})
    with tempfile.TemporaryDirectory() as tmp:
        house = build_house(config, db=os.path.join(tmp, "soak.db"), seed=5, panels=False)
        controller, sim = house.controller, house.dice
        assert sim is not None
        settings = ServerSettings(port=0, referee_token=REFEREE, referee_pin="123456",
                                  keepalive=5.0)
        dashboard = Dashboard(controller, settings).start()
        port = dashboard.port
        tokens = {seat: dashboard.context.tokens.token_for(seat) for seat in ("Ann", "Bob",
                                                                                "Cid")}
        viewers = idlers = flood = None
        try:
            viewers = _start("viewers", str(port), str(STREAMS))
            idlers = _start("idle", str(port), str(IDLE))
            flood = _start("flood", str(port), json.dumps(tokens))
            sent, acked, conserved, total = _drive(port, controller, sim, seconds)
        finally:
            seen = _finish(viewers) if viewers else {"arrivals": {}}
            seen.update(_finish(idlers) if idlers else {})
            flooded = _finish(flood) if flood else {"statuses": {}, "state_ms": []}
            in_log = _all_in_log(controller, acked)
            dashboard.stop()
            house.close()
    arrivals = {int(v): ts for v, ts in seen["arrivals"].items()}
    latencies: dict[str, list[float]] = {"THROW (camera read)": [], "other buttons": []}
    for version, t0, kind in sent:
        later = [v for v in arrivals if v >= version]
        if later:
            latencies[kind] += [t - t0 for t in arrivals[min(later)]]
    print(f"soak {seconds:.0f} s: {STREAMS} event streams + {IDLE} idle connections + a press "
          f"flood (3 seat tokens), loopback")
    print(f"  presses played by the driver: {len(sent)}; streams open at the end "
          f"{seen.get('streams_open')}, refused {seen.get('streams_refused')}; idle "
          f"connections closed by the read timeout (or for room) and reopened: "
          f"{seen.get('idle_reopened')}")
    print("  press-to-event (POST /api/press sent -> the new state at each viewer; target for "
          "the other buttons: p99 <= 50 ms)")
    for kind, xs in latencies.items():
        if xs:
            print(f"    {kind:<20} {len(xs):6d} deliveries  p50 "
                  f"{1000 * statistics.median(xs):6.1f} ms  p99 {1000 * _pct(xs, 0.99):6.1f} ms")
    state_ms = flooded["state_ms"]
    if state_ms:
        print(f"  GET /api/state under the flood: {len(state_ms)} requests, p50 "
              f"{statistics.median(state_ms):6.1f} ms  p99 {_pct(state_ms, 0.99):6.1f} ms")
    print(f"  flood answers by status: {dict(sorted(flooded['statuses'].items()))}")
    print(f"  chips conserved in every answered state: {conserved} (total {total}); every "
          f"acknowledged action in the log: {in_log} ({len(acked)} actions)")


def _drive(port: int, controller, sim,
           seconds: float) -> tuple[list[tuple[int, float, str]], list[tuple[int, int]], bool,
                                    int]:
    """Play presses for ``seconds``: (version, sent time, kind of press) of each change,
    (game, action count) of each action acknowledged, whether chips were conserved, the chip
    total."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rng = random.Random(5)
    sent: list[tuple[int, float, str]] = []
    acked: list[tuple[int, int]] = []
    total = _chips(controller.public_state())
    conserved = True
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if controller.game.over:
            controller.submit(Correct("new-game", by="soak", why="next game"))
            continue
        players_settle(controller, sim)  # exposed dice the camera could not read (D-S4)
        if controller.game.over:
            continue
        seat, moves = random_presses(controller.game, rng)
        for button, long in moves:
            before = controller.public_state()
            t0 = time.perf_counter()
            status, body = _post(conn, "/api/press", {"seat": seat, "button": button,
                                                      "long": long}, REFEREE)
            if status != 200:
                continue
            state = body["state"]
            kind = "THROW (camera read)" if button == "THROW" and not long else "other buttons"
            sent.append((state["version"], t0, kind))
            conserved = conserved and _chips(state) == total
            if state["actions"] > before["actions"] and state["game_id"] == before["game_id"]:
                acked.append((state["game_id"], state["actions"]))
    conn.close()
    return sent, acked, conserved, total


def _post(conn: http.client.HTTPConnection, path: str, body: dict,
          token: str) -> tuple[int, dict]:
    conn.request("POST", path, json.dumps(body),
                 {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"{}")


def _all_in_log(controller, acked: list[tuple[int, int]]) -> bool:
    """Whether the log holds at least as many actions as each acknowledgement counted."""
    counts = {}
    for game_id in {g for g, _ in acked}:
        counts[game_id] = len(effective_actions(controller.log.entries(game_id)))
    return all(counts[g] >= n for g, n in acked)


if __name__ == "__main__":
    main()
