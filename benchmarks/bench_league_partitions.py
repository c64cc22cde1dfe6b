"""The league's ingesters partitioned by pub (docs/league.md, The league ingester): a backlog
drained by one ingester, then the same backlog by two, each taking half the pubs through its
own durable consumer, into one PostgreSQL, printed with the cores and the load the run had.

Each run is a fresh league (three nats-servers, a new database): PUBS pubs of TABLES tables,
GAMES finished games per table (the tests' simulated games), put in ``LEAGUE_ENTRIES`` before
any ingester starts; then the ingesters are started together and timed, their start
included, until every entry is stored.

``python benchmarks/bench_league_partitions.py [--pubs 16] [--tables 5] [--games 4]``.
Nothing is asserted: the machine is shared, the figures are what this run saw.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

import nats
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "venue"), str(ROOT / "tests" / "league"),
                str(ROOT / "benchmarks")]

from league_harness import DAY0, ROSTER, League, day_of_games  # noqa: E402
from league_traffic import publish_backlog  # noqa: E402
from venue_harness import _listening, free_port, wait_until  # noqa: E402

from league.cluster import ensure_streams  # noqa: E402
from venue.messages import EntryMessage  # noqa: E402
from venue.pgcluster import PgCluster  # noqa: E402


async def _streams(lg: League) -> None:
    c = lg.config
    nc = await nats.connect(c.client_urls(), user=c.admin_user, password=c.admin_password)
    while True:
        try:
            await ensure_streams(nc.jetstream(), c)
            break
        except Exception:  # noqa: BLE001 -- the cluster has no leader yet
            await asyncio.sleep(1)
    await nc.close()


def _count(dsn: str) -> int:
    with psycopg.connect(dsn) as db:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])


def run(base: str, folder: Path, pubs: tuple[str, ...], partitions: int, tables: int,
        games: int) -> tuple[int, float]:
    """One fresh league: the backlog in its stream, then ``partitions`` ingesters timed."""
    name = f"p_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    dsn = base.replace("dbname=bidou_venue", f"dbname={name}")
    lg = League(folder, dsn, pubs, partitions)
    try:
        for i in range(3):
            lg.start_server(i)
        for p in lg.config.client_ports:
            wait_until(lambda p=p: _listening(p), 30, "a league server")
        lg.add_roster(ROSTER)
        names = [f"t{i}" for i in range(tables)]
        backlog: list[EntryMessage] = []
        for pub in pubs:
            backlog += day_of_games(pub, names, {t: f"{pub}-{t}" for t in names}, games, 7,
                                    ROSTER, DAY0)
        asyncio.run(_streams(lg))
        asyncio.run(publish_backlog(lg.config.client_urls(), lg.config.admin_password,
                                    backlog))
        t0 = time.monotonic()
        for k in range(partitions):  # all at once, each starting as the other
            lg.start_ingester(partition=k, wait=False)
        wait_until(lambda: _count(dsn) >= len(backlog), 1800, "the backlog", every=0.5)
        return len(backlog), time.monotonic() - t0
    finally:
        lg.stop_all()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pubs", type=int, default=16)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else [])
    folder = Path(tempfile.mkdtemp(prefix="bench-partitions-"))
    folder.chmod(0o755)  # PostgreSQL runs as its own user
    pg = PgCluster(str(folder / "pg"), free_port())
    pg.init()
    pg.start()
    pubs = tuple(f"pub{i:02d}" for i in range(args.pubs))
    try:
        for partitions in (1, 2):
            entries, spent = run(pg.dsn, folder / f"league{partitions}", pubs, partitions,
                                 args.tables, args.games)
            print(f"partitions {partitions}: a backlog of {entries} entries ({args.pubs} pubs "
                  f"x {args.tables} tables x {args.games} games) stored in {spent:.1f} s "
                  f"({entries / spent:.0f} entries/s) ({os.cpu_count()} cores, load "
                  f"{os.getloadavg()[0]:.1f})", flush=True)
    finally:
        pg.stop("fast")
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
