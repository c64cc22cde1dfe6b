"""A league store filled for the screen's tests: real games (random legal play through the
engine) stored as a venue stores them (``venue.store.record_many``), their seating entries,
and the league's derived rows (``seatings``, ``ratings``, ``rating_history``) written as the
league's ingester writes them. The screen only reads these tables, so the tests fill them
straight, with numbers they can check on the pages."""

from __future__ import annotations

import random
from typing import Any

import psycopg

from engine.autoplay import random_action
from engine.variants import new_game
from firmware.gamelog.log import Entry, GameRow
from firmware.gamelog.seating_entry import seating_text
from league import store
from venue import store as venue_store
from venue import table_logs
from venue.messages import entry_message

T0 = "2026-12-05T0{h}:{m:02d}:00+00:00"


def at(minute: int) -> str:
    return T0.format(h=minute // 60, m=minute % 60)


def store_game(db: psycopg.Connection[Any], venue: str, table: str, game_id: int,
               players: tuple[str, ...], ids: dict[str, str | None], start: int,
               rng: random.Random, *, finish: bool = True) -> dict[str, Any]:
    """One two-hand game (seated, then played to its end unless ``finish`` is False), its
    entries stored in the venue's tables; its result."""
    table_logs.enroll(db, venue, table, f"log-{venue}-{table}")
    game = new_game("two-hand", list(players))
    entries = [Entry(game_id, 1, "seating", seating_text(players, ids), "referee", "",
                     at(start))]
    while not game.over and (finish or len(entries) < 6):
        action = random_action(game, rng)
        game.apply(action)
        entries.append(Entry(game_id, len(entries) + 1, "action", str(action), "panel", "",
                             at(start + 1)))
    over = game.over
    row = GameRow(game_id, "two-hand", players, {}, at(start), at(start + 2) if over else None,
                  "over" if over else "playing", game.state() if over else None)
    messages = [entry_message(venue, f"{table}", f"log-{venue}-{table}", e, row)
                for e in entries]
    venue_store.record_many(db, messages)
    with db.transaction():
        for seat, pid in ids.items():
            db.execute("INSERT INTO seatings VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO "
                       "NOTHING", (venue, table, game_id, seat, pid))
    return {"row": row, "state": game.state() if over else None}


def rate(db: psycopg.Connection[Any], venue: str, table: str, game_id: int, finished: str,
         places: dict[str, int], lost: str, ratings: dict[str, float]) -> None:
    """The rating rows of one rated game: each player's new ordinal (``ratings``)."""
    with db.transaction():
        for pid, ordinal in ratings.items():
            db.execute("INSERT INTO rating_history VALUES (%s, %s, %s, %s, %s, %s, %s, %s, "
                       "%s, %s)", (pid, finished, venue, table, game_id, places[pid],
                                   pid == lost, ordinal + 3 * 8.0, 8.0, ordinal))
            db.execute(
                "INSERT INTO ratings VALUES (%s, %s, 8.0, %s, 1, %s, %s) ON CONFLICT "
                "(player_id) DO UPDATE SET mu = excluded.mu, ordinal = excluded.ordinal, "
                "games = ratings.games + 1, lost = ratings.lost + excluded.lost, "
                "last_played = excluded.last_played",
                (pid, ordinal + 24.0, ordinal, int(pid == lost), finished))


def fill(dsn: str, *, extra_players: int = 0) -> dict[str, Any]:
    """Two pubs (north, south), roster p0001-p0006, four finished rated games, one game
    still played, and p0001 seated at two tables at once; ``extra_players`` more rated
    players (p1xxxx) with no games, for paging. What was written, for the checks."""
    rng = random.Random(7)
    db = store.connect(dsn)
    names = {"p0001": "Ann Dupont", "p0002": "Bob Martin", "p0003": "Cid Leroy",
             "p0004": "Dee Moreau", "p0005": "Eve Petit", "p0006": "Fox Girard"}
    with db.transaction():
        for i, (pid, name) in enumerate(names.items()):
            db.execute("INSERT INTO roster (player_id, name, home_venue) VALUES (%s, %s, %s)",
                       (pid, name, "north" if i < 3 else "south"))
    done = []
    plan = [("north", "t1", 1, ("Ann", "Bob"), {"Ann": "p0001", "Bob": "p0002"}, 0),
            ("north", "t2", 1, ("Cid", "Guy"), {"Cid": "p0003", "Guy": None}, 10),
            ("south", "t1", 1, ("Dee", "Eve"), {"Dee": "p0004", "Eve": "p0005"}, 20),
            ("north", "t1", 2, ("Ann", "Fox"), {"Ann": "p0001", "Fox": "p0006"}, 30)]
    ordinal = {p: 0.0 for p in names}
    for venue, table, gid, players, ids, start in plan:
        g = store_game(db, venue, table, gid, players, ids, start, rng)
        loser = g["state"]["loser"]
        rated = {ids[p]: p for p in players if ids[p]}
        if len(rated) == 2:
            for pid, seat in rated.items():
                ordinal[pid] += -1.5 if seat == loser else 2.0
            loser_id = ids[loser]
            rate(db, venue, table, gid, g["row"].finished,
                 {pid: 2 if pid == loser_id else 1 for pid in rated}, loser_id or "",
                 {pid: ordinal[pid] for pid in rated})
        done.append((venue, table, gid, g))
    # p0001 sits at south t2 while north t1 game 2 is still on: a double seat
    live = store_game(db, "south", "t2", 1, ("Ann", "Hal"), {"Ann": "p0001", "Hal": None},
                      31, rng, finish=False)
    with db.transaction():
        for i in range(extra_players):
            pid = f"p1{i:05d}"
            db.execute("INSERT INTO roster VALUES (%s, %s, 'south') ON CONFLICT DO NOTHING",
                       (pid, f"Player {i}"))
            db.execute("INSERT INTO ratings VALUES (%s, %s, 8.0, %s, 3, 1, %s)",
                       (pid, 24.0 - i / 1000, -i / 1000, at(40)))
    venue_store.note_problem(db, "south", "t9", "table t9 of pub south is refused: a "
                             "planted refusal for the screen's test")
    db.close()
    return {"games": done, "live": live, "ordinal": ordinal, "names": names}
