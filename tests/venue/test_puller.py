"""The ingester's pull (``venue.puller.Puller``) against a real hub: every message is
delivered across many batches, after its requests expired on a quiet hub, and after the hub
was killed and restarted on its store (the case that stalled nats-py's ``fetch``). The
request's life and heartbeat are shortened here so that expiry happens within the test."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import nats
import pytest
from venue_harness import Venue

from venue import puller as ingester
from venue.hub import ensure_streams

pytestmark = pytest.mark.slow


async def until(check: Any, timeout: float, what: str) -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.1)


def test_the_pull_delivers_everything_through_expiry_and_a_hub_restart(
        venue: Venue, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingester, "PULL_EXPIRES", 1.0)
    monkeypatch.setattr(ingester, "PULL_HEARTBEAT", 0.2)
    monkeypatch.setattr(ingester, "PULL_DEAD", 0.8)
    monkeypatch.setattr(ingester, "PULL_BATCH", 200)  # 450 messages: more than two batches
    venue.start_hub()
    user, password = venue.admin

    async def main() -> None:
        got: list[bytes] = []
        puller: ingester.Puller | None = None

        async def on_reconnect() -> None:
            if puller is not None:
                await puller.renew()

        nc = await nats.connect(venue.url, user=user, password=password,
                                max_reconnect_attempts=-1, reconnect_time_wait=0.3,
                                reconnected_cb=on_reconnect)
        js = nc.jetstream()
        await ensure_streams(js, venue.venue_config())
        puller = ingester.Puller(nc, js, "pub")
        await puller.ensure_consumer()

        async def deliver(msg: Any) -> None:
            got.append(msg.data)
            await msg.ack()

        task = asyncio.create_task(puller.run(deliver))
        try:
            sent = [f"m{i}".encode() for i in range(450)]  # more than two batches
            for m in sent:
                await js.publish("bidou.pub.t1.entry", m)
            await until(lambda: len(got) >= 450, 60, "450 messages")
            await asyncio.sleep(2.5)  # the open requests expire (408) on a quiet hub
            for i in range(5):
                await js.publish("bidou.pub.t1.entry", f"q{i}".encode())
                sent.append(f"q{i}".encode())
            await until(lambda: len(got) >= 455, 30, "the messages after the expiry")
            venue.stop("hub", signal.SIGKILL)
            venue.start_hub()  # the same store and port: the consumer is recovered
            await until(lambda: nc.is_connected, 30, "the reconnection")
            for i in range(5):
                for _ in range(50):  # JetStream may still be recovering the stream
                    try:
                        await js.publish("bidou.pub.t1.entry", f"r{i}".encode(), timeout=1)
                        break
                    except Exception:
                        await asyncio.sleep(0.2)
                sent.append(f"r{i}".encode())
            await until(lambda: set(sent) <= set(got), 60, "the messages after the restart")
        finally:
            task.cancel()
            await nc.close()

    asyncio.run(main())
