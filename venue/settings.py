"""The venue's one config file (TOML): the hub, the database, the screen and the tables.

``make venue`` writes one (``venue.cli up``); a pub writes its own (docs/venue.md). Every
table the venue accepts is named here with its NATS password: the hub's users are made from
this list (``venue.hub``), the ingester refuses any other name, the screen lists these.
"""

from __future__ import annotations

import argparse
import ssl
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ConfigError, reject_unknown_keys
from firmware.settings.venue_settings import (
    NAME,
    NAME_ALLOWED,
    authority_file,
    pem_file,
    tls_context,
)

SECTIONS = ("venue", "hub", "database", "screen", "tables")
#: entries the hub keeps per table (``[hub] table_quota``): a pub's week at a person's pace,
#: an entry every 2 s for 12 hours a day, 7 days (151,200), and some room
TABLE_QUOTA = 160_000


@dataclass(frozen=True)
class VenueConfig:
    """A checked venue config. ``tables`` maps each table's name to its NATS password;
    ``logs`` a table's enrolled log id, where the config names one (``[tables.NAME]
    log_id``: the venue takes that table's entries from that log only)."""

    name: str
    hub_host: str
    hub_port: int
    store_dir: str
    admin_user: str
    admin_password: str
    dsn: str
    screen_host: str
    screen_port: int
    tables: dict[str, str]
    logs: dict[str, str] = field(default_factory=dict)
    #: entries the entry stream keeps per table at most (``venue.hub.stream_configs``)
    table_quota: int = TABLE_QUOTA
    #: the hub's certificate and key (PEM): with them the hub speaks only TLS
    tls_cert: str | None = None
    tls_key: str | None = None
    #: the authority the venue's own clients (ingester, screen) check the hub's certificate
    #: against; None: the system's
    tls_ca: str | None = None
    #: the screen's own DSN (a role that only reads); None: ``dsn``
    screen_dsn: str | None = None

    @property
    def reader_dsn(self) -> str:
        """What the screen reads the store with."""
        return self.screen_dsn or self.dsn

    @property
    def hub_url(self) -> str:
        """Where the venue's own clients (ingester, screen) reach the hub: on its machine,
        so a hub listening on every address (0.0.0.0, as at a pub) is reached on loopback,
        the address a TLS certificate names beside the tables' one."""
        scheme = "tls" if self.tls_cert else "nats"
        host = "127.0.0.1" if self.hub_host in ("0.0.0.0", "::", "") else self.hub_host
        return f"{scheme}://{host}:{self.hub_port}"

    def client_tls(self) -> ssl.SSLContext | None:
        """What the venue's own clients connect to the hub with (None: no TLS)."""
        return tls_context(self.tls_ca) if self.tls_cert else None


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(name, value, f"a table: write [{name}] on a line of its own")
    return value


