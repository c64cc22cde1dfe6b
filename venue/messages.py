"""The one message format between a table and its venue (and, later, a venue and its league).

A message is one committed row of a table's SQLite log, as JSON, with the game it belongs to
(so the venue can rebuild its games, players and results from the messages alone) and the
table's log id (a random id kept in the log: a replaced log is then seen, not merged). The
subject names venue and table, so the hub's per-user permissions decide who may say what:

- ``bidou.<venue>.<table>.entry``  one log entry (the stream ``BIDOU_ENTRIES``, kept);
- ``bidou.<venue>.<table>.state``  the table's public state, its latest only (``BIDOU_LIVE``).

``parse_entry`` is the ingester's check of every message: anything else is refused with a
sentence, and a message that would show a concealed die is refused too (``leaks``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any

from firmware.gamelog.concealment import SHOWN_STATUSES, entry_dice
from firmware.gamelog.rows import KINDS, Entry, GameRow

FORMAT = "bidou-venue/1"
ENTRY_STREAM = "BIDOU_ENTRIES"
LIVE_STREAM = "BIDOU_LIVE"
GAME_STATUSES = ("playing", "over", "abandoned")
MAX_ID = 2**31 - 1  # game ids and seqs are PostgreSQL INTEGERs in the store


def entry_subject(venue: str, table: str) -> str:
    return f"bidou.{venue}.{table}.entry"


def state_subject(venue: str, table: str) -> str:
    return f"bidou.{venue}.{table}.state"


def inbox_prefix(venue: str, table: str) -> str:
    """The only reply subjects a table may subscribe to (``<prefix>.>``, the hub's
    permission): its forwarder's JetStream acknowledgements. With the default ``_INBOX``,
    one table could read every other client's answers."""
    return f"_INBOX.{venue}.{table}"


def msg_id(table: str, log_id: str, game: int, seq: int) -> str:
    """JetStream's deduplication id: (table, game, seq), qualified by the log, so that a
    replaced log's game 1 is refused with a sentence instead of dropped as a repeat."""
    return f"{table}:{log_id}:{game}:{seq}"


class BadMessage(ValueError):
    """A message the venue will not store: its sentence says what is wrong and what to do."""


@dataclass(frozen=True)
class EntryMessage:
    """One table log entry, as it travels and as the venue keeps it."""

    venue: str
    table: str
    log_id: str
    game: int
    seq: int
    kind: str
    text: str
    by: str
    why: str
    at: str
    variant: str
    players: tuple[str, ...]
    options: dict[str, Any]
    started: str
    status: str
    finished: str | None
    result: dict[str, Any] | None

    @property
    def id(self) -> str:
        return msg_id(self.table, self.log_id, self.game, self.seq)

    def to_bytes(self) -> bytes:
        # the fields read directly: ``asdict`` deep-copies every dict for a dump that only
        # reads them (42 -> 9 us a message, timeit, a finished game's message)
        data = {f: getattr(self, f) for f in _NAMES}
        data["players"] = list(self.players)
        data["format"] = FORMAT
        return json.dumps(data, sort_keys=True).encode()


_NAMES = tuple(f.name for f in fields(EntryMessage))


def entry_message(venue: str, table: str, log_id: str, entry: Entry,
                  game: GameRow) -> EntryMessage:
    """The message for ``entry`` of ``game`` (the game row as it stands when sent)."""
    return EntryMessage(venue, table, log_id, entry.game, entry.seq, entry.kind, entry.text,
                        entry.by, entry.why, entry.at, game.variant, game.players,
                        dict(game.options), game.started, game.status, game.finished,
                        game.result)


_FIELDS: dict[str, type | tuple[type, ...]] = {
    "venue": str, "table": str, "log_id": str, "game": int, "seq": int, "kind": str,
    "text": str, "by": str, "why": str, "at": str, "variant": str, "players": list,
    "options": dict, "started": str, "status": str, "finished": (str, type(None)),
    "result": (dict, type(None)),
}


