"""The league's live view: every pub's tables' public states, as their hubs publish them.

A table publishes its public state on ``bidou.<venue>.<table>.state`` (``venue.forwarder``:
built by ``firmware.table.views.public_state``, so no concealed die is in it). At the league those
states arrive on the cluster (``docs/league.md`` says how); this keeps each table's latest
one, from a core subscription to ``bidou.*.*.state`` and, at every (re)connection, from the
stream that keeps them when there is one (the last message of each subject), so a screen
started late sees every table at once. What is kept is only the fields the wall shows
(``FIELDS``): nothing else of a message is ever passed on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any

import nats
from nats.js.api import ConsumerConfig, DeliverPolicy

STATE_SUBJECTS = "bidou.*.*.state"
#: seconds since its last state after which a table is shown silent (a table sends one every
#: 3 s when nothing changes: venue.forwarder)
ONLINE_FOR = 10.0
#: what the wall may show of a table's state, and of each seat
FIELDS = ("game_id", "status", "variant", "to_act", "expects", "pot", "centre", "hand")
SEAT_FIELDS = ("name", "chips", "stake", "in_hand", "to_act", "out", "exposed")
RETRY = 2.0
log = logging.getLogger("bidou.league.live")


@dataclass(frozen=True)
class ClusterLink:
    """Where the screen reads the live states: the cluster's urls, a user that may."""

    urls: tuple[str, ...]
    user: str | None = None
    password: str | None = None
    ca: str | None = None

    def tls(self) -> ssl.SSLContext | None:
        if not any(u.startswith("tls://") for u in self.urls):
            return None
        return ssl.create_default_context(cafile=self.ca)


def shown(state: Any) -> dict[str, Any] | None:
    """The part of a state message the wall shows (None for one that is not a state)."""
    if not isinstance(state, dict) or not isinstance(state.get("seats"), list):
        return None
    out = {k: state.get(k) for k in FIELDS}
    out["seats"] = [{k: s.get(k) for k in SEAT_FIELDS} for s in state["seats"]
                    if isinstance(s, dict)]
    return out


class Live:
    """The latest state of every table the cluster has heard of."""

    def __init__(self, link: ClusterLink | None) -> None:
        self.link = link
        self.states: dict[tuple[str, str], dict[str, Any]] = {}
        self.heard: dict[tuple[str, str], float] = {}
        self.connected = False
        self.problem: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.link is None:
            self.problem = "no cluster configured: the live wall shows nothing"
            return
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()),
                                        name="league-live", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def online(self, key: tuple[str, str]) -> bool:
        at = self.heard.get(key)
        return at is not None and time.time() - at < ONLINE_FOR

    def snapshot(self) -> list[dict[str, Any]]:
        """Every table heard of: venue, table, online, last heard (epoch s), its state."""
        with self._lock:
            return [{"venue": v, "table": t, "online": self.online((v, t)),
                     "heard": self.heard.get((v, t)), "state": s}
                    for (v, t), s in sorted(self.states.items())]

    def take(self, subject: str, body: bytes, at: float | None = None) -> None:
        """One state message (``bidou.<venue>.<table>.state``); junk is dropped."""
        parts = subject.split(".")
        if len(parts) != 4 or parts[0] != "bidou" or parts[3] != "state":
            return
        try:
            state = shown(json.loads(body))
        except (ValueError, UnicodeDecodeError):
            return
        if state is None:
            return
        with self._lock:
            self.states[(parts[1], parts[2])] = state
            self.heard[(parts[1], parts[2])] = at if at is not None else time.time()

    async def _main(self) -> None:
        while not self._stop.is_set():
            try:
                await self._follow()
            except Exception as e:  # the cluster away: the wall shows every table silent
                self.connected = False
                self.problem = f"cannot reach the league's cluster ({e!r})"
                log.warning("%s", self.problem)
            await asyncio.sleep(RETRY)

    async def _follow(self) -> None:
        link = self.link
        assert link is not None
        async def on_error(e: Exception) -> None:  # the wall says so; no traceback
            self.problem = f"the league's cluster: {e!r}"

        nc = await nats.connect(list(link.urls), user=link.user, password=link.password,
                                tls=link.tls(), name="league screen", connect_timeout=2,
                                max_reconnect_attempts=-1, reconnect_time_wait=1,
                                error_cb=on_error)
        try:
            self.connected, self.problem = True, None

            async def on_state(msg: Any) -> None:
                self.take(msg.subject, msg.data)

            await nc.subscribe(STATE_SUBJECTS, cb=on_state)
            await self._seed(nc)
            while not self._stop.is_set():
                await asyncio.sleep(0.5)
                self.connected = nc.is_connected
        finally:
            with contextlib.suppress(Exception):
                await nc.close()

    async def _seed(self, nc: Any) -> None:
        """The last state of every table, from the stream that keeps them (if any): its
        message time is when it was heard, so a table silent for long shows silent."""
        js = nc.jetstream()
        try:
            stream = await js.find_stream_name_by_subject("bidou.x.y.state")
        except Exception:
            return
        done = asyncio.Event()

        async def on_msg(msg: Any) -> None:
            at = msg.metadata.timestamp.timestamp() if msg.metadata.timestamp else None
            self.take(msg.subject, msg.data, at)
            if msg.metadata.num_pending == 0:
                done.set()

        sub = await js.subscribe(STATE_SUBJECTS, stream=stream, cb=on_msg, ordered_consumer=True,
                                 config=ConsumerConfig(
                                     deliver_policy=DeliverPolicy.LAST_PER_SUBJECT))
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(done.wait(), 3)
        await sub.unsubscribe()
