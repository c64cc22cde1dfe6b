"""The durable log of every game: SQLite in WAL mode with ``synchronous=FULL``.

The table's truth is this log, not memory: every accepted action (and every referee
correction) is one committed transaction BEFORE anyone is shown its effects, and on start the
controller rebuilds the game by replaying the log (``firmware.gamelog.rebuild``). With WAL and
``synchronous=FULL`` a commit has reached the disk when ``commit()`` returns, so a pulled plug
loses at most the press being handled, never a settled chip. The past is never edited: a
correction is a new entry saying who did what and why.

Schema (docs/controller.md):

- ``games(id, variant, players, options, started, finished, status, result)`` -- players and
  options as JSON; status ``playing``, ``over`` or ``abandoned``; result the engine's replay
  state (JSON) once finished.
- ``entries(id, game, seq, kind, text, by, why, at)`` -- seq counts from 1 within a game;
  kind ``action`` (text is the record action, ``Ann throw 6 5 4``), ``undo`` (text is the
  undone action), ``fix-dice`` (``POSITION ACTION``: the action at that position of the game
  record is replaced), ``void-hand`` (text is the number of actions kept), ``new-game``,
  ``seating`` (who plays in each seat for the league, ``firmware.table.roster_seating``).
- ``keys(name, value)`` -- secrets made on first use (``GameLog.key``): ``seat-tokens``, from
  which the seat tokens are derived so they survive a restart.
- ``pictures(game, seq, seat, seen, image)`` -- the camera's picture of a seat's zone (PNG)
  kept with the entry ``(game, seq)`` that corrected its dice, and the values the camera
  should have seen there (``seen``, e.g. ``"2 4 6"``: the top faces, 7 - v of the corrected
  values under a glass table). ``bidou-table calibrate --from-log`` learns the table's dice
  from them.
- ``positions(name, position)`` -- how far a reader of the log has got: ``venue``, the row id
  of the last entry the venue hub acknowledged.

Every table is made when the log opens (a log written when the last three were made on first
use gets them then, with the same columns: the schema version does not change).
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from firmware.gamelog.log_guard import (
    SCHEMA_VERSION,
    LogError,
    LogLock,
    check_database,
    check_file,
    check_files_writable,
    check_writable,
)
from firmware.gamelog.rows import KINDS, Entry, GameRow, LoggedPicture, Picture

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'playing',
    result TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    by TEXT NOT NULL,
    why TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL,
    UNIQUE (game, seq)
);
CREATE TABLE IF NOT EXISTS keys (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pictures (game INTEGER NOT NULL, seq INTEGER NOT NULL,
    seat TEXT NOT NULL, seen TEXT NOT NULL, image BLOB NOT NULL, PRIMARY KEY (game, seq));
CREATE TABLE IF NOT EXISTS positions (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
"""
#: The tables :data:`SCHEMA` makes.
TABLES = frozenset({"games", "entries", "keys", "pictures", "positions"})

