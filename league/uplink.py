"""A pub's uplink: every entry of its hub's ``BIDOU_ENTRIES``, sent on to the league, once.

It runs at the pub, beside the hub (``bidou-league uplink --config venue.toml``), and talks
only to that hub, as the venue's own user: the hub is a leaf node of the league
(``league.pubhub``), so a JetStream publish on ``uplink.<table>.entry`` is answered by the
league's stream, which the pub's account gives it as ``league.<pub>.<table>.entry``. It reads
the hub's entries through its own durable consumer (``league-uplink``), publishes each
unchanged (the venue's bytes, the venue's message id, so the league's stream drops a repeat),
and acknowledges it on the hub only once the league has acknowledged it (stored on two of its
three servers). Only the entries of each table's log the venue enrolled go (``tables`` in the
venue's store): a forged log, or a new SD card's log the venue has not accepted, is refused by
the venue and never reaches the league, so the league's first log of a table is always the
venue's. Cut from the league, it sends nothing, keeps its place in the hub (which keeps a week)
and says how many wait; on reconnection it goes on where it stopped. Exactly once: at least
once by the hub's consumer, at most once by the league's message ids and the league store's
keys.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import nats
import psycopg

from league.cluster import uplink_subject
from league.pull import NamedPuller, until_done
from venue.messages import ENTRY_STREAM
from venue.part_command import part_command
from venue.settings import VenueConfig, add_config_argument, config_for

DURABLE = "league-uplink"
#: seconds the league has to acknowledge a publish; then the entry goes again
PUBLISH_TIMEOUT = 5.0
#: entries published at once, waiting for the league's acknowledgement
IN_FLIGHT = 500


def say(text: str) -> None:
    """One line of the uplink's log."""
    print(f"{time.strftime('%H:%M:%S')} uplink: {text}", flush=True)


def message_id(msg: Any) -> str:
    """The venue's message id (``table:log_id:game:seq``) of a hub message: its header, or,
    for a message without one, read from its body (or, for junk, its place in the hub)."""
    if msg.headers and msg.headers.get("Nats-Msg-Id"):
        return str(msg.headers["Nats-Msg-Id"])
    try:
        d = json.loads(msg.data)
        return f"{d['table']}:{d['log_id']}:{d['game']}:{d['seq']}"
    except Exception:  # noqa: BLE001 -- not an entry: the league refuses it with a sentence
        return f"{msg.subject}:{msg.metadata.sequence.stream}"


class Uplink:
    """One pub's hub to the league."""

    def __init__(self, config: VenueConfig, hub_url: str | None = None) -> None:
        self.config = config
        self.hub_url = hub_url or config.hub_url
        self.sent = 0
        self.skipped = 0
        self.problem = ""
        self.db: psycopg.Connection[Any] | None = None

    def enrolled(self) -> dict[str, str] | None:
        """Each table's log the venue enrolled (blocking); None while PostgreSQL is away."""
        try:
            if self.db is None or self.db.closed or self.db.broken:
                self.db = psycopg.connect(self.config.dsn, connect_timeout=5, autocommit=True)
            return dict(self.db.execute("SELECT table_name, log_id FROM tables WHERE venue = %s",
                                        (self.config.name,)).fetchall())
        except psycopg.Error:
            self.db = None
            return None

    async def sendable(self, msgs: list[Any]) -> list[Any]:
        """The messages of logs the venue enrolled; the others are acknowledged and not sent
        (the venue refused them), with a line; while the venue's store cannot be read,
        none (they come again)."""
        logs = await asyncio.to_thread(self.enrolled)
        if logs is None:
            for m in msgs:
                await m.nak(delay=1)
            say("the venue's store cannot be read; entries wait in the hub")
            await asyncio.sleep(1)
            return []
        out = []
        for m in msgs:
            try:
                d = json.loads(m.data)
                table, log_id = d["table"], d["log_id"]
            except Exception:  # noqa: BLE001 -- junk: the league refuses it with a sentence
                out.append(m)
                continue
            if logs.get(table) == log_id:
                out.append(m)
                continue
            await m.ack()
            self.skipped += 1
            text = (f"table {table}'s entries from log {log_id} are not sent to the league: "
                    f"the venue holds log {logs.get(table)} for it (see the venue's screen)")
            if text != self.problem:
                say(text)
                self.problem = text
        return out

    async def forward(self, js: Any, msgs: list[Any]) -> None:
        """Publish a batch to the league and acknowledge on the hub what the league took;
        the rest is delivered again by the hub (``nak``), in order."""
        msgs = await self.sendable(msgs)
        results = await asyncio.gather(*(
            js.publish(uplink_subject(m.subject.split(".")[2]), m.data,
                       headers={"Nats-Msg-Id": message_id(m)}, timeout=PUBLISH_TIMEOUT)
            for m in msgs), return_exceptions=True)
        failed = 0
        for m, r in zip(msgs, results, strict=True):
            if isinstance(r, BaseException):
                failed += 1
                await m.nak(delay=1)
            else:
                await m.ack()
                self.sent += 1
        if failed:
            first = next(r for r in results if isinstance(r, BaseException))
            text = (f"the league did not take {failed} entries ({type(first).__name__}: "
                    f"{first}); they wait in the hub and go again. Play goes on. Check the "
                    "hub's league link (its nats.log says whether the leaf node is connected).")
            if text != self.problem:
                say(text)
            self.problem = text
        elif self.problem.startswith("the league did not"):
            say("the league takes entries again")
            self.problem = ""

    async def run(self, stop: asyncio.Event) -> None:
        c = self.config
        nc = await nats.connect(self.hub_url, user=c.admin_user, password=c.admin_password,
                                name="league uplink", tls=c.client_tls(),
                                max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                                connect_timeout=2)
        js = nc.jetstream()
        puller = NamedPuller(nc, js, ENTRY_STREAM, DURABLE, [f"bidou.{c.name}.*.entry"],
                             ack_wait=PUBLISH_TIMEOUT * 3)
        await until_done("the hub's consumer of the pub's entries", puller.ensure_consumer)
        queue: asyncio.Queue[Any] = asyncio.Queue(IN_FLIGHT)

        async def deliver(msg: Any) -> None:
            await queue.put(msg)

        async def send() -> None:
            while True:
                msgs = [await queue.get()]
                while not queue.empty() and len(msgs) < IN_FLIGHT:
                    msgs.append(queue.get_nowait())
                try:
                    await self.forward(js, msgs)
                except Exception as e:  # noqa: BLE001 -- the hub went away: it delivers again
                    say(f"entries could not be finished ({type(e).__name__}: {e}); the hub "
                        "delivers them again")
                if self.problem:
                    await asyncio.sleep(1)

        say(f"sending pub {c.name}'s entries from {self.hub_url} to the league")
        tasks = [asyncio.create_task(puller.run(deliver)), asyncio.create_task(send())]
        await stop.wait()
        for t in tasks:
            t.cancel()
        await nc.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


run = part_command(config_for, "uplink", lambda config: Uplink(config).run)
