"""Adaptive precision: stop when every reported rate is certain enough, never beyond --max-games."""
from __future__ import annotations

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analyses.study.model import RunConfig, StudyError
from analyses.stats.precision import required_games, run_to_precision
from analyses.study.folder import Study, load_manifest, scan_aggs, scan_games
from fake_chunks import fake_chunk

CONFIGS = [RunConfig("base", 3, ("greedy",) * 3), RunConfig("sleep-token", 2, ("greedy", "linear")),
           RunConfig("base", 1, ("greedy",))]


def half_width(k, n):
    lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
    return (hi - lo) / 2


@pytest.mark.parametrize("rate", [0.5, 0.3, 0.05, 0.0])
@pytest.mark.parametrize("h", [0.01, 0.02])
def test_required_games_is_the_smallest_n_by_statsmodels(rate, h):
    n = required_games(rate, h)
    assert half_width(rate * n, n) <= h < half_width(rate * (n - 1), n - 1)


def test_required_games_for_a_coin_at_one_point_is_the_textbook_9604_or_so():
    # z^2 p (1-p) / h^2 = 1.96^2 / 4 / 0.0001 = 9604 (Wald); Wilson is a hair tighter.
    assert 9500 < required_games(0.5, 0.01) <= 9604


def rates_of(folder):
    """(config, games, [half-width of every reported rate]) from the aggregates, by statsmodels."""
    aggs = scan_aggs(folder).collect()
    out = {}
    for c in CONFIGS:
        part = aggs.filter(pl.col("config") == c.id)
        n = int(part.filter(pl.col("seat") == 0)["n"].sum())
        if c.players == 1:
            ks = [part[f"band_{b}"].sum() for b in range(6)]
        else:
            ks = [part.filter(pl.col("seat") == s)["sum_win"].sum() for s in range(c.players)]
        out[c.id] = (n, [half_width(k, n) for k in ks])
    return out


def test_precision_stops_once_every_rate_is_certain_enough(tmp_path):
    h = 0.03
    study = Study(tmp_path / "s", CONFIGS, 0, seed=3, chunk_size=250)
    done = run_to_precision(study, h, max_games=100_000, chunk_fn=fake_chunk, progress=False)
    for cid, (n, widths) in rates_of(tmp_path / "s").items():
        assert done[cid] == n
        assert max(widths) <= h
        assert n <= 1.1 * required_games(0.5, h)  # no wild overshoot
        assert n > 250  # it had to grow past the first round
    m = load_manifest(tmp_path / "s")
    assert m.meta["precision"] == h


def test_precision_respects_max_games(tmp_path):
    study = Study(tmp_path / "s", CONFIGS, 0, seed=3, chunk_size=250)
    done = run_to_precision(study, 0.005, max_games=700, chunk_fn=fake_chunk, progress=False)
    assert set(done.values()) == {700}
    assert scan_games(tmp_path / "s").collect()["game"].max() == 699


def test_precision_does_not_depend_on_chunk_size_or_interruptions(tmp_path):
    whole = Study(tmp_path / "a", CONFIGS, 0, seed=5, chunk_size=200)
    expected = run_to_precision(whole, 0.04, first_round=200, chunk_fn=fake_chunk, progress=False)
    other = Study(tmp_path / "b", CONFIGS, 0, seed=5, chunk_size=64)
    assert run_to_precision(other, 0.04, first_round=200, chunk_fn=fake_chunk, progress=False) == expected

    calls = []

    def dies(task):
        calls.append(task)
        if len(calls) == 5:  # Ctrl-C during the second round
            raise KeyboardInterrupt
        return fake_chunk(task)

    cut = Study(tmp_path / "c", CONFIGS, 0, seed=5, chunk_size=200)
    with pytest.raises(KeyboardInterrupt):
        run_to_precision(cut, 0.04, first_round=200, chunk_fn=dies, progress=False)
    resumed = Study(tmp_path / "c", CONFIGS, 0, seed=5, chunk_size=200)
    assert run_to_precision(resumed, 0.04, first_round=200, chunk_fn=fake_chunk, progress=False) == expected
    key = ["config", "game", "seat"]
    assert scan_games(tmp_path / "c").collect().sort(key).equals(scan_games(tmp_path / "a").collect().sort(key))


@pytest.mark.parametrize("h", [0.0, 0.5, -1.0])
def test_a_bad_precision_is_refused(tmp_path, h):
    with pytest.raises(StudyError, match="precision"):
        run_to_precision(Study(tmp_path / "s", CONFIGS, 0), h, chunk_fn=fake_chunk, progress=False)
