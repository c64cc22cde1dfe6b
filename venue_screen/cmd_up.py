"""`bidou-venue up` (``make venue``): a whole venue on this machine, until Ctrl-C.

It starts, each as its own process: a PostgreSQL cluster in ``venue-data/pg`` (as an
unprivileged user, ``venue.pgcluster``), the NATS hub, the ingester, the screen and
``--tables`` simulated tables, each a ``bidou-table run ... --port PORT`` with its own log
and config, playing random legal play by itself at a person's pace. It prints
``Venue screen: URL`` and one ``Table NAME: URL`` per table, and on Ctrl-C (or SIGTERM)
stops every part it started, tables first, the database last.

As a pub's install has it: PostgreSQL asks every connection a password, the
ingester and the screen connect with roles of their own (``venue.pgroles``: the screen only
reads), the files holding passwords are 0600, and a part that stops is started again after a
short pause (``venue_screen.supervise``), so the tables never stop because a venue part did.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path

from venue.hub import start_hub
from venue.outbox import log_id_of
from venue.pgcluster import PgCluster
from venue.pgroles import INGESTER, SCREEN, set_up_roles
from venue.private_file import write_private
from venue.settings import load_venue_config
from venue_screen.supervise import Supervisor
from web.ports import free_port, wait_port
from web.stop_signals import StopSignals

VARIANTS = (("montevideo", 3), ("multi-hand", 3), ("two-hand", 2))
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int,
                        default=int(os.environ.get("VENUE_TABLES", "4") or 4),
                        help="how many simulated tables (default: VENUE_TABLES or 4)")
    parser.add_argument("--folder", default="venue-data",
                        help="where the database, the hub's store and the tables' logs live")
    parser.add_argument("--pace", type=float, default=2.0,
                        help="seconds between a simulated table's actions (default 2)")


def write_configs(folder: Path, tables: int, dsns: dict[str, str], hub_port: int,
                  screen_port: int) -> dict[str, Path]:
    """The venue config and one table config per table (fresh passwords every start, each
    file 0600): the ingester's DSN in ``[database]``, the screen's in ``[screen]``."""
    names = [f"t{i + 1}" for i in range(tables)]
    passwords = {n: secrets.token_urlsafe(12) for n in names}
    venue = [
        '[venue]\nname = "pub"',
        f'[hub]\nport = {hub_port}\nstore_dir = "{folder / "hub" / "jetstream"}"\n'
        f'admin_password = "{secrets.token_urlsafe(12)}"',
        f'[database]\ndsn = "{dsns[INGESTER]}"',
        f'[screen]\nport = {screen_port}\ndsn = "{dsns[SCREEN]}"',
    ] + [f'[tables.{n}]\npassword = "{p}"\nlog_id = "{log_id_of(str(folder / f"{n}.db"))}"'
         for n, p in passwords.items()]
    write_private(folder / "venue.toml", "\n".join(venue) + "\n")
    out = {}
    for i, name in enumerate(names):
        variant, seats = VARIANTS[i % len(VARIANTS)]
        players = [NAMES[(i * 2 + k) % len(NAMES)] for k in range(seats)]
        path = folder / f"{name}.toml"
        write_private(path, f'[table]\nvariant = "{variant}"\nplayers = {json.dumps(players)}\n'
                            f'[venue]\nurl = "nats://127.0.0.1:{hub_port}"\nvenue = "pub"\n'
                            f'table = "{name}"\npassword = "{passwords[name]}"\n')
        out[name] = path
    return out


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.tables <= 40:
        print(f"bidou-venue up: --tables {args.tables} is not allowed: 1 to 40 tables.",
              file=sys.stderr)
        return 2
    folder = Path(args.folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    stop = StopSignals()
    parts = Supervisor(lambda line: print(line, flush=True))
    pg = PgCluster(str(folder / "pg"), free_port())
    try:
        pg.init()
        pg.start()
        hub_port, screen_port = free_port(), free_port()
        tables = write_configs(folder, args.tables, set_up_roles(pg.dsn), hub_port,
                               screen_port)
        config = load_venue_config(str(folder / "venue.toml"))
        parts.add("hub", lambda: start_hub(config, str(folder / "hub")),
                  folder / "hub" / "nats.log")
        if not wait_port(hub_port, 20):
            raise RuntimeError(f"the hub did not start; see {folder / 'hub' / 'nats.log'}")

        def spawn(name: str, cmd: list[str], label: str | None = None) -> None:
            parts.spawn(label or name, cmd, folder / f"{name}.log")

        spawn("ingester", [sys.executable, "-m", "venue.cli", "ingest", "--config",
                           str(folder / "venue.toml")])
        spawn("screen", [sys.executable, "-m", "venue.cli", "screen", "--config",
                         str(folder / "venue.toml")])
        bidou = str(Path(sys.executable).parent / "bidou-table")
        ports = {}
        for i, (name, cfg) in enumerate(tables.items()):
            ports[name] = free_port()
            spawn(name, [bidou, "run", "--config", str(cfg), "--db", str(folder / f"{name}.db"),
                         "--port", str(ports[name]), "--autoplay", str(args.pace), "--seed",
                         str(i + 1)], label=f"table {name}")
        if not wait_port(screen_port, 60):
            raise RuntimeError(f"the screen did not start; see {folder / 'screen.log'}")
        print(f"Venue screen: http://127.0.0.1:{screen_port}/", flush=True)
        for name, port in ports.items():
            if not wait_port(port, 120):
                raise RuntimeError(f"table {name} did not start; see {folder / name}.log")
            print(f"Table {name}: http://127.0.0.1:{port}/", flush=True)
        print(f"Logs and data in {folder}. Press Ctrl-C to stop everything.", flush=True)
        stop.wait(tick=parts.watch)
        return 0
    except (RuntimeError, OSError) as e:
        print(f"bidou-venue up: {e}", file=sys.stderr)
        return 1
    finally:
        parts.stop_all()  # tables first, the hub last
        pg.stop()
        print("Venue stopped: every table, the screen, the ingester, the hub and PostgreSQL.",
              flush=True)
