"""The screen's live feed from the hub: each table's latest public state and each entry as
soon as the hub has stored it, handed to the open event streams.

One thread with its own asyncio loop (nats-py is asyncio) reads three things:

- the ``BIDOU_LIVE`` stream: the latest state per table, so a screen started late shows
  every table at once;
- the ``BIDOU_ENTRIES`` stream itself, through an ordered consumer of its own (the store's
  durable consumer stays the ingester's): an entry is shown the moment the hub has it, not
  after the ingester's PostgreSQL commit. Only what the ingester would store is shown: the
  same check (``parse_entry``: format, concealed dice), a configured table, the log id the
  store holds for that table, and the next seq of its game (the store keeps each game
  gap-free and in order; anything else waits for the store);
- the ingester's ``venue.<venue>.ingested`` notices: an entry is stored. One the live path
  held back is shown from here, and the store's log ids and seqs are learnt from here.

So what the screen shows live is a prefix of what the store will hold, and the pages that
read PostgreSQL agree with it once the ingester catches up. A restarted screen starts from
PostgreSQL (the seqs held per game, the log ids, each table's newest entry). Listeners are
bounded queues: a slow browser loses old events, never holds the feed back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from typing import Any

import nats
import psycopg
from nats.js.api import ConsumerConfig, DeliverPolicy

from venue.ingester import ingested_subject
from venue.messages import ENTRY_STREAM, LIVE_STREAM, BadMessage, parse_entry
from venue.settings import VenueConfig

ONLINE = 10.0  # seconds: a table heard from within this is online (it beats every 3 s)
LISTENER_QUEUE = 1024
#: the event a stream gets when the screen stops: it ends there (never sent to a browser)
CLOSING = "closing"
SEED_RETRY = 2.0  # seconds between attempts to read the store's position at start
Events = list[tuple[str, dict[str, Any]]]  # (kind, body) in order: one item of a stream's queue


class Live:
    """The latest state and entry of every table, and the streams listening for changes."""

    def __init__(self, config: VenueConfig) -> None:
        self.config = config
        self.states: dict[str, dict[str, Any]] = {}
        self.heard: dict[str, float] = {}  # table -> wall-clock time of its last state
        self.last_entry: dict[str, dict[str, Any]] = {}  # table -> its newest entry shown
        #: table -> {"game": its game id, "seats": {seat: the last throw it showed}}
        self.last_shown: dict[str, dict[str, Any]] = {}
        self.connected = False
        self._shown: dict[tuple[str, int], int] = {}  # (table, game) -> last seq shown
        self._log_ids: dict[str, str] = {}  # table -> the log id the store accepted
        self._seeded = False
        self._listeners: set[queue.Queue[Events]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None  # the hub's, while it runs
        self._waiting: Events = []  # told on the hub's thread, not yet handed on
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="venue-live", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop following the hub, and end every event stream now (:data:`CLOSING`): a
        stream otherwise holds a server thread until its life runs out, and the screen's
        stop waited for it (more than 30 s with three browsers open)."""
        self._stop.set()
        self._tell(CLOSING, {})
        self._thread.join(timeout=5)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def online(self, table: str) -> bool:
        heard = self.heard.get(table)
        return heard is not None and time.time() - heard < ONLINE

    def listen(self) -> queue.Queue[Events]:
        """A stream's queue: each item is a list of (kind, body) events, in order."""
        q: queue.Queue[Events] = queue.Queue(LISTENER_QUEUE)
        with self._lock:
            self._listeners.add(q)
        return q

    def unlisten(self, q: queue.Queue[Events]) -> None:
        with self._lock:
            self._listeners.discard(q)

    def _tell(self, kind: str, data: dict[str, Any]) -> None:
        """Hand an event to every stream. On the hub's thread, the events of one turn of
        its loop (a notice's entries, the hub's entries read in one go) go together, once
        the turn ends: a put wakes a stream's thread, and that wake, one per event, was 15 %
        of the screen's samples (py-spy --gil, 1500 entries/s). Elsewhere (stopping, the
        tests), at once."""
        loop = self._loop
        if loop is not None and threading.get_ident() == self._thread.ident:
            if not self._waiting:
                loop.call_soon(self._flush)
            self._waiting.append((kind, data))
            return
        self._put([(kind, data)])

    def _flush(self) -> None:
        events, self._waiting = self._waiting, []
        if events:
            self._put(events)

    def _put(self, events: Events) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for q in listeners:
            with contextlib.suppress(queue.Full):
                q.put_nowait(events)

    # --- what is shown: a gap-free prefix of every game, as the store keeps it ---------------
    def seed(self) -> None:
        """Start from the store: the seqs it holds per game, each table's log id and newest
        entry (blocking: run in a thread). Raises while PostgreSQL is away."""
        c = self.config
        with psycopg.connect(c.reader_dsn, connect_timeout=3) as db:
            held = db.execute("SELECT table_name, game, MAX(seq) FROM events WHERE venue = %s "
                              "GROUP BY table_name, game", (c.name,)).fetchall()
            logs = db.execute("SELECT table_name, log_id FROM tables WHERE venue = %s",
                              (c.name,)).fetchall()
            newest = db.execute(
                "SELECT DISTINCT ON (table_name) table_name, game, seq, kind, text, at "
                "FROM events WHERE venue = %s ORDER BY table_name, game DESC, seq DESC",
                (c.name,)).fetchall()
        for table, game, seq in held:
            key = (table, game)
            self._shown[key] = max(self._shown.get(key, 0), seq)
        for table, log_id in logs:
            self._log_ids[table] = log_id
        for table, game, seq, kind, text, at in newest:
            self._note_last(table, {"game": game, "seq": seq, "kind": kind, "text": text,
                                    "at": at, "stored": True})
        self._seeded = True

    def _note_last(self, table: str, entry: dict[str, Any]) -> None:
        last = self.last_entry.get(table)
        if last is None or (entry["game"], entry["seq"]) >= (last["game"], last["seq"]):
            self.last_entry[table] = entry

    def note_shown(self, table: str, state: dict[str, Any]) -> None:
        """Keep each seat's last shown throw of the table's game (the wall shows it after the
        showdown is over). Only dice the table's public state exposes: never concealed ones."""
        game = state.get("game_id")
        kept = self.last_shown.get(table)
        if kept is None or kept["game"] != game:
            kept = self.last_shown[table] = {"game": game, "seats": {}}
        for seat in state.get("seats") or []:
            if not isinstance(seat, dict):
                continue
            dice = seat.get("exposed")
            if isinstance(seat.get("name"), str) and isinstance(dice, list) and len(dice) == 3 \
                    and all(isinstance(v, int) and 1 <= v <= 6 for v in dice):
                kept["seats"][seat["name"]] = sorted(dice, reverse=True)

    def _show(self, table: str, entry: dict[str, Any]) -> bool:
        """Show ``entry`` if it is its game's next seq; False when it is not (a repeat, or
        one before it has not been shown: the store will say when it has it)."""
        key = (table, entry["game"])
        if entry["seq"] != self._shown.get(key, 0) + 1:
            return False
        self._shown[key] = entry["seq"]
        self._note_last(table, entry)
        self._tell("entry", {"table": table} | entry)
        return True

    def on_hub_entry(self, subject: str, data: bytes, hub_at: float | None = None) -> None:
        """An entry the hub has stored (at ``hub_at``, its stream time): shown now if the
        store will take it as it is."""
        if not self._seeded:
            return  # the store's seqs are not known yet: its notices show the entries
        try:
            m = parse_entry(subject, data)
        except BadMessage:
            return  # the ingester refuses it and says so; never shown
        if (m.venue != self.config.name or m.table not in self.config.tables
                or self._log_ids.get(m.table) != m.log_id):
            return  # unknown table or log (a replaced log is refused): the store decides
        self._show(m.table, {"game": m.game, "seq": m.seq, "kind": m.kind, "text": m.text,
                             "at": m.at, "status": m.status, "stored": False,
                             "hub_at": hub_at})

    def on_stored(self, notice: dict[str, Any]) -> None:
        """The ingester committed an entry: shown now if the live path held it back."""
        table = notice.get("table")
        game, seq = notice.get("game"), notice.get("seq")
        if not isinstance(table, str) or not isinstance(game, int) or not isinstance(seq, int):
            return
        log_id = notice.get("log_id")
        if isinstance(log_id, str):
            if self._log_ids.get(table) not in (None, log_id):
                # the operator accepted the table's new log (bidou-venue accept-log): its
                # game ids start again, so what was shown of the old log says nothing
                for key in [k for k in self._shown if k[0] == table]:
                    del self._shown[key]
                self.last_entry.pop(table, None)
            self._log_ids[table] = log_id
        entry = {k: notice.get(k) for k in ("game", "seq", "kind", "text", "at", "status")}
        key = (table, game)
        if seq > self._shown.get(key, 0):  # the store is in order: nothing is skipped
            self._shown[key] = seq
            self._note_last(table, entry | {"stored": True})
            self._tell("entry", {"table": table} | entry | {"stored": True})
        else:
            last = self.last_entry.get(table)
            if last is not None and (last["game"], last["seq"]) == (game, seq):
                last["stored"] = True
        self._tell("stored", {"table": table, "game": game, "seq": seq})

    # --- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                asyncio.run(self._main())
            except Exception:  # the hub is away: the wall says the tables are silent
                self.connected = False
                self._stop.wait(1.0)

    async def _main(self) -> None:
        c = self.config
        self._loop = asyncio.get_running_loop()
        self._flush()  # anything told as a previous loop ended
        reconnected = asyncio.Event()

        async def on_error(e: Exception) -> None:  # the wall shows silence; no traceback
            self.connected = False

        async def on_reconnect() -> None:
            reconnected.set()

        nc = await nats.connect(c.hub_url, user=c.admin_user, password=c.admin_password,
                                name="venue screen", tls=c.client_tls(),
                                max_reconnect_attempts=-1,
                                reconnect_time_wait=0.5, connect_timeout=2,
                                error_cb=on_error, reconnected_cb=on_reconnect)
        self.connected = True

        async def on_state(msg: Any) -> None:
            try:
                state = json.loads(msg.data)
                table = msg.subject.split(".")[2]
            except (ValueError, IndexError):
                return
            if table not in c.tables:
                return  # a name the venue does not know: the ingester reports its entries
            self.states[table] = state
            self.note_shown(table, state)
            at = state.get("at")  # when the table sent it: a kept state is not a heartbeat
            self.heard[table] = min(time.time(), at) if isinstance(at, (int, float)) \
                else time.time()
            self._tell("state", {"table": table, "state": state})

        async def on_stored(msg: Any) -> None:
            with contextlib.suppress(ValueError, AttributeError, TypeError):
                stored = json.loads(msg.data)  # one transaction's entries, in order
                for notice in stored if isinstance(stored, list) else [stored]:
                    self.on_stored(notice)

        js = nc.jetstream()
        await nc.subscribe(ingested_subject(c.name), cb=on_stored)
        await js.subscribe(f"bidou.{c.name}.*.state", stream=LIVE_STREAM, cb=on_state,
                           ordered_consumer=True,
                           deliver_policy=DeliverPolicy.LAST_PER_SUBJECT)
        follow = asyncio.create_task(self._follow_entries(nc, reconnected))
        try:
            while not self._stop.is_set() and not nc.is_closed:
                self.connected = nc.is_connected
                if not self._seeded:
                    with contextlib.suppress(Exception):  # PostgreSQL away: again soon
                        await asyncio.to_thread(self.seed)
                await asyncio.sleep(0.5 if self._seeded else SEED_RETRY)
        finally:
            follow.cancel()
            await nc.close()

    async def _follow_entries(self, nc: Any, reconnected: asyncio.Event) -> None:
        """The entries stream from the first new one, through an ordered consumer made
        again after every reconnection (a restarted hub has lost it) from the stream
        sequence after the last one seen: nothing is skipped, a repeat is not shown."""
        js = nc.jetstream()
        last_seq = 0
        sub: Any = None

        async def on_entry(msg: Any) -> None:
            nonlocal last_seq
            hub_at = None
            with contextlib.suppress(Exception):
                meta = msg.metadata
                last_seq = max(last_seq, meta.sequence.stream)
                hub_at = meta.timestamp.timestamp()
            self.on_hub_entry(msg.subject, msg.data, hub_at)

        while True:
            try:
                start = (ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                        opt_start_seq=last_seq + 1) if last_seq
                         else ConsumerConfig(deliver_policy=DeliverPolicy.NEW))
                sub = await js.subscribe(f"bidou.{self.config.name}.*.entry",
                                         stream=ENTRY_STREAM, cb=on_entry,
                                         ordered_consumer=True, config=start)
                await reconnected.wait()
            except asyncio.CancelledError:
                raise
            except Exception:  # JetStream not ready yet after a hub restart: again shortly
                await asyncio.sleep(1.0)
            reconnected.clear()
            if sub is not None:
                with contextlib.suppress(Exception):
                    await sub.unsubscribe()
                sub = None
