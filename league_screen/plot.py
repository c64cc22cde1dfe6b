"""A player's rating over time as a small SVG line, drawn on the server.

Inline SVG, no script and no plotting library: the page's content security policy runs
scripts from the screen's own files only, and a line of a few hundred points is a few
kilobytes of text. One point per rated game, in the order the ratings were computed; the
axis under it names when the first, the middle and the last of them finished (their days, or
their times when all are of one day).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 480, 150
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 14, 28  # room for the values left, the days under


def axis_labels(finished: Sequence[str]) -> list[str]:
    """What the axis says under each point, from its game's finish (ISO 8601): its day, or,
    when every point is of one day, the first's day and time and the others' time."""
    days = [f[:10] for f in finished]
    if days and days[0] == days[-1]:
        return [f"{days[0]} {finished[0][11:16]}"] + [f[11:16] for f in finished[1:]]
    return days


def rating_svg(points: Sequence[float], finished: Sequence[str] = (),
               label: str = "rating") -> str:
    """The line of ``points`` (ratings after each rated game) with its lowest and highest
    values marked, and under it when the first, middle and last point's game ``finished``
    (ISO 8601, one per point); a sentence for fewer than two points."""
    if len(points) < 2:
        return ('<p class="muted" id="rating-plot">'
                + ("One rated game so far." if points else "No rated game yet.") + "</p>")
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = (WIDTH - LEFT - RIGHT) / (len(points) - 1)
    base = HEIGHT - BOTTOM
    xy = [(LEFT + i * step, base - (p - low) / span * (base - TOP))
          for i, p in enumerate(points)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    ticks = ""
    days = axis_labels(finished) if len(finished) == len(points) else []
    if days:
        marks = {0: "start", len(points) // 2: "middle", len(points) - 1: "end"}
        shown: set[str] = set()
        for i, anchor in sorted(marks.items()):
            if days[i] in shown:
                continue
            shown.add(days[i])
            ticks += (f'<line x1="{xy[i][0]:.1f}" y1="{base}" x2="{xy[i][0]:.1f}" '
                      f'y2="{base + 4}" stroke="#4d6b5a"/>'
                      f'<text x="{xy[i][0]:.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" '
                      f'fill="#b5b09c" font-size="11">{escape(days[i])}</text>')
    period = f", {finished[0][:10]} to {finished[-1][:10]}" if days else ""
    return (f'<svg id="rating-plot" class="plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{escape(label)} over {len(points)} rated games{escape(period)}, from '
            f'{points[0]:.2f} to {points[-1]:.2f}" xmlns="http://www.w3.org/2000/svg">'
            f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}" stroke="#4d6b5a"/>'
            f'<polyline points="{line}" fill="none" stroke="#ffd479" stroke-width="2"/>'
            f'<circle cx="{xy[-1][0]:.1f}" cy="{xy[-1][1]:.1f}" r="3.5" fill="#ffd479"/>'
            f'<text x="{LEFT - 6}" y="{TOP + 4}" text-anchor="end" fill="#b5b09c" '
            f'font-size="11">{high:.2f}</text>'
            f'<text x="{LEFT - 6}" y="{base + 4}" text-anchor="end" fill="#b5b09c" '
            f'font-size="11">{low:.2f}</text>'
            f"{ticks}</svg>")
