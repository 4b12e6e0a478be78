"""Intervals against hand computations of their textbook formulas."""
import math

import numpy as np
import pytest

from analyses.stats.intervals import bootstrap_ci, mean_ci, paired_difference, unpaired_difference, wilson


def wilson_by_hand(k, n, z=1.959963984540054):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k, n", [(50, 100), (0, 20), (20, 20), (413.5, 1000), (1, 3)])
def test_wilson_matches_the_formula(k, n):
    est = wilson(k, n)
    lo, hi = wilson_by_hand(k, n)
    assert est.value == pytest.approx(k / n)
    assert est.low == pytest.approx(lo, abs=1e-12) and est.high == pytest.approx(hi, abs=1e-12)


def test_wilson_50_of_100_known_value():
    est = wilson(50, 100)
    assert (round(est.low, 4), round(est.high, 4)) == (0.4038, 0.5962)


def test_mean_ci_is_the_t_interval():
    x = [1.0, 2.0, 3.0, 4.0, 5.0]
    est = mean_ci(x)
    # t(0.975, 4) = 2.776445; sd = sqrt(2.5); sem = sd / sqrt(5)
    half = 2.7764451051977987 * math.sqrt(2.5) / math.sqrt(5)
    assert est.value == 3.0 and est.low == pytest.approx(3 - half) and est.high == pytest.approx(3 + half)


def test_paired_interval_is_narrower_than_unpaired_on_correlated_data():
    rng = np.random.default_rng(1)
    luck = rng.normal(0, 10, 2000)  # the shared deal: common random numbers
    a = luck + rng.normal(0, 1, 2000) + 0.5
    b = luck + rng.normal(0, 1, 2000)
    paired, unpaired = paired_difference(a, b), unpaired_difference(a, b)
    assert paired.value == pytest.approx(unpaired.value)
    assert paired.half_width < unpaired.half_width / 5
    assert paired.low > 0  # the true difference 0.5 is detected only by the paired interval
    assert unpaired.low < 0


def test_bootstrap_covers_the_median():
    x = np.arange(101, dtype=float)
    est = bootstrap_ci(x, np.median, resamples=500)
    assert est.value == 50 and est.low < 50 < est.high


def test_the_simulation_summary_counts_every_game_with_wilson_intervals():
    from analyses.study.model import RunConfig
    from analyses.games.dreamscape.runsummary import simulation_summary
    from fake_chunks import fake_result

    r = fake_result(RunConfig("base", 3, ("greedy", "random", "linear")), 2, 0, 400)
    s = simulation_summary(r, ["greedy", "random", "linear"])
    assert s["games"] == 400 and s["aborted"] == int(r.aborted.sum()) > 0  # every 97th game aborts
    assert s["mean_game_length"] == pytest.approx(r.length.mean())
    assert [x["strategy"] for x in s["seats"]] == ["greedy", "random", "linear"]
    for seat in range(3):
        wins = r.win[:, seat].sum()  # aborted games count, with no credit
        row = s["seats"][seat]
        assert row["win_rate"] == pytest.approx(wins / 400)
        assert row["win_ci"] == pytest.approx(list(wilson_by_hand(wins, 400)), abs=1e-12)
        assert row["mean_score"] == pytest.approx(r.score[:, seat].mean())
        assert row["mean_z"] == pytest.approx(r.z[:, seat].mean())
        assert row["performed"] == pytest.approx(r.performed[:, seat, :].mean(axis=0).tolist())
    assert sum(x["win_rate"] for x in s["seats"]) == pytest.approx(1 - s["aborted"] / 400)


def test_a_run_summed_chunk_by_chunk_has_the_whole_runs_summary_bit_for_bit():
    """RunTotals (simulate's bounded-memory path): any split into chunks gives the same summary, exactly."""
    from analyses.study.model import RunConfig
    from analyses.games.dreamscape.runsummary import RunTotals, simulation_summary
    from fake_chunks import fake_result

    config = RunConfig("base", 4, ("greedy", "random", "linear", "greedy"))
    whole = simulation_summary(fake_result(config, 5, 0, 600))
    for cuts in ([600], [1] * 7 + [593], [97, 3, 250, 250], [599, 1]):
        totals, first = RunTotals(4, ["greedy", "random", "linear", "greedy"]), 0
        for n in cuts:
            totals.add(fake_result(config, 5, first, n))
            first += n
        assert totals.summary() == whole, cuts
    # the win credits of ties (1/2, 1/3, 1/4) add up exactly: the rates sum to the games with a winner
    rates = sum(x["win_rate"] for x in whole["seats"])
    assert rates * 600 == pytest.approx(600 - whole["aborted"], abs=1e-9)
