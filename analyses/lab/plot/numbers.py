"""How every number with its 95% interval is written, in every table, chart, report and finding of every game.

One form per kind of number (docs: Getting started, conventions):

- a rate (a share of games, a win rate): ``58.8% (58.5-59.0%)``;
- a change or a difference (of rates in percentage points, or of means): signed, ``+2.6 (+1.2 to +4.1)``
  (the bounds may have either sign, so they are joined by "to");
- a mean (turns, rounds, points): ``11.5 (10.2-12.8)``.

An interval that cannot be computed (one game, no games) is written ``(no interval)``.
"""
from __future__ import annotations

import math

NO_INTERVAL = "(no interval)"


def _finite(*values: float) -> bool:
    return all(isinstance(v, (int, float)) and math.isfinite(v) for v in values)


def _signed(value: float, digits: int) -> float:
    """``value`` rounded to ``digits``, a rounded zero written +0.0 (never -0.0)."""
    return round(value, digits) + 0.0 if math.isfinite(value) else value


def rate_with_interval(rate: float, low: float, high: float, digits: int = 1) -> str:
    """0.588, 0.585, 0.590 -> ``"58.8% (58.5-59.0%)"``."""
    text = f"{100 * rate:.{digits}f}%"
    if not _finite(low, high):
        return f"{text} {NO_INTERVAL}"
    return f"{text} ({100 * low:.{digits}f}-{100 * high:.{digits}f}%)"


def change_with_interval(change: float, low: float, high: float, digits: int = 1, scale: float = 100.0) -> str:
    """A signed change with its interval: 0.026, 0.012, 0.041 -> ``"+2.6 (+1.2 to +4.1)"``.

    ``scale`` 100 writes a change of rates in percentage points; 1 writes a change of means as it is.
    """
    change, low, high = (_signed(scale * v, digits) for v in (change, low, high))
    text = f"{change:+.{digits}f}"
    if not _finite(low, high):
        return f"{text} {NO_INTERVAL}"
    return f"{text} ({low:+.{digits}f} to {high:+.{digits}f})"


def mean_with_interval(mean: float, low: float, high: float, digits: int = 1) -> str:
    """A mean with its interval: 11.5, 10.2, 12.8 -> ``"11.5 (10.2-12.8)"``."""
    text = f"{mean:.{digits}f}"
    if not _finite(low, high):
        return f"{text} {NO_INTERVAL}"
    return f"{text} ({low:.{digits}f}-{high:.{digits}f})"
