"""The league's screen: standings, players, pubs and their tables, each game's record, and a
live wall of featured tables; each page with its JSON under ``/api/``.

Everything comes from the league's store (``league.store``'s tables, read through
``league_screen.data``) and the tables' public states (``league_screen.live``: the fields the
wall shows, from states the tables built without concealed dice), so the screen can show no
concealed die even by mistake. Served as the venue screen is (``web``: its own names only,
security headers, request limits).
"""

from __future__ import annotations

from typing import Any

import psycopg
from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from league_screen.data import MAX_LIMIT, PAGE, Reader
from league_screen.live import Live
from league_screen.plot import rating_svg
from web.guard import guard
from web.hosts import AllowedHosts

MAX_BODY = 64 * 1024  # the screen takes no body: every route is a GET
#: tables on the live wall at most
FEATURED = 8


class BadQuery(Exception):
    """A query parameter that is not allowed: the sentence says which and what is."""


def _number(name: str, default: int, low: int, high: int) -> int:
    text = request.args.get(name)
    if text is None:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise BadQuery(f"{name} must be a whole number from {low} to {high}, not {text[:20]!r}")
    return int(text)


def featured(live: Live, reader: Reader, count: int = FEATURED) -> list[dict[str, Any]]:
    """The tables the wall shows: online ones first, then those playing, then by the best
    rating seated at their newest game; each with its seats' players (``elsewhere``: that
    player is seated at another table's newest game too)."""
    seated = reader.seated_now()
    out = []
    for t in live.snapshot():
        seats = seated.get((t["venue"], t["table"]), {})
        state = t["state"] or {}
        if seats.get("game") != state.get("game_id"):
            seats = {}  # the seating of another game: none shown
        players = seats.get("seats", {})
        best = max((p["ordinal"] for p in players.values() if p["ordinal"] is not None),
                   default=None)
        out.append(t | {"players": players, "best": best})
    seen: dict[str, int] = {}
    for t in out:
        for p in t["players"].values():
            if p["player_id"]:
                seen[p["player_id"]] = seen.get(p["player_id"], 0) + 1
    for t in out:  # a player seated at two tables now: said on both cards
        t["players"] = {seat: p | {"elsewhere": seen.get(p["player_id"] or "", 0) > 1}
                        for seat, p in t["players"].items()}
    out.sort(key=lambda t: (not t["online"], (t["state"] or {}).get("status") != "playing",
                            -(t["best"] if t["best"] is not None else -1e9),
                            t["venue"], t["table"]))
    return out[:count]


def rating_text(ordinal: float) -> str:
    """A rating as the pages print it: two decimals, and never "-0.00" for a rating that rounds
    to nothing."""
    text = f"{ordinal:.2f}"
    return "0.00" if text == "-0.00" else text


