"""The venue's ingester: a durable JetStream consumer writing every entry to PostgreSQL.

Each message is checked (``venue.messages.parse_entry``, the configured tables), written
whole in ONE transaction (``venue.store.record_many``) and acknowledged only after the commit.
Tables are spread over a few connections (``PARTITIONS``); one table's entries keep one
connection, in order, and the messages waiting on a connection are written together: one
transaction and a handful of statements for them all, not seven round trips each (one
commit, one disk flush; a burst of a finished game is one commit, not 200). Killed
between the two, the message comes again and is a repeat, a no-op: exactly once in the
store. An entry that arrives before one it follows is kept in PostgreSQL (``held``) and
acknowledged, and stored the moment the missing one comes, so every game is held gap-free
and in order and a table's gap holds back no other table. A message the venue will not take
gets one line here and in the ``problems`` table (the screen shows it) and is terminated;
one that can never be stored (any error while reading or storing it) is also deleted from
the stream. Nothing else stops, and no message is delivered more than ``MAX_DELIVER``
times: one the hub gives up on is read again by its stream sequence (the hub's advisory)
and written like any other. PostgreSQL away: the message waits in hand until it is back.

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
from typing import Any

import nats
import psycopg

from venue import store, table_logs
from venue.hub import ensure_streams
from venue.messages import ENTRY_STREAM, BadMessage, EntryMessage, parse_entry
from venue.part_command import part_command
from venue.puller import DURABLE, MAX_DELIVER, PULL_BATCH, Puller, say
from venue.settings import VenueConfig, add_config_argument, config_for

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
#: the hub's word that it gave up delivering a message (``MAX_DELIVER`` reached)
MAX_DELIVERIES_ADVISORY = f"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{ENTRY_STREAM}.{DURABLE}"
#: fault injection for the tests (docs/venue.md): SIGKILL itself after this many commits,
#: before acknowledging the last one
CRASH_ENV = "BIDOU_VENUE_CRASH_AFTER_COMMIT"


class Exhausted:
    """A message the hub stopped delivering (``max_deliver``), read again by its stream
    sequence: written like a delivered one; there is nothing left to acknowledge."""

    def __init__(self, subject: str, data: bytes, seq: int) -> None:
        self.subject, self.data, self.stream_seq = subject, data, seq

    async def ack(self) -> None:
        pass

    async def term(self) -> None:
        pass


def stream_seq(msg: Any) -> int | None:
    """A delivered message's sequence in the entry stream."""
    seq = getattr(msg, "stream_seq", None)
    if seq is not None:
        return int(seq)
    with contextlib.suppress(Exception):
        return int(msg.metadata.sequence.stream)
    return None


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

    #: the stream a message that can never be stored is deleted from
    STREAM = ENTRY_STREAM

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

    def say_once(self, prefix: str, sentence: str) -> None:
        """One line per kind of refusal or wait, not one per message."""
        with self._lock:
            new = sentence not in self._said
            self._said.add(sentence)
        if new:
            say(f"{prefix}: {sentence}")

    def enroll_configured(self) -> None:
        """The logs the venue config enrolls (``[tables.NAME] log_id``), into the store where
        it has none for that table yet (blocking)."""
        db = self.database(0)
        for table, log_id in self.config.logs.items():
            held = table_logs.enroll(db, self.config.name, table, log_id)
            if held != log_id:
                say(f"table {table}: the config enrolls log {log_id}, the store holds log "
                    f"{held}; the store's stays. To take the config's: bidou-venue "
                    f"accept-log --config FILE {table} --log={log_id}")

    def problem(self, part: int, table: str, sentence: str, venue: str | None = None) -> None:
        """Say a refusal once and keep it for the screen (blocking: run in a thread);
        ``venue``: whose (default this venue)."""
        with self._lock:
            new = sentence not in self._said
            self._said.add(sentence)
        if new:  # one line per kind of refusal, not one per message
            say(f"refused: {sentence}")
        while True:
            try:
                store.note_problem(self.database(part), venue or self.config.name, table,
                                   sentence)
                return
            except psycopg.OperationalError:
                self.dbs[part] = None

    def write(self, part: int, messages: list[EntryMessage],
              released: list[EntryMessage] | None = None) -> list[str]:
        """Write the messages waiting on one partition in ONE transaction, in a handful of
        statements for them all (``store.record_many``), through PostgreSQL going away
        (blocking: run in a thread). One outcome per message: "stored", "repeat", "held",
        "refused" or "poison" (never storable; the last two with their sentence noted in the
        same transaction). Entries stored from ``held`` are appended to ``released``.
        Nothing is acknowledged before this returns, that is, before the commit."""
        while True:
            db = self.database(part)
            out: list[EntryMessage] = []
            try:
                with db.transaction():
                    done = self._record(db, messages, out)
                    refused = Counter((m.table, o.sentence) for m, o
                                      in zip(messages, done, strict=True)
                                      if o.kind in ("refused", "poison"))
                    for (table, sentence), times in refused.items():
                        store.note_problem(db, self.config.name, table, sentence, times)
                outcomes = [o.kind for o in done]
                break
            except psycopg.OperationalError as e:
                say(f"PostgreSQL went away during a write ({str(e).strip()[:120]}); the "
                    "messages are written again once it is back")
                self.dbs[part] = None
        if released is not None:
            released.extend(out)
        for o in done:
            if o.kind in ("refused", "poison"):
                self.say_once("refused", o.sentence)
            elif o.kind == "held":
                self.say_once("waiting", o.sentence)
        stored = outcomes.count("stored") + len(out)
        if stored and self.crash_after is not None:
            with self._lock:
                self.commits += stored
                if self.commits >= self.crash_after:
                    say(f"{CRASH_ENV}: killed after {self.commits} entries committed, "
                        f"before acknowledging the last {stored}")
                    os.kill(os.getpid(), signal.SIGKILL)
        return outcomes

    @staticmethod
    def _record(db: psycopg.Connection[Any], messages: list[EntryMessage],
                released: list[EntryMessage]) -> list[store.Outcome]:
        """``store.record_many`` of them all; should one fail (PostgreSQL refusing a value:
        ``DataError``, or any error of the store's own reading of it), each is written alone
        in its own savepoint and the one that fails is "poison", with the reason. Otherwise
        one bad message would roll its whole batch back at every redelivery, and its
        partition's tables would never be stored again. Only PostgreSQL going away
        (``OperationalError``) is not a message's fault: the batch is written again."""
        try:
            return store.record_many(db, messages, released)
        except psycopg.OperationalError:
            raise
        except Exception:  # noqa: BLE001 -- which message it was is found below
            pass
        done = []
        for m in messages:
            try:
                done.extend(store.record_many(db, [m], released))
            except psycopg.OperationalError:
                raise
            except Exception as e:  # noqa: BLE001 -- any error: this message never stores
                done.append(store.Outcome("poison", (
                    f"table {m.table} sent game {m.game} entry {m.seq} that the venue cannot "
                    f"store ({type(e).__name__}: {' '.join(str(e).split())[:160]}); it is not "
                    "stored and is deleted from the hub. A table's forwarder does not send this: "
                    "check what publishes on its subject.")))
        return done

    async def check(self, js: Any, msg: Any, part: int) -> EntryMessage | None:
        """The message as a table's entry, or None once refused: noted, terminated and,
        since it can never be stored, deleted from the stream (a flood of junk is not kept
        to fill the hub's disk or its table's quota). Any error while reading it refuses it:
        one that escaped here was delivered again forever."""
        parts = msg.subject.split(".")
        table = parts[2] if len(parts) == 4 else "?"
        try:
            message = parse_entry(msg.subject, msg.data)
            if message.venue != self.config.name or message.table not in self.config.tables:
                sentence = (
                    f"table {message.table!r} is not one of this venue's tables "
                    f"({', '.join(self.config.tables)}); its entry is not stored. Add it under "
                    "[tables] in the venue config (and restart the hub), or fix the table's "
                    "[venue] table name.")
            else:
                return message
        except Exception as e:  # noqa: BLE001 -- BadMessage names it; anything else too
            sentence = str(e) if isinstance(e, BadMessage) else (
                f"a message on {msg.subject} could not be read ({type(e).__name__}: "
                f"{str(e)[:160]}); it is not stored. Only bidou-table's forwarder should "
                "publish there.")
        await asyncio.to_thread(self.problem, part, table, sentence)
        await self.drop(js, msg)
        return None

    async def drop(self, js: Any, msg: Any) -> None:
        """Terminate a message that can never be stored and delete it from the stream."""
        await msg.term()
        seq = stream_seq(msg)
        if seq is not None:
            with contextlib.suppress(Exception):  # gone already (a repeat, max_age)
                await js.delete_msg(self.STREAM, seq)

    async def handle(self, nc: Any, msgs: list[Any], part: int) -> None:
        """Messages of one partition, in order: check, write (one transaction), then
        acknowledge each as its outcome says."""
        js = nc.jetstream()
        checked = [(msg, await self.check(js, msg, part)) for msg in msgs]
        good = [(msg, m) for msg, m in checked if m is not None]
        if not good:
            return
        released: list[EntryMessage] = []
        outcomes = await asyncio.to_thread(self.write, part, [m for _, m in good], released)
        stored = []
        for (msg, message), outcome in zip(good, outcomes, strict=True):
            if outcome == "refused":  # kept in the stream: a log to accept, or to look at
                await msg.term()
            elif outcome == "poison":
                await self.drop(js, msg)
            else:  # stored, repeat, or held (kept in PostgreSQL)
                await msg.ack()
                if outcome == "stored":
                    stored.append(message)
        stored += released  # stored after the batch's own, in seq order
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
        await ensure_streams(js, c)
        await asyncio.to_thread(self.enroll_configured)
        puller = Puller(nc, js, c.name)
        await puller.ensure_consumer()
        queues: list[asyncio.Queue[Any]] = [asyncio.Queue(QUEUE) for _ in self.dbs]
        workers = [asyncio.create_task(self._worker(nc, i, q)) for i, q in enumerate(queues)]

        async def deliver(msg: Any) -> None:
            table = msg.subject.split(".")[2] if msg.subject.count(".") == 3 else "?"
            await queues[self.partition(table)].put(msg)

        async def exhausted(advisory: Any) -> None:
            """The hub gave up delivering a message: read it by its sequence, write it."""
            try:
                seq = int(json.loads(advisory.data)["stream_seq"])
                raw = await js.get_msg(ENTRY_STREAM, seq)
            except Exception as e:  # noqa: BLE001 -- deleted meanwhile, or a bad advisory
                say(f"a message the hub stopped delivering could not be read again "
                    f"({type(e).__name__}: {e})")
                return
            say(f"the hub stopped delivering entry message {seq} after {MAX_DELIVER} "
                "tries; it is read again by its sequence and written")
            await deliver(Exhausted(raw.subject, raw.data or b"", seq))

        await nc.subscribe(MAX_DELIVERIES_ADVISORY, cb=exhausted)
        say(f"consuming {ENTRY_STREAM} on {c.hub_url} into PostgreSQL "
            f"({len(self.dbs)} partitions)")

        pulling = asyncio.create_task(puller.run(deliver))
        await stop.wait()
        pulling.cancel()
        for w in workers:
            w.cancel()
        await nc.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


run = part_command(config_for, "ingest", lambda config: Ingester(config).run)
