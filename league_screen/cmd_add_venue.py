"""`bidou-league add-venue --config league.toml NAME [--league-address HOST]`: a pub joins
the league.

It makes the league config when it is missing (``league/deploy/league.example.toml``'s
settings, random passwords for the league's own user and its servers' routes), gives the pub
a leaf password of its own (``[pubs.NAME] password``; a pub already there keeps its own), and
prints what the pub's hub needs: its league link file (``league-link.toml``, which
``bidou-league pub-hub`` reads) and the steps at the pub. An existing config keeps its
comments, its mode and its group, and must be valid first.

Exit status: 0 done; 2 a bad name or config.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
from pathlib import Path

import tomlkit

from engine.errors import ConfigError
from firmware.settings.venue_settings import NAME, NAME_ALLOWED
from league.settings import build_league_config
from venue.private_file import write_private

EXAMPLE = Path(__file__).resolve().parents[1] / "league" / "deploy" / "league.example.toml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the league config (made if missing)")
    parser.add_argument("name", nargs="+", help="each pub's name (its venue's [venue] name)")
    parser.add_argument("--league-address", default=None, metavar="HOST",
                        help="the league servers' address as the pubs reach it (default: this "
                             "machine's name)")


def _document(path: str) -> tomlkit.TOMLDocument:
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return tomlkit.parse(f.read())
    doc = tomlkit.parse(EXAMPLE.read_text(encoding="utf-8"))
    doc["cluster"]["admin_password"] = secrets.token_urlsafe(18)  # type: ignore[index]
    doc["cluster"]["route_password"] = secrets.token_urlsafe(18)  # type: ignore[index]
    return doc


def link_text(urls: list[str], pub: str, password: str) -> str:
    """The pub's ``league-link.toml`` (``league.pubhub.build_link`` reads it)."""
    quoted = ", ".join(f'"{u}"' for u in urls)
    return f'[league]\nurls = [{quoted}]\nuser = "{pub}"\npassword = "{password}"\n'


def run(args: argparse.Namespace) -> int:
    for name in args.name:
        if not NAME.match(name):
            print(f"bidou-league add-venue: {name!r} cannot be a pub's name: {NAME_ALLOWED}.",
                  file=sys.stderr)
            return 2
    try:
        doc = _document(args.config)
        before = build_league_config(doc.unwrap())  # an existing config must be valid first
    except (ConfigError, tomlkit.exceptions.TOMLKitError, OSError) as e:
        print(f"bidou-league add-venue: {args.config}: {e}. Fix the config and run it again.",
              file=sys.stderr)
        return 2
    pubs = doc.setdefault("pubs", tomlkit.table(is_super_table=True))
    added = []
    for name in args.name:
        if name not in before.pubs:
            section = tomlkit.table()
            section["password"] = secrets.token_urlsafe(24)
            pubs[name] = section  # type: ignore[index]
            added.append(name)
    config = build_league_config(doc.unwrap())
    mode = os.stat(args.config).st_mode & 0o777 if os.path.exists(args.config) else 0o600
    write_private(args.config, tomlkit.dumps(doc))
    os.chmod(args.config, mode & ~0o007)  # never readable by others: it holds passwords
    host = args.league_address or socket.getfqdn()
    urls = [f"nats-leaf://{host}:{p}" for p in config.leaf_ports]
    for name in args.name:
        state = "added" if name in added else "already in the league; its password is kept"
        print(f"# pub {name}: {state}. At the pub, save this as "
              "/etc/bidou-venue/league-link.toml (mode 0640, group bidou-venue):")
        print(link_text(urls, name, config.pubs[name]))
    if added:
        print("# Then restart the league's servers so they take the new pubs:\n"
              "#   sudo systemctl restart bidou-league-cluster@1 bidou-league-cluster@2 "
              "bidou-league-cluster@3")
    print("# At each pub (its hub installed by venue/deploy/install-hub, its [venue] name the "
          "pub's):\n#   sudo league/deploy/join-league /etc/bidou-venue/league-link.toml")
    return 0
