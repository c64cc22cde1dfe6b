"""The league's NATS: three nats-server processes in one JetStream cluster, streams of three
replicas, and accounts that keep each pub to its own subjects.

Accounts (the servers enforce them, whatever a pub's software does):

- ``LEAGUE`` holds the streams and the league's own user (ingester, screen);
- ``PUB_<pub>``, one per pub, has no user: a pub's hub joins it as a leaf node (its leaf
  user is bound to it). It can reach the league only through what the accounts share:
  ``uplink.<table>.entry`` (the service ``league.<pub>.>``, which ``LEAGUE`` exports to that
  pub alone, imported as ``uplink.>``: the uplink's JetStream publishes, answered by the
  stream; a pub never names itself, so it cannot name another pub), the roster
  (``league.roster.get``, a service, and ``league.roster.changed``, a stream, to every pub),
  and its tables' public state (``bidou.<pub>.*.state``, a stream it exports to
  ``LEAGUE``).
- A pub publishing on an entry subject of the league (``league.<any pub>.<table>.entry``)
  reaches no stream: its account exports those subjects to ``LEAGUE`` as
  ``refused.<pub>.league.<...>.entry`` (``refused_subject``), where the league's ingester of
  that pub hears them, says so in its log and keeps a ``problems`` row (the league's page).
  The server stores nothing of it; the publisher gets no acknowledgement. The same for
  another pub's public state (``bidou.<other pub>.<table>.state``): the league takes a pub's
  state only under its own name, and hears the rest as ``refused.<pub>.bidou.<...>.state``
  (a pub's own state comes there too, and is not a refusal).
- ``SYS``, the system account (its user is the routes' password's, for monitoring).

Streams (``stream_configs``): ``LEAGUE_ENTRIES`` (file, 3 replicas, ``league.*.*.entry``,
deduplicated by the venue's message id) and ``LEAGUE_LIVE`` (memory, 3 replicas, each
table's latest state).
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from nats.js.api import DiscardPolicy, StorageType, StreamConfig

from league.settings import LeagueConfig
from venue.hub import (
    DUPLICATE_WINDOW,
    MAX_AGE,
    MAX_ENTRY_BYTES,
    MAX_STATE_BYTES,
    nats_server_binary,
)
from venue.private_file import write_private
from venue.roster import ROSTER_CHANGED, ROSTER_GET
from venue.settings import TABLE_QUOTA

LEAGUE_ENTRIES = "LEAGUE_ENTRIES"
LEAGUE_LIVE = "LEAGUE_LIVE"
LEAGUE_ACCOUNT = "LEAGUE"
REPLICAS = 3
#: the league's entry subjects (``LEAGUE_ENTRIES``'s)
ENTRY_SUBJECTS = "league.*.*.entry"
#: every pub's tables' public state; a pub's own reaches the league through ``own_state``, the
#: rest (another pub's name) is refused
STATE_SUBJECTS = "bidou.*.*.state"


def pub_account(pub: str) -> str:
    return f"PUB_{pub}"


def own_state(pub: str, table: str) -> str:
    """``pub``'s account's name for its own table's state (``bidou.<pub>.<table>.state`` as
    it arrives): handed to the league under its own name, never as a refusal."""
    return f"own.{pub}.{table}.state"


def league_subject(venue: str, table: str) -> str:
    """Where a pub's uplink publishes a table's entry in the league."""
    return f"league.{venue}.{table}.entry"


def uplink_subject(table: str) -> str:
    """Where a pub's uplink publishes a table's entry, at its own hub: the league's account
    takes it as ``league.<that pub>.<table>.entry``."""
    return f"uplink.{table}.entry"


def refused_subject(pub: str) -> str:
    """Where ``LEAGUE`` hears what ``pub`` published on the league's entry subjects:
    ``refused.<pub>.league.<named pub>.<table>.entry``."""
    return f"refused.{pub}.>"


def venue_subject(subject: str) -> str:
    """The venue's subject of a league entry subject (``league.V.T.entry`` ->
    ``bidou.V.T.entry``), so the venue's own check reads it; anything else unchanged."""
    head, _, rest = subject.partition(".")
    return f"bidou.{rest}" if head == "league" else subject


