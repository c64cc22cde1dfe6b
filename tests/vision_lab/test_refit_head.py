"""The head fitted again on the reader's own proposals (vision_lab/refit_head.py), and the
threshold search over a reading (vision_lab/choose_thresholds.py): each can fail."""

from __future__ import annotations

import numpy as np

from vision.learned.decision import Place
from vision.learned.face_model import Head
from vision_lab import choose_thresholds, refit_head
from vision_lab.evaluate import Label


def _blobs(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Features of 7 classes, each around its own corner: separable, as a head should find."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 7, n)
    x = np.eye(7)[y] * 4 + rng.normal(0, 0.5, (n, 7))
    return x, y


def test_a_head_fitted_again_reads_what_the_base_head_misread():
    x, y = _blobs()
    base = Head(np.zeros((7, 7), np.float32), np.zeros(7, np.float32), 1.0)  # knows nothing
    fitted = refit_head.fit(base, x, y)
    assert (fitted.probabilities(x).argmax(1) == y).mean() > 0.95


def test_the_temperature_sharpens_timid_logits_and_softens_overconfident_ones():
    x, y = _blobs()
    logits = np.eye(7)[y] * 1.0  # right but timid
    assert refit_head.fit_temperature(logits, y) < 1.0
    wrong = np.eye(7)[(y + 1) % 7] * 20.0 + np.eye(7)[y] * 19.0  # sure and often wrong
    assert refit_head.fit_temperature(wrong, y) > 1.0


def _place(value: int, p: float, centre: tuple[float, float]) -> Place:
    probs = np.full(7, (1 - p) / 6, np.float32)
    probs[value] = p
    return Place(centre, 40.0, 0.9, probs, np.zeros(3, np.float32), False)


def test_the_search_takes_the_loosest_bar_that_keeps_wrong_values_within_the_budget():
    """Two pictures: a right die at 0.96 and a wrong one at 0.92 (the label says 2). A bar of
    0.93 reads the right one and leaves the wrong one unsure."""
    right = choose_thresholds.Looked((_place(5, 0.96, (100.0, 100.0)),),
                                     (Label(5, (80.0, 80.0, 40.0, 40.0)),), 640, 480)
    wrong = choose_thresholds.Looked((_place(3, 0.92, (100.0, 100.0)),),
                                     (Label(2, (80.0, 80.0, 40.0, 40.0)),), 640, 480)
    chosen, score = choose_thresholds.best([right, wrong], budget=0.0)
    assert score.right == 1 and score.wrong == 0
    assert 0.92 < chosen["min_value"] <= 0.96
