"""`bidou-venue add-tables --config FILE NAME...`: the pub's tables in its venue config, each
with a password of its own.

Why: every table is its own NATS user on the hub, allowed to publish only its own subjects
(docs/venue.md), so each needs a password that only it and the hub know; made up by hand, or
copied from the example's "change-me", they would be guessable from a customer's phone on the
pub's network. This makes them (``secrets``), and prints for each new table the ``[venue]``
section to paste into that table's config. Run again with more names it adds those and keeps
every password already given: a table's config never has to change because another was added.

A missing config is made (mode 0640, for the hub's group) with the hub's settings of
``venue/deploy/venue.example.toml`` and a random password for the venue's own NATS user
(the ingester's and the screen's); an existing one keeps its comments, mode and group
(:func:`hardware.config_edit.write_config`), and must be valid first. The hub, the ingester
and the screen read it at their start: restart them after adding a table (the command says so).
``venue/deploy/install-hub`` runs it when a pub installs the hub.

Exit 0 when the config holds every name asked (added or already there); 2 for a name that
cannot be a table's, a config that cannot be read or is not valid, or one that cannot be
written, each in one sentence, with nothing written.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import secrets
import socket
import sys

import tomlkit

from engine.errors import ConfigError
from firmware.settings.venue_settings import NAME, NAME_ALLOWED
from venue.settings import add_config_argument, load_venue_config

#: what a new config holds besides its tables: the example's (venue/deploy), for the units
NEW_CONFIG = {
    "venue": {"name": "pub"},
    "hub": {"host": "0.0.0.0", "port": 4222, "store_dir": "/var/lib/bidou-venue/jetstream",
            "admin_user": "venue"},
    "database": {"dsn": "host=/var/run/postgresql dbname=bidou_venue user=bidou-venue"},
    "screen": {"host": "0.0.0.0", "port": 8090},
}
#: random bytes in a password (24 characters of URL-safe base64)
PASSWORD_BYTES = 18


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("tables", nargs="+", metavar="NAME",
                        help="each table's name at the venue (letters, digits, - and _)")
    parser.add_argument("--venue", default="pub",
                        help="the venue's name, when the config is made (default: pub)")
    parser.add_argument("--hub-address", default=None, metavar="HOST",
                        help="the hub's address as the tables reach it, for the [venue] "
                             "sections printed (default: this machine's name)")


def new_document(venue: str) -> tomlkit.TOMLDocument:
    """A venue config with the example's settings and a random password for the venue's own
    NATS user; no tables yet."""
    document = tomlkit.document()
    document.add(tomlkit.comment("The venue config of this pub's hub (docs/venue.md), made by "
                                 "`bidou-venue add-tables`."))
    document.add(tomlkit.comment("It holds every table's NATS password: keep it readable by "
                                 "the bidou-venue group only."))
    for section, keys in NEW_CONFIG.items():
        table = tomlkit.table()
        for key, value in keys.items():
            table.add(key, venue if (section, key) == ("venue", "name") else value)
        if section == "hub":
            table.add("admin_password", secrets.token_urlsafe(PASSWORD_BYTES))
        document.add(section, table)
    document.add("tables", tomlkit.table(is_super_table=True))
    return document


def table_section(url: str, venue: str, table: str, password: str, tls: bool) -> str:
    """The ``[venue]`` section of one table's config (firmware/table.example.toml)."""
    lines = ["[venue]", f'url = "{url}"', f'venue = "{venue}"', f'table = "{table}"',
             f'password = "{password}"']
    if tls:
        lines.append('ca = "/etc/bidou-table/pub-ca.pem"   # the authority that signed the hub')
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Add the tables (module docstring); the exit status."""
    bad = [name for name in args.tables if not NAME.match(name)]
    if bad:
        return _stop(f"{bad[0]!r} cannot be a table's name: {NAME_ALLOWED}")
    if not NAME.match(args.venue):
        return _stop(f"{args.venue!r} cannot be the venue's name: {NAME_ALLOWED}")
    # Only this command edits a config, with the table's comment-keeping TOML read and atomic
    # write (hardware.config_edit); imported here, no module of the hub loads hardware.
    from hardware.config_edit import read_config, write_config  # lazy: see above

    path = pathlib.Path(args.config)
    made = not path.exists()
    try:
        if made:
            document = new_document(args.venue)
        else:
            load_venue_config(str(path))  # valid as it is, before anything is added
            document = read_config(path)
    except ConfigError as exc:
        return _stop(f"{path}: {exc}; fix it and run this again")
    tables = document.setdefault("tables", tomlkit.table(is_super_table=True))
    added: dict[str, str] = {}
    for name in dict.fromkeys(args.tables):
        if name in tables:
            print(f"Table {name}: already in {path}, its password unchanged.")
            continue
        added[name] = secrets.token_urlsafe(PASSWORD_BYTES)
        tables.add(name, tomlkit.table().add("password", added[name]))
    if not added:
        return 0
    try:
        if made:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch(mode=0o640)
            os.chmod(path, 0o640)  # whatever the umask
        write_config(path, document)
        config = load_venue_config(str(path))
    except (OSError, ConfigError) as exc:
        if made:
            path.unlink(missing_ok=True)
        return _stop(f"could not write {path}: {exc}")
    scheme = "tls" if config.tls_cert else "nats"
    host = args.hub_address or socket.gethostname()
    url = f"{scheme}://{host}:{config.hub_port}"
    print(f"{'Made' if made else 'Updated'} {path}: {len(added)} table"
          f"{'s' if len(added) > 1 else ''} added ({', '.join(added)}).")
    for name, password in added.items():
        print(f"\nTable {name}: put this in its config (e.g. /etc/bidou-table/table.toml) and "
              f"restart bidou-table there:\n"
              f"{table_section(url, config.name, name, password, bool(config.tls_cert))}")
    print(f"\nOnce a table has started, its referee console's Venue section names its log; "
          f"enroll it here, and the venue stores its entries: bidou-venue accept-log "
          f"--config {path} NAME --log ID")
    if not made:
        print("\nRestart the hub, the ingester and the screen so they know the new tables: "
              "sudo systemctl restart bidou-venue-hub bidou-venue-ingest bidou-venue-screen")
    return 0


def _stop(sentence: str) -> int:
    print(f"bidou-venue add-tables: {sentence.rstrip('.')}.", file=sys.stderr)
    return 2
