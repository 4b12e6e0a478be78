"""Cross-fitted control variates (analyses/stats/crossfit.py) on cases whose answer is worked out by hand."""
from __future__ import annotations

import numpy as np
import pytest

from analyses.stats.crossfit import crossfit_reduction, fold_coefficients


def test_an_exact_linear_relation_gives_its_slopes_in_every_fold():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(40, 2))
    y = 3 + 2 * x[:, 0] - x[:, 1]
    fold, coefs = fold_coefficients(y, x)
    assert fold.tolist() == [0, 1] * 20  # deal i in fold i % 2: a split that depends on nothing measured
    assert coefs == pytest.approx(np.array([[2.0, -1.0], [2.0, -1.0]]))


def test_the_reduction_of_a_perfect_control_is_one_over_f():
    # Y = 3 + L with L = 2 X1 - X2 known exactly. The cheap level on twice the deals (f = 1/2): Y - L/2 keeps half
    # of L's spread, Var(L)/4 over n, plus (1/2)^2 Var(L) over the n other deals: Var(L)/(2n) against Var(L)/n,
    # a reduction of 2 = 1 / (1 - rho^2 (1 - f)) with rho = 1.
    rng = np.random.default_rng(5)
    x = rng.normal(size=(60, 2))
    y = 3 + 2 * x[:, 0] - x[:, 1]
    assert crossfit_reduction(y, x, ratio=2.0) == pytest.approx(2.0)
    # the cheap level on no other deal: nothing to learn from it, the plain mean
    assert crossfit_reduction(y, x, ratio=1.0) == pytest.approx(1.0)


def test_a_control_unrelated_to_y_costs_only_its_fitting_noise():
    rng = np.random.default_rng(9)
    x = rng.normal(size=(4000, 1))
    y = rng.normal(size=4000)
    assert crossfit_reduction(y, x, ratio=4.5) == pytest.approx(1.0, abs=0.01)


def test_too_few_deals_to_cross_fit_is_an_error():
    with pytest.raises(ValueError, match="2 folds of 2 deals"):
        fold_coefficients([1.0, 2.0, 3.0], [[1.0], [2.0], [4.0]])
