"""The venue screen's Flask app: the wall, a table's page, finished games, players, and the
JSON API (``GET /api/tables``, ``GET /api/tables/NAME/games``) with its event stream.

Everything shown comes from the venue's store (what the tables sent) and the hub's live
states (each table's public state, ``firmware.table.views``' concealment already applied at the
table), so the screen can show no concealed die even by mistake.
"""

from __future__ import annotations

import queue
import threading
import time
from datetime import UTC, datetime
from typing import Any

import psycopg
from flask import Flask, jsonify, render_template, request, stream_with_context
from werkzeug.exceptions import HTTPException

from venue.settings import VenueConfig
from venue.table_logs import archived_of
from venue_screen import data
from venue_screen.live import CLOSING, Live
from venue_screen.wall import shape, wall_tables
from web import sse
from web.guard import guard
from web.hosts import AllowedHosts

MAX_STREAMS = 16  # open event streams at once; more are answered 503 (bounded threads)
STREAM_LIFE = 300.0  # seconds before a stream ends and the browser reconnects
KEEPALIVE = 15.0
EVENTS_PER_WRITE = 200
#: The largest request body read (the screen takes none: every route is a GET).
MAX_BODY = 64 * 1024


def _iso(t: float | datetime | None) -> str | None:
    if t is None:
        return None
    if isinstance(t, datetime):
        return t.astimezone(UTC).isoformat(timespec="seconds")
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def tables_status(config: VenueConfig, live: Live) -> list[dict[str, Any]]:
    """Per configured table: online, last seen, entries held, entries still to come, its
    latest problem, its live state and its newest entry shown (live from the hub, so it
    may be ahead of ``entries`` until the ingester has stored it: ``stored`` says which);
    then any name the ingester refused."""
    counts = data.table_counts(config)
    out = []
    for name in config.tables:
        held = counts.get(name, {})
        state = live.states.get(name)
        entries = int(held.get("entries", 0))
        to_come = max(0, int(state["entries"]) - entries) if state and \
            isinstance(state.get("entries"), int) else None
        out.append({
            "name": name, "configured": True, "online": live.online(name),
            "last_seen": _iso(live.heard.get(name)), "entries": entries, "to_come": to_come,
            "problem": held.get("problem"), "problem_count": held.get("problem_count", 0),
            "state": state, "last_entry": live.last_entry.get(name),
        })
    for name, held in counts.items():
        if name not in config.tables:
            # a table's log archived by `bidou-venue accept-log` (t1~1): its games are kept
            # and shown under that name; any other name is one the ingester refused
            of = archived_of(name)
            out.append({"name": name, "configured": False, "online": False,
                        "last_seen": _iso(held.get("problem_at")),
                        "entries": int(held.get("entries", 0)),
                        "to_come": None, "problem": held.get("problem"),
                        "problem_count": held.get("problem_count", 0), "state": None,
                        "archived_log_of": of})
    return out


