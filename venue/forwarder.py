"""The table's forwarder: each committed log entry to the venue hub, never in play's way.

It runs in its own thread with its own asyncio loop (nats-py is asyncio); the controller never
calls it and never waits for it: it is woken by the controller's state subscription and reads
the log (``venue.outbox``) through a connection of its own. Each entry is published to
JetStream with the message id (table, log, game, seq), so that a repeat after a crash or a cut
is dropped by the hub, the moment it may leave: up to ``IN_FLIGHT`` wait for the hub's
acknowledgement at once, and an entry never waits for an earlier one's (a finished game's
dice, a hundred entries or more, leave together). The position in the log moves only past
entries the hub acknowledged. Cut from the hub it keeps trying, and says so in ``status()``
(the referee console shows it) with how many entries wait.
The table's public state follows on the state subject, the latest only, for the venue's wall.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import nats
from nats.aio.client import Client

from firmware.gamelog.log import GameLog
from firmware.settings.venue_settings import VenueSettings
from venue.messages import entry_message, entry_subject, inbox_prefix, state_subject
from venue.outbox import POSITION, log_id, released

HEARTBEAT = 3.0  # seconds between state messages when nothing changes: "online" at the venue
RETRY = 1.0  # seconds between attempts to reach the hub
STATE_EVERY = 0.2  # at most five state messages a second
PUBLISH_TIMEOUT = 3.0
BATCH = 100  # entries read from the log at a time
IN_FLIGHT = 1000  # entries published and not yet acknowledged, at most
#: seconds between two writes of the position into the log, at least (each is a committed
#: transaction, synced to disk): after a crash the table sends again at most this much, which
#: the hub drops by the message ids
POSITION_EVERY = 1.0
DRAIN = 2.0  # seconds a stopping table gives its last entries to reach the hub


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """What the venue's wall shows of a table's public state (already without concealed dice,
    ``firmware.table.views.public_state``): players, chips, pot, whose turn."""
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
        #: the forwarder's own connection to the log (WAL: it reads while the table commits),
        #: so that reading what may leave never waits behind the table's commit and its lock
        self._reader = log if log.path == ":memory:" else GameLog(log.path, exclusive=False)
        self.position = log.position(POSITION)  # the last row the hub acknowledged
        self._kept = self.position  # the last row written into the log as the position
        self._kept_at = 0.0  # when it was written (monotonic)
        self._keeping: asyncio.Future | None = None  # that write, on a worker thread
        self._keep_lock = threading.Lock()
        self._last_state: asyncio.Future | None = None
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
        if self._reader is not self.log:
            self._reader.close()

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
            sentence = (f"Venue {s.venue}: connected to {s.url} as table {s.table} (log "
                        f"{self.log_id}, the id the venue enrolls); {waiting} entries wait "
                        "(dice are sent once their game is over).")
        else:
            sentence = (f"Venue {s.venue}: cannot reach the hub at {s.url} "
                        f"({self.problem or 'not connected yet'}); {waiting} entries wait and "
                        "go as soon as it answers. Play goes on. Check [venue] url, user and "
                        "password (and ca, for a tls:// hub) in the table's config, and that "
                        "the hub is running.")
        return {"connected": self.connected and self.problem is None, "url": s.url,
                "table": s.table, "log_id": self.log_id, "waiting": waiting,
                "problem": self.problem, "sentence": sentence}

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
                tls=s.tls(), inbox_prefix=inbox_prefix(s.venue, s.table),
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
        flight: deque[_Sent] = deque()
        last_state = 0.0
        last_version = None
        try:
            while not self._stop.is_set():
                try:
                    await self._publish(js, flight)
                    self._settle(flight)
                    self._keep_position()
                    state = self._state()
                    now = time.monotonic()
                    if ((state.get("version") != last_version
                         and now - last_state >= STATE_EVERY)
                            or now - last_state >= HEARTBEAT):
                        await self._send_state(js, state)
                        last_state, last_version = now, state.get("version")
                    self.problem = None
                    self.connected = nc.is_connected
                except Exception as e:  # timeout, cut, hub restarting: try again shortly
                    self.problem = _words(e)
                    _abandon(flight)
                    await self._sleep(RETRY)
                    if nc.is_closed:
                        return
                    continue
                wait = STATE_EVERY if state.get("version") != last_version else HEARTBEAT
                if flight:  # look again by the time the oldest is due
                    wait = min(wait, max(0.01, PUBLISH_TIMEOUT - (now - flight[0].at)))
                if self._kept != self.position:  # and by the time the position is to be kept
                    wait = min(wait, max(0.01, POSITION_EVERY - (now - self._kept_at)))
                await self._sleep(wait)
        finally:
            _abandon(flight)
            self._keep_position(now=True)

    async def _publish(self, js: Any, flight: deque[_Sent]) -> None:
        """Publish what may leave past what is already in flight, up to ``IN_FLIGHT``
        unacknowledged, all on the one connection (so the hub stores them in log order).
        Nothing waits here for the hub: an entry committed while others are in flight goes
        at once (waiting for each batch's acknowledgements held it up to a round trip)."""
        s = self.settings
        subject = entry_subject(s.venue, s.table)
        sent = flight[-1].row if flight else self.position
        while len(flight) < IN_FLIGHT:
            batch = released(self._reader, sent, min(BATCH, IN_FLIGHT - len(flight)))
            if not batch:
                return
            now = time.monotonic()
            for out in batch:
                m = entry_message(s.venue, s.table, self.log_id, out.entry, out.game)
                ack = await js.publish_async(subject, m.to_bytes(),
                                             headers={"Nats-Msg-Id": m.id})
                flight.append(_Sent(out.row, now, ack))
            flight[-1].ack.add_done_callback(self._answered)  # acks come in order
            sent = batch[-1].row

    def _answered(self, _ack: asyncio.Future) -> None:
        if self._wake is not None:
            self._wake.set()

    def _settle(self, flight: deque[_Sent]) -> None:
        """Move the position past the acknowledged prefix of ``flight``; raise the first
        failure (a refusal, a publish cancelled as the link dropped, or no answer within
        ``PUBLISH_TIMEOUT``). Should one fail while a later one was stored, the ingester
        holds the later one back until the earlier comes again (``venue.store.record_many``:
        "held")."""
        failure: BaseException | None = None
        acked = None
        while flight and flight[0].ack.done():
            ack = flight[0].ack
            if ack.cancelled():
                failure = ConnectionError("the publish was cancelled: the link dropped")
            elif ack.exception() is not None:
                failure = ack.exception()
            if failure is not None:
                break
            acked = flight.popleft().row
        if (failure is None and flight
                and time.monotonic() - flight[0].at > PUBLISH_TIMEOUT):
            failure = TimeoutError(f"the hub did not acknowledge within "
                                   f"{PUBLISH_TIMEOUT:.0f} s")
        if acked is not None:
            self.position = acked
        if failure is not None:
            raise failure

    def _keep_position(self, now: bool = False) -> None:
        """Write the position into the log if it moved, at most every ``POSITION_EVERY``
        (the loop wakes for it), on a worker thread (one write at a time): the log's lock
        may be held by the table's own commit, and the forwarding loop never waits for it.
        A position written late only means a restart sends a few entries again, which the
        hub drops by their ids. ``now``: here, at the loop's end."""
        if now:
            self._write_position()
        elif (self._kept != self.position
              and time.monotonic() - self._kept_at >= POSITION_EVERY
              and (self._keeping is None or self._keeping.done())):
            self._kept_at = time.monotonic()
            loop = asyncio.get_running_loop()
            self._keeping = loop.run_in_executor(None, self._write_position)

    def _write_position(self) -> None:
        with self._keep_lock:  # the loop's last write and a worker's: never backwards
            row = self.position
            if row <= self._kept:
                return
            try:
                self.log.set_position(POSITION, row)
            except Exception as e:  # the log is closing, or the disk fails: the table says so
                self._warn(f"venue forwarder: cannot keep its position in the log: {e}")
                return
            self._kept = row

    async def _send_state(self, js: Any, state: dict[str, Any]) -> None:
        """The latest state, not waited for: a lost one is replaced by the next (at most
        ``HEARTBEAT`` later), and the entries never wait behind it."""
        s = self.settings
        body = summary(state) | {
            "table": s.table, "venue": s.venue, "log_id": self.log_id,
            "entries": self._reader.count_entries(),
            "waiting": self._reader.count_entries(self.position), "at": time.time(),
        }
        if self._last_state is not None:
            self._last_state.cancel()  # unanswered by now: its place in nats-py's table freed
        self._last_state = await js.publish_async(state_subject(s.venue, s.table),
                                                  json.dumps(body).encode())
        self._last_state.add_done_callback(_quiet)

    async def _sleep(self, seconds: float) -> None:
        assert self._wake is not None
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
        self._wake.clear()


@dataclass
class _Sent:
    """An entry published and not yet settled: its row id, when it went (monotonic), and the
    hub's acknowledgement to come."""

    row: int
    at: float
    ack: asyncio.Future


def _abandon(flight: deque[_Sent]) -> None:
    """Forget what is in flight (its places in nats-py's table freed): it goes again from
    the acknowledged position, and the hub drops what it had stored by the message ids."""
    for sent in flight:
        sent.ack.cancel()
    flight.clear()


def _quiet(future: asyncio.Future) -> None:
    """A state message's answer, read so that a failed one is not reported as never read."""
    if not future.cancelled():
        future.exception()


def _words(e: BaseException) -> str:
    """An exception from nats-py as a few words for the referee."""
    text = str(e).strip() or type(e).__name__
    return text[:200]