def create_app(reader: Reader, live: Live, *, name: str = "League", host: str = "127.0.0.1",
               public_url: str | None = None) -> Flask:
    """The screen of the league whose store ``reader`` reads, fed by ``live``."""
    app = Flask(__name__, static_folder="static")
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.add_template_filter(rating_text, "rating")

    def refuse(status: int, sentence: str) -> Any:
        return jsonify(error=sentence), status

    guard(app, AllowedHosts(public_url=public_url, listen_host=host), refuse,
          who="The league screen", set_name="set [screen] host to the name it is opened by",
          max_body=MAX_BODY, private_prefixes=("/api/",))

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Any:
        sentence = ("There is no such page on the league screen; the pages are /, /players/ID, "
                    "/pubs, /pubs/NAME, /games/PUB/TABLE/ID and /live.") if e.code == 404 \
            else (e.description or "The request failed.")
        return refuse(e.code or 400, sentence)

    @app.errorhandler(BadQuery)
    def bad_query(e: BadQuery) -> Any:
        return refuse(400, f"{e}.")

    @app.errorhandler(psycopg.OperationalError)
    def database_away(e: Exception) -> Any:
        return jsonify(error="The league's database cannot be reached just now; the pubs' "
                             "entries wait in the cluster. Try again in a moment.",
                       detail=str(e).strip()[:200]), 503

    def page(template: str, **values: Any) -> Any:
        return render_template(template, league=name, **values)

    # --- standings: the league's page ------------------------------------------------------
    @app.get("/api/standings")
    def api_standings() -> Any:
        offset = _number("offset", 0, 0, 10**9)
        limit = _number("limit", PAGE, 1, MAX_LIMIT)
        total, rows = reader.standings(offset, limit)
        return jsonify(total=total, offset=offset, limit=limit, standings=rows)

    @app.get("/api/flags")
    def api_flags() -> Any:
        return jsonify(reader.flags())

    @app.get("/")
    def standings_page() -> Any:
        number = _number("page", 1, 1, 10**6)
        total, rows = reader.standings((number - 1) * PAGE, PAGE)
        pages = max(1, -(-total // PAGE))
        return page("standings.html", rows=rows, total=total, page=number, pages=pages,
                    flags=reader.flags())

    # --- players ------------------------------------------------------------------------------
    def unknown_player(player_id: str) -> Any:
        return refuse(404, f"The league has no player {player_id[:40]!r}: not in the roster "
                           "and never rated. The standings list every rated player.")

    @app.get("/api/players/<player_id>")
    def api_player(player_id: str) -> Any:
        found = reader.player(player_id)
        return jsonify(found) if found is not None else unknown_player(player_id)

    @app.get("/players/<player_id>")
    def player_page(player_id: str) -> Any:
        found = reader.player(player_id)
        if found is None:
            return unknown_player(player_id)
        history = found["history"]
        plot = rating_svg([p["ordinal"] for p in history],
                          [str(p["finished"]) for p in history], "rating")
        return page("player.html", player=found, plot=plot)

    # --- pubs and their tables ------------------------------------------------------------------
    def pub(venue: str) -> dict[str, Any] | None:
        tables = reader.venue_tables(venue)
        if not tables:
            return None
        states = {t["table"]: t for t in live.snapshot() if t["venue"] == venue}
        for t in tables:
            heard = states.get(t["table"], {})
            t.update(online=heard.get("online", False), state=heard.get("state"))
        return {"venue": venue, "tables": tables,
                "games": reader.games(venue=venue, limit=_number("limit", 50, 1, 500))}

    def unknown_pub(venue: str) -> Any:
        return refuse(404, f"The league holds no entries of a pub named {venue[:40]!r}; "
                           "/api/pubs lists the pubs.")

    @app.get("/api/pubs")
    def api_pubs() -> Any:
        return jsonify(reader.venues())

    @app.get("/pubs")
    def pubs_page() -> Any:
        return page("pubs.html", pubs=reader.venues())

    @app.get("/api/pubs/<venue>")
    def api_pub(venue: str) -> Any:
        found = pub(venue)
        return jsonify(found) if found is not None else unknown_pub(venue)

    @app.get("/pubs/<venue>")
    def pub_page(venue: str) -> Any:
        found = pub(venue)
        return page("pub.html", pub=found) if found is not None else unknown_pub(venue)

    # --- games --------------------------------------------------------------------------------
    @app.get("/api/games")
    def api_games() -> Any:
        venue, table = request.args.get("pub"), request.args.get("table")
        return jsonify(reader.games(venue, table, _number("limit", 200, 1, 1000)))

    def unknown_game(venue: str, table: str, game: int) -> Any:
        return refuse(404, f"The league has no game {game} of table {table[:40]!r} at pub "
                           f"{venue[:40]!r} (yet); /api/games?pub=PUB&table=TABLE lists them.")

    @app.get("/api/games/<venue>/<table>/<int:game>")
    def api_game(venue: str, table: str, game: int) -> Any:
        found = reader.game(venue, table, game)
        return jsonify(found) if found is not None else unknown_game(venue, table, game)

    @app.get("/games/<venue>/<table>/<int:game>")
    def game_page(venue: str, table: str, game: int) -> Any:
        found = reader.game(venue, table, game)
        if found is None:
            return unknown_game(venue, table, game)
        return page("game.html", game=found)

    # --- the live wall -----------------------------------------------------------------------
    @app.get("/api/live")
    def api_live() -> Any:
        return jsonify(connected=live.connected, problem=live.problem,
                       tables=featured(live, reader))

    @app.get("/live")
    def live_page() -> Any:
        return page("live.html")

    return app
