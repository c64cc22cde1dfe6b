"""`bidou-league up` (``make league``): a whole league on this machine, until Ctrl-C.

Each part is its own process, kept running as ``bidou-venue up`` keeps a venue's
(``venue_screen.supervise``: a part that stops is started again):

- PostgreSQL in ``league-data/pg`` (``venue.pgcluster``), one database for the league and one
  for each pub's venue store;
- the league: its three NATS servers (``bidou-league cluster``, streams of three replicas),
  two ingesters (one with a single pub; ``[ingest] partitions``, the pubs placed in turn),
  the roster service and the screen (its own PostgreSQL role, which only reads:
  ``[database] screen_dsn``); the roster holds the pubs' players;
- ``--pubs`` pubs (north, south, ...), each as a pub's install runs it: its hub a leaf node of
  the league (``bidou-league pub-hub``), the venue's ingester and screen, the uplink, the
  roster keeper, and ``--tables`` self-playing tables whose seats are rostered players
  (``bidou-table run --autoplay --autoplay-roster``: each table draws from players of its
  own, so nobody sits at two tables at once).

It prints every address, and Ctrl-C (or SIGTERM) stops every part, the tables first and
PostgreSQL last.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path

import psycopg

from league import store
from league.pubhub import LeagueLink, start_pub_hub
from league.roster import add_player
from league.settings import load_league_config
from venue.outbox import log_id_of
from venue.pgcluster import PgCluster
from venue.pgroles import set_up_reader
from venue.private_file import write_private
from venue.roster import Player
from venue.settings import load_venue_config
from venue_screen.supervise import Supervisor
from web.ports import free_port, wait_port
from web.stop_signals import StopSignals

PUBS = ("north", "south", "east", "west")
#: the league screen's PostgreSQL role: it only reads
SCREEN_ROLE = "bidou_league_screen"
#: each table's game, and how many rostered players it draws its seats from
TABLE_GAMES = (("two-hand", ("Ann", "Bob"), 3), ("multi-hand", ("Cy", "Dee", "Eve"), 4))
FIRST = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Ola", "Pia")
LAST = ("Dupont", "Martin", "Leroy", "Moreau", "Petit", "Girard", "Roux", "Blanc")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pubs", type=int, default=2, help="how many pubs (1 to 4; default 2)")
    parser.add_argument("--tables", type=int, default=2,
                        help="simulated tables per pub (1 to 6; default 2)")
    parser.add_argument("--folder", default="league-data",
                        help="where the databases, the servers' stores and the logs live")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds between a simulated table's actions (default 1)")


def _tail(path: Path, lines: int = 5) -> str:
    """The last lines of a part's log, for a sentence saying why it did not start."""
    try:
        return " | ".join(path.read_text(errors="replace").splitlines()[-lines:]) or "(empty)"
    except OSError:
        return "(no log)"