def parse_entry(subject: str, payload: bytes) -> EntryMessage:
    """Check a message from the hub and build it; BadMessage names what is wrong."""
    parts = subject.split(".")
    if len(parts) != 4 or parts[0] != "bidou" or parts[3] != "entry":
        raise BadMessage(f"subject {subject!r} is not bidou.VENUE.TABLE.entry; only a table's "
                         "forwarder publishes there")
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as e:
        raise BadMessage(f"the message on {subject} is not JSON ({e}); it is not a table's "
                         "entry. Only bidou-table's forwarder should publish there.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadMessage(f"the message on {subject} is not a {FORMAT} entry (no "
                         f"\"format\": \"{FORMAT}\"); it is not a table's entry")
    for key, kind in _FIELDS.items():
        value = data.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadMessage(f"the entry on {subject} has {key} = {value!r}; a table's entry "
                             f"has {key} of type {getattr(kind, '__name__', kind)}")
    _check_game(subject, data)
    message = EntryMessage(**{k: data[k] for k in _FIELDS} | {"players": tuple(data["players"])})
    if (message.venue, message.table) != (parts[1], parts[2]):
        raise BadMessage(f"the entry on {subject} says it is from table {message.table!r} of "
                         f"venue {message.venue!r}; a table publishes only under its own name")
    if not (1 <= message.game <= MAX_ID and 1 <= message.seq <= MAX_ID):
        raise BadMessage(f"the entry on {subject} has game {message.game}, seq "
                         f"{message.seq}; both count from 1 (to {MAX_ID})")
    if _may_hold_nul(payload) and _has_nul(data):
        raise BadMessage(f"the entry on {subject} holds a NUL character; PostgreSQL cannot "
                         "store it, and a table's log has none")
    if message.kind not in KINDS:
        raise BadMessage(f"the entry on {subject} has kind {message.kind!r}; the kinds are "
                         f"{', '.join(KINDS)}")
    if message.status not in GAME_STATUSES:
        raise BadMessage(f"the entry on {subject} has game status {message.status!r}; it is "
                         f"one of {', '.join(GAME_STATUSES)}")
    leak = leaks(message)
    if leak:
        raise BadMessage(leak)
    return message


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_game(subject: str, data: dict[str, Any]) -> None:
    """The game row's inner values, as the store reads them: players are names, a result's
    chips are whole numbers per name, its winner and loser names (or absent). A forged
    ``{"chips": {"Ann": "lots"}}`` or ``players: [1, {"x": 2}]`` failed later, while
    storing, and was delivered again forever."""
    players = data["players"]
    if not all(isinstance(p, str) and p for p in players) or len(set(players)) != len(players):
        raise BadMessage(f"the entry on {subject} has players = {players!r}; a table's "
                         "entry has a list of distinct, non-empty player names")
    result = data["result"]
    if result is None:
        return
    chips = result.get("chips", {})
    if not isinstance(chips, dict) or not all(
            isinstance(k, str) and _is_int(v) for k, v in chips.items()):
        raise BadMessage(f"the entry on {subject} has result chips = {chips!r}; a table's "
                         "entry has whole numbers of chips per player name")
    for key in ("winner", "loser"):
        if not isinstance(result.get(key), (str, type(None))):
            raise BadMessage(f"the entry on {subject} has result {key} = "
                             f"{result.get(key)!r}; a table's entry names a player there")


def _may_hold_nul(payload: bytes) -> bool:
    """False only when the decoded JSON cannot hold a NUL: UTF-8 bytes (no NUL byte, so not
    UTF-16 or UTF-32) without the escape ``\\u0000``, the one way UTF-8 JSON spells it. Most
    messages are settled by these two byte searches (in C), where walking every key and
    string of the decoded message in Python was a twentieth of the ingester's CPU."""
    if not isinstance(payload, (bytes, bytearray)):
        return True
    return b"\x00" in payload or b"\\u0000" in payload


def _has_nul(value: Any) -> bool:
    """Whether a NUL character is anywhere in the decoded JSON (keys and strings)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def leaks(message: EntryMessage) -> str | None:
    """A sentence when ``message`` shows dice the table has not shown yet (its game is still
    being played) in any text of its entry (``text``, ``why``, ``by``...: the table's own
    ``entry_dice``, so both sides judge alike), else None: the venue's own check of the
    table's promise."""
    if message.status in SHOWN_STATUSES:
        return None
    dice = entry_dice(Entry(message.game, message.seq, message.kind, message.text,
                            message.by, message.why, message.at))
    if not dice:
        return None
    return (f"table {message.table} sent game {message.game} entry {message.seq} with "
            f"concealed dice ({', '.join(dice)}) while the game is still played; refused and "
            "not shown. Update that table's bidou-table: it must hold dice until the game ends.")
