"""Control variates with coefficients fitted by cross-fitting: several controls, each fold's coefficients from the others.

:mod:`analyses.stats.control_variate` fixes one ``beta`` in advance. With several controls (strong's win and
score on the same deal, say) the best coefficients are a regression's, and fitting them on the deals the
estimate reads would bias it. Cross-fitting keeps it unbiased: the common deals are split into ``folds`` folds
(deal ``i`` in fold ``i % folds``, so the split depends on nothing measured), and each fold's adjusted values
use coefficients fitted on the other folds only.

With ``n`` common deals, the cheap level on ``N >= n`` deals (``f = n / N``) and controls ``X`` (deals x m)::

    Y_cv = mean(Y - (1 - f) X b_fold(i) over n) + (1 - f) mean(X over the N - n others) b_bar

``b_bar`` the mean of the folds' coefficients, weighted by fold size (with one ``b`` this is the formula of
:mod:`analyses.stats.control_variate`). :func:`crossfit_reduction` gives the variance reduction factor of this
estimator over the plain mean of ``Y`` as the research pilot measures it (``N`` = ``ratio`` n, the other
deals' controls taken with the common deals' spread).
"""
from __future__ import annotations

import numpy as np


def _fit(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Least-squares slopes of ``y`` on the columns of ``x`` (with an intercept, which is dropped)."""
    design = np.column_stack([np.ones(y.size), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    return coef[1:]


def fold_coefficients(y, x, folds: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(fold of each deal, coefficients per fold: folds x m), each fold's fitted on the other folds' deals."""
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64).reshape(y.size, -1)
    if folds < 2 or y.size < 2 * folds:
        raise ValueError(f"cross-fitting needs at least 2 folds of 2 deals, got {folds} folds of {y.size} deals")
    fold = np.arange(y.size) % folds
    coefs = np.array([_fit(y[fold != k], x[fold != k]) for k in range(folds)])
    return fold, coefs


def crossfit_reduction(y, x, ratio: float, folds: int = 2) -> float:
    """Var(plain mean of Y) / Var(Y_cv) for cross-fitted coefficients, when the cheap level played ``ratio``
    times the common deals: s2(Y) / n over s2(Y - (1 - f) X b_fold) / n + (1 - f)^2 b_bar' S_X b_bar / (N - n)."""
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64).reshape(y.size, -1)
    fold, coefs = fold_coefficients(y, x, folds)
    shrink = 1.0 - 1.0 / ratio
    adjusted = y - shrink * np.einsum("dm,dm->d", x, coefs[fold])
    n = y.size
    var_cv = float(adjusted.var(ddof=1)) / n
    if ratio > 1:
        sizes = np.bincount(fold, minlength=folds)
        b_bar = (coefs * sizes[:, None]).sum(axis=0) / n
        cov = np.atleast_2d(np.cov(x, rowvar=False, ddof=1))
        var_cv += shrink * shrink * float(b_bar @ cov @ b_bar) / (n * (ratio - 1.0))
    return float(y.var(ddof=1)) / n / var_cv if var_cv > 0 else float("nan")


__all__ = ["fold_coefficients", "crossfit_reduction"]