class GameLog:
    """The SQLite log. Thread-safe: one connection behind a lock (the controller writes from
    its worker thread, the dashboard reads from its request threads)."""

    def __init__(self, path: str, *, exclusive: bool = True) -> None:
        """Open (or create) the log at ``path``. ``exclusive`` (a table) holds ``PATH.lock``
        so that no second table writes the same log; ``bidou-table export`` reads without it.
        A file that is not a game log, is damaged, or has a schema version this code does not
        know is refused with a :class:`LogError` sentence, before anything is written."""
        self.path = path
        memory = path == ":memory:"
        #: the file existed but was empty (0 bytes) and was made a new log: said at start,
        #: as an empty file is more often a copy gone wrong than a wish for a new log
        self.was_empty = not memory and os.path.isfile(path) and os.path.getsize(path) == 0
        self._file_lock = LogLock(path) if exclusive and not memory else None
        try:
            if not memory:
                check_file(path)
                check_files_writable(path)
            self._db = self._open(path)
        except BaseException:
            if self._file_lock is not None:
                self._file_lock.release()
            raise
        self._lock = threading.Lock()
        self._closed = False

    @staticmethod
    def _open(path: str) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as e:
            raise LogError(
                f"Cannot open the game log {path}: {e}. Check that the directory exists and "
                f"is writable by this user, or pass another file with --db."
            ) from None
        try:
            new = check_database(db, path)
            check_writable(db, path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            made = {name for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if new or version != SCHEMA_VERSION or TABLES - made:
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except LogError:
            db.close()
            raise
        except sqlite3.Error as e:
            db.close()
            raise LogError(
                f"Cannot open the game log {path}: {e}. Check that the directory exists and "
                f"is writable by this user, or pass another file with --db."
            ) from None
        return db

    @contextmanager
    def _held(self) -> Iterator[sqlite3.Connection]:
        """The connection, held by this thread alone; LogError once the log is closed."""
        with self._lock:
            if self._closed:
                raise LogError("The game log is closed; the table is shutting down.")
            yield self._db

    # --- writing -----------------------------------------------------------------------
    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> int | None:
        """Run ``statements`` in one committed transaction; the last row id."""
        with self._held() as db:
            try:
                db.execute("BEGIN IMMEDIATE")
                last = None
                for sql, params in statements:
                    last = db.execute(sql, params).lastrowid
                db.execute("COMMIT")
            except sqlite3.Error as e:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise LogError(
                    f"Cannot write to the game log {self.path}: {e}. Nothing was played; "
                    f"free disk space or check the file, then press again."
                ) from None
            return last

    def start_game(self, variant: str, players: tuple[str, ...], options: dict[str, Any],
                   at: str) -> int:
        """Record a new game being started; its id."""
        row = self._write([_new_game_row(variant, players, options, at)])
        assert row is not None
        return row

    def append(self, game: int, kind: str, text: str, by: str, at: str, why: str = "", *,
               finish: tuple[str, dict[str, Any] | None] | None = None,
               picture: Picture | None = None) -> int:
        """Commit one entry (and, with ``finish=(status, result)``, the game's new status with
        it, in the same transaction: an action that ends a game and the game's end are one
        change, so no crash can leave one without the other). ``status`` ``playing`` (a
        correction took back the end) clears ``finished`` and ``result``. ``picture``: the
        camera's picture the entry corrects, kept with it in the same transaction.

        Returns the entry's seq. The entry is on disk when this returns.
        """
        if kind not in KINDS:
            raise ValueError(f"entry kind must be one of {', '.join(KINDS)}, not {kind!r}")
        statements: list[tuple[str, tuple[Any, ...]]] = []
        if finish is not None:
            status, result = finish
            statements.append(_finishing(game, status, result,
                                         None if status == "playing" else at))
        statements.append(_entry(game, kind, text, by, at, why))
        if picture is not None:
            statements.append((
                "INSERT INTO pictures (game, seq, seat, seen, image) SELECT game, seq, ?, ?, ? "
                "FROM entries WHERE id = last_insert_rowid()",
                (picture.seat, " ".join(map(str, picture.seen)), sqlite3.Binary(picture.image))))
        row = self._write(statements)  # the last statement's row: the entry's, or its picture's
        table = "entries WHERE id" if picture is None else "pictures WHERE rowid"
        (seq,), = self._rows(f"SELECT seq FROM {table} = ?", (row,))
        return int(seq)

    def finish_game(self, game: int, status: str, result: dict[str, Any] | None,
                    at: str | None) -> None:
        """Mark a game finished (``over``), given up (``abandoned``) or, after a correction
        took back its last action, ``playing`` again (``at`` None)."""
        self._write([_finishing(game, status, result, at)])

    def replace_game(self, old: int, text: str, by: str, why: str, at: str, *,
                     abandon: dict[str, Any] | None, variant: str, players: tuple[str, ...],
                     options: dict[str, Any]) -> int:
        """A ``new-game`` correction as ONE transaction: the entry in the ``old`` game, the old
        game marked ``abandoned`` (with ``abandon``, its last state, when it was still being
        played) and the new game's row. Either all of it is on disk or none of it, so a crash
        or a full disk can never leave the old game abandoned with no new one (the old game's
        concealed dice would then be history while it is still played). The new game's id."""
        statements: list[tuple[str, tuple[Any, ...]]] = [_entry(old, "new-game", text, by, at,
                                                                why)]
        if abandon is not None:
            statements.append(_finishing(old, "abandoned", abandon, at))
        statements.append(_new_game_row(variant, players, options, at))
        row = self._write(statements)
        assert row is not None
        return row

    # --- reading -----------------------------------------------------------------------
    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._held() as db:
            return list(db.execute(sql, params))

    def next_seq(self, game: int) -> int:
        (n,), = self._rows("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game = ?", (game,))
        return int(n) + 1

    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        return [self._game(r) for r in self._rows(
            "SELECT id, variant, players, options, started, finished, status, result "
            "FROM games ORDER BY id")]

    def game(self, game_id: int) -> GameRow | None:
        rows = self._rows(
            "SELECT id, variant, players, options, started, finished, status, result "
            "FROM games WHERE id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    def current_game(self) -> GameRow | None:
        """The latest game, whatever its status (None on a fresh log)."""
        rows = self._rows(
            "SELECT id, variant, players, options, started, finished, status, result "
            "FROM games ORDER BY id DESC LIMIT 1")
        return self._game(rows[0]) if rows else None

    def _game(self, r: tuple[Any, ...]) -> GameRow:
        """A games row as a GameRow; LogError with a sentence when its JSON is not JSON (the
        file was written by something else than this table)."""
        try:
            return _game(r)
        except (ValueError, TypeError) as e:
            raise LogError(f"Game {r[0]} in the game log {self.path} has players, options or "
                           f"a result that are not the JSON this table writes ({e}); the file "
                           "was changed by something else. Restore it from a backup, or pass "
                           "another file with --db.") from None

    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries in order."""
        return [Entry(*r) for r in self._rows(
            "SELECT game, seq, kind, text, by, why, at FROM entries WHERE game = ? "
            "ORDER BY seq", (game_id,))]

    def pictures(self) -> list[LoggedPicture]:
        """Every picture kept with a correction, oldest first (none before the first)."""
        rows = self._rows(
            "SELECT p.game, p.seq, e.kind, e.text, p.seat, p.seen, p.image FROM pictures p "
            "JOIN entries e ON e.game = p.game AND e.seq = p.seq ORDER BY p.game, p.seq")
        return [LoggedPicture(game, seq, kind, text,
                              Picture(seat, tuple(int(v) for v in seen.split()), bytes(image)))
                for game, seq, kind, text, seat, seen, image in rows]

    def entries_after(self, after: int, limit: int) -> list[tuple[int, Entry]]:
        """Up to ``limit`` entries whose row id is past ``after``, in commit order, with their
        row ids: the log is the forwarder's outbox (``venue.outbox``)."""
        return [(r[0], Entry(*r[1:])) for r in self._rows(
            "SELECT id, game, seq, kind, text, by, why, at FROM entries WHERE id > ? "
            "ORDER BY id LIMIT ?", (after, limit))]

    def count_entries(self, after: int = 0) -> int:
        """How many entries the log holds past row id ``after``."""
        (n,), = self._rows("SELECT COUNT(*) FROM entries WHERE id > ?", (after,))
        return int(n)

    def position(self, name: str) -> int:
        """The row id a reader of the log named ``name`` has finished with (0 at first): the
        forwarder's last entry the hub acknowledged, kept here so a restart goes on from it."""
        rows = self._rows("SELECT position FROM positions WHERE name = ?", (name,))
        return int(rows[0][0]) if rows else 0

    def set_position(self, name: str, position: int) -> None:
        """Remember ``position`` for ``name`` (one small committed transaction)."""
        with self._held() as db:
            db.execute("INSERT INTO positions (name, position) VALUES (?, ?) "
                       "ON CONFLICT (name) DO UPDATE SET position = excluded.position",
                       (name, position))

    def key(self, name: str, make: Callable[[], str] | None = None) -> str:
        """A secret kept in the log under ``name``, made on first use (by ``make``, else
        ``secrets.token_urlsafe``): the seat tokens are derived from one, so an open seat page
        still works after the table restarts on the same log, and the referee PIN of a table
        whose config sets none is one."""
        with self._held() as db:
            db.execute("INSERT OR IGNORE INTO keys (name, value) VALUES (?, ?)",
                       (name, make() if make is not None else secrets.token_urlsafe(32)))
            row = db.execute("SELECT value FROM keys WHERE name = ?", (name,)).fetchone()
            return str(row[0])

    def set_key(self, name: str, value: str) -> None:
        """Keep ``value`` as the secret ``name`` from now on (the referee changed the PIN)."""
        with self._held() as db:
            db.execute("INSERT INTO keys (name, value) VALUES (?, ?) ON CONFLICT (name) "
                       "DO UPDATE SET value = excluded.value", (name, value))

    def close(self) -> None:
        """Checkpoint and close; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self._db.close()
                if self._file_lock is not None:
                    self._file_lock.release()


Statement = tuple[str, tuple[Any, ...]]


def _entry(game: int, kind: str, text: str, by: str, at: str, why: str) -> Statement:
    """The INSERT of one entry, numbered after the game's last."""
    return ("INSERT INTO entries (game, seq, kind, text, by, why, at) VALUES "
            "(?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game = ?), ?, ?, ?, ?, ?)",
            (game, game, kind, text, by, why, at))


def _finishing(game: int, status: str, result: dict[str, Any] | None,
               at: str | None) -> Statement:
    """The UPDATE giving a game its status (``over``/``abandoned``, or ``playing`` again)."""
    return ("UPDATE games SET finished = ?, status = ?, result = ? WHERE id = ?",
            (at, status, None if result is None else json.dumps(result, sort_keys=True), game))


def _new_game_row(variant: str, players: tuple[str, ...], options: dict[str, Any],
                  at: str) -> Statement:
    """The INSERT of a new game being played."""
    return ("INSERT INTO games (variant, players, options, started) VALUES (?, ?, ?, ?)",
            (variant, json.dumps(list(players)), json.dumps(options, sort_keys=True), at))


def _game(r: tuple[Any, ...]) -> GameRow:
    players, options = json.loads(r[2]), json.loads(r[3])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError(f"players {r[2][:60]!r} is not a list of names")
    if not isinstance(options, dict):
        raise ValueError(f"options {r[3][:60]!r} is not an object")
    return GameRow(
        id=r[0], variant=r[1], players=tuple(players), options=options,
        started=r[4], finished=r[5], status=r[6],
        result=None if r[7] is None else json.loads(r[7]),
    )
