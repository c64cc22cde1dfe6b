"""What the league benchmarks' simulated pubs send the league, and what it costs it.

Entries released on each pub's hub at a table's pace (its forwarder's publish), a day's
backlog put in the league's stream at once, and every table's public state every ``PACE``
seconds with the CPU it costs the league's ingester and servers (``bench_league.py``,
``bench_league_partitions.py``).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import nats

from league.cluster import league_subject
from venue.forwarder import summary
from venue.messages import EntryMessage, entry_subject, state_subject

PACE = 2.0  # seconds between two entries of one table: a person's pace


async def publish_paced(urls: dict[str, str], timed: list[tuple[float, EntryMessage]],
                         released: dict[str, float]) -> None:
    """Release each entry on its pub's hub at its time (the table's forwarder's publish)."""
    conns = {p: await nats.connect(u, user="venue", password=f"adm-{p}")
             for p, u in urls.items()}
    start = time.monotonic()
    pending: list[asyncio.Future] = []
    for at, m in timed:
        delay = start + at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        released[f"{m.venue}:{m.id}"] = time.time()
        js = conns[m.venue].jetstream()
        pending.append(asyncio.ensure_future(js.publish(
            entry_subject(m.venue, m.table), m.to_bytes(), headers={"Nats-Msg-Id": m.id},
            timeout=30)))
        if len(pending) > 200:
            await asyncio.gather(*pending)
            pending = []
    await asyncio.gather(*pending)
    for c in conns.values():
        await c.close()


async def publish_backlog(url: list[str], password: str, messages: list[EntryMessage]) -> None:
    """Entries put in the league's stream as the league's own user, as uplinks would."""
    nc = await nats.connect(url, user="league", password=password)
    js = nc.jetstream()
    for s in range(0, len(messages), 1000):
        await asyncio.gather(*(js.publish(league_subject(m.venue, m.table), m.to_bytes(),
                                          headers={"Nats-Msg-Id": m.id}, timeout=60)
                               for m in messages[s:s + 1000]))
    await nc.close()


def _cpu(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _state_body(pub: str, table: str) -> bytes:
    """A table's public state as its forwarder sends it (``venue.forwarder``): three seats
    in a hand."""
    seats = [{"name": n, "chips": c, "stake": 0, "in_hand": True, "to_act": n == "Ann",
              "out": False, "exposed": [6, 4]} for n, c in (("Ann", 5), ("Bob", 3), ("Cy", 0))]
    state = {"game_id": 12, "status": "playing", "variant": "multi-hand", "to_act": "Ann",
             "expects": "throw", "pot": 3, "centre": 0, "hand": 2, "seats": seats,
             "version": 57}
    return json.dumps(summary(state) | {"table": table, "venue": pub, "log_id": f"{pub}-{table}",
                                        "entries": 140, "waiting": 0,
                                        "at": time.time()}).encode()


async def _states(urls: dict[str, str], tables: int, seconds: float) -> int:
    """Every table's state on its pub's hub every ``PACE`` s (the tables spread over the
    interval) for ``seconds``; how many were published."""
    conns = {p: await nats.connect(u, user="venue", password=f"adm-{p}")
             for p, u in urls.items()}
    every = [(p, f"t{t}") for p in urls for t in range(tables)]
    bodies = {pt: _state_body(*pt) for pt in every}
    start, n = time.monotonic(), 0
    for k in range(int(seconds / PACE)):
        for i, (p, t) in enumerate(every):
            delay = start + k * PACE + i * PACE / len(every) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await conns[p].publish(state_subject(p, t), bodies[(p, t)])
            n += 1
    for c in conns.values():
        await c.flush()
        await c.close()
    return n


async def state_cost(urls: dict[str, str], tables: int, seconds: float, league: list[str],
                      password: str, ingester: int, servers: list[int]
                      ) -> tuple[int, int, float, float, float, float, float]:
    """(published, heard on ``refused.*.bidou.>``, seconds, ingester's CPU idle and during the
    states, the servers' idle and during), CPU in cores; idle measured as long just before."""
    nc = await nats.connect(league, user="league", password=password)
    heard = 0

    async def count(msg: object) -> None:
        nonlocal heard
        heard += 1

    await nc.subscribe("refused.*.bidou.>", cb=count)
    await nc.flush()
    pids = [ingester, *servers]
    before, t0 = [_cpu(p) for p in pids], time.monotonic()
    await asyncio.sleep(seconds)
    idle, t1 = [_cpu(p) for p in pids], time.monotonic()
    published = await _states(urls, tables, seconds)
    await nc.flush()
    busy, t2 = [_cpu(p) for p in pids], time.monotonic()
    await asyncio.sleep(1)  # the last ones arrive
    await nc.close()
    return (published, heard, t2 - t1, (idle[0] - before[0]) / (t1 - t0),
            (busy[0] - idle[0]) / (t2 - t1), (sum(idle[1:]) - sum(before[1:])) / (t1 - t0),
            (sum(busy[1:]) - sum(idle[1:])) / (t2 - t1))
