"""The venue bench's latency: when each entry was first shown and stored on the screen (read
from its event stream as a browser reads it), against when it was free to leave its table.

An entry with dice leaves when its game ends, so its latency counts from the commit that ended
the game. Most entries leave so, dozens to hundreds at once: the p99 is the last of the largest
of them, and ``latency`` prints those bursts' sizes with it.
"""

from __future__ import annotations

import collections
import contextlib
import json
import statistics
import threading
import time
import urllib.request

from venue_tables import TableProcess

#: seconds of entries released that one latency figure is taken over
LATENCY_SECONDS = 20.0


def read_events(screen: str, arrivals: dict[str, dict[tuple[str, int, int], float]],
            stop: threading.Event) -> None:
    """Read the screen's SSE stream, noting when each entry is first shown (``entry``) and
    when it is stored (``stored``). Read as a browser's EventSource does, in whatever the
    socket holds at once (``read1``), not a line at a time: the instrument's own cost would
    be counted in the latency it measures (a finished game's burst is hundreds of events)."""
    while not stop.is_set():
        with contextlib.suppress(Exception), \
                urllib.request.urlopen(screen + "api/events", timeout=30) as stream:
            rest = b""
            while not stop.is_set():
                data = stream.read1(1 << 16)
                if not data:
                    break
                now = time.time()
                *events, rest = (rest + data).split(b"\n\n")
                for event in events:
                    _note(event, now, arrivals)


def _note(event: bytes, now: float,
          arrivals: dict[str, dict[tuple[str, int, int], float]]) -> None:
    """One SSE event (``event: KIND`` then ``data: JSON``) received at ``now``."""
    kind, data = None, None
    for line in event.split(b"\n"):
        if line.startswith(b"event: "):
            kind = line[7:].decode()
        elif line.startswith(b"data: "):
            data = line[6:]
    if kind not in arrivals or data is None:
        return
    d = json.loads(data)
    key = (d["table"], d["game"], d["seq"])
    arrivals[kind].setdefault(key, now)
    if kind == "entry" and d.get("stored") is False:
        arrivals["live"][key] = arrivals[kind][key]
        if isinstance(d.get("hub_at"), (int, float)):
            arrivals["hub"][key] = d["hub_at"]



def wanted(tables: list[TableProcess]) -> int:
    return sum(t.released for t in tables)


def _percentiles(lat: list[float]) -> str:
    if not lat:
        return "no event"
    lat = sorted(lat)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    return f"p50 {p50:.0f} ms, p99 {p99:.0f} ms"


def latency(tables: list[TableProcess], arrivals: dict[str, dict[tuple[str, int, int], float]],
            label: str) -> str:
    """Commit (or release) on the table to the screen's SSE events, over LATENCY_SECONDS:
    to the entry shown (live from the hub) and to the entry stored (PostgreSQL)."""
    t0 = time.time()
    time.sleep(LATENCY_SECONDS)
    t1 = time.time()
    time.sleep(3)
    released = [(t.name, g, s, at) for t in tables for (g, s), at in t.released_at().items()
                if t0 <= at <= t1]
    shown = [arrivals["entry"][(n, g, s)] - at for n, g, s, at in released
             if (n, g, s) in arrivals["entry"]]
    stored = [arrivals["stored"][(n, g, s)] - at for n, g, s, at in released
              if (n, g, s) in arrivals["stored"]]
    if not shown:
        return f"{label}: no entry event reached the screen in {LATENCY_SECONDS:.0f} s"
    live = sum((n, g, s) in arrivals["live"] for n, g, s, _ in released)
    hub = arrivals["hub"]
    to_hub = [hub[(n, g, s)] - at for n, g, s, at in released if (n, g, s) in hub]
    from_hub = [arrivals["live"][k] - hub[k] for n, g, s, _ in released
                if (k := (n, g, s)) in hub and k in arrivals["live"]]
    label += f", {len(released) / (t1 - t0):.0f} entries/s released"
    together = sorted(collections.Counter((n, at) for n, _, _, at in released).values())
    return (f"{label}: commit-on-table to venue-screen entry event {_percentiles(shown)} "
            f"({len(shown)} of {len(released)} entries, {live} of them shown live from the "
            f"hub, the rest from the store); to its stored event {_percentiles(stored)} "
            f"({len(stored)}). Split of the live path: release to stored on the hub "
            f"{_percentiles(to_hub)} (the tables' forwarders and the hub), hub to screen "
            f"event {_percentiles(from_hub)} (the screen and its event stream); entries "
            f"released at once (a game's end lets its dice go): median "
            f"{statistics.median(together):.0f}, most {together[-1]}")

