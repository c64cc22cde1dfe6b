"""The ingester's read of the hub: the durable consumer ``ingester`` and its pull requests.

Why a module of its own: how the hub is read (requests kept open, renewed on silence and on
reconnection) is one job; what the ingester does with each message is another
(``venue.ingester``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from nats.js.api import AckPolicy, ConsumerConfig
from nats.js.errors import NotFoundError

from venue.messages import ENTRY_STREAM

DURABLE = "ingester"
ACK_WAIT = 5.0  # seconds before an unacknowledged message is delivered again
#: messages the hub hands out before it waits for acknowledgements: room for every
#: partition's queue and batch (a consumer made with an older value keeps it)
MAX_ACK_PENDING = 4000
#: deliveries of one message at most (``max_deliver``): 20 x ACK_WAIT is 100 s of a message
#: not acknowledged (PostgreSQL away, a write failing). The hub then gives up on it and
#: says so (MAX_DELIVERIES_ADVISORY); the ingester reads it again by its stream sequence
#: and writes it like any other, so nothing is lost and nothing is redelivered forever.
#: ``BIDOU_VENUE_MAX_DELIVER`` sets it for the tests' faults.
MAX_DELIVER = int(os.environ.get("BIDOU_VENUE_MAX_DELIVER", "20"))
#: Pull requests stay open on the hub and deliver each entry the moment it is stored (no
#: waiting for a batch to fill, as nats-py's ``fetch`` did). Each asks for PULL_BATCH
#: messages and lives PULL_EXPIRES seconds; the next is asked for once less than half a
#: batch is owed. While one has nothing to deliver, the hub sends a heartbeat every
#: PULL_HEARTBEAT seconds: requests lost with their server (a hub restart, a dropped link)
#: are noticed after PULL_DEAD seconds of silence, and on every reconnection, and asked again.
#: 500, not 200: a backlog drains in larger batches (bench_hub_cost --hogs 20, with 4
#: connections: 4519 -> 5132 entries/s, 0.177 -> 0.140 CPU seconds per 1000 entries)
PULL_BATCH = 500
PULL_EXPIRES = 10.0
PULL_HEARTBEAT = 1.0
PULL_DEAD = 3.0


def say(text: str) -> None:
    """One line of the ingester's log."""
    print(f"{time.strftime('%H:%M:%S')} ingester: {text}", flush=True)


