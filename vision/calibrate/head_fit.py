"""The table's head fitted on its examples: a ridge around the model's head, its pull and its
temperature chosen on the examples' own out-of-fold readings.

Step 4 of :mod:`vision.calibrate.adapt` (which matches the known throws' places to their
values, holds some back and judges): multinomial logistic regression on each view's
features, started from the model's head and pulled towards it (:func:`fit`, a ridge worth
some examples), so that a few dozen dice move it only where they agree. How strong the pull,
and then a temperature, are chosen on out-of-fold readings of the fitted pictures' places
(:func:`choose`): the probabilities stay calibrated, so the model's ``min_value`` keeps its
meaning. numpy only: it runs at the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.learned.face_model import CLASSES, Head

#: how many examples the model's own head counts as, in the fit's pull towards it: the
#: candidates, strongest first, one chosen per calibration (:func:`choose`)
PRIORS = (100.0, 30.0, 10.0, 3.0)
PRIOR_EXAMPLES = PRIORS[0]
#: gradient steps of the fit (accelerated; the fit is convex)
STEPS = 300
#: temperatures tried, a factor of about 1.06 apart
TEMPERATURES = np.exp(np.linspace(math.log(0.25), math.log(4.0), 49))
#: folds of the fitted places whose out-of-fold readings choose the pull and the temperature
FOLDS = 3


@dataclass(frozen=True)
class Examples:
    """Features (one row per view) and the class each view is (0 not a die, 1-6 the value);
    ``group`` is the place a row came from, so a place's views stay together."""

    x: np.ndarray
    y: np.ndarray
    group: np.ndarray

    @property
    def dice(self) -> int:
        return int(len(set(self.group[self.y > 0].tolist())))

    @property
    def not_dice(self) -> int:
        return int(len(set(self.group[self.y == 0].tolist())))


def fit(ex: Examples, base: Head, *, prior: float = PRIOR_EXAMPLES, steps: int = STEPS,
        ) -> tuple[np.ndarray, np.ndarray]:
    """Weights and bias (temperature 1) of multinomial logistic regression on ``ex``, started
    from ``base`` (its temperature folded in) and pulled towards it.

    Loss: the summed cross-entropy plus ``lam / 2`` times the squared distance to the base's
    weights and bias, with ``lam`` the curvature of ``prior`` examples of these features (a
    quarter of their mean square per feature, times ``prior``), so the pull does not depend
    on the features' scale. Nesterov's accelerated gradient with the step of the loss's
    Lipschitz bound: no line search, and the same result each time.
    """
    w0 = base.weight.astype(np.float64) / base.temperature
    b0 = base.bias.astype(np.float64) / base.temperature
    x = np.hstack([ex.x, np.ones((len(ex.x), 1))])
    target = np.eye(CLASSES)[ex.y]
    theta0 = np.hstack([w0, b0[:, None]])  # CLASSES x (F + 1)
    lam = prior * 0.25 * float(np.mean(np.sum(ex.x ** 2, axis=1))) / ex.x.shape[1]
    lipschitz = 0.5 * float(np.linalg.norm(x, 2)) ** 2 + lam
    step = 1.0 / lipschitz
    theta, previous, momentum = theta0.copy(), theta0.copy(), 1.0
    for _ in range(steps):
        look_at = theta + ((momentum - 1) / (momentum + 2)) * (theta - previous)
        logits = x @ look_at.T
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - target).T @ x + lam * (look_at - theta0)
        previous, theta = theta, look_at - step * grad
        momentum += 1
    return theta[:, :-1], theta[:, -1]


def place_probs(head: Head, views: np.ndarray) -> np.ndarray:
    """A place's probabilities as the reader computes them: the mean of its views'."""
    return head.probabilities(views).mean(axis=0)


def out_of_fold(ex: Examples, base: Head, prior: float, folds: int = FOLDS,
                seed: int = 0) -> np.ndarray | None:
    """Each row's logits (temperature 1) from a head fitted on the other folds of places (a
    place's views stay in one fold); None when there are too few places to fold."""
    places = np.unique(ex.group)
    if len(places) < 2 * folds:
        return None
    rng = np.random.default_rng(seed)
    fold_of = dict(zip(places.tolist(), (rng.permutation(len(places)) % folds).tolist(),
                       strict=True))
    fold = np.array([fold_of[g] for g in ex.group.tolist()])
    logits = np.zeros((len(ex.y), CLASSES))
    for k in range(folds):
        inside = fold != k
        w, b = fit(Examples(ex.x[inside], ex.y[inside], ex.group[inside]), base, prior=prior)
        logits[~inside] = ex.x[~inside] @ w.T + b
    return logits


def best_temperature(logits: np.ndarray, ex: Examples) -> tuple[float, float]:
    """(temperature, loss): the temperature under which these logits give the places' true
    classes the highest likelihood, each place's views averaged as the reader does."""
    groups, index = np.unique(ex.group, return_inverse=True)
    labels = np.zeros(len(groups), int)
    labels[index] = ex.y
    best, best_loss = 1.0, math.inf
    for t in TEMPERATURES:
        z = logits / t
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.zeros((len(groups), CLASSES))
        np.add.at(mean, index, p)
        mean /= np.bincount(index)[:, None]
        loss = -float(np.sum(np.log(np.maximum(mean[np.arange(len(groups)), labels], 1e-12))))
        if loss < best_loss:
            best, best_loss = float(t), loss
    return best, best_loss


def choose(ex: Examples, base: Head, seed: int = 0) -> tuple[float, float]:
    """(prior, temperature) chosen on out-of-fold readings of the fitted pictures only: the
    pull towards the model's head that predicts unseen places of this table best (the
    strongest on a tie), and the temperature that calibrates it. Too few places to fold:
    the strongest pull and the fit's own temperature 1."""
    choice = (PRIORS[0], 1.0, math.inf)
    for prior in PRIORS:
        logits = out_of_fold(ex, base, prior, seed=seed)
        if logits is None:
            return PRIORS[0], 1.0
        t, loss = best_temperature(logits, ex)
        if loss < choice[2] - 1e-9:
            choice = (prior, t, loss)
    return choice[0], choice[1]