def create_app(config: VenueConfig, live: Live) -> Flask:
    """The screen for ``config``'s venue, fed by ``live``."""
    app = Flask(__name__, static_folder="static")
    streams = threading.BoundedSemaphore(MAX_STREAMS)

    def refuse(status: int, sentence: str) -> Any:
        return jsonify(error=sentence), status

    guard(app, AllowedHosts(public_url=None, listen_host=config.screen_host), refuse,
          who="This venue screen", set_name="set [screen] host to the name it is opened by",
          max_body=MAX_BODY, private_prefixes=("/api/",))

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Any:
        return refuse(e.code or 400, e.description or "The request failed.")

    @app.errorhandler(psycopg.OperationalError)
    def database_away(e: Exception) -> Any:
        return jsonify(error="The venue's database cannot be reached just now; the entries "
                             "wait in the hub. Try again in a moment.",
                       detail=str(e).strip()[:200]), 503

    def known(name: str) -> Any:
        # a configured table, or one of its logs archived by accept-log (t1~1): that log's
        # games keep their own ids under that name
        if (archived_of(name) or name) in config.tables:
            return None
        return jsonify(error=f"no table {name!r} at this venue; its tables are "
                             f"{', '.join(config.tables)}"), 404

    @app.get("/api/tables")
    def api_tables() -> Any:
        return jsonify(tables_status(config, live))

    @app.get("/api/tables/<name>/games")
    def api_games(name: str) -> Any:
        if (bad := known(name)) is not None:
            return bad
        return jsonify([{"id": g["game"], "status": g["status"], "entries": g["entries"],
                         "variant": g["variant"], "players": g["players"],
                         "started": g["started"], "finished": g["finished"],
                         "result": g["result"]} for g in data.games(config, name)])

    @app.get("/api/events")
    def api_events() -> Any:
        if not streams.acquire(blocking=False):
            return jsonify(error=f"{MAX_STREAMS} event streams are open already; close one "
                                 "or reload in a minute"), 503
        q = live.listen()

        def stream() -> Any:
            try:
                yield sse.RETRY
                end = time.monotonic() + STREAM_LIFE
                while time.monotonic() < end and not live.stopping:
                    try:
                        events = q.get(timeout=KEEPALIVE)
                    except queue.Empty:
                        yield sse.KEEP_ALIVE
                        continue
                    # a finished game's burst: the events waiting go in one write, not one
                    # write (and one trip through the server's thread) each
                    chunk: list[str] = []
                    closing = False
                    while True:
                        for kind, body in events:
                            if kind == CLOSING:
                                closing = True
                                break
                            chunk.append(sse.message(body, kind))
                        if closing or len(chunk) >= EVENTS_PER_WRITE:
                            break
                        try:
                            events = q.get_nowait()
                        except queue.Empty:
                            break
                    if chunk:
                        yield "".join(chunk)
                    if closing:
                        return
            finally:
                live.unlisten(q)
                streams.release()

        return sse.response(stream_with_context(stream()))

    @app.get("/")
    def wall() -> Any:
        tables = wall_tables(config, live)
        cols, rows = shape(len(tables))
        return render_template("wall.html", venue=config.name, tables=tables, cols=cols,
                               rows=rows)

    @app.get("/wall/cards")
    def wall_cards() -> Any:
        """The wall's cards alone, for static/wall.js to draw again (``?only=NAME``: one)."""
        return render_template("_cards.html", tables=wall_tables(
            config, live, only=request.args.get("only") or None))

    @app.get("/status")
    def status_page() -> Any:
        """The owner's page: what each table has sent, held and still to send, problems."""
        return render_template("status.html", venue=config.name,
                               tables=tables_status(config, live))

    @app.get("/tables/<name>")
    def table_page(name: str) -> Any:
        if (bad := known(name)) is not None:
            return bad
        return render_template("table.html", venue=config.name, name=name,
                               games=data.games(config, name),
                               tables=wall_tables(config, live, only=name))

    @app.get("/games")
    def finished_games() -> Any:
        return render_template("games.html", venue=config.name,
                               games=data.games(config, finished=True))

    @app.get("/games/<table>/<int:game>")
    def game_page(table: str, game: int) -> Any:
        if (bad := known(table)) is not None:
            return bad
        rows = [g for g in data.games(config, table) if g["game"] == game]
        if not rows:
            return jsonify(error=f"table {table} has no game {game} at the venue (yet)"), 404
        return render_template("game.html", venue=config.name, table=table, game=rows[0],
                               events=data.game_events(config, table, game))

    @app.get("/players")
    def players_page() -> Any:
        return render_template("players.html", venue=config.name,
                               players=data.players(config))

    @app.get("/players/<name>")
    def player_page(name: str) -> Any:
        rows = [p for p in data.players(config) if p["player"] == name]
        if not rows:
            return jsonify(error=f"no player {name!r} has finished a game at this venue"), 404
        return render_template("player.html", venue=config.name, player=rows[0],
                               games=data.player_games(config, name))

    return app
