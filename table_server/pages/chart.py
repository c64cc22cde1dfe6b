"""The history page's chart of chips hand by hand, drawn as inline SVG on the page's dark theme
(no JS library, no network): a line per player with the name at its end, the hand numbers on
the x axis, and a dashed line with who lost at each lost round; and its key (each name in its
line's colour), which a phone shows above the chart.

No label may print over another: the names at the lines' ends are spread apart vertically,
the round labels are stacked in as many lanes above the plot as they need, and the hand
numbers are thinned to what fits. Text widths are estimated from the font size (DejaVu Sans
averages under 0.62 em a character), generously, so the estimate errs towards more space.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Protocol

from table_server.words.i18n import gettext as _

#: Line colours, bright enough on the dark page and told apart by most colour-blind eyes.
COLOURS = ("#ff6b6b", "#4dd4ac", "#6ea8ff", "#ffb347", "#d291ff", "#5ee0f0", "#ff8fd0",
           "#e0c068")
BACKGROUND, GRID, INK, MUTED = "#0d2418", "#2b4a38", "#f4f1e8", "#a9b8ac"
CHAR_EM = 0.62  # a character's width, in em, at most on average (DejaVu Sans)
LABEL_PX, NAME_PX, TICK_PX = 12, 15, 12


class RoundMark(Protocol):
    """At point ``index``, ``label`` (who lost the round, or the game)."""

    @property
    def index(self) -> int: ...

    @property
    def label(self) -> str: ...


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_EM


def lanes(spans: list[tuple[float, float]], gap: float = 6.0) -> list[int]:
    """The lane (0, 1, ...) of each horizontal span ``(left, right)``: the first lane where it
    clears every span already placed there by ``gap``."""
    ends: list[float] = []  # the right edge of the last span in each lane
    out = []
    for left, right in spans:
        lane = next((k for k, end in enumerate(ends) if left >= end + gap), len(ends))
        if lane == len(ends):
            ends.append(right)
        else:
            ends[lane] = right
        out.append(lane)
    return out


def spread(ys: list[float], least: float, low: float, high: float) -> list[float]:
    """``ys`` moved as little as needed so that any two are ``least`` apart, kept within
    [low, high] when they fit there (the order kept: a name stays beside its own line's end)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [ys[i] for i in order]
    for k in range(len(placed)):
        placed[k] = max(placed[k], low if k == 0 else placed[k - 1] + least)
    if placed and placed[-1] > high:  # pushed past the bottom: pack them upwards from there
        placed[-1] = max(high, low + least * (len(placed) - 1))
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - least)
    out = [0.0] * len(ys)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def chart_key(players: list[str]) -> list[dict[str, str]]:
    """Each player's name and line colour, for the key above the chart: on a phone the chart
    scrolls sideways and the names at the lines' ends start off the screen's right edge."""
    return [{"name": p, "colour": COLOURS[k % len(COLOURS)]} for k, p in enumerate(players)]


def chart_svg(points: list[dict[str, int]], players: list[str], width: int = 960,
              height: int = 380, ends: Sequence[RoundMark] | None = None,
              hands: list[int | None] | None = None) -> str:
    """Chips per player at each point (``points``), as inline SVG; ``hands[i]``: the number
    of the hand that starts at point i (None for a point inside a hand: a lost round)."""
    ends = ends or []
    n = max(1, len(points) - 1)
    top = max([1, *(v for p in points for v in p.values())])
    name_w = max([text_width(p, NAME_PX) for p in players] or [0]) + 14
    pad_l, pad_r, pad_b = 34, int(name_w) + 8, 40
    plot_w = width - pad_l - pad_r

    def x(i: float) -> float:
        return pad_l + plot_w * i / n

    spans = []
    for end in ends:
        w = text_width(end.label, LABEL_PX)
        left = min(max(x(end.index) - w / 2, 2), width - w - 2)
        spans.append((left, left + w))
    lane_of = lanes(spans)
    lane_h = LABEL_PX + 6
    pad_t = 14 + lane_h * (max(lane_of) + 1 if lane_of else 0)
    height = max(height, pad_t + 220)
    plot_h = height - pad_t - pad_b

    def y(v: float) -> float:
        return pad_t + plot_h * (1 - v / top)

    about = escape(_("chips per player, hand by hand"))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'class="chipchart" role="img" aria-label="{about}" '
             f'font-family="DejaVu Sans, Arial, sans-serif">',
             f'<rect class="chartback" x="0" y="0" width="{width}" height="{height}" '
             f'rx="10" fill="{BACKGROUND}"/>']
    step = max(1, top // 6)
    for v in range(0, top + 1, step):
        parts.append(f'<line x1="{pad_l}" x2="{pad_l + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="{GRID}"/><text class="tick" x="{pad_l - 6}" y="{y(v) + 4:.1f}" '
                     f'font-size="{TICK_PX}" fill="{MUTED}" text-anchor="end">{v}</text>')
    # the hand numbers: every k-th, so that two never touch
    starts = [(i, h) for i, h in enumerate(hands or []) if h is not None]
    widest = text_width(str(max([h for _, h in starts] or [1])), TICK_PX) + 8
    every = 1
    while starts and plot_w / max(1, len(starts) / every) < widest:
        every += 1
    for k, (i, h) in enumerate(starts):
        if k % every == 0:
            parts.append(f'<text class="tick hand" x="{x(i):.1f}" y="{height - pad_b + 16}" '
                         f'font-size="{TICK_PX}" fill="{MUTED}" '
                         f'text-anchor="middle">{h}</text>')
    axis = escape(_("hand"))
    parts.append(f'<text class="axis" x="{pad_l + plot_w / 2:.0f}" y="{height - 6}" '
                 f'font-size="{TICK_PX}" fill="{MUTED}" text-anchor="middle">{axis}</text>')
    for end, (left, _right), lane in zip(ends, spans, lane_of, strict=True):
        ly = pad_t - 8 - lane * lane_h
        parts.append(f'<line class="roundend" x1="{x(end.index):.1f}" x2="{x(end.index):.1f}" '
                     f'y1="{pad_t - 4}" y2="{height - pad_b}" stroke="{MUTED}" '
                     f'stroke-dasharray="4 3"/><text class="label" x="{left:.1f}" y="{ly}" '
                     f'font-size="{LABEL_PX}" fill="{INK}">{escape(end.label)}</text>')
    last = [float(points[-1].get(p, 0)) if points else 0.0 for p in players]
    name_ys = spread([y(v) + 5 for v in last], NAME_PX + 5, pad_t + NAME_PX, height - pad_b)
    for k, player in enumerate(players):
        colour = COLOURS[k % len(COLOURS)]
        coords = " ".join(f"{x(i):.1f},{y(p.get(player, 0)):.1f}" for i, p in enumerate(points))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'stroke-linejoin="round" points="{coords}"/>')
        parts.append(f'<text class="name" x="{pad_l + plot_w + 8}" y="{name_ys[k]:.1f}" '
                     f'font-size="{NAME_PX}" font-weight="bold" fill="{colour}">'
                     f'{escape(player)}</text>')
    parts.append("</svg>")
    return "".join(parts)
