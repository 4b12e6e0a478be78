"""Statistics of one configuration from its seat totals (rows of :func:`analyses.study.folder.seat_totals`).

Every game's study chunks keep the sums these read (``sum_win``, ``sum2_win``, ``sum_winx_J``; a game
that reports scores also ``sum_ws``, ``sum2_ws``), so ``dreamscape compare`` and a game's own
analyses (Project Dreamscape's swap sweep) share them.
"""
from __future__ import annotations

import numpy as np

from analyses.stats.intervals import Estimate, mean_from_sums


def seat_spread(rows: list[dict]) -> tuple[Estimate, int, int, tuple[float, float, float]]:
    """Seat spread of one configuration from its seat totals (rows of :func:`seat_totals`).

    The spread is the best seat's win rate minus the worst seat's. Its
    interval is the 95% t interval of the per-game difference of those two
    seats' win credits (a delta-method / paired interval, computed from the
    aggregates' sums, squares and cross products). It holds the two seats
    fixed, so it ignores that they were picked as the extremes: when all seats
    are close the spread is biased upwards and the interval is optimistic.

    Returns (estimate, best seat, worst seat, (sum, sum of squares, games) of
    the per-game difference).
    """
    rows = sorted(rows, key=lambda r: r["seat"])
    n = rows[0]["n"]
    rates = np.array([r["sum_win"] / n for r in rows])
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    if best == worst:
        return Estimate(0.0, 0.0, 0.0), best, worst, (0.0, 0.0, float(n))
    a, b = rows[best], rows[worst]
    total = a["sum_win"] - b["sum_win"]
    total2 = a["sum2_win"] + b["sum2_win"] - 2 * a[f"sum_winx_{worst}"]
    return mean_from_sums(total, total2, n), best, worst, (total, total2, float(n))


def winning_score(rows: list[dict]) -> tuple[Estimate, float, float, float]:
    """Mean winning score (the highest score of a game, R8.3) over the non-aborted games, t interval.

    From the aggregates: the seats' ``sum_ws`` add up to the sum of winning
    scores because the win credits of a game add up to 1 and every winner has
    the highest score; aborted games (no winner, R8.4) are left out. Returns
    (estimate, sum, sum of squares, games).
    """
    n = rows[0]["n"] - rows[0]["aborted"]
    total = float(sum(r["sum_ws"] for r in rows))
    total2 = float(sum(r["sum2_ws"] for r in rows))
    return mean_from_sums(total, total2, n), total, total2, float(n)
