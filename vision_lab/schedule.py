"""The learning-rate schedule every stage of the recipe uses: a short linear warm-up, then
one cosine to nothing. One function, so the stages cannot drift apart (they once held three
copies of the formula, each a little different)."""

from __future__ import annotations

import math


def lr_at(step: int, steps: int, base: float, warmup: int) -> float:
    """The rate for batch ``step`` (0-based) of ``steps``: ``base`` reached after ``warmup``
    batches, then halved along one cosine to nothing at the last batch."""
    return base * min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / steps))
