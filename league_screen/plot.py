"""A player's rating over time as a small SVG line, drawn on the server.

Inline SVG, no script and no plotting library: the page's content security policy runs
scripts from the screen's own files only, and a line of a few hundred points is a few
kilobytes of text. One point per rated game, in the order the ratings were computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT, PAD = 480, 140, 24


def rating_svg(points: Sequence[float], label: str = "rating") -> str:
    """The line of ``points`` (ratings after each rated game) with its lowest and highest
    values marked; a sentence for fewer than two points."""
    if len(points) < 2:
        return ('<p class="muted" id="rating-plot">'
                + ("One rated game so far." if points else "No rated game yet.") + "</p>")
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / (len(points) - 1)
    xy = [(PAD + i * step, HEIGHT - PAD - (p - low) / span * (HEIGHT - 2 * PAD))
          for i, p in enumerate(points)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    return (f'<svg id="rating-plot" class="plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{escape(label)} over {len(points)} rated games, from {points[0]:.2f} '
            f'to {points[-1]:.2f}" xmlns="http://www.w3.org/2000/svg">'
            f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
            'stroke="#4d6b5a"/>'
            f'<polyline points="{line}" fill="none" stroke="#ffd479" stroke-width="2"/>'
            f'<circle cx="{xy[-1][0]:.1f}" cy="{xy[-1][1]:.1f}" r="3.5" fill="#ffd479"/>'
            f'<text x="2" y="{PAD - 8}" fill="#b5b09c" font-size="11">{high:.2f}</text>'
            f'<text x="2" y="{HEIGHT - 6}" fill="#b5b09c" font-size="11">{low:.2f}</text>'
            "</svg>")
