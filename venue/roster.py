"""The pub's copy of the league's roster: kept in the venue store, so it serves through a cut.

The league keeps its players (id, display name, home pub) and answers ``league.roster.get``
with all of them; it says ``league.roster.changed`` when one is added or changed. Both cross
to a pub's hub over its leaf link to the league (``league.cluster``'s accounts share them with
every pub). A pub's roster keeper (``bidou-venue roster``, ``venue.roster_keeper``) asks for
the roster on its own hub, keeps it in the venue store's ``roster`` table, and answers each
table's request on ``bidou.<venue>.<table>.roster`` (a subject the table's own NATS user may
already publish on; the answer goes to its own reply inbox). Cut from the league, the pub's
tables are still answered from the copy.

This module is the roster's data: its table, what a player is, the answer's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NamedTuple

import psycopg

from firmware.gamelog.seating_entry import id_problem

#: where the league answers with its whole roster, and says that it changed
ROSTER_GET = "league.roster.get"
ROSTER_CHANGED = "league.roster.changed"
#: the longest display name the league keeps (as a seat name: firmware.table.seating.MAX_NAME)
MAX_NAME = 40

SCHEMA = """
CREATE TABLE IF NOT EXISTS roster (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, home TEXT NOT NULL,
    synced TIMESTAMPTZ NOT NULL DEFAULT now()
);
"""


class Player(NamedTuple):
    """A rostered player: the league's id, the name shown, the pub they call home."""

    id: str
    name: str
    home: str

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "home": self.home}


def roster_subject(venue: str, table: str) -> str:
    """Where a table asks its hub for the roster."""
    return f"bidou.{venue}.{table}.roster"


def player_problem(data: Any) -> str | None:
    """Why ``data`` is not a rostered player's JSON object (None when it is)."""
    if not isinstance(data, dict) or set(data) != {"id", "name", "home"}:
        return "a player is a JSON object with exactly id, name and home"
    if bad := id_problem(data["id"]):
        return bad
    name, home = data["name"], data["home"]
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME \
            or not name.isprintable():
        return f"a player's name is 1 to {MAX_NAME} printable characters, not {name!r}"
    if not isinstance(home, str) or not home:
        return f"a player's home is a venue's name, not {home!r}"
    return None


def answer(players: Iterable[Player], synced: str | None) -> bytes:
    """The answer to a table's request: every player, and when the copy last heard the
    league (ISO time; None: never since the keeper started, the store's copy is older)."""
    return json.dumps({"players": [p.as_json() for p in players], "synced": synced},
                      ensure_ascii=False).encode()


def parse_answer(body: bytes) -> tuple[list[Player], str | None]:
    """The players and sync time of an answer; ValueError with a sentence for junk."""
    try:
        data = json.loads(body)
        players = data["players"]
        synced = data.get("synced")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        raise ValueError(f"the hub's roster answer is not a roster ({e!r})") from None
    out = []
    for item in players if isinstance(players, list) else [None]:
        problem = player_problem(item)
        if problem:
            raise ValueError(f"the hub's roster answer holds a bad player: {problem}")
        out.append(Player(item["id"], item["name"], item["home"]))
    return out, synced if isinstance(synced, str) else None


def ensure_schema(db: psycopg.Connection[Any]) -> None:
    with db.transaction():
        db.execute(SCHEMA)


def replace_all(db: psycopg.Connection[Any], players: list[Player]) -> None:
    """Make the copy the league's roster as answered, in one transaction: a player the
    league no longer lists is taken off."""
    with db.transaction():
        db.execute("DELETE FROM roster WHERE NOT id = ANY(%s)", ([p.id for p in players],))
        for p in players:
            db.execute("INSERT INTO roster (id, name, home) VALUES (%s, %s, %s) ON CONFLICT "
                       "(id) DO UPDATE SET name = excluded.name, home = excluded.home, "
                       "synced = now()", p)


def read(db: psycopg.Connection[Any]) -> list[Player]:
    """Every player the pub's copy holds, by id."""
    return [Player(*r) for r in db.execute("SELECT id, name, home FROM roster ORDER BY id")]
