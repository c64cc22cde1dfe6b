"""What the league's screen reads from the league's store (``league.store``'s tables).

Each serving thread keeps one connection (the screen's own role, which only reads) and opens
it again after any failure: a page of the standings is one indexed query, and opening a
connection per request cost more than the query (scram-sha-256 on every connect).
PostgreSQL away: the page answers 503 with a sentence, and the next request connects again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg

from league import store

T = TypeVar("T")
#: players on one page of the standings (and the API's default ``limit``)
PAGE = 100
MAX_LIMIT = 1000


class Reader:
    """The screen's reads, one connection per serving thread."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._local = threading.local()

    def _db(self) -> psycopg.Connection[Any]:
        db = getattr(self._local, "db", None)
        if db is None or db.closed:
            db = psycopg.connect(self.dsn, autocommit=True, connect_timeout=3)
            self._local.db = db
        return db

    def read(self, what: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``what(db)``; a failed connection is dropped (the next read opens another)."""
        try:
            return what(self._db())
        except psycopg.OperationalError:
            db = getattr(self._local, "db", None)
            self._local.db = None
            if db is not None:
                db.close()
            raise

    # --- standings --------------------------------------------------------------------
    def standings(self, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many players are rated, and ``limit`` of them from ``offset``
        (``league.store.standings``), each with its place."""
        def q(db: psycopg.Connection[Any]) -> tuple[int, list[dict[str, Any]]]:
            total, rows = store.standings(db, offset, limit)
            return total, [dict(r._asdict(), place=offset + i + 1) for i, r in enumerate(rows)]
        return self.read(q)

    # --- one player --------------------------------------------------------------------
    def player(self, player_id: str) -> dict[str, Any] | None:
        """The player's roster row, rating, games across pubs and rating over time; None
        for an id the league does not know."""
        def q(db: psycopg.Connection[Any]) -> dict[str, Any] | None:
            row = db.execute("SELECT player_id, name, home_venue FROM roster WHERE "
                             "player_id = %s", (player_id,)).fetchone()
            rating = db.execute(
                "SELECT ordinal, mu, sigma, games, lost, last_played, (SELECT count(*) + 1 "
                "FROM ratings o WHERE o.ordinal > r.ordinal OR (o.ordinal = r.ordinal AND "
                "o.player_id < r.player_id)) FROM ratings r WHERE player_id = %s",
                (player_id,)).fetchone()
            if row is None and rating is None:
                return None
            return {
                "player_id": player_id, "name": row[1] if row else player_id,
                "home_venue": row[2] if row else "",
                "rating": None if rating is None else dict(zip(
                    ("ordinal", "mu", "sigma", "games", "lost", "last_played", "place"),
                    rating, strict=True)),
                "games": [g._asdict() for g in store.player_games(db, player_id)],
                "history": [p._asdict() for p in store.rating_history(db, player_id)],
            }
        return self.read(q)

    # --- pubs, tables, games -------------------------------------------------------------
    def venues(self) -> list[dict[str, Any]]:
        return self.read(lambda db: [v._asdict() for v in store.venues(db)])

    def venue_tables(self, venue: str) -> list[dict[str, Any]]:
        """A pub's tables: games held, finished, the newest game's id and time."""
        return self.read(lambda db: [dict(zip(
            ("table", "games", "finished", "newest", "last"), r, strict=True))
            for r in db.execute(
                "SELECT t.table_name, count(g.game), count(g.game) FILTER (WHERE g.status "
                "<> 'playing'), max(g.game), max(COALESCE(g.finished, g.started)) FROM tables t "
                "LEFT JOIN games g USING (venue, table_name) WHERE t.venue = %s "
                "GROUP BY t.table_name ORDER BY t.table_name", (venue,)).fetchall()])

    def games(self, venue: str | None = None, table: str | None = None,
              limit: int = 200) -> list[dict[str, Any]]:
        return self.read(lambda db: [g._asdict() for g in store.games(db, venue, table,
                                                                       limit)])

    def game(self, venue: str, table: str, game: int) -> dict[str, Any] | None:
        """One game with its record, entry by entry; None when the league has none."""
        def q(db: psycopg.Connection[Any]) -> dict[str, Any] | None:
            row = db.execute(
                "SELECT variant, players, status, started, finished, result, entries FROM "
                "games WHERE venue = %s AND table_name = %s AND game = %s",
                (venue, table, game)).fetchone()
            if row is None:
                return None
            out = dict(zip(("variant", "players", "status", "started", "finished", "result",
                            "entries"), row, strict=True))
            out.update(venue=venue, table=table, game=game,
                       seating=store.seating(db, venue, table, game),
                       record=[e._asdict() for e in store.game_entries(db, venue, table,
                                                                       game)])
            names = db.execute("SELECT player_id, name FROM roster WHERE player_id = "
                               "ANY(%s)", ([i for i in out["seating"].values() if i],)
                               ).fetchall()
            out["names"] = dict(names)
            return out
        return self.read(q)

    # --- the league's flags -------------------------------------------------------------
    def flags(self) -> dict[str, Any]:
        """Players seated at two tables at once, and what the league refused."""
        def q(db: psycopg.Connection[Any]) -> dict[str, Any]:
            doubles = store.double_seats(db)
            names = dict(db.execute("SELECT player_id, name FROM roster WHERE player_id = "
                                    "ANY(%s)", ([d.player_id for d in doubles],)).fetchall())
            return {"double_seats": [{"player_id": d.player_id,
                                      "name": names.get(d.player_id, d.player_id),
                                      "first": dict(zip(("venue", "table", "game"), d.first,
                                                        strict=True)),
                                      "second": dict(zip(("venue", "table", "game"),
                                                         d.second, strict=True))}
                                     for d in doubles],
                    "problems": [p._asdict() for p in store.problems(db)[:50]]}
        return self.read(q)

    def seated_now(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Per (venue, table): its newest game's seating with each seated player's name and
        rating (what features a table on the live wall)."""
        def q(db: psycopg.Connection[Any]) -> dict[tuple[str, str], dict[str, Any]]:
            rows = db.execute(
                "SELECT s.venue, s.table_name, s.game, s.seat, s.player_id, p.name, r.ordinal "
                "FROM seatings s JOIN (SELECT venue, table_name, max(game) AS game FROM games "
                "GROUP BY venue, table_name) n USING (venue, table_name, game) "
                "LEFT JOIN roster p USING (player_id) LEFT JOIN ratings r USING (player_id)"
            ).fetchall()
            out: dict[tuple[str, str], dict[str, Any]] = {}
            for venue, table, game, seat, pid, name, ordinal in rows:
                t = out.setdefault((venue, table), {"game": game, "seats": {}})
                t["seats"][seat] = {"player_id": pid, "name": name, "ordinal": ordinal}
            return out
        return self.read(q)
