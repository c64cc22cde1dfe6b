"""History: finished games, their records, and each player's chips hand by hand.

Only finished (or abandoned) games are listed: the record of a game in progress holds every
concealed throw. The chart is computed by replaying the record in the engine, taking each
player's chips at the start of every hand, and drawn as a small SVG here (no JS library, no
network), so it shows the same numbers the engine decided.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from flask import Blueprint, Response, render_template

from engine.record import record_from_dict
from engine.variants import new_game
from table_server.context import error_page, finished_games, finished_record
from table_server.i18n import gettext as _

bp = Blueprint("history", __name__, url_prefix="/history")

COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
           "#9a6324")


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
    where a round was lost. A lost round is settled and the next round dealt in one action,
    so the chips as they stood when the round was lost (the loser holding all 9) are counted
    from that action's chip moves and plotted too; else the chart would drop from 8 to 0."""
    rec = record_from_dict(record)
    game = new_game(rec.variant, rec.players, rec.options)
    points = [dict(game.state()["chips"])]
    ends: list[RoundEnd] = []
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
                ends.append(RoundEnd(len(points) - 1, effect.player,
                                     f"{effect.player} loses round {len(ends) + 1}"))
        if event.starts_hand:
            points.append(dict(game.state()["chips"]))
    final = dict(game.state()["chips"])
    match_lost = bool(ends) and ends[-1].index == len(points) - 1  # the last round ended it
    if points[-1] != final and not match_lost:
        points.append(final)
    if game.over and game.state().get("loser") and not ends:
        ends.append(RoundEnd(len(points) - 1, game.state()["loser"],
                             f"{game.state()['loser']} loses the game"))
    return points, ends


def chips_by_hand(record: dict[str, Any]) -> list[dict[str, int]]:
    """Each player's chips at the start, after every hand, when a round is lost, and at the
    end (see :func:`chart_points`)."""
    return chart_points(record)[0]


def chart_svg(points: list[dict[str, int]], players: list[str], width: int = 720,
              height: int = 300, ends: list[RoundEnd] | None = None) -> str:
    """A line chart of chips per player per hand, as inline SVG with a legend; each lost
    round (or the game's end) is a dashed line with who lost it."""
    pad_l, pad_r, pad_t, pad_b = 40, 110, 24, 30
    top = max([1, *(v for p in points for v in p.values())])
    n = max(1, len(points) - 1)

    def x(i: int) -> float:
        return pad_l + (width - pad_l - pad_r) * i / n

    def y(v: int) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - v / top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'class="chipchart" role="img" aria-label="chips per player, hand by hand">',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    for v in range(0, top + 1, max(1, top // 6)):
        parts.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="#ddd"/><text x="{pad_l - 6}" y="{y(v) + 4:.1f}" font-size="12" '
                     f'text-anchor="end">{v}</text>')
    for end in ends or []:
        parts.append(f'<line class="roundend" x1="{x(end.index):.1f}" x2="{x(end.index):.1f}" '
                     f'y1="{pad_t - 8}" y2="{height - pad_b}" stroke="#555" '
                     f'stroke-dasharray="4 3"/><text x="{x(end.index):.1f}" y="{pad_t - 10}" '
                     f'font-size="11" text-anchor="end">{escape(end.label)}</text>')
    parts.append(f'<text x="{(width - pad_r + pad_l) / 2:.0f}" y="{height - 6}" font-size="12" '
                 f'text-anchor="middle">hands</text>')
    for k, player in enumerate(players):
        colour = COLOURS[k % len(COLOURS)]
        coords = " ".join(f"{x(i):.1f},{y(p.get(player, 0)):.1f}" for i, p in enumerate(points))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'points="{coords}"/>')
        parts.append(f'<text x="{width - pad_r + 10}" y="{pad_t + 18 * (k + 1)}" '
                     f'font-size="14" fill="{colour}">{escape(player)}</text>')
    parts.append("</svg>")
    return "".join(parts)


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
        return error_page(404, f"There is no finished game {game_id}; the History page lists "
                               "them (a game in progress appears once it is over).")
    points, ends = chart_points(record)
    chart = chart_svg(points, list(record["players"]), ends=ends)
    return render_template("history_game.html", game=dict(info, summary=summary(info)),
                           record=record, chart=chart)


@bp.get("/<int:game_id>/record.json")
def record_file(game_id: int) -> Any:
    record = finished_record(game_id)
    if record is None:
        return error_page(404, f"There is no finished game {game_id}.")
    return Response(json.dumps(record, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="bidou-game-{game_id}.json"'})
