"""Many claims on one page: a p-value from each claim's 95% interval, and Holm's correction across them.

A report page states many findings at once (the main study: two dozen headline findings, each read
at three skill levels). Read one by one at 95%, about one in twenty claims with no effect behind it
would still come out significant, so the page's significance is corrected as one family.

**Holm, not Benjamini-Hochberg.** Each verdict is a claim a designer acts on alone ("seat 1 wins too
often under strong play: change the rules"), so the error that matters is any false claim on the
page (the family-wise error), not the expected share of false ones among the significant
(Benjamini-Hochberg's false discovery rate, suited to screening many candidates for a second look).
Holm controls the family-wise error at 5% under any dependence between the claims; the claims of
one study share their deals, so an assumption of independence (or of positive dependence, which
Benjamini-Hochberg needs) is not one to lean on. Holm is uniformly more powerful than Bonferroni,
which controls the same error. The correction is statsmodels' (``multipletests``).

**p from the interval.** The analyses give 95% intervals (Wilson for rates, paired t for changes),
not p-values. :func:`p_from_interval` turns one back into a two-sided p-value with a normal
approximation whose standard error is the interval's half on the side of the reference, so that
p < 0.05 exactly when the interval leaves the reference out: one claim alone keeps the verdict of
its interval.
"""
from __future__ import annotations

import math

from analyses.stats.intervals import Z_95

FAMILY_ALPHA = 0.05
METHOD = "holm"


def p_from_interval(value: float, low: float, high: float, reference: float) -> float:
    """The two-sided p-value of ``value`` against ``reference``, from its 95% interval [low, high].

    The standard error is the half of the interval that faces the reference, over 1.96; a
    zero-width half gives 0 (the value is not the reference) or 1 (it is).
    """
    if value == reference:
        return 1.0
    half = (value - low) if value > reference else (high - value)
    if not half > 0:
        return 0.0
    z = abs(value - reference) / (half / Z_95)
    return math.erfc(z / math.sqrt(2.0))  # 2 * (1 - Phi(z)), exact in the tails where 1 - Phi loses digits


def holm(pvalues: list[float], alpha: float = FAMILY_ALPHA) -> list[bool]:
    """Which of the claims with these p-values stay significant under Holm's step-down correction at ``alpha``
    (family-wise error), in the same order; an empty family gives an empty list."""
    if not pvalues:
        return []
    from statsmodels.stats.multitest import multipletests

    reject, _, _, _ = multipletests(pvalues, alpha=alpha, method=METHOD)
    return [bool(r) for r in reject]


__all__ = ["FAMILY_ALPHA", "METHOD", "p_from_interval", "holm"]
