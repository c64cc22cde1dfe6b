"""The venue's ingester: a durable JetStream consumer writing every entry to PostgreSQL.

Each message is checked (``venue.messages.parse_entry``, the configured tables), written
whole in ONE transaction (``venue.store.record_many``) and acknowledged only after the commit.
Tables are spread over a few connections (``PARTITIONS``); one table's entries keep one
connection, in order, and the messages waiting on a connection are written together: one
transaction and a handful of statements for them all, not seven round trips each (one
commit, one disk flush; a burst of a finished game is one commit, not 200). Killed
between the two, the message comes again and is a repeat, a no-op: exactly once in the
store. An entry that arrives before one it follows (after a redelivery) is handed back for
later, so every game is held gap-free and in order. A message the venue will not take gets
one line here and in the ``problems`` table (the screen shows it) and is dropped from the
stream; nothing else stops. PostgreSQL away: the message waits in hand until it is back.

``bidou-venue ingest --config venue.toml``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import threading
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import nats
import psycopg
from nats.js.api import AckPolicy, ConsumerConfig
from nats.js.errors import NotFoundError

from venue import store
from venue.hub import ensure_streams
from venue.messages import ENTRY_STREAM, BadMessage, EntryMessage, parse_entry
from venue.settings import VenueConfig, add_config_argument, config_for

DURABLE = "ingester"
ACK_WAIT = 5.0  # seconds before an unacknowledged message is delivered again
#: messages the hub hands out before it waits for acknowledgements: room for every
#: partition's queue and batch (a consumer made with an older value keeps it)
MAX_ACK_PENDING = 4000
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
#: tables are spread over this many connections, each writing its tables' entries in order:
#: PostgreSQL commits them side by side (one fsync can carry several commits). With the CPU
#: shared (20 processes spinning 9 nicer, as the bench's tables' writers), the venue waits
#: for the CPU at every round trip, and more batches in flight drain more: bench_hub_cost
#: --hogs 20, backlog drained with 2, 4 and 8 connections at 2835, 4519 and 4363 entries/s
#: (one run each, 2 cores, load 16 to 21). Alone, fewer are cheaper per entry (1500/s: 0.222
#: CPU seconds per 1000 entries with 1, 0.318 with 4), but they drain no faster
PARTITIONS = 4
#: messages waiting per partition, all written by its next ``record_many``: the pull waits
#: beyond. A batch costs the same handful of statements whatever its size, so a partition
#: that falls behind catches up in larger batches; a pull's worth, well within ack_wait.
QUEUE = PULL_BATCH
#: fault injection for the tests (docs/venue.md): SIGKILL itself after this many commits,
#: before acknowledging the last one
CRASH_ENV = "BIDOU_VENUE_CRASH_AFTER_COMMIT"


def say(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} ingester: {text}", flush=True)


def ingested_subject(venue: str) -> str:
    """Core NATS: one message per stored entry, for the screens: they show an entry live
    from the hub, and learn here that it is stored (and the log id the store accepted)."""
    return f"venue.{venue}.ingested"


def notices(messages: list[EntryMessage]) -> bytes:
    """The notice of the entries one transaction stored, as the screens read it: a JSON list,
    one object per entry in the order stored (``bidou-venue accept-log`` sends the same for
    the entries it stores). One message per transaction, not one per entry: the ingester
    published, and every screen parsed, as many notices as entries."""
    return json.dumps([{"table": m.table, "log_id": m.log_id, "game": m.game, "seq": m.seq,
                        "kind": m.kind, "text": m.text, "at": m.at, "status": m.status}
                       for m in messages]).encode()


class Ingester:
    """One consumer, one database connection; ``handle`` is one message's whole life."""

    def __init__(self, config: VenueConfig, partitions: int = PARTITIONS) -> None:
        self.config = config
        self.dbs: list[psycopg.Connection[Any] | None] = [None] * partitions
        self.commits = 0
        self._lock = threading.Lock()
        self._said: set[str] = set()
        crash = os.environ.get(CRASH_ENV)
        self.crash_after = int(crash) if crash else None

    def partition(self, table: str) -> int:
        """One table's entries always go through the same partition, one after another."""
        return zlib.crc32(table.encode()) % len(self.dbs)

    def database(self, part: int) -> psycopg.Connection[Any]:
        """The partition's connection, made again (waiting) while PostgreSQL is away."""
        db = self.dbs[part]
        while db is None or db.closed or db.broken:
            try:
                db = self.dbs[part] = store.connect(self.config.dsn)
                if part == 0:
                    say("connected to PostgreSQL")
            except psycopg.OperationalError as e:
                if part == 0:
                    say(f"PostgreSQL cannot be reached ({str(e).strip()[:120]}); trying "
                        "again in 1 s, messages wait in the hub")
                time.sleep(1)
        return db

    def problem(self, part: int, table: str, sentence: str) -> None:
        """Say a refusal once and keep it for the screen (blocking: run in a thread)."""
        with self._lock:
            new = sentence not in self._said
            self._said.add(sentence)
        if new:  # one line per kind of refusal, not one per message
            say(f"refused: {sentence}")
        while True:
            try:
                store.note_problem(self.database(part), self.config.name, table, sentence)
                return
            except psycopg.OperationalError:
                self.dbs[part] = None

    def write(self, part: int, messages: list[EntryMessage]) -> list[str]:
        """Write the messages waiting on one partition in ONE transaction, in a handful of
        statements for them all (``store.record_many``), through PostgreSQL going away
        (blocking: run in a thread). One outcome per message: "stored", "repeat", "early"
        or "refused" (its sentence noted in the same transaction). Nothing is acknowledged
        before this returns, that is, before the commit."""
        while True:
            db = self.database(part)
            refusals: list[str] = []
            try:
                with db.transaction():
                    done = self._record(db, messages)
                    refused = Counter((m.table, o.sentence) for m, o
                                      in zip(messages, done, strict=True) if o.kind == "refused")
                    for (table, sentence), times in refused.items():
                        store.note_problem(db, self.config.name, table, sentence, times)
                        refusals.append(sentence)
                outcomes = [o.kind for o in done]
                break
            except psycopg.OperationalError as e:
                say(f"PostgreSQL went away during a write ({str(e).strip()[:120]}); the "
                    "messages are written again once it is back")
                self.dbs[part] = None
        for sentence in refusals:
            with self._lock:
                new = sentence not in self._said
                self._said.add(sentence)
            if new:
                say(f"refused: {sentence}")
        stored = outcomes.count("stored")
        if stored and self.crash_after is not None:
            with self._lock:
                self.commits += stored
                if self.commits >= self.crash_after:
                    say(f"{CRASH_ENV}: killed after {self.commits} entries committed, "
                        f"before acknowledging the last {stored}")
                    os.kill(os.getpid(), signal.SIGKILL)
        return outcomes

    @staticmethod
    def _record(db: psycopg.Connection[Any], messages: list[EntryMessage]
                ) -> list[store.Outcome]:
        """``store.record_many`` of them all; should PostgreSQL refuse a value of one (a NUL
        in a text, a number past its column: ``DataError``), each is written alone in its
        own savepoint and the one it refuses is refused with the reason. Otherwise one bad
        message would roll its whole batch back at every redelivery, and its partition's
        tables would never be stored again."""
        try:
            return store.record_many(db, messages)
        except psycopg.DataError:
            pass
        done = []
        for m in messages:
            try:
                done.extend(store.record_many(db, [m]))
            except psycopg.DataError as e:
                done.append(store.Outcome("refused", (
                    f"table {m.table} sent game {m.game} entry {m.seq} that PostgreSQL will "
                    f"not store ({str(e).strip()[:160]}); it is not stored. A table's "
                    "forwarder does not send this: check what publishes on its subject.")))
        return done

    async def check(self, msg: Any, part: int) -> EntryMessage | None:
        """The message as a table's entry, or None once refused (noted, terminated)."""
        parts = msg.subject.split(".")
        table = parts[2] if len(parts) == 4 else "?"
        try:
            message = parse_entry(msg.subject, msg.data)
        except BadMessage as e:
            await asyncio.to_thread(self.problem, part, table, str(e))
            await msg.term()
            return None
        if message.venue != self.config.name or message.table not in self.config.tables:
            await asyncio.to_thread(
                self.problem, part, table,
                f"table {message.table!r} is not one of this venue's tables "
                f"({', '.join(self.config.tables)}); its entry is not stored. Add it under "
                "[tables] in the venue config (and restart the hub), or fix the table's "
                "[venue] table name.")
            await msg.term()
            return None
        return message

    async def handle(self, nc: Any, msgs: list[Any], part: int) -> None:
        """Messages of one partition, in order: check, write (one transaction), then
        acknowledge each as its outcome says."""
        checked = [(msg, await self.check(msg, part)) for msg in msgs]
        good = [(msg, m) for msg, m in checked if m is not None]
        if not good:
            return
        outcomes = await asyncio.to_thread(self.write, part, [m for _, m in good])
        stored = []
        for (msg, message), outcome in zip(good, outcomes, strict=True):
            if outcome == "refused":
                await msg.term()
            elif outcome == "early":
                await msg.nak(delay=0.5)
            else:
                await msg.ack()
                if outcome == "stored":
                    stored.append(message)
        if stored:
            await nc.publish(ingested_subject(self.config.name), notices(stored))

    async def _worker(self, nc: Any, part: int, queue: asyncio.Queue[Any]) -> None:
        while True:
            msgs = [await queue.get()]
            while not queue.empty() and len(msgs) < QUEUE:
                msgs.append(queue.get_nowait())
            try:
                await self.handle(nc, msgs, part)
            except Exception as e:  # the hub went away mid-ack: it is delivered again
                say(f"messages could not be finished ({type(e).__name__}: {e}); the hub "
                    "delivers them again")

    async def run(self, stop: asyncio.Event) -> None:
        c = self.config
        await asyncio.to_thread(self.database, 0)
        said: list[str] = []
        puller: Puller | None = None

        async def on_error(e: Exception) -> None:  # one line, not nats-py's traceback
            text = f"the hub: {type(e).__name__} {e}".strip()
            if not said or said[-1] != text:
                say(text)
                said.append(text)

        async def on_reconnect() -> None:
            say("reconnected to the hub")
            said.clear()
            if puller is not None:  # the open pull request died with the old connection
                await puller.renew()

        nc = await nats.connect(c.hub_url, user=c.admin_user, password=c.admin_password,
                                name="venue ingester", tls=c.client_tls(),
                                max_reconnect_attempts=-1,
                                reconnect_time_wait=0.5, connect_timeout=2,
                                error_cb=on_error, reconnected_cb=on_reconnect)
        js = nc.jetstream()
        await ensure_streams(js, c.name)
        puller = Puller(nc, js, c.name)
        await puller.ensure_consumer()
        queues: list[asyncio.Queue[Any]] = [asyncio.Queue(QUEUE) for _ in self.dbs]
        workers = [asyncio.create_task(self._worker(nc, i, q)) for i, q in enumerate(queues)]
        say(f"consuming {ENTRY_STREAM} on {c.hub_url} into PostgreSQL "
            f"({len(self.dbs)} partitions)")

        async def deliver(msg: Any) -> None:
            table = msg.subject.split(".")[2] if msg.subject.count(".") == 3 else "?"
            await queues[self.partition(table)].put(msg)

        pulling = asyncio.create_task(puller.run(deliver))
        await stop.wait()
        pulling.cancel()
        for w in workers:
            w.cancel()
        await nc.close()


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
        try:
            await self.js.consumer_info(ENTRY_STREAM, DURABLE)
        except NotFoundError:
            await self.js.add_consumer(ENTRY_STREAM, ConsumerConfig(
                durable_name=DURABLE, filter_subject=f"bidou.{self.venue}.*.entry",
                ack_policy=AckPolicy.EXPLICIT, ack_wait=ACK_WAIT,
                max_ack_pending=MAX_ACK_PENDING))

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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    config = config_for("ingest", args.config)
    if config is None:
        return 2

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for s in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(s, stop.set)
        await Ingester(config).run(stop)

    asyncio.run(main())
    return 0