class Puller:
    """The durable consumer ``ingester`` read through pull requests kept open on the hub:
    a new one is asked for when fewer than half a batch is still owed, when one ends, when
    the connection comes back, and when the hub's heartbeats stop (the requests were lost
    with a restarted hub).

    Why not nats-py's ``fetch``: a fetch of N messages waits, after the first one, until N
    have come or its timeout has passed, so a quiet venue's entries waited up to the whole
    timeout (1 s), and a short timeout means many short requests whose loss nobody notices.
    Here each message is handed on as it arrives, and silence longer than ``PULL_DEAD`` is a
    lost request, never a stall.

    What the hub sends, as measured on nats-server: messages come on their own subjects
    (``bidou.<venue>.<table>.entry``), so they are counted against what is owed, not against
    a request. A request's heartbeats and its end (408, with ``Nats-Pending-Messages``, what
    it did not deliver) come on its reply subject (``<inbox>.<n>``). A request whose batch is
    delivered ends silently: hence the count.
    """

    def __init__(self, nc: Any, js: Any, venue: str) -> None:
        self.nc = nc
        self.js = js
        self.venue = venue
        self.inbox = nc.new_inbox()
        self.next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{ENTRY_STREAM}.{DURABLE}"
        self.owed = 0  # messages the open requests may still deliver
        self.requests = 0

    async def ensure_consumer(self) -> None:
        """The durable consumer, made if the hub does not have it (first start, or a hub
        whose store was lost); the hub keeps it, with what was acknowledged, across
        restarts."""
        made = True
        try:
            info = await self.js.consumer_info(ENTRY_STREAM, DURABLE)
            if info.config.max_deliver == MAX_DELIVER:
                return
        except NotFoundError:
            made = False
        try:  # made, or an older one brought up to date (max_deliver is editable)
            await self.js.add_consumer(ENTRY_STREAM, ConsumerConfig(
                durable_name=DURABLE, filter_subject=f"bidou.{self.venue}.*.entry",
                ack_policy=AckPolicy.EXPLICIT, ack_wait=ACK_WAIT,
                max_ack_pending=MAX_ACK_PENDING, max_deliver=MAX_DELIVER))
        except Exception as e:
            if not made:
                raise
            say(f"the consumer keeps its older settings ({type(e).__name__}: {e})")

    async def renew(self, *, lost: bool = True) -> None:
        """Ask for another batch. ``lost``: the open requests are presumed gone (a
        reconnection, a silence); if one still delivers, its messages are handed on all the
        same and only make the next request come sooner."""
        if lost:
            self.owed = 0
        self.requests += 1
        self.owed += PULL_BATCH
        await self.nc.publish(self.next_subject, json.dumps({
            "batch": PULL_BATCH, "expires": int(PULL_EXPIRES * 1e9),
            "idle_heartbeat": int(PULL_HEARTBEAT * 1e9)}).encode(),
            reply=f"{self.inbox}.{self.requests}")

    async def run(self, deliver: Callable[[Any], Awaitable[None]]) -> None:
        """Hand every delivered message to ``deliver`` (in the hub's order) until
        cancelled. The messages come through a callback subscription, and a watch beside
        it looks for silence: ``next_msg`` with a timeout made a task, a uuid and a
        ``wait_for`` for every message, about 7 % of the ingester's samples (py-spy)."""
        loop = asyncio.get_running_loop()
        heard = loop.time()  # when the hub last sent something (or a delivery ended)
        busy = False  # a delivery waits for room in a partition's queue: not a silence

        async def on_msg(msg: Any) -> None:
            nonlocal heard, busy
            heard, busy = loop.time(), True
            try:
                await self._one(msg, deliver)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # never go quiet: say it, ask again
                say(f"the pull from the hub failed ({type(e).__name__}: {e}); asking again")
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):  # else the watch asks again
                    await self.renew()
            finally:
                heard, busy = loop.time(), False

        sub = await self.nc.subscribe(f"{self.inbox}.*", cb=on_msg)
        try:
            with contextlib.suppress(Exception):  # else the watch asks again
                await self.renew()
            silent = 0
            while True:
                await asyncio.sleep(max(0.05, heard + PULL_DEAD - loop.time()))
                if busy or loop.time() - heard < PULL_DEAD:
                    silent = 0
                    continue
                heard = loop.time()  # no message, no heartbeat: the requests are gone
                try:
                    if self.nc.is_connected:
                        if silent:
                            say(f"the hub has not answered the pull for "
                                f"{(silent + 1) * PULL_DEAD:.0f} s; asking again")
                        with contextlib.suppress(Exception):  # a hub that lost its store
                            await self.ensure_consumer()
                        await self.renew()
                except Exception as e:  # never go quiet: say it, ask again
                    say(f"the pull from the hub failed ({type(e).__name__}: {e}); "
                        "asking again")
                silent += 1
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()

    async def _one(self, msg: Any, deliver: Callable[[Any], Awaitable[None]]) -> None:
        """One message of the pull: an entry handed on, or a request's status."""
        status = msg.headers.get("Status") if msg.headers else None
        if status is None:  # an entry
            await deliver(msg)
            self.owed -= 1
            if self.owed <= PULL_BATCH // 2:
                await self.renew(lost=False)
        elif status == "100":
            pass  # a heartbeat: the hub is there, the request open
        elif status in ("404", "408"):  # a request ended with this much undelivered
            with contextlib.suppress(ValueError, TypeError):
                self.owed -= int(msg.headers.get("Nats-Pending-Messages", 0))
            if self.owed <= PULL_BATCH // 2:
                await self.renew(lost=False)
        else:  # 503 (JetStream not ready yet, after a restart), 409 (consumer gone, ...)
            await asyncio.sleep(0.5)
            with contextlib.suppress(Exception):
                await self.ensure_consumer()
            await self.renew()