def named_sections(data: dict[str, Any], name: str, keys: tuple[str, ...]
                   ) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each ``[NAME.X]`` section (``[tables.t1]``, the league's ``[pubs.north]``) as (X, its
    keys), in order, once checked: X a name (``NAME``, it is part of subjects), the section
    a table whose keys are among ``keys``; ConfigError otherwise."""
    for item, section in _section(data, name).items():
        if not NAME.match(item):
            raise ConfigError(f"{name}.{item}", section, NAME_ALLOWED)
        if not isinstance(section, dict):
            raise ConfigError(f"{name}.{item}", section, 'a table: password = "..."')
        reject_unknown_keys(f"{name}.{item}", section, keys, verb="has")
        yield item, section


def _port(value: Any, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 65535:
        raise ConfigError(key, value, "a port number from 1 to 65535")
    return value


def _text(section: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = section.get(key, default)
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where}.{key}", value, "a non-empty string")
    return value


def build_venue_config(data: dict[str, Any]) -> VenueConfig:
    """Check decoded TOML; ConfigError naming the key, the value and what is allowed."""
    for key in data:
        if key not in SECTIONS:
            raise ConfigError(key, data[key],
                              f"no such section; the sections are {', '.join(SECTIONS)}")
    venue, hub, db, screen = (_section(data, n) for n in ("venue", "hub", "database", "screen"))
    reject_unknown_keys("venue", venue, ("name",), verb="has")
    reject_unknown_keys("hub", hub, ("host", "port", "store_dir", "admin_user",
                                     "admin_password", "tls_cert", "tls_key", "tls_ca",
                                     "table_quota"), verb="has")
    reject_unknown_keys("database", db, ("dsn",), verb="has")
    reject_unknown_keys("screen", screen, ("host", "port", "dsn"), verb="has")
    name = venue.get("name", "pub")
    if not isinstance(name, str) or not NAME.match(name):
        raise ConfigError("venue.name", name, NAME_ALLOWED)
    tables: dict[str, str] = {}
    logs: dict[str, str] = {}
    for table, section in named_sections(data, "tables", ("password", "log_id")):
        tables[table] = _text(section, "password", f"tables.{table}")
        if "log_id" in section:
            logs[table] = _text(section, "log_id", f"tables.{table}")
    quota = hub.get("table_quota", TABLE_QUOTA)
    if not isinstance(quota, int) or isinstance(quota, bool) or quota < 1:
        raise ConfigError("hub.table_quota", quota, "a whole number of entries from 1")
    if not tables:
        raise ConfigError("tables", {}, "at least one [tables.NAME] with its password")
    tls = _tls(hub)
    return VenueConfig(
        name=name, hub_host=_text(hub, "host", "hub", "127.0.0.1"),
        hub_port=_port(hub.get("port", 4222), "hub.port"),
        store_dir=_text(hub, "store_dir", "hub", "venue-data/jetstream"),
        admin_user=_text(hub, "admin_user", "hub", "venue"),
        admin_password=_text(hub, "admin_password", "hub"),
        dsn=_text(db, "dsn", "database"),
        screen_host=_text(screen, "host", "screen", "127.0.0.1"),
        screen_port=_port(screen.get("port", 8090), "screen.port"), tables=tables, logs=logs,
        table_quota=quota,
        screen_dsn=_text(screen, "dsn", "screen") if "dsn" in screen else None, **tls)


def _tls(hub: dict[str, Any]) -> dict[str, str | None]:
    """``[hub]``'s tls_cert and tls_key (both or neither) and tls_ca, each a readable PEM."""
    given = {k: hub.get(k) for k in ("tls_cert", "tls_key", "tls_ca")}
    if (given["tls_cert"] is None) != (given["tls_key"] is None):
        missing = "tls_key" if given["tls_key"] is None else "tls_cert"
        raise ConfigError(f"hub.{missing}", None, "given with the other: the hub's certificate "
                          "(tls_cert) and its private key (tls_key), both PEM files")
    if given["tls_ca"] is not None and given["tls_cert"] is None:
        raise ConfigError("hub.tls_ca", given["tls_ca"], "only with tls_cert and tls_key")
    return {"tls_cert": given["tls_cert"] and pem_file(given["tls_cert"], "hub.tls_cert",
                                                       "the hub's certificate"),
            "tls_key": given["tls_key"] and pem_file(given["tls_key"], "hub.tls_key",
                                                     "the hub's private key"),
            "tls_ca": given["tls_ca"] and authority_file(given["tls_ca"], "hub.tls_ca")}


def load_venue_config(path: str) -> VenueConfig:
    """Read and check the venue config at ``path``."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ConfigError("--config", path, f"a readable TOML file ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("--config", path, f"valid TOML ({e})") from None
    return build_venue_config(data)


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """``--config FILE``, as every ``bidou-venue`` command that reads the venue config takes it."""
    parser.add_argument("--config", required=True, metavar="FILE", help="the venue config")


def config_for(command: str, path: str) -> VenueConfig | None:
    """The venue config for ``bidou-venue COMMAND``; None after one sentence on stderr naming
    the file and what is wrong (the command then exits 2)."""
    try:
        return load_venue_config(path)
    except ConfigError as e:
        print(f"bidou-venue {command}: {path}: {e}. Fix the config and start again.",
              file=sys.stderr)
        return None