class League:
    """The processes of one league on this machine (see the module docstring)."""

    def __init__(self, folder: Path, pubs: int, tables: int, pace: float) -> None:
        self.folder, self.pace = folder, pace
        self.pubs = PUBS[:pubs]
        self.partitions = min(2, pubs)  # the league's ingesters, each taking its pubs
        self.tables = [f"t{i + 1}" for i in range(tables)]
        self.parts = Supervisor(lambda line: print(line.replace("bidou-venue up",
                                                                "bidou-league up"), flush=True))
        self.pg = PgCluster(str(folder / "pg"), free_port())
        self.addresses: list[str] = []

    def spawn(self, name: str, cmd: list[str], log: Path) -> None:
        self.parts.spawn(name, cmd, log)

    def database(self, name: str) -> str:
        """A database of the cluster (made if absent), as its owner's DSN."""
        with psycopg.connect(self.pg.dsn, autocommit=True) as db:
            if db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() \
                    is None:
                db.execute(f'CREATE DATABASE "{name}"')
        return self.pg.dsn.replace("dbname=bidou_venue", f"dbname={name}")

    # --- the league ---------------------------------------------------------------------
    def start_league(self) -> Path:
        f = self.folder
        ports = {k: [free_port() for _ in range(3)] for k in ("client", "cluster", "leaf")}
        self.leaf_ports, self.client_ports = ports["leaf"], ports["client"]
        self.pub_passwords = {p: secrets.token_urlsafe(12) for p in self.pubs}
        config = f / "league.toml"
        dsn = self.database("league")
        with store.connect(dsn) as db:  # the schema, by its owner; the screen only reads
            screen_dsn = set_up_reader(db, SCREEN_ROLE)
        write_private(config, "\n".join([
            '[league]\nname = "league"',
            f'[cluster]\nhost = "127.0.0.1"\nclient_ports = {ports["client"]}\n'
            f'cluster_ports = {ports["cluster"]}\nleaf_ports = {ports["leaf"]}\n'
            f'store_dir = "{f / "cluster"}"\nadmin_password = "{secrets.token_urlsafe(12)}"\n'
            f'route_password = "{secrets.token_urlsafe(12)}"',
            f'[database]\ndsn = "{dsn}"\nscreen_dsn = "{screen_dsn}"',
            f"[ingest]\npartitions = {self.partitions}",
            *(f'[pubs.{p}]\npassword = "{pw}"\npartition = {i % self.partitions}'
              for i, (p, pw) in enumerate(self.pub_passwords.items()))]) + "\n")
        league = [sys.executable, "-m", "league.cli"]
        for n in (1, 2, 3):
            self.spawn(f"league server {n}", [*league, "cluster", "--config", str(config),
                                              "--server", str(n)], f / f"cluster{n}.log")
        for n, port in enumerate(ports["client"], start=1):
            if not wait_port(port, 90):
                raise RuntimeError(f"league server {n} did not listen on port {port} within 90 s; "
                                   f"its log {f / f'cluster{n}.log'} ends: "
                                   + _tail(f / f"cluster{n}.log"))
        for k in range(self.partitions):
            self.spawn(f"league ingester {k}", [*league, "ingest", "--config", str(config),
                                                "--partition", str(k)], f / f"ingester-{k}.log")
        self.spawn("league roster", [*league, "roster", "--config", str(config)],
                   f / "roster.log")
        self.screen_port = free_port()
        self.spawn("league screen", [*league, "screen", "--config", str(config), "--host",
                                     "127.0.0.1", "--port", str(self.screen_port)],
                   f / "screen.log")
        return config

    def roster(self, dsn: str) -> dict[tuple[str, str], list[str]]:
        """The pubs' players in the league's roster; each table's own ids to draw from."""
        pools: dict[tuple[str, str], list[str]] = {}
        n = 0
        with store.connect(dsn) as db:
            for pub in self.pubs:
                for i, table in enumerate(self.tables):
                    _, _, count = TABLE_GAMES[i % len(TABLE_GAMES)]
                    for _ in range(count):
                        n += 1
                        pid = f"p{n:04d}"
                        name = f"{FIRST[n % len(FIRST)]} {LAST[(n // 3) % len(LAST)]}"
                        add_player(db, Player(pid, name, pub))
                        pools.setdefault((pub, table), []).append(pid)
        return pools

    # --- a pub --------------------------------------------------------------------------
    def start_pub(self, pub: str, pools: dict[tuple[str, str], list[str]]) -> None:
        f = self.folder / pub
        f.mkdir(parents=True, exist_ok=True)
        hub_port, screen_port = free_port(), free_port()
        passwords = {t: secrets.token_urlsafe(12) for t in self.tables}
        write_private(f / "venue.toml", "\n".join([
            f'[venue]\nname = "{pub}"',
            f'[hub]\nport = {hub_port}\nstore_dir = "{f / "hub" / "jetstream"}"\n'
            f'admin_password = "{secrets.token_urlsafe(12)}"',
            f'[database]\ndsn = "{self.database(f"venue_{pub}")}"',
            f'[screen]\nport = {screen_port}',
            *(f'[tables.{t}]\npassword = "{pw}"\nlog_id = "{log_id_of(str(f / f"{t}.db"))}"'
              for t, pw in passwords.items())]) + "\n")
        link = LeagueLink(tuple(f"nats-leaf://127.0.0.1:{p}" for p in self.leaf_ports), pub,
                          self.pub_passwords[pub])
        write_private(f / "league-link.toml", f'[league]\nurls = {json.dumps(list(link.urls))}\n'
                                              f'user = "{pub}"\npassword = "{link.password}"\n')
        config = load_venue_config(str(f / "venue.toml"))
        self.parts.add(f"{pub} hub", lambda: start_pub_hub(config, link, str(f / "hub")),
                       f / "hub" / "nats.log")
        if not wait_port(hub_port, 90):
            raise RuntimeError(f"pub {pub}'s hub did not listen on port {hub_port} within 90 s; "
                               f"its log {f / 'hub' / 'nats.log'} ends: "
                               + _tail(f / "hub" / "nats.log"))
        venue = [sys.executable, "-m", "venue.cli"]
        cfg = str(f / "venue.toml")
        self.spawn(f"{pub} ingester", [*venue, "ingest", "--config", cfg], f / "ingester.log")
        self.spawn(f"{pub} screen", [*venue, "screen", "--config", cfg], f / "screen.log")
        self.spawn(f"{pub} roster keeper", [*venue, "roster", "--config", cfg], f / "roster.log")
        self.spawn(f"{pub} uplink", [sys.executable, "-m", "league.cli", "uplink", "--config",
                                     cfg], f / "uplink.log")
        bidou = str(Path(sys.executable).parent / "bidou-table")
        tables = {}
        for i, (table, password) in enumerate(passwords.items()):
            variant, players, _ = TABLE_GAMES[i % len(TABLE_GAMES)]
            write_private(f / f"{table}.toml",
                          f'[table]\nvariant = "{variant}"\nplayers = {json.dumps(players)}\n'
                          f'[venue]\nurl = "nats://127.0.0.1:{hub_port}"\nvenue = "{pub}"\n'
                          f'table = "{table}"\npassword = "{password}"\n')
            tables[table] = free_port()
            self.spawn(f"{pub} table {table}", [
                bidou, "run", "--config", str(f / f"{table}.toml"), "--db",
                str(f / f"{table}.db"), "--port", str(tables[table]), "--autoplay",
                str(self.pace), "--seed", str(i + 1 + 10 * self.pubs.index(pub)),
                "--autoplay-roster", ",".join(pools[(pub, table)])], f / f"{table}.log")
        if not wait_port(screen_port, 60):
            raise RuntimeError(f"pub {pub}'s screen did not start; see {f / 'screen.log'}")
        self.addresses.append(f"Pub {pub} screen: http://127.0.0.1:{screen_port}/")
        for table, port in tables.items():
            if not wait_port(port, 120):
                raise RuntimeError(f"pub {pub} table {table} did not start; see "
                                   f"{f / table}.log")
            self.addresses.append(f"Pub {pub} table {table}: http://127.0.0.1:{port}/ "
                                  f"(referee console /referee)")


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.pubs <= len(PUBS) or not 1 <= args.tables <= 6:
        print(f"bidou-league up: --pubs {args.pubs} --tables {args.tables} is not allowed: "
              f"1 to {len(PUBS)} pubs of 1 to 6 tables.", file=sys.stderr)
        return 2
    folder = Path(args.folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    stop = StopSignals()
    league = League(folder, args.pubs, args.tables, args.pace)
    try:
        league.pg.init()
        league.pg.start()
        config = league.start_league()
        pools = league.roster(load_league_config(str(config)).dsn)
        for pub in league.pubs:
            league.start_pub(pub, pools)
        if not wait_port(league.screen_port, 60):
            raise RuntimeError(f"the league screen did not start; see {folder / 'screen.log'}")
        print(f"League screen: http://127.0.0.1:{league.screen_port}/", flush=True)
        for port in league.client_ports:
            print(f"League server: nats://127.0.0.1:{port}", flush=True)
        for line in league.addresses:
            print(line, flush=True)
        print(f"Logs and data in {folder}. Press Ctrl-C to stop everything.", flush=True)
        stop.wait(tick=league.parts.watch)
        return 0
    except (RuntimeError, OSError, psycopg.Error) as e:
        print(f"bidou-league up: {e}", file=sys.stderr)
        return 1
    finally:
        league.parts.stop_all()  # the tables first, the league's servers last
        league.pg.stop()
        print("League stopped: every table, every pub's parts, the league's parts, its "
              "servers and PostgreSQL.", flush=True)
