"""`bidou-venue db-logins --config FILE --owner-dsn DSN`: the ingester's and the screen's
PostgreSQL logins, each with a password of its own, written into the venue config.

Why: the services of a pub's hub run as the system user ``bidou-venue``. Logging in by
Debian's peer rule (the system user's name is the role) would let anything running as that
user, the screen's web server included, act as the database's owner. So the owner (the role
that made the database, reached with ``--owner-dsn``; a password in ``PGPASSWORD``) makes
the schema and the two roles of ``venue.pgroles``: the ingester's, which writes the store,
and the screen's, which only reads. Each gets a fresh random password; their DSNs (over TCP,
where PostgreSQL asks for the password) become the config's ``[database] dsn`` and
``[screen] dsn``, the file keeping its comments, mode and group. ``venue/deploy/install-hub``
runs it; run again, it gives both roles new passwords: restart the ingester and the screen.

Exit 0 when the config holds the new DSNs; 2 for a config that cannot be read or written or
a database that cannot be reached, in one sentence, with the config unchanged.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import psycopg
import tomlkit

from engine.errors import ConfigError
from venue.pgroles import INGESTER, SCREEN, set_up_roles
from venue.settings import add_config_argument, load_venue_config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--owner-dsn", required=True, metavar="DSN",
                        help="how to reach the database as its owner (e.g. \"host=127.0.0.1 "
                             "dbname=bidou_venue user=bidou-venue\", the password in "
                             "PGPASSWORD)")


def run(args: argparse.Namespace) -> int:
    """Make the roles and write their DSNs (module docstring); the exit status."""
    # The config is rewritten keeping its comments (hardware.config_edit); imported here, so no
    # module of the hub loads hardware.
    from hardware.config_edit import read_config, write_config  # lazy: see above
    path = pathlib.Path(args.config)
    try:
        load_venue_config(str(path))  # valid as it is, before anything is changed
        document = read_config(path)
    except ConfigError as exc:
        return _stop(f"{path}: {exc}; fix it and run this again")
    try:
        dsns = set_up_roles(args.owner_dsn)
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return _stop(f"cannot set up the database's logins as its owner ({first}); check "
                     "--owner-dsn and PGPASSWORD")
    document.setdefault("database", tomlkit.table())["dsn"] = dsns[INGESTER]
    document.setdefault("screen", tomlkit.table())["dsn"] = dsns[SCREEN]
    try:
        write_config(path, document)
        load_venue_config(str(path))
    except (OSError, ConfigError) as exc:
        return _stop(f"could not write {path}: {exc}")
    print(f"Updated {path}: the ingester logs in to PostgreSQL as {INGESTER}, the screen as "
          f"{SCREEN}, each with a new password. Restart them: sudo systemctl restart "
          "bidou-venue-ingest bidou-venue-screen")
    return 0


def _stop(sentence: str) -> int:
    print(f"bidou-venue db-logins: {sentence.rstrip('.')}.", file=sys.stderr)
    return 2
