"""A durable pull consumer of any stream, read as the venue's ingester reads its hub
(``venue.puller.Puller``: requests kept open, renewed on silence and on reconnection), for
the league's two readers: a pub's uplink (its hub's ``BIDOU_ENTRIES``) and each league
ingester (its pubs' part of ``LEAGUE_ENTRIES``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from nats.js.api import AckPolicy, ConsumerConfig

from venue.puller import MAX_ACK_PENDING, Puller, say


class NamedPuller(Puller):
    """``Puller`` on the stream and durable consumer given, filtered to ``subjects``."""

    def __init__(self, nc: Any, js: Any, stream: str, durable: str, subjects: list[str], *,
                 ack_wait: float = 10.0) -> None:
        super().__init__(nc, js, "")
        self.stream, self.durable, self.subjects = stream, durable, sorted(subjects)
        self.ack_wait = ack_wait
        self.next_subject = f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{durable}"

    async def ensure_consumer(self) -> None:
        """The durable consumer, made or brought up to date (its subjects follow the
        config: a pub added to this part); the server keeps what was acknowledged."""
        config = ConsumerConfig(
            durable_name=self.durable, ack_policy=AckPolicy.EXPLICIT, ack_wait=self.ack_wait,
            max_ack_pending=MAX_ACK_PENDING, max_deliver=-1,
            **({"filter_subject": self.subjects[0]} if len(self.subjects) == 1
               else {"filter_subjects": self.subjects}))
        known = False  # the server answered that the consumer is there
        try:
            info = await self.js.consumer_info(self.stream, self.durable)
            known = True
            have = info.config.filter_subjects or [info.config.filter_subject]
            if sorted(s for s in have if s) == self.subjects:
                return
        except Exception:  # noqa: BLE001 -- not there yet, or no answer: made below
            pass
        try:  # made, or updated (the server's create takes an editable change)
            await self.js.add_consumer(self.stream, config)
        except Exception as e:
            if not known:  # perhaps no consumer at all: the caller tries again
                raise
            say(f"consumer {self.durable} keeps its older settings ({type(e).__name__}: {e})")


async def until_done(what: str, step: Callable[[], Awaitable[Any]]) -> None:
    """``step`` of the start, again every second until it is done, each failure a line: a
    cluster just started has no JetStream leader for a while, and answers with timeouts or
    "not available" until it has; a step that never succeeds says why, once a second."""
    tries = 0
    while True:
        try:
            await step()
            if tries:
                say(f"{what}: ready after {tries + 1} tries")
            return
        except Exception as e:  # noqa: BLE001 -- said, and tried again
            tries += 1
            say(f"{what}: not ready ({type(e).__name__}: {str(e)[:200]}); again in 1 s")
            await asyncio.sleep(1)
