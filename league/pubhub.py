"""A pub's hub in a league: the venue's own nats-server, made a leaf node of the league.

The pub keeps its hub, its streams and its users exactly as the venue has them
(``venue.hub.server_config``); this adds one ``leafnodes`` remote: the league's three
servers, with the pub's leaf user and password. The hub dials out (a pub needs no open port),
reconnects by itself after a cut, and its local clients (the uplink, the roster copy) reach
the league through it without credentials of their own. What may cross is decided by the
league's accounts (``league.cluster``), not here.

The link is its own small file, beside the venue's config (``bidou-league add-venue``
prints it):

```toml
[league]
urls = ["nats-leaf://league1.example:7422", "nats-leaf://league2.example:7422", "..."]
user = "pub1"
password = "..."
```
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from engine.errors import ConfigError, reject_unknown_keys
from league.cluster import start_nats
from venue.hub import nats_server_binary, server_config
from venue.private_file import write_private
from venue.settings import VenueConfig, config_for


@dataclass(frozen=True)
class LeagueLink:
    """How a pub's hub reaches the league: the league servers' leaf urls, its user and
    password there."""

    urls: tuple[str, ...]
    user: str
    password: str


def build_link(data: dict[str, Any]) -> LeagueLink:
    for key in data:
        if key != "league":
            raise ConfigError(key, data[key], "no such section; the link has [league] only")
    league = data.get("league", {})
    if not isinstance(league, dict):
        raise ConfigError("league", league, "a table: write [league] on a line of its own")
    reject_unknown_keys("league", league, ("urls", "user", "password"), verb="has")
    urls = league.get("urls")
    if (not isinstance(urls, list) or not urls or not all(
            isinstance(u, str) and u.startswith(("nats-leaf://", "tls://", "nats://"))
            for u in urls)):
        raise ConfigError("league.urls", urls, 'a list of the league servers\' leaf urls, '
                          'e.g. ["nats-leaf://league1.example:7422"]')
    out = []
    for key in ("user", "password"):
        value = league.get(key)
        if not isinstance(value, str) or not value:
            raise ConfigError(f"league.{key}", value, "a non-empty string (bidou-league "
                              "add-venue prints it)")
        out.append(value)
    return LeagueLink(tuple(urls), out[0], out[1])


def load_link(path: str) -> LeagueLink:
    with open(path, "rb") as f:
        return build_link(tomllib.load(f))


def pub_hub_config(config: VenueConfig, link: LeagueLink, *, port: int | None = None,
                   store_dir: str | None = None) -> str:
    """The venue hub's nats-server config with the league as its leaf remote."""
    text = json.loads(server_config(config, port=port, store_dir=store_dir))
    secret = f"{quote(link.user, safe='')}:{quote(link.password, safe='')}@"
    text["leafnodes"] = {"reconnect": 1, "remotes": [{"urls": [
        u.replace("://", f"://{secret}", 1) for u in link.urls]}]}
    return json.dumps(text, indent=2)


def start_pub_hub(config: VenueConfig, link: LeagueLink, folder: str, *,
                  port: int | None = None) -> subprocess.Popen[bytes]:
    """``venue.hub.start_hub`` with the league link: config in ``folder``, its own process
    group, its log ``folder/nats.log``."""
    return start_nats(folder, pub_hub_config(config, link, port=port,
                                             store_dir=os.path.join(folder, "jetstream")))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the venue config (venue.toml)")
    parser.add_argument("--link", required=True, help="the pub's league link (league-link.toml)")


def run(args: argparse.Namespace) -> int:
    """`bidou-league pub-hub`: run the venue's hub as a leaf node of the league (in place of
    `bidou-venue hub`)."""
    config = config_for("pub-hub", args.config)
    if config is None:
        return 2
    try:
        link = load_link(args.link)
    except FileNotFoundError:
        print(f"bidou-league pub-hub: no league link at {args.link}; bidou-league add-venue "
              "on the league prints it.", file=sys.stderr)
        return 2
    except (tomllib.TOMLDecodeError, ConfigError) as e:
        print(f"bidou-league pub-hub: {args.link}: {e}", file=sys.stderr)
        return 2
    os.makedirs(config.store_dir, exist_ok=True)
    path = os.path.join(os.path.dirname(os.path.abspath(config.store_dir)), "nats.conf")
    write_private(path, pub_hub_config(config, link))
    os.execv(nats_server_binary(), ["nats-server", "-c", path])
