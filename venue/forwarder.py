"""The table's forwarder: each committed log entry to the venue hub, never in play's way.

It runs in its own thread with its own asyncio loop (nats-py is asyncio); the controller never
calls it and never waits for it: it is woken by the controller's state subscription and reads
the log (``venue.outbox``). Each entry is published to JetStream (a batch in flight at once)
with the message id (table, log, game, seq) so that a repeat after a crash or a cut is
dropped by the hub, and the position in the log moves only past entries the hub
acknowledged. Cut from the hub it keeps trying, and says so in ``status()`` (the referee
console shows it) with how many entries wait.
The table's public state follows on the state subject, the latest only, for the venue's wall.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import nats
from nats.aio.client import Client

from firmware.log import GameLog
from firmware.venue_settings import VenueSettings
from venue.messages import entry_message, entry_subject, state_subject
from venue.outbox import POSITION, log_id, released

HEARTBEAT = 3.0  # seconds between state messages when nothing changes: "online" at the venue
RETRY = 1.0  # seconds between attempts to reach the hub
STATE_EVERY = 0.2  # at most five state messages a second
PUBLISH_TIMEOUT = 3.0
DRAIN = 2.0  # seconds a stopping table gives its last entries to reach the hub


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """What the venue's wall shows of a table's public state (already without concealed dice,
    ``firmware.views.public_state``): players, chips, pot, whose turn."""
    return {
        "game_id": state.get("game_id"), "status": state.get("status"),
        "variant": state.get("variant"), "to_act": state.get("to_act"),
        "expects": state.get("expects"), "pot": state.get("pot"),
        "centre": state.get("centre"), "hand": state.get("hand"),
        "seats": [{k: s.get(k) for k in ("name", "chips", "stake", "in_hand", "to_act", "out",
                                         "exposed")} for s in state.get("seats", [])],
        "version": state.get("version"),
    }


class Forwarder:
    """Publishes ``log``'s entries as ``settings`` says; ``state()`` gives the public state.
    ``subscribe`` (the controller's) wakes it on every change."""

    def __init__(self, log: GameLog, settings: VenueSettings, *, state: Callable[[], dict],
                 subscribe: Callable[[], Any] | None = None,
                 warn: Callable[[str], None] = lambda text: None) -> None:
        self.log = log
        self.settings = settings
        self._state = state
        self._subscribe = subscribe
        self._warn = warn
        self.log_id = log_id(log)
        self.position = log.position(POSITION)
        self.connected = False
        self.problem: str | None = None
        self._refused: str | None = None  # the hub's refusal of the credentials, until a success
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._threads: list[threading.Thread] = []

    # --- the table's side ------------------------------------------------------------------
    def start(self) -> None:
        """Start the forwarding thread (and the one that wakes it); returns at once."""
        t = threading.Thread(target=self._run, name="venue-forwarder", daemon=True)
        t.start()
        self._threads.append(t)
        if self._subscribe is not None:
            w = threading.Thread(target=self._watch, name="venue-wake", daemon=True)
            w.start()
            self._threads.append(w)

    def stop(self) -> None:
        """Stop both threads (idempotent), after up to ``DRAIN`` seconds for what may leave
        to go (the table's last entries, as it shuts down); the rest goes next start."""
        end = time.monotonic() + DRAIN
        while self._threads and self.connected and time.monotonic() < end:
            try:
                if not released(self.log, self.position, 1):
                    break
            except Exception:  # the log is closing: nothing more to send now
                break
            self.wake()
            time.sleep(0.05)
        self._stop.set()
        self.wake()
        for t in self._threads:  # a publish in flight is sent again next start: no long wait
            t.join(timeout=3)
        self._threads.clear()

    def wake(self) -> None:
        """Something was committed: look at the log now rather than at the next heartbeat."""
        loop, event = self._loop, self._wake
        if loop is not None and event is not None:
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                loop.call_soon_threadsafe(event.set)

    def status(self) -> dict[str, Any]:
        """For the referee console: reachable or not, why not, and how many entries wait."""
        try:
            waiting = self.log.count_entries(self.position)
        except Exception:  # the log is closing: nothing to say any more
            waiting = 0
        s = self.settings
        if self.connected and self.problem is None:
            sentence = (f"Venue {s.venue}: connected to {s.url} as table {s.table}; "
                        f"{waiting} entries wait (dice are sent once their game is over).")
        else:
            sentence = (f"Venue {s.venue}: cannot reach the hub at {s.url} "
                        f"({self.problem or 'not connected yet'}); {waiting} entries wait and "
                        "go as soon as it answers. Play goes on. Check [venue] url, user and "
                        "password (and ca, for a tls:// hub) in the table's config, and that "
                        "the hub is running.")
        return {"connected": self.connected and self.problem is None, "url": s.url,
                "table": s.table, "waiting": waiting, "problem": self.problem,
                "sentence": sentence}

    def _watch(self) -> None:
        assert self._subscribe is not None
        sub = self._subscribe()
        try:
            while not self._stop.is_set():
                if sub.get(timeout=1.0) is not None:
                    self.wake()
        finally:
            sub.close()

    # --- the forwarding thread -------------------------------------------------------------
    def _run(self) -> None:
        """Forward until stopped. Whatever escapes the loop (a request cancelled as the
        link drops is a BaseException) is said once and the loop starts again: the
        forwarder must never go quiet while the table plays."""
        while not self._stop.is_set():
            try:
                asyncio.run(self._main())
            except BaseException as e:  # never the table's problem: it plays on
                self.problem = f"the forwarder restarted after {type(e).__name__}: {e}"
                self.connected = False
                self._warn(f"venue forwarder: {self.problem}")
                self._stop.wait(RETRY)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        while not self._stop.is_set():
            nc = await self._connect()
            if nc is None:
                await self._sleep(RETRY)
                continue
            try:
                await self._forward(nc)
            finally:
                with contextlib.suppress(Exception):
                    await nc.close()
                self.connected = False

    async def _connect(self) -> Client | None:
        s = self.settings

        async def on_error(e: Exception) -> None:
            self._failed(e)

        async def on_disconnect() -> None:
            self.connected = False
            self.problem = "the link to the hub is down"

        async def on_reconnect() -> None:
            self.connected = True
            self.problem = None
            self.wake()

        try:
            nc = await nats.connect(
                s.url, user=s.user, password=s.password or None, name=f"table {s.table}",
                tls=s.tls(),
                connect_timeout=2, reconnect_time_wait=RETRY, max_reconnect_attempts=-1,
                allow_reconnect=True, error_cb=on_error, disconnected_cb=on_disconnect,
                reconnected_cb=on_reconnect)
        except Exception as e:  # refused, wrong password, no route: wait and try again
            self.connected = False
            self._failed(e)
            return None
        self.connected = True
        self.problem = None
        self._refused = None
        return nc

    def _failed(self, e: BaseException) -> None:
        """The problem the referee reads. A hub that refuses the credentials sends its
        'Authorization Violation' and closes; a later try may see only the closed socket
        ('connection reset by peer'), which would hide the one thing to fix. So a refusal is
        kept as the problem until a connection succeeds."""
        words = _words(e)
        if "authorization" in words.lower():
            self._refused = words
        self.problem = self._refused or words

    async def _forward(self, nc: Client) -> None:
        js = nc.jetstream()
        last_state = 0.0
        last_version = None
        while not self._stop.is_set():
            try:
                while await self._send_batch(js):
                    pass
                state = self._state()
                now = time.monotonic()
                if ((state.get("version") != last_version and now - last_state >= STATE_EVERY)
                        or now - last_state >= HEARTBEAT):
                    await self._send_state(js, state)
                    last_state, last_version = now, state.get("version")
                self.problem = None
                self.connected = nc.is_connected
            except Exception as e:  # timeout, cut, hub restarting: try again shortly
                self.problem = _words(e)
                await self._sleep(RETRY)
                if nc.is_closed:
                    return
                continue
            await self._sleep(STATE_EVERY if state.get("version") != last_version
                              else HEARTBEAT)

    async def _send_batch(self, js: Any) -> bool:
        """Publish what may leave, the batch in flight at once on the one connection (so
        the hub stores them in log order) and the position moved past the acknowledged
        prefix only; True when a whole batch went (there may be more). Should one fail while
        a later one was stored, the ingester holds the later one back until the earlier
        comes again (``venue.store.record``: "early")."""
        batch = released(self.log, self.position)
        if not batch:
            return False
        s = self.settings
        subject = entry_subject(s.venue, s.table)
        messages = [entry_message(s.venue, s.table, self.log_id, out.entry, out.game)
                    for out in batch]
        # publish_async: one reply subscription and a future per message, where publish
        # made a request (a task and a timer) each; the batch waits once, for them all
        futures = [await js.publish_async(subject, m.to_bytes(), headers={"Nats-Msg-Id": m.id})
                   for m in messages]
        await asyncio.wait(futures, timeout=PUBLISH_TIMEOUT)
        sent_to = self.position
        failure: BaseException | None = None
        for out, future in zip(batch, futures, strict=True):
            if not future.done():
                failure = TimeoutError(f"the hub did not acknowledge within "
                                       f"{PUBLISH_TIMEOUT:.0f} s")
            elif future.cancelled():  # the link dropped
                failure = ConnectionError("the publish was cancelled: the link dropped")
            elif future.exception() is not None:
                failure = future.exception()
            if failure is not None:
                break
            sent_to = out.row
        for future in futures:  # no answer by now: its place in nats-py's table freed
            future.cancel()
        if sent_to != self.position:
            self.log.set_position(POSITION, sent_to)
            self.position = sent_to
        if failure is not None:
            raise failure
        return len(batch) == 100

    async def _send_state(self, js: Any, state: dict[str, Any]) -> None:
        s = self.settings
        body = summary(state) | {
            "table": s.table, "venue": s.venue, "log_id": self.log_id,
            "entries": self.log.count_entries(),
            "waiting": self.log.count_entries(self.position), "at": time.time(),
        }
        await js.publish(state_subject(s.venue, s.table), json.dumps(body).encode(),
                         timeout=PUBLISH_TIMEOUT)

    async def _sleep(self, seconds: float) -> None:
        assert self._wake is not None
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
        self._wake.clear()


def _words(e: BaseException) -> str:
    """An exception from nats-py as a few words for the referee."""
    text = str(e).strip() or type(e).__name__
    return text[:200]
