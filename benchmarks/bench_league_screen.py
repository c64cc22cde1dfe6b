"""The league screen's standings with 10,000 rated players: latency of the standings page and
of ``GET /api/standings``, p50 and p99, one client and eight at once.

A real PostgreSQL (``venue.pgcluster``, in a temporary folder) holds the league's schema with
10,000 rostered players, each rated (``ratings``) with a few points of history; the real
screen (``league_screen.app`` served by ``venue_screen.server``, as ``bidou-league screen``
serves it) answers over loopback. Pages asked: the first page of the standings, a page in
the middle and the last, and the API's first and last hundred. Nothing else runs in the
league (no cluster: the live wall is not asked).

``python benchmarks/bench_league_screen.py [--players N] [--requests N]``
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league import store  # noqa: E402
from league_screen.app import create_app  # noqa: E402
from league_screen.data import Reader  # noqa: E402
from league_screen.live import Live  # noqa: E402
from venue.pgcluster import PgCluster  # noqa: E402
from venue_screen.server import ScreenServer  # noqa: E402

PATHS = ("/", "/?page=50", "/?page=100", "/api/standings", "/api/standings?offset=9900")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fill(dsn: str, players: int, rng: random.Random) -> None:
    """``players`` rostered and rated players over 12 pubs, 3 history points each."""
    db = store.connect(dsn)
    with db.transaction():
        roster = [(f"p{i:05d}", f"Player {i}", f"pub{i % 12}") for i in range(players)]
        ratings, history = [], []
        for pid, _, pub in roster:
            mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
            games = rng.randint(1, 60)
            day = rng.randint(1, 28)
            ratings.append((pid, mu, sigma, mu - 3 * sigma, games, rng.randint(0, games),
                            f"2026-11-{day:02d}T20:00:00+00:00"))
            for g in range(3):
                history.append((pid, f"2026-11-{day:02d}T2{g}:00:00+00:00", pub, "t1",
                                g + 1, 1, False, mu, sigma, mu - 3 * sigma))
        with db.cursor() as cur:
            cur.executemany("INSERT INTO roster (player_id, name, home_venue) VALUES "
                            "(%s, %s, %s)", roster)
            cur.executemany("INSERT INTO ratings VALUES (%s, %s, %s, %s, %s, %s, %s)", ratings)
            cur.executemany("INSERT INTO rating_history VALUES (%s, %s, %s, %s, %s, %s, %s, "
                            "%s, %s, %s)", history)
    db.execute("ANALYZE")
    db.close()


def timed(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as r:
        r.read()
    return (time.perf_counter() - start) * 1000


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


def measure(base: str, path: str, requests: int, clients: int) -> list[float]:
    """``requests`` answers of ``path`` from ``clients`` clients at once (each in a loop)."""
    times: list[float] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        for _ in range(n):
            t = timed(base + path)
            with lock:
                times.append(t)

    threads = [threading.Thread(target=client, args=(requests // clients,))
               for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args(argv if argv is not None else [])
    top = Path(tempfile.mkdtemp(prefix="bench-league-screen-"))
    top.chmod(0o711)
    pg = PgCluster(str(top / "pg"), free_port())
    pg.init()
    pg.start()
    server = None
    try:
        fill(pg.dsn, args.players, random.Random(1))
        server = ScreenServer(create_app(Reader(pg.dsn), Live(None)), "127.0.0.1", 0)
        server.start()
        base = f"http://127.0.0.1:{server.port}"
        for path in PATHS:  # warm: each serving thread's connection, PostgreSQL's cache
            for _ in range(30):
                timed(base + path)
        print(f"{args.players} rated players; {os.cpu_count()} cores, PostgreSQL and the "
              "screen on this machine; latency per request, ms")
        for clients in (1, 8):
            for path in PATHS:
                times = measure(base, path, args.requests, clients)
                print(f"  {clients} client{'s' if clients > 1 else ''} {path:<28} "
                      f"p50 {statistics.median(times):6.1f}  p99 {p99(times):6.1f}  "
                      f"({len(times)} requests)")
    finally:
        if server is not None:
            server.stop()
        pg.stop()
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
