"""A control variate on common deals: a costly level's mean read with the help of a cheap level's.

The costly level (``Y``) is played on the first ``n`` deals of a study; the cheap level (``X``) was
played on the first ``N >= n`` deals, the same deals first (game *g* of every configuration is dealt
from the random stream (seed, *g*)). On a deal both played, the two outcomes share the deal's luck,
so ``X`` tells how lucky the ``n`` deals were, against all ``N``::

    Y_cv = mean(Y over n) - beta * (mean(X over n) - mean(X over N))

The bracket has expectation 0 whatever ``beta``, so ``Y_cv`` is unbiased as long as ``beta`` does not
depend on these data: it is fixed in advance, from a pilot on other deals (the research page
docs/research/2026-11-28-certify.md measured it). With ``f = n / N`` and ``r`` the deals only the
cheap level played, ``mean(X over N) = f mean(X over n) + (1 - f) mean(X over r)``, so::

    Y_cv = mean(Y - beta (1 - f) X over n) + beta (1 - f) mean(X over r)

two means of independent deals, and its variance is the sum of theirs. The interval is the normal
one at 95% (hundreds of deals at least). When ``n == N`` the cheap level adds nothing and ``Y_cv``
is the plain mean of ``Y`` (its interval then the normal one of that mean).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from analyses.stats.intervals import Z_95, Estimate


class ControlVariate(NamedTuple):
    """The estimate and what it gained: ``plain`` is the mean of ``Y`` alone with its normal interval,
    ``reduction`` the variance of the plain mean over the control variate's (above 1: the control helped),
    ``correlation`` Y's with X's over the common deals (nan where one of them does not vary)."""

    estimate: Estimate
    plain: Estimate
    reduction: float
    correlation: float
    deals: int  # n: deals the costly level played
    control_deals: int  # N: deals the cheap level played


def _normal(mean: float, variance: float) -> Estimate:
    half = Z_95 * math.sqrt(max(variance, 0.0))
    return Estimate(mean, mean - half, mean + half)


def _variance_of_mean(values: np.ndarray) -> float:
    return float(values.var(ddof=1)) / values.size if values.size > 1 else float("nan")


def control_variate(y, x_common, x_rest, beta: float) -> ControlVariate:
    """``Y_cv`` of the module's formula with its 95% interval.

    ``y`` and ``x_common``: the costly and the cheap level's per-deal values on the ``n`` common deals,
    deal by deal in the same order; ``x_rest``: the cheap level's values on the other ``N - n`` deals.
    ``beta`` is fixed in advance (never fitted on these values: the estimate would lose its unbiasedness).
    """
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x_common, dtype=np.float64)
    rest = np.asarray(x_rest, dtype=np.float64)
    if y.shape != x.shape or y.ndim != 1:
        raise ValueError(f"y and x_common must be two lists of the same deals, got shapes {y.shape} and {x.shape}")
    if y.size < 2:
        raise ValueError(f"a control variate needs at least 2 common deals, got {y.size}")
    n, total = y.size, y.size + rest.size
    shrink = beta * rest.size / total  # beta (1 - f)
    adjusted = y - shrink * x
    value = float(adjusted.mean())
    variance = _variance_of_mean(adjusted)
    if rest.size:
        value += shrink * float(rest.mean())
        variance += shrink * shrink * (_variance_of_mean(rest) if rest.size > 1 else 0.0)
    plain_variance = _variance_of_mean(y)
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = float(np.corrcoef(y, x)[0, 1]) if y.std() > 0 and x.std() > 0 else float("nan")
    reduction = plain_variance / variance if variance > 0 else float("nan")
    return ControlVariate(_normal(value, variance), _normal(float(y.mean()), plain_variance), reduction, corr,
                          n, total)


def best_beta(y, x) -> float:
    """The variance-minimising ``beta`` on pilot deals, cov(Y, X) / var(X): for a pilot only, never on the deals
    the estimate reads (:func:`control_variate`)."""
    y, x = np.asarray(y, dtype=np.float64), np.asarray(x, dtype=np.float64)
    vx = float(x.var(ddof=1))
    return float(np.cov(y, x, ddof=1)[0, 1] / vx) if vx > 0 else 0.0


__all__ = ["ControlVariate", "control_variate", "best_beta"]
