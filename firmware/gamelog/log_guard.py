"""What the game log checks before it is trusted: one table per log, a file that is a game log,
a schema version it knows, pages that are not damaged.

Two tables writing one log interleave their games (the next start then cannot replay it, and
under ``Restart=on-failure`` that is a restart loop), so a table holds an exclusive ``flock`` on
``LOG.lock`` for as long as the log is open; the kernel drops it when the process dies, so a
pulled plug never leaves a stale lock. A damaged file must stop the table with a sentence at
start, not answer 500 in the middle of a game.
"""

from __future__ import annotations

import fcntl
import os
import pwd
import sqlite3
import stat
from datetime import UTC, datetime

#: The schema this code writes (``PRAGMA user_version``); 0 is a log written before versions.
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"
COLUMNS = {
    "games": ("id", "variant", "players", "options", "started", "finished", "status", "result"),
    "entries": ("id", "game", "seq", "kind", "text", "by", "why", "at"),
}


class LogError(Exception):
    """The log file cannot be opened or written; the message says which file and what to do."""


class LogLock:
    """An exclusive lock on ``PATH.lock`` naming the process that holds it; released by
    :meth:`release` or by the process's end."""

    def __init__(self, path: str) -> None:
        self.path = f"{path}.lock"
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise LogError(f"Cannot create the lock file {self.path}: {e.strerror}. Check that "
                           "the directory exists and is writable by this user, or pass another "
                           "file with --db.") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(self._fd) or "another process"
            os.close(self._fd)
            self._fd = None
            raise LogError(f"The game log {path} is in use by another table ({holder}); one "
                           "log serves one table. Stop that table first, or pass another file "
                           "with --db.") from None
        started = datetime.now(UTC).isoformat(timespec="seconds")
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"process {os.getpid()}, started {started}".encode(), 0)

    def release(self) -> None:
        """Let another table open the log; idempotent."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""


def check_file(path: str) -> None:
    """Refuse a file that exists but is not an SQLite database (a truncated copy, a config
    passed as --db, ...) before SQLite is asked to open it."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as e:
        raise LogError(f"Cannot read the game log {path}: {e.strerror}. Check its permissions, "
                       "or pass another file with --db.") from None
    if not head or head == SQLITE_HEADER:  # a new (empty) file, or a database
        return
    if SQLITE_HEADER.startswith(head):
        raise LogError(f"{path} is truncated: it is shorter than an SQLite header. Restore "
                       "the log from a backup, or pass another file with --db.")
    raise LogError(f"{path} is not an SQLite game log (it does not start as a database "
                   "does); it may be damaged or another kind of file. Restore the log from a "
                   "backup, or pass another file with --db.")


def check_database(db: sqlite3.Connection, path: str) -> bool:
    """Check that ``db`` is a healthy game log of a schema this code knows; True when it is
    a new, empty database (the schema is then to be created)."""
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {name: tuple(col[1] for col in db.execute(f"PRAGMA table_info({name})"))
                  for (name,) in db.execute(
                      "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise LogError(_damaged(path, str(e))) from None
    if problems != ["ok"]:
        raise LogError(_damaged(path, problems[0]))
    if version not in (0, SCHEMA_VERSION):
        raise LogError(f"The game log {path} has schema version {version}; this bidou-table "
                       f"knows version {SCHEMA_VERSION} only. Run the bidou-table that wrote "
                       "it, or pass another file with --db.")
    if not tables:
        return True
    for name, columns in COLUMNS.items():
        if tables.get(name) != columns:
            raise LogError(f"{path} is an SQLite database but not a bidou-table game log (its "
                           f"tables are {', '.join(sorted(tables))}; a game log has games and "
                           "entries with their columns). Pass another file with --db.")
    return False


def check_files_writable(path: str) -> None:
    """Refuse a log whose file, -wal or -shm this user cannot write, before SQLite opens it.

    Opening a WAL log it may only read, SQLite makes the -wal and -shm beside it with the log's
    own permissions and leaves them there: after a refused start, the owner's ``chmod u+w``
    of the log would not be enough, and the next start would be refused for the -shm (as
    ``make pi-check`` shows, where the tests run as an ordinary user). :func:`check_writable`
    still catches what permissions do not show (a read-only mount)."""
    for candidate in (path, f"{path}-wal", f"{path}-shm"):
        if os.path.exists(candidate) and not os.access(candidate, os.W_OK):
            raise LogError(read_only(path))


def check_writable(db: sqlite3.Connection, path: str) -> None:
    """Refuse a log this user may read but not write, before the table starts: SQLite opens
    such a file read-only without a word, and the first write (a seat key, the first press)
    would fail with a traceback. The write tried here is rolled back."""
    try:
        db.execute("BEGIN IMMEDIATE")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute(f"PRAGMA user_version = {version}")
    except sqlite3.OperationalError as e:
        if "readonly" not in str(e) and getattr(e, "sqlite_errorname", "") != "SQLITE_READONLY":
            raise
        raise LogError(read_only(path)) from None
    finally:
        if db.in_transaction:
            db.execute("ROLLBACK")


def read_only(path: str) -> str:
    """The sentence for a log this user cannot write: the file at fault (the log, its -wal or
    -shm beside it, or the directory that must hold them), its permission and its owner."""
    user = _user(os.geteuid())
    directory = os.path.dirname(os.path.abspath(path))
    for candidate in (path, f"{path}-wal", f"{path}-shm", directory):
        if os.path.exists(candidate) and not os.access(candidate, os.W_OK):
            info = os.stat(candidate)
            what = "the directory" if candidate == directory else "the file"
            owner = _user(info.st_uid)
            fix = (f"Give its owner write permission (chmod u+w {candidate})" if owner == user
                   else f"Give it to {user} (sudo chown {user} {candidate})")
            return (f"The game log {path} cannot be written by this user ({user}): {what} "
                    f"{candidate} has permissions {stat.filemode(info.st_mode)[1:]} "
                    f"({stat.S_IMODE(info.st_mode):04o}, owner {owner}). {fix}, or pass "
                    "another file with --db.")
    return (f"The game log {path} cannot be written by this user ({user}) (SQLite opened it "
            "read-only: a read-only mount?). Make it writable, or pass another file with "
            "--db.")


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _damaged(path: str, detail: str) -> str:
    return (f"The game log {path} is damaged (SQLite says: {detail}). Nothing was changed; "
            "restore it from a backup, or move it aside and start with a new --db file "
            "(bidou-table export may still save its finished games).")
