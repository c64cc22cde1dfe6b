"""Controller: press-to-state-change latency and sustained presses per second.

A press is put on the controller's queue exactly as the seat panel's gpiozero callback does
(a ``SeatEvent``), and timed until the new public state reaches a subscriber (what the
dashboard's event stream waits on). THROW presses include waiting for still frames, rendering
is done by the simulated camera BEFORE the read (the renderer stands in for the dice, so its
time is reported apart) and the real reader; every accepted action is a committed SQLite
transaction (WAL, synchronous=FULL) on a real file.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time

from firmware.camera.simulation import players_settle, random_presses
from firmware.settings.config import build_config, default_config
from firmware.table.commands import Press
from firmware.table.house import build_house
from hardware.panel import SeatEvent


def _p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def _ms(x: float) -> str:
    return f"{1000 * x:7.1f} ms"


def latency(presses: int = 150, seed: int = 3) -> None:
    config = build_config({"table": {"variant": "multi-hand", "players": ["Ann", "Bob", "Cid"]}},
                          environ={})
    with tempfile.TemporaryDirectory() as tmp:
        house = build_house(config, db=f"{tmp}/bench.db", seed=seed, panels=False)
        c, table = house.controller, house.dice
        assert table is not None
        render: list[float] = []
        original = table.before_read

        def timed_before_read(seat: str, kind: str, again: bool = False) -> None:
            t = time.perf_counter()
            original(seat, kind, again)
            table.camera.read()  # render now, so the read below is the controller's own work
            render.append(time.perf_counter() - t)

        c.reads.before_read = timed_before_read
        sub = c.subscribe()
        sub.get(1.0)
        rng = random.Random(seed)
        by_kind: dict[str, list[float]] = {"THROW (read)": [], "BET/CALL/PASS/stand": []}
        done = 0
        while done < presses:
            if c.game.over:
                break
            players_settle(c, table)  # exposed dice the camera could not read (D-S4)
            if c.game.over:
                break
            seat, moves = random_presses(c.game, rng)
            for button, long in moves:
                version = c.public_state()["version"]
                t0 = time.perf_counter()
                c.events.put(SeatEvent(seat, button, long, time.monotonic()))
                while True:
                    state = sub.get(5.0)
                    if state is None or state["version"] > version:
                        break
                dt = time.perf_counter() - t0
                kind = "THROW (read)" if button == "THROW" and not long else \
                    "BET/CALL/PASS/stand"
                by_kind[kind].append(dt)
                done += 1
        sub.close()
        house.close()
    print("press-to-state-change latency (SeatEvent on the queue -> subscriber has the state)")
    for kind, xs in by_kind.items():
        if xs:
            print(f"  {kind:<22} n={len(xs):4d}  median {_ms(statistics.median(xs))}  "
                  f"p99 {_ms(_p99(xs))}")
    if render:
        print(f"  (simulated camera rendering before each read, not in the figures above: "
              f"median {_ms(statistics.median(render))})")


def throughput(seconds: float = 4.0, seed: int = 5) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        house = build_house(default_config(), db=f"{tmp}/bench.db", seed=seed, panels=False)
        c, table = house.controller, house.dice
        assert table is not None
        rng = random.Random(seed)
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            if c.game.over:
                break
            n += players_settle(c, table)
            if c.game.over:
                break
            seat, moves = random_presses(c.game, rng)
            for button, long in moves:
                c.submit(Press(seat, button, long))
                n += 1
        legal = n / (time.perf_counter() - t0)

        # a flood of presses that change no chips: BET offers a stake, PASS cancels it
        seat = c.game.to_act or "Ann"
        flood = 2000
        target = c.processed + flood
        t0 = time.perf_counter()
        for i in range(flood):
            c.events.put(SeatEvent(seat, "BET" if i % 2 == 0 else "PASS", False, 0.0))
        if not c.wait_processed(target, 60.0):
            print("  (the flood was not handled within 60 s)")
        flood_rate = flood / (time.perf_counter() - t0)
        house.close()
    print("sustained presses per second")
    print(f"  random legal presses, simulated camera + reader, SQLite FULL sync: "
          f"{legal:7.1f} /s")
    print(f"  queue flood of {flood} presses without an action (refused or stake only): "
          f"{flood_rate:7.1f} /s")


def main() -> None:
    latency()
    throughput()


if __name__ == "__main__":
    main()
