"""The league's config (TOML): its three NATS servers, its database and its pubs.

```toml
[league]
name = "league"
[cluster]
host = "0.0.0.0"                   # where pubs' hubs (leaf nodes) and the league's parts reach it
client_ports = [4222, 4223, 4224]  # one per server: the league's own parts connect here
cluster_ports = [6222, 6223, 6224] # the servers' routes to each other
leaf_ports = [7422, 7423, 7424]    # the pubs' hubs connect here, as leaf nodes
store_dir = "/var/lib/bidou-league/jetstream"   # each server keeps its store in a folder of it
admin_password = "..."             # the league's own user (ingester, screen), account LEAGUE
route_password = "..."             # the servers' routes
[database]
dsn = "host=127.0.0.1 port=5432 user=bidou dbname=bidou_league"
screen_dsn = "..."                 # optional: the screen's role, which only reads
[ingest]
partitions = 1                     # ingesters (`bidou-league ingest --partition K`)
[pubs.pub1]
password = "..."                   # the pub hub's leaf-node password (bidou-league add-venue)
partition = 0                      # which ingester takes it (default: crc32 of its name)
```
A pub's name is a venue name (``firmware.settings.venue_settings.NAME``): it is part of subjects.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
import zlib
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ConfigError, reject_unknown_keys
from firmware.settings.venue_settings import NAME, NAME_ALLOWED
from venue.settings import _section, _text, named_sections

SECTIONS = ("league", "cluster", "database", "ingest", "pubs")
#: the league's own user in the LEAGUE account: its ingesters and screens
ADMIN_USER = "league"


@dataclass(frozen=True)
class LeagueConfig:
    """A checked league config; ``pubs`` maps each pub (venue) name to its leaf password."""

    name: str
    host: str
    client_ports: tuple[int, ...]
    cluster_ports: tuple[int, ...]
    leaf_ports: tuple[int, ...]
    store_dir: str
    admin_password: str
    route_password: str
    dsn: str
    pubs: dict[str, str]
    partitions: int = 1
    #: the screen's DSN, a role that only reads (``[database] screen_dsn``); None: ``dsn``
    screen_dsn: str | None = None
    #: pubs placed by the config (``[pubs.NAME] partition``); the others by their name's hash
    placed: dict[str, int] = field(default_factory=dict)

    @property
    def admin_user(self) -> str:
        return ADMIN_USER

    def client_urls(self, host: str = "127.0.0.1") -> list[str]:
        """Every server's client url (the league's own parts use all three)."""
        return [f"nats://{host}:{p}" for p in self.client_ports]

    def partition_of(self, pub: str) -> int:
        """Which ingester takes ``pub``: the config's ``partition``, else the crc32 of its
        name (the same one always)."""
        if pub in self.placed:
            return self.placed[pub]
        return zlib.crc32(pub.encode()) % self.partitions

    def pubs_of(self, partition: int) -> list[str]:
        return sorted(p for p in self.pubs if self.partition_of(p) == partition)


def _ports(cluster: dict[str, Any], key: str, default: tuple[int, ...]) -> tuple[int, ...]:
    value = cluster.get(key, list(default))
    if (not isinstance(value, list) or len(value) != 3 or not all(
            isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 65535 for p in value)):
        raise ConfigError(f"cluster.{key}", value, "three port numbers, one per server")
    return tuple(value)


def build_league_config(data: dict[str, Any]) -> LeagueConfig:
    """Check decoded TOML; ConfigError naming the key, the value and what is allowed."""
    for key in data:
        if key not in SECTIONS:
            raise ConfigError(key, data[key],
                              f"no such section; the sections are {', '.join(SECTIONS)}")
    league, cluster, db, ingest = (_section(data, n)
                                   for n in ("league", "cluster", "database", "ingest"))
    reject_unknown_keys("league", league, ("name",), verb="has")
    reject_unknown_keys("cluster", cluster, ("host", "client_ports", "cluster_ports",
                                             "leaf_ports", "store_dir", "admin_password",
                                             "route_password"), verb="has")
    reject_unknown_keys("database", db, ("dsn", "screen_dsn"), verb="has")
    reject_unknown_keys("ingest", ingest, ("partitions",), verb="has")
    name = league.get("name", "league")
    if not isinstance(name, str) or not NAME.match(name):
        raise ConfigError("league.name", name, NAME_ALLOWED)
    pubs: dict[str, str] = {}
    for pub, section in named_sections(data, "pubs", ("password", "partition")):
        pubs[pub] = _text(section, "password", f"pubs.{pub}")
    partitions = ingest.get("partitions", 1)
    if not isinstance(partitions, int) or isinstance(partitions, bool) or partitions < 1:
        raise ConfigError("ingest.partitions", partitions, "a whole number of ingesters, 1 or more")
    placed: dict[str, int] = {}
    for pub, section in _section(data, "pubs").items():
        if "partition" in section:
            k = section["partition"]
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < partitions:
                raise ConfigError(f"pubs.{pub}.partition", k, f"which ingester takes the pub: "
                                  f"0 to {partitions - 1} ([ingest] partitions = {partitions})")
            placed[pub] = k
    return LeagueConfig(
        name=name, host=_text(cluster, "host", "cluster", "0.0.0.0"),
        client_ports=_ports(cluster, "client_ports", (4222, 4223, 4224)),
        cluster_ports=_ports(cluster, "cluster_ports", (6222, 6223, 6224)),
        leaf_ports=_ports(cluster, "leaf_ports", (7422, 7423, 7424)),
        store_dir=_text(cluster, "store_dir", "cluster", "/var/lib/bidou-league/jetstream"),
        admin_password=_text(cluster, "admin_password", "cluster"),
        route_password=_text(cluster, "route_password", "cluster"),
        dsn=_text(db, "dsn", "database"), pubs=pubs, partitions=partitions, placed=placed,
        screen_dsn=_text(db, "screen_dsn", "database") if "screen_dsn" in db else None)


def load_league_config(path: str) -> LeagueConfig:
    with open(path, "rb") as f:
        return build_league_config(tomllib.load(f))


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="the league config (league.toml)")


def config_for(command: str, path: str) -> LeagueConfig | None:
    """The config, or None after saying on stderr what is wrong and what to do."""
    try:
        return load_league_config(path)
    except FileNotFoundError:
        print(f"bidou-league {command}: no league config at {path}; write one "
              "(docs/league.md) or give --config.", file=sys.stderr)
    except (tomllib.TOMLDecodeError, ConfigError) as e:
        print(f"bidou-league {command}: {path}: {e}", file=sys.stderr)
    return None
