"""The screen's live feed from the hub: each table's latest public state and each entry the
ingester stored, handed to the open event streams.

One thread with its own asyncio loop (nats-py is asyncio) reads the ``BIDOU_LIVE`` stream
(the latest state per table, so a screen started late shows every table at once) and the
ingester's ``venue.<venue>.ingested`` notices. Listeners are bounded queues: a slow browser
loses old events, never holds the feed back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from typing import Any

import nats
from nats.js.api import DeliverPolicy

from venue.ingester import ingested_subject
from venue.messages import LIVE_STREAM
from venue.settings import VenueConfig

ONLINE = 10.0  # seconds: a table heard from within this is online (it beats every 3 s)
LISTENER_QUEUE = 256


class Live:
    """The latest state of every table, and the streams listening for changes."""

    def __init__(self, config: VenueConfig) -> None:
        self.config = config
        self.states: dict[str, dict[str, Any]] = {}
        self.heard: dict[str, float] = {}  # table -> wall-clock time of its last state
        self.connected = False
        self._listeners: set[queue.Queue[tuple[str, dict[str, Any]]]] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="venue-live", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def online(self, table: str) -> bool:
        heard = self.heard.get(table)
        return heard is not None and time.time() - heard < ONLINE

    def listen(self) -> queue.Queue[tuple[str, dict[str, Any]]]:
        q: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue(LISTENER_QUEUE)
        with self._lock:
            self._listeners.add(q)
        return q

    def unlisten(self, q: queue.Queue[tuple[str, dict[str, Any]]]) -> None:
        with self._lock:
            self._listeners.discard(q)

    def _tell(self, kind: str, data: dict[str, Any]) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for q in listeners:
            with contextlib.suppress(queue.Full):
                q.put_nowait((kind, data))

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                asyncio.run(self._main())
            except Exception:  # the hub is away: the wall says the tables are silent
                self.connected = False
                self._stop.wait(1.0)

    async def _main(self) -> None:
        c = self.config
        async def on_error(e: Exception) -> None:  # the wall shows silence; no traceback
            self.connected = False

        nc = await nats.connect(c.hub_url, user=c.admin_user, password=c.admin_password,
                                name="venue screen", max_reconnect_attempts=-1,
                                reconnect_time_wait=0.5, connect_timeout=2,
                                error_cb=on_error)
        self.connected = True

        async def on_state(msg: Any) -> None:
            try:
                state = json.loads(msg.data)
                table = msg.subject.split(".")[2]
            except (ValueError, IndexError):
                return
            if table not in c.tables:
                return  # a name the venue does not know: the ingester reports its entries
            self.states[table] = state
            at = state.get("at")  # when the table sent it: a kept state is not a heartbeat
            self.heard[table] = min(time.time(), at) if isinstance(at, (int, float)) \
                else time.time()
            self._tell("state", {"table": table, "state": state})

        async def on_entry(msg: Any) -> None:
            with contextlib.suppress(ValueError):
                self._tell("entry", json.loads(msg.data))

        js = nc.jetstream()
        await nc.subscribe(ingested_subject(c.name), cb=on_entry)
        await js.subscribe(f"bidou.{c.name}.*.state", stream=LIVE_STREAM, cb=on_state,
                           ordered_consumer=True,
                           deliver_policy=DeliverPolicy.LAST_PER_SUBJECT)
        while not self._stop.is_set() and not nc.is_closed:
            self.connected = nc.is_connected
            await asyncio.sleep(0.5)
        await nc.close()
