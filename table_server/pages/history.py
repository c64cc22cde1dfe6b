"""History: finished games, their records, and each player's chips hand by hand.

Only finished (or abandoned) games are listed: the record of a game in progress holds every
concealed throw. The chart is computed by replaying the record in the engine, taking each
player's chips at the start of every hand, and drawn as a small SVG (``table_server.pages.chart``:
no JS library, no network), so it shows the same numbers the engine decided.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, render_template

from engine.record import record_from_dict
from engine.variants import new_game
from table_server.context import error_page, finished_games, finished_record
from table_server.pages.chart import chart_key, chart_svg
from table_server.words.i18n import gettext as _

bp = Blueprint("history", __name__, url_prefix="/history")


def summary(game: dict[str, Any]) -> str:
    """One sentence for the list: who lost or won, or that the game was abandoned."""
    result = game.get("result") or {}
    if game.get("status") == "abandoned":
        return _("Abandoned before the end.")
    if result.get("loser"):  # Bidou is about the loser; a two-hand match also names a winner
        if result.get("winner"):
            return _("%(p)s lost to %(q)s.", p=result["loser"], q=result["winner"])
        return _("%(p)s lost.", p=result["loser"])
    if result.get("winner"):
        return _("%(p)s won.", p=result["winner"])
    return _("Finished.")


@dataclass(frozen=True)
class RoundEnd:
    """A round (or the game) decided: at point ``index`` of the chart, ``player`` lost it."""

    index: int
    player: str
    label: str


def chart_points(record: dict[str, Any]) -> tuple[list[dict[str, int]], list[RoundEnd]]:
    """Each player's chips at the start, after every hand and at the end (engine replay), and
    where a round was lost (see :func:`chart_data`)."""
    points, ends, _ = chart_data(record)
    return points, ends


def chart_data(record: dict[str, Any]
               ) -> tuple[list[dict[str, int]], list[RoundEnd], list[int | None]]:
    """Each player's chips at the start, after every hand and at the end (engine replay),
    where a round was lost, and the number of the hand that starts at each point (counted
    through the whole game; None for a point that starts none). A lost round is settled and
    the next round dealt in one action, so the chips as they stood when the round was lost
    (the loser holding all 9) are counted from that action's chip moves and plotted too; else
    the chart would drop from 8 to 0."""
    rec = record_from_dict(record)
    game = new_game(rec.variant, rec.players, rec.options)
    points = [dict(game.state()["chips"])]
    hands: list[int | None] = [None]
    ends: list[RoundEnd] = []
    started = 0
    for action in rec.actions:
        before = dict(game.state()["chips"])
        event = game.apply(action)
        for effect in event.effects:
            if effect.kind == "move":
                if effect.source in before:
                    before[effect.source] -= effect.chips
                if effect.dest in before:
                    before[effect.dest] += effect.chips
            if effect.kind == "round" and effect.player:
                points.append(dict(before))
                hands.append(None)
                ends.append(RoundEnd(len(points) - 1, effect.player,
                                     _("%(player)s loses round %(n)s", player=effect.player,
                                       n=len(ends) + 1)))
        if event.starts_hand:
            started += 1
            if started == 1 and points[-1] == dict(game.state()["chips"]) and len(points) == 1:
                hands[0] = 1  # the first hand starts from the chips the game starts with
            else:
                points.append(dict(game.state()["chips"]))
                hands.append(started)
    final = dict(game.state()["chips"])
    match_lost = bool(ends) and ends[-1].index == len(points) - 1  # the last round ended it
    if points[-1] != final and not match_lost:
        points.append(final)
        hands.append(None)
    if game.over and game.state().get("loser") and not ends:
        ends.append(RoundEnd(len(points) - 1, game.state()["loser"],
                             _("%(player)s loses the game", player=game.state()["loser"])))
    return points, ends, hands


def chips_by_hand(record: dict[str, Any]) -> list[dict[str, int]]:
    """Each player's chips at the start, after every hand, when a round is lost, and at the
    end (see :func:`chart_data`)."""
    return chart_data(record)[0]


@bp.get("")
def index() -> str:
    games = [dict(g, summary=summary(g)) for g in reversed(finished_games())]
    return render_template("history.html", games=games)


def _finished(game_id: int) -> dict[str, Any] | None:
    return next((g for g in finished_games() if g["id"] == game_id), None)


@bp.get("/<int:game_id>")
def game(game_id: int) -> Any:
    info = _finished(game_id)
    record = finished_record(game_id)
    if info is None or record is None:
        return error_page(404, _("There is no finished game %(id)s; the History page lists "
                                 "them (a game in progress appears once it is over).",
                                 id=game_id))
    points, ends, hands = chart_data(record)
    chart = chart_svg(points, list(record["players"]), ends=ends, hands=hands)
    return render_template("history_game.html", game=dict(info, summary=summary(info)),
                           record=record, chart=chart, key=chart_key(list(record["players"])))


@bp.get("/<int:game_id>/record.json")
def record_file(game_id: int) -> Any:
    record = finished_record(game_id)
    if record is None:
        return error_page(404, _("There is no finished game %(id)s.", id=game_id))
    return Response(json.dumps(record, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="bidou-game-{game_id}.json"'})
