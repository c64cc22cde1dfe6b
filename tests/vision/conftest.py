"""Fakes shared by the learned reader's tests: networks whose answers follow from the picture."""

from __future__ import annotations

import numpy as np

from vision.crops import CROP_SCALE
from vision.learned_reader import Seen
from vision.networks import Candidate


class WhiteSquareNets:
    """A fake detector proposing given candidates at full resolution (those at least as sure
    as asked), and a fake classifier sure of a 1 where a white face fills as much of a crop as
    a well-sized crop's face does (1 / CROP_SCALE squared); no second opinion."""

    has_second = False

    def __init__(self, *candidates: Candidate) -> None:
        self.candidates = candidates

    def detect(self, image, scale, min_score):
        return [c for c in self.candidates if c.score >= min_score] if scale == 1.0 else []

    def classify(self, crops, second=False):
        white = (crops[..., :3].mean(axis=3) > 128).mean(axis=(1, 2))  # BGR, not the up
        die = np.clip(1 - 4 * np.abs(white - 1 / CROP_SCALE ** 2), 0.01, 0.99)
        probs = np.zeros((len(crops), 7), np.float32)
        probs[:, 0], probs[:, 1] = 1 - die, die
        return probs


def seen(value: int = 4, p: float = 0.97, detector: int | None = None, views: int = 8,
         cut: bool = False, not_die: float = 0.0, centre: tuple[float, float] = (100.0, 80.0),
         size: float = 40.0, counted: int | None = None) -> Seen:
    """What the reader saw of one place: the classifier's mean sure of ``value`` at ``p``, the
    detector's opinion (``detector``, else the same value) at 0.9, the pip count's (``counted``,
    else none)."""
    probs = np.full(7, (1 - p - not_die) / 5, np.float32)
    probs[0] = not_die
    probs[value] = p
    det = np.full(6, 0.02)
    det[(detector or value) - 1] = 0.9
    return Seen(Candidate(centre, size, 0.9, tuple(det)), probs, views, cut, counted=counted)