def server_config(config: LeagueConfig, index: int, folder: str) -> dict[str, Any]:
    """Server ``index`` (0, 1, 2) of the league's cluster, its store in ``folder``."""
    host = config.host
    route_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    route = f"league:{config.route_password}"
    accounts: dict[str, Any] = {
        LEAGUE_ACCOUNT: {
            "jetstream": "enabled",
            "users": [{"user": config.admin_user, "password": config.admin_password}],
            "exports": [{"service": f"league.{p}.>", "accounts": [pub_account(p)]}
                        for p in sorted(config.pubs)]
            + [{"service": ROSTER_GET}, {"stream": ROSTER_CHANGED}],
            "imports": [{"stream": {"account": pub_account(p), "subject": own_state(p, "*")},
                         "to": f"bidou.{p}.*.state"} for p in sorted(config.pubs)]
            + [{"stream": {"account": pub_account(p), "subject": subject},
                "to": f"refused.{p}.{subject}"}
               for p in sorted(config.pubs) for subject in (ENTRY_SUBJECTS, STATE_SUBJECTS)],
        },
        "SYS": {"users": [{"user": "sys", "password": config.route_password}]},
    }
    for p in sorted(config.pubs):
        accounts[pub_account(p)] = {
            # its own state is renamed on arrival, so that only the rest of bidou.*.*.state
            # (other pubs' names) is handed on as refused
            "mappings": {f"bidou.{p}.*.state": own_state(p, "{{wildcard(1)}}")},
            "imports": [{"service": {"account": LEAGUE_ACCOUNT, "subject": f"league.{p}.>"},
                         "to": "uplink.>"},
                        {"service": {"account": LEAGUE_ACCOUNT, "subject": ROSTER_GET}},
                        {"stream": {"account": LEAGUE_ACCOUNT, "subject": ROSTER_CHANGED}}],
            "exports": [{"stream": own_state(p, "*"), "accounts": [LEAGUE_ACCOUNT]},
                        {"stream": STATE_SUBJECTS, "accounts": [LEAGUE_ACCOUNT]},
                        {"stream": ENTRY_SUBJECTS, "accounts": [LEAGUE_ACCOUNT]}],
        }
    return {
        "server_name": f"{config.name}-{index + 1}",
        "listen": f"{host}:{config.client_ports[index]}",
        "jetstream": {"store_dir": folder, "max_memory_store": 256 * 1048576},
        "cluster": {
            "name": config.name, "listen": f"{host}:{config.cluster_ports[index]}",
            "authorization": {"user": "league", "password": config.route_password},
            "routes": [f"nats-route://{route}@{route_host}:{p}"
                       for i, p in enumerate(config.cluster_ports) if i != index],
        },
        "leafnodes": {
            "listen": f"{host}:{config.leaf_ports[index]}",
            # pubs dial the urls of their link only, never the addresses the servers know
            # themselves by (inside the league's network, or behind a relay)
            "no_advertise": True,
            "authorization": {"users": [
                {"user": p, "password": pw, "account": pub_account(p)}
                for p, pw in sorted(config.pubs.items())]},
        },
        "accounts": accounts,
        "system_account": "SYS",
        "max_payload": 1048576,
    }


def start_server(config: LeagueConfig, index: int, folder: str) -> subprocess.Popen[bytes]:
    """Write server ``index``'s config into ``folder`` and start it (its own process group);
    its log is ``folder/nats.log``, its store ``folder/jetstream``."""
    return start_nats(folder, json.dumps(server_config(config, index, os.path.join(
        folder, "jetstream")), indent=2))


def start_nats(folder: str, text: str) -> subprocess.Popen[bytes]:
    """nats-server on the config ``text``, written (0600: passwords) to
    ``folder/nats.conf``; its own process group, its log ``folder/nats.log``."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "nats.conf")
    write_private(path, text)
    out = open(os.path.join(folder, "nats.log"), "ab")  # noqa: SIM115 -- the child's
    try:
        return subprocess.Popen([nats_server_binary(), "-c", path], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    finally:
        out.close()


def stream_configs(config: LeagueConfig) -> list[StreamConfig]:
    """The league's streams, three replicas each. Bounds as the venue's: each table's quota
    (a week at a person's pace; a full table's new entries are refused and wait in its pub's
    hub), a week kept, 8 KiB an entry."""
    return [
        StreamConfig(name=LEAGUE_ENTRIES, subjects=[ENTRY_SUBJECTS],
                     storage=StorageType.FILE, num_replicas=REPLICAS,
                     duplicate_window=DUPLICATE_WINDOW, max_msgs_per_subject=TABLE_QUOTA,
                     discard=DiscardPolicy.NEW, discard_new_per_subject=True,
                     max_msg_size=MAX_ENTRY_BYTES, max_age=MAX_AGE),
        StreamConfig(name=LEAGUE_LIVE, subjects=["bidou.*.*.state"],
                     storage=StorageType.MEMORY, num_replicas=REPLICAS,
                     max_msgs_per_subject=1, max_msg_size=MAX_STATE_BYTES),
    ]


async def ensure_streams(js: Any, config: LeagueConfig) -> None:
    """Create the league's streams, or bring their config up to date (idempotent)."""
    for cfg in stream_configs(config):
        try:
            await js.add_stream(cfg)
        except Exception:  # it exists with another config: update it
            await js.update_stream(cfg)
