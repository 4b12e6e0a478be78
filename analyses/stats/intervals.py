"""Intervals for balance numbers: every rate the lab prints comes with one.

Thin, vectorised wrappers over maintained libraries (scipy; Wilson as statsmodels computes it):
Wilson intervals for rates, t intervals for means and for paired
differences (common random numbers: two variants played on the same seeds),
and the bootstrap where no closed form fits.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

CONFIDENCE = 0.95
# scipy.stats.norm.isf(0.025) as scipy computes it (a test checks the two agree bit for bit):
# `dreamscape simulate` rates its seats with Wilson intervals at 95% and need not load scipy.stats
# (about 2 s) for this one number.
Z_95 = 1.959963984540054


def scipy_stats():
    """scipy.stats, imported on first use (it takes seconds to load; most commands need no t interval)."""
    from scipy import stats

    return stats


class Estimate(NamedTuple):
    """A point estimate with its interval."""

    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def wilson(successes: float, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """Rate ``successes / n`` with its Wilson score interval.

    ``successes`` may be fractional (a shared win credits 1/k, R8.3).
    """
    if n <= 0:
        return Estimate(float("nan"), 0.0, 1.0)
    # statsmodels' proportion_confint(method="wilson") formula, with the critical value cached:
    # the analyses call this tens of thousands of times (tests compare the two).
    z = _critical(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, centre - half, centre + half)


@lru_cache(maxsize=16)
def _critical(confidence: float) -> float:
    if confidence == CONFIDENCE:
        return Z_95
    return float(scipy_stats().norm.isf((1 - confidence) / 2))


def mean_ci(values, confidence: float = CONFIDENCE) -> Estimate:
    """Mean with a Student t interval."""
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"))
    mean = float(x.mean())
    if n == 1:
        return Estimate(mean, float("-inf"), float("inf"))
    sem = float(x.std(ddof=1)) / np.sqrt(n)
    if sem == 0.0:
        return Estimate(mean, mean, mean)
    low, high = scipy_stats().t.interval(confidence, n - 1, loc=mean, scale=sem)
    return Estimate(mean, float(low), float(high))


def paired_difference(a, b, confidence: float = CONFIDENCE) -> Estimate:
    """Mean of ``a - b`` over paired observations (same seed, two variants), t interval."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same shape")
    return mean_ci(a - b, confidence)


def unpaired_difference(a, b, confidence: float = CONFIDENCE) -> Estimate:
    """Difference of means of two independent samples, Welch's t interval."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = float(a.mean() - b.mean())
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = float(np.sqrt(va + vb))
    if se == 0.0:
        return Estimate(diff, diff, diff)
    dof = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    low, high = scipy_stats().t.interval(confidence, dof, loc=diff, scale=se)
    return Estimate(diff, float(low), float(high))


def bootstrap_ci(values, statistic=np.mean, confidence: float = CONFIDENCE, resamples: int = 2000, seed: int = 0) -> Estimate:
    """Percentile bootstrap (scipy.stats.bootstrap, BCa) for statistics with no closed form."""
    x = np.asarray(values, dtype=float)
    result = scipy_stats().bootstrap(
        (x,), statistic, confidence_level=confidence, n_resamples=resamples,
        random_state=np.random.default_rng(seed), vectorized=False, method="BCa",
    )
    return Estimate(float(statistic(x)), float(result.confidence_interval.low), float(result.confidence_interval.high))


def wilson_half_width(rate: float, n: float, confidence: float = CONFIDENCE) -> float:
    """Half-width of the Wilson interval of a rate observed on ``n`` trials (closed form)."""
    if n <= 0:
        return 0.5
    z = _critical(confidence)
    p = min(max(rate, 0.0), 1.0)
    return z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))


def sample_variance(total: float, total2: float, n: float) -> float:
    """Sample variance (ddof=1) from a sum and a sum of squares; 0 when undefined."""
    if n < 2:
        return 0.0
    return max((total2 - total * total / n) / (n - 1), 0.0)


def mean_from_sums(total: float, total2: float, n: float, confidence: float = CONFIDENCE) -> Estimate:
    """Mean with a Student t interval from a sum and a sum of squares (what :func:`mean_ci` gives on the values)."""
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"))
    mean = total / n
    if n == 1:
        return Estimate(mean, float("-inf"), float("inf"))
    sem = float(np.sqrt(sample_variance(total, total2, n) / n))
    if sem == 0.0:
        return Estimate(mean, mean, mean)
    low, high = scipy_stats().t.interval(confidence, n - 1, loc=mean, scale=sem)
    return Estimate(mean, float(low), float(high))


def welch_from_moments(mean_a: float, var_a: float, n_a: float, mean_b: float, var_b: float, n_b: float,
                       confidence: float = CONFIDENCE) -> Estimate:
    """``mean_a - mean_b`` of two independent samples with Welch's t interval, from their moments."""
    diff = float(mean_a - mean_b)
    if n_a < 2 or n_b < 2:  # no spread to measure (a configuration whose every game was aborted has n 0)
        return Estimate(diff, diff, diff)
    va, vb = var_a / n_a, var_b / n_b
    se = float(np.sqrt(va + vb))
    if se == 0.0:
        return Estimate(diff, diff, diff)
    dof = (va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1))
    low, high = scipy_stats().t.interval(confidence, dof, loc=diff, scale=se)
    return Estimate(diff, float(low), float(high))
