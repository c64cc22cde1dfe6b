"""The table's SQLite log read as the forwarder's outbox: what may leave, in commit order.

Nothing is copied out of the log: the forwarder reads entries past its position (the last
row id the hub acknowledged, kept in the log itself, ``GameLog.position``). It takes them in
row-id order and stops at the first one that may not leave yet (``firmware.table.views.
entry_is_public``: an entry with dice in any of its texts, while its game is played), so
the venue always holds a gap-free prefix of every table's log, in order, and never a concealed die.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from firmware.gamelog.concealment import entry_is_public
from firmware.gamelog.log import GameLog
from firmware.gamelog.rows import Entry, GameRow

POSITION = "venue"  # the name of the forwarder's position in the log's positions table


@dataclass(frozen=True)
class Outgoing:
    """One entry that may leave now: its row id (the position once acknowledged), the entry
    and its game as the log holds it now."""

    row: int
    entry: Entry
    game: GameRow


def released(log: GameLog, after: int, limit: int = 100) -> list[Outgoing]:
    """The entries past row ``after`` that may leave now, oldest first, up to ``limit``.
    The games are read after their entries, so a game's status is at least as new as the
    entries read (an entry that ended a game is sent with the game over)."""
    rows = log.entries_after(after, limit)
    games: dict[int, GameRow | None] = {}
    out: list[Outgoing] = []
    for row, entry in rows:
        if entry.game not in games:
            games[entry.game] = log.game(entry.game)
        game = games[entry.game]
        if game is None or not entry_is_public(entry, game.status):
            break
        out.append(Outgoing(row, entry, game))
    return out


def log_id(log: GameLog) -> str:
    """This log's id: random, made once and kept in the log (``GameLog.key``), so a table
    whose log is replaced (game ids starting again) is told apart by the venue. Hexadecimal:
    an operator types it after ``accept-log --log``, where an id starting with "-" (one
    ``token_urlsafe`` in 64) was taken for an option; a log's id made before is kept."""
    return log.key("venue-log-id", make=lambda: secrets.token_hex(16))[:16]


def log_id_of(path: str) -> str:
    """The log id of the table's log file at ``path`` (the log made now if new), for the
    venue config to enroll (``[tables.NAME] log_id``) before the table first runs."""
    log = GameLog(path)
    try:
        return log_id(log)
    finally:
        log.close()
