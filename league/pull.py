"""A durable pull consumer of any stream, read as the venue's ingester reads its hub
(``venue.puller.Puller``: requests kept open, renewed on silence and on reconnection), for
the league's two readers: a pub's uplink (its hub's ``BIDOU_ENTRIES``) and each league
ingester (its pubs' part of ``LEAGUE_ENTRIES``)."""

from __future__ import annotations

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
        try:
            info = await self.js.consumer_info(self.stream, self.durable)
            have = info.config.filter_subjects or [info.config.filter_subject]
            if sorted(s for s in have if s) == self.subjects:
                return
        except Exception:  # noqa: BLE001 -- not there yet: made below
            pass
        try:  # made, or updated (the server's create takes an editable change)
            await self.js.add_consumer(self.stream, config)
        except Exception as e:  # noqa: BLE001 -- said; the pull goes on with the old one
            say(f"consumer {self.durable} keeps its older settings ({type(e).__name__}: {e})")
