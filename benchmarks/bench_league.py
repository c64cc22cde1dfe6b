"""The league's figures (docs/league.md, Figures), printed with the cores the run had:

1. **At a pub's pace**: PUBS simulated pubs of TABLES tables each (each table an entry every
   2 s, as a person plays), into one league on this machine: each pub a real hub (nats-server,
   a leaf node of the league's three servers) and its real uplink (all uplinks in one
   process), the league ingester and PostgreSQL. Printed: entries ingested per second, and
   the time from an entry's release on its table (its publish to the pub's hub) to its
   commit in the league's store (``events.received``, the storing transaction's start), p50
   and p99.
2. **The pubs' own state**: every table's public state on its pub's hub every 2 s (a table at
   a person's pace sends one at each action, ``venue.forwarder``), for ``--state-seconds``. Each
   one also reaches the league ingester of its pub as ``refused.<pub>.bidou.<pub>.<table>
   .state`` (the refusals' import takes every ``bidou.*.*.state`` of a pub's account,
   ``league.cluster``), which drops it (``league.refusals.sentence``: None). Printed: the
   messages per second it heard (a subscription of the league's own beside it counts the
   same ones) and the ingester's CPU during the states against as long idle just before
   (``/proc/PID/stat``), and the three servers' (theirs holds all the states cost them: the
   leaf links, ``LEAGUE_LIVE``'s three replicas, the refusals and the bench's own count).
3. **A day's backlog**: GAMES finished games per table for every table of every pub, put in
   the league's stream while its ingester is stopped; then the ingester started: the time to
   store it all with every game ranked and rated, and the time to rebuild all ratings
   (``ratings.rebuild``) and everything from the events (``derive.rebuild_all``).

``python benchmarks/bench_league.py [--pubs 50] [--tables 10] [--seconds 180] [--games 4]
[--state-seconds 20]``.
Nothing is asserted: the machine is shared, the figures are what this run saw.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import nats
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "venue"), str(ROOT / "tests" / "league")]

from league_harness import DAY0, day_of_games, game_messages  # noqa: E402
from league_traffic import PACE, publish_backlog, publish_paced, state_cost  # noqa: E402
from venue_harness import _listening, free_port, wait_until  # noqa: E402

from league import derive, ratings  # noqa: E402
from league import store as league_store  # noqa: E402
from league.cluster import start_server  # noqa: E402
from league.pubhub import LeagueLink, pub_hub_config  # noqa: E402
from league.settings import build_league_config  # noqa: E402
from league.uplink import Uplink  # noqa: E402
from venue import store as venue_store  # noqa: E402
from venue import table_logs as venue_table_logs  # noqa: E402
from venue.hub import nats_server_binary  # noqa: E402
from venue.messages import EntryMessage  # noqa: E402
from venue.pgcluster import PgCluster  # noqa: E402
from venue.private_file import write_private  # noqa: E402
from venue.settings import build_venue_config  # noqa: E402

ROSTER = [f"p{i:04d}" for i in range(2000)]


def _pubs(n: int) -> list[str]:
    return [f"pub{i:02d}" for i in range(n)]


def _venue(pub: str, port: int, folder: Path, dsn: str, tables: int):  # noqa: ANN202
    return build_venue_config({
        "venue": {"name": pub},
        "hub": {"host": "127.0.0.1", "port": port, "store_dir": str(folder / "jetstream"),
                "admin_password": f"adm-{pub}"},
        "database": {"dsn": dsn},
        "tables": {f"t{i}": {"password": f"pw-{pub}-{i}"} for i in range(tables)}})


def _run_uplinks(configs: list, logs: dict, stop_file: str) -> None:  # noqa: ANN001
    """Every pub's uplink, in one process (one asyncio loop). Each reads its venue's
    enrolled logs from the bench's table (``logs``) instead of a venue store of its own:
    50 stores' connections are more than the bench's one PostgreSQL takes (50)."""

    class BenchUplink(Uplink):
        def enrolled(self) -> dict[str, str]:
            return {t: log for (p, t), log in logs.items() if p == self.config.name}

    async def main() -> None:
        stop = asyncio.Event()
        ups = [asyncio.create_task(BenchUplink(c).run(stop)) for c in configs]

        async def watch() -> None:
            while not os.path.exists(stop_file):
                await asyncio.sleep(0.5)
            stop.set()

        await asyncio.gather(watch(), *ups)

    asyncio.run(main())


def _count(dsn: str) -> int:
    with psycopg.connect(dsn) as db:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])


def _dirty(dsn: str) -> int:
    with psycopg.connect(dsn) as db:
        return int(db.execute("SELECT count(*) FROM rating_marks").fetchone()[0])


def main() -> None:  # noqa: PLR0915 -- one run, in order
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the finally below stops all
    parser = argparse.ArgumentParser()
    parser.add_argument("--pubs", type=int, default=50)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--state-seconds", type=float, default=20.0)
    args = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else [])
    cores = os.cpu_count()
    folder = Path(tempfile.mkdtemp(prefix="bench-league-"))
    folder.chmod(0o755)
    procs: list[subprocess.Popen[bytes]] = []
    pg = PgCluster(str(folder / "pg"), free_port())
    pg.init()
    pg.start()
    try:
        with psycopg.connect(pg.dsn, autocommit=True) as db:
            db.execute("CREATE DATABASE league")
            db.execute("CREATE DATABASE venues")
        league_dsn = pg.dsn.replace("dbname=bidou_venue", "dbname=league")
        venue_dsn = pg.dsn.replace("dbname=bidou_venue", "dbname=venues")
        pubs = _pubs(args.pubs)
        ports = [free_port() for _ in range(9)]
        config = build_league_config({
            "cluster": {"host": "127.0.0.1", "client_ports": ports[:3],
                        "cluster_ports": ports[3:6], "leaf_ports": ports[6:],
                        "admin_password": "adm", "route_password": "rt"},
            "database": {"dsn": league_dsn}, "pubs": {p: {"password": f"l-{p}"} for p in pubs}})
        for i in range(3):
            procs.append(start_server(config, i, str(folder / f"s{i}")))
        for p in config.client_ports:
            wait_until(lambda p=p: _listening(p), 30, "a league server")
        toml = folder / "league.toml"
        toml.write_text(
            "[cluster]\nhost = \"127.0.0.1\"\n"
            f"client_ports = {list(config.client_ports)}\ncluster_ports = "
            f"{list(config.cluster_ports)}\nleaf_ports = {list(config.leaf_ports)}\n"
            'admin_password = "adm"\nroute_password = "rt"\n'
            f'[database]\ndsn = "{league_dsn}"\n'
            + "".join(f'[pubs.{p}]\npassword = "l-{p}"\n' for p in pubs))
        with league_store.connect(league_dsn) as db:
            db.execute("INSERT INTO roster (player_id, name, home_venue) SELECT i, i, 'pub00' "
                       "FROM unnest(%s::text[]) AS u(i)", (ROSTER,))
        def ingester() -> subprocess.Popen[bytes]:
            log = open(folder / "ingester.log", "ab")  # noqa: SIM115 -- the child's
            p = subprocess.Popen([sys.executable, "-m", "league.cli", "ingest", "--config",
                                  str(toml)], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
            log.close()
            return p

        ing = ingester()
        link = LeagueLink(tuple(f"nats-leaf://127.0.0.1:{p}" for p in config.leaf_ports),
                          "", "")
        venues, urls, logs = [], {}, {}
        with venue_store.connect(venue_dsn) as vdb:
            for p in pubs:
                port = free_port()
                v = _venue(p, port, folder / p, venue_dsn, args.tables)
                (folder / p).mkdir()
                path = folder / p / "nats.conf"
                write_private(str(path), pub_hub_config(
                    v, LeagueLink(link.urls, p, f"l-{p}"), store_dir=str(folder / p / "js")))
                out = open(folder / p / "nats.log", "ab")  # noqa: SIM115 -- the child's
                procs.append(subprocess.Popen([nats_server_binary(), "-c", str(path)],
                                              stdout=out, stderr=subprocess.STDOUT))
                out.close()
                venues.append(v)
                urls[p] = v.hub_url
                for t in v.tables:
                    logs[(p, t)] = f"{p}-{t}"
                    venue_table_logs.enroll(vdb, p, t, logs[(p, t)])
        for v in venues:
            wait_until(lambda v=v: _listening(v.hub_port), 30, "a pub hub")

        async def streams() -> None:
            from venue.hub import ensure_streams  # lazy: the bench's set-up only

            for v in venues:
                nc = await nats.connect(v.hub_url, user="venue", password=v.admin_password)
                await ensure_streams(nc.jetstream(), v)
                await nc.close()

        asyncio.run(streams())
        wait_until(lambda: "consuming" in (folder / "ingester.log").read_text(), 60,
                   "the league ingester")
        stop_file = str(folder / "stop-uplinks")
        up = multiprocessing.Process(target=_run_uplinks, args=(venues, logs, stop_file))
        up.start()

        # 1. at a pub's pace
        import random  # lazy: the bench's own games

        timed: list[tuple[float, EntryMessage]] = []
        early: set[str] = set()
        for p in pubs:
            for t in range(args.tables):
                rng = random.Random(f"{p}-{t}")
                # each table is somewhere in its first game when the run starts: what it
                # released before goes at once and is not timed
                at, game = -rng.uniform(0, PACE * 150), 1
                while at < args.seconds:
                    for d, m in game_messages(p, f"t{t}", logs[(p, f"t{t}")], game, rng,
                                              ROSTER, DAY0, step=PACE):
                        if at + d < args.seconds:
                            timed.append((max(0.0, at + d), m))
                            if at + d < 0:
                                early.add(f"{p}:{m.id}")
                    at += PACE * 250 + 30  # next game after this one's longest
                    game += 1
        timed.sort(key=lambda x: x[0])
        released: dict[str, float] = {}
        t0 = time.monotonic()
        asyncio.run(publish_paced(urls, timed, released))
        wait_until(lambda: _count(league_dsn) >= len(released), 120, "the paced entries")
        spent = time.monotonic() - t0
        with psycopg.connect(league_dsn) as db:
            got = db.execute("SELECT venue, table_name || ':' || log_id || ':' || game || ':' "
                             "|| seq, extract(epoch from received) FROM events").fetchall()
        lat = sorted(1000 * (float(r) - released[f"{v}:{k}"]) for v, k, r in got
                     if f"{v}:{k}" in released and f"{v}:{k}" not in early)
        p50, p99 = lat[len(lat) // 2], lat[int(len(lat) * 0.99)]
        print(f"pace: {args.pubs} pubs x {args.tables} tables, an entry per table every "
              f"{PACE:.0f} s: {len(released) - len(early)} entries released in {spent:.0f} s "
              f"(and {len(early)} released before, sent at the start), "
              f"{len(released) / spent:.0f} entries/s ingested; release on the table to the "
              f"league's store p50 {p50:.0f} ms, p99 {p99:.0f} ms ({cores} cores, load "
              f"{os.getloadavg()[0]:.1f})")

        # 2. the pubs' own state, which the league's ingester also hears as refused
        wait_until(lambda: _dirty(league_dsn) == 0, 600, "the paced games' ratings", every=1)
        with psycopg.connect(league_dsn) as db:
            problems = int(db.execute("SELECT count(*) FROM problems").fetchone()[0])
        sent, heard, spent, idle, busy, s_idle, s_busy = asyncio.run(state_cost(
            urls, args.tables, args.state_seconds, config.client_urls(), "adm", ing.pid,
            [p.pid for p in procs[:3]]))
        with psycopg.connect(league_dsn) as db:
            problems = int(db.execute("SELECT count(*) FROM problems").fetchone()[0]) - problems
        print(f"states: {args.pubs} pubs x {args.tables} tables, each table's public state "
              f"every {PACE:.0f} s for {spent:.0f} s: {sent / spent:.0f} states/s published at "
              f"the pubs' hubs; the league ingester heard {heard / spent:.0f} refused "
              f"<pub>.bidou.<pub>.<table>.state messages/s and dropped them ({problems} new "
              f"problem rows); its CPU {100 * busy:.1f}% of a core, {100 * idle:.1f}% idle just "
              f"before: {100 * (busy - idle):.1f}% of a core for the states, "
              f"{1e6 * (busy - idle) * spent / max(heard, 1):.0f} us a message; the league's "
              f"three servers {100 * s_busy:.0f}% against {100 * s_idle:.0f}% idle ({cores} "
              f"cores, load {os.getloadavg()[0]:.1f})")

        # 3. a day's backlog
        ing.send_signal(signal.SIGTERM)
        ing.wait(30)
        with psycopg.connect(league_dsn) as db:
            before = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
        backlog: list[EntryMessage] = []
        for p in pubs:
            backlog += day_of_games(p, [f"t{t}" for t in range(args.tables)],
                                    {t: logs[(p, t)] for t in [f"t{i}" for i in
                                                               range(args.tables)]},
                                    args.games, 99, ROSTER, DAY0 + timedelta(days=1), first=1000)
        games = args.pubs * args.tables * args.games
        asyncio.run(publish_backlog(config.client_urls(), "adm", backlog))
        t0 = time.monotonic()
        ing = ingester()
        wait_until(lambda: _count(league_dsn) >= before + len(backlog), 1800, "the backlog",
                   every=1)
        stored = time.monotonic() - t0
        wait_until(lambda: _dirty(league_dsn) == 0, 1800, "the ratings", every=1)
        rated = time.monotonic() - t0
        with league_store.connect(league_dsn) as db:
            t1 = time.monotonic()
            ratings.rebuild(db)
            rebuild = time.monotonic() - t1
            t1 = time.monotonic()
            derive.rebuild_all(db)
            everything = time.monotonic() - t1
            (rated_games,) = db.execute("SELECT count(*) FROM rankings WHERE rated").fetchone()
        print(f"backlog: {len(backlog)} entries, {games} games ({args.pubs} pubs x "
              f"{args.tables} tables x {args.games} games) stored in {stored:.1f} s "
              f"({len(backlog) / stored:.0f} entries/s), ranked and rated after {rated:.1f} s; "
              f"rebuilding all ratings ({rated_games} rated games): {rebuild:.1f} s; "
              f"everything from the events: {everything:.1f} s ({cores} cores, load "
              f"{os.getloadavg()[0]:.1f})")
        Path(stop_file).touch()
        up.join(20)
        if up.is_alive():
            up.terminate()
        procs.append(ing)
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        pg.stop("fast")
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
