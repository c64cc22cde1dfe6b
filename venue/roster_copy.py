"""The table's copy of the league's roster, for the referee console's seating.

A table with ``[venue]`` asks its hub for the roster (``venue.roster``: the pub's roster
keeper answers on ``bidou.<venue>.<table>.roster``) when it starts and every ``REFRESH``
seconds, on a NATS connection of its own (the forwarder's stays for entries), and keeps the
last answer in a file beside its log (``<log>.roster.json``), so a table cut from its hub, or
restarted during the cut, still offers the players it last heard of. It never makes play
wait: it runs in its own thread, and the console reads what it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from datetime import UTC, datetime
from typing import Any

import nats

from firmware.settings.venue_settings import VenueSettings
from venue.messages import inbox_prefix
from venue.roster import Player, parse_answer, roster_subject

REFRESH = 30.0
RETRY = 2.0
ASK_TIMEOUT = 3.0


def copy_path(log_path: str) -> str | None:
    """Where the table keeps its copy (None for a log in memory: kept in memory only)."""
    return None if log_path == ":memory:" else f"{log_path}.roster.json"


class RosterCopy:
    """The roster as this table last heard it from its hub."""

    def __init__(self, settings: VenueSettings, path: str | None) -> None:
        self.settings = settings
        self.path = path
        self.players: list[Player] = []
        self.fetched: str | None = None  # when the hub last answered (ISO)
        self.synced: str | None = None  # when the hub's copy last heard the league
        self.problem: str | None = None
        self._stop = threading.Event()
        self._asked = threading.Event()
        self._thread: threading.Thread | None = None
        self._read_file()

    def _read_file(self) -> None:
        if self.path is None or not os.path.exists(self.path):
            return
        try:
            with open(self.path, "rb") as f:
                body = f.read()
            data = json.loads(body)
            self.players, self.synced = parse_answer(body)
            self.fetched = data.get("fetched") if isinstance(data.get("fetched"), str) else None
        except (OSError, ValueError) as e:
            self.problem = (f"the roster copy {self.path} cannot be read ({e}); it is made "
                            "again at the next answer of the hub")

    def _write_file(self, body: bytes) -> None:
        if self.path is None:
            return
        data = json.loads(body) | {"fetched": self.fetched}
        tmp = f"{self.path}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
        os.replace(tmp, self.path)

    def find(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.id == player_id), None)

    def status(self) -> dict[str, Any]:
        """What the console says of the copy: how many players, when heard, any problem."""
        return {"players": len(self.players), "fetched": self.fetched, "synced": self.synced,
                "problem": self.problem}

    # --- the thread --------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="roster-copy", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def ask_now(self) -> None:
        """Ask the hub again at once (the console's "Fetch the roster")."""
        self._asked.set()

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        s = self.settings
        nc = None
        while not self._stop.is_set():
            try:
                if nc is None or nc.is_closed:
                    nc = await nats.connect(
                        s.url, user=s.user, password=s.password or None,
                        name=f"table {s.table} roster", tls=s.tls(),
                        inbox_prefix=inbox_prefix(s.venue, s.table), connect_timeout=2,
                        max_reconnect_attempts=-1, reconnect_time_wait=RETRY)
                reply = await nc.request(roster_subject(s.venue, s.table), b"",
                                         timeout=ASK_TIMEOUT)
                players, synced = parse_answer(reply.data)
                self.players, self.synced = players, synced
                self.fetched = datetime.now(UTC).isoformat(timespec="seconds")
                self.problem = None
                self._write_file(reply.data)
                wait = REFRESH
            except Exception as e:  # no hub, no keeper, a bad answer: keep the last copy
                self.problem = (f"cannot fetch the roster from the hub at {s.url} ({e!r}); "
                                f"the copy of {self.fetched or 'never'} serves")
                wait = RETRY
            await asyncio.to_thread(self._wait, wait)
        if nc is not None:
            with contextlib.suppress(Exception):
                await nc.close()

    def _wait(self, seconds: float) -> None:
        self._asked.wait(seconds)
        self._asked.clear()
