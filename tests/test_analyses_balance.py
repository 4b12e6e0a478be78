"""Analyses of a study folder against reference computations from the per-game rows.

The study is played by a deterministic stand-in (tests/fake_chunks.py), twice:
with per-game rows and --aggregate-only. Every number is recomputed here from
the rows (or the stand-in's arrays) with numpy, scipy and statsmodels, never
taken from the code under test.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from analyses.games.dreamscape.balance import game_lengths, length_distribution, score_distribution, seat_advantage
from analyses.tools.compare import compare_variants
from analyses.study.model import RunConfig, StudyError
from analyses.stats.skill import skill_vs_luck
from analyses.games.dreamscape.solo import solo_bands
from analyses.games.dreamscape.strength import pair_strength, type_strength
from analyses.games.dreamscape.summary import study_kinds
from analyses.study.folder import Study, scan_games
from analyses.games.dreamscape.sweep import swap_sweep
from analyses.tools.tournament import run_tournament, tournament_from_study
from fake_chunks import CARD_LABELS, fake_chunk, fake_result
from simcore.games.dreamscape.cards import CODES
from simcore.games.dreamscape.rules import SOLO_BANDS, solo_band

GAMES, SEED = 600, 11
G3 = ("greedy",) * 3
CONFIGS = [
    RunConfig("base", 3, G3),
    RunConfig("sleep-token", 3, G3),
    RunConfig("FF:ID", 3, G3),
    RunConfig("base", 2, ("greedy", "linear")),
    RunConfig("base", 2, ("linear", "greedy")),
    RunConfig("base", 1, ("greedy",)),
    RunConfig("sleep-token", 1, ("greedy",)),
]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("studies")
    Study(root / "rows", CONFIGS, GAMES, SEED, chunk_size=250).run(fake_chunk, progress=False)
    Study(root / "agg", CONFIGS, GAMES, SEED, chunk_size=250, aggregate_only=True).run(fake_chunk, progress=False)
    return root / "rows", root / "agg"


@pytest.fixture(scope="module")
def rows(folders):
    return scan_games(folders[0]).collect().sort(["config", "game", "seat"])


def per_game(rows: pl.DataFrame, config: RunConfig, column: str) -> np.ndarray:
    part = rows.filter(pl.col("config") == config.id)
    return part[column].to_numpy().reshape(-1, config.players)


def wilson_ref(k, n):
    return proportion_confint(k, n, alpha=0.05, method="wilson")


def t_ref(x):
    x = np.asarray(x, float)
    return sps.t.interval(0.95, x.size - 1, loc=x.mean(), scale=sps.sem(x))


# ----------------------------------------------------------------------------- seats, lengths, distributions


def test_seat_win_rates_are_wilson_intervals_of_the_rows(folders, rows):
    seats = seat_advantage(folders[0])
    for c in CONFIGS:
        win = per_game(rows, c, "win")
        score = per_game(rows, c, "score")
        for s in range(c.players):
            r = seats.filter((pl.col("config") == c.id) & (pl.col("seat") == s)).row(0, named=True)
            lo, hi = wilson_ref(win[:, s].sum(), GAMES)
            assert r["games"] == GAMES
            assert r["win_rate"] == pytest.approx(win[:, s].mean(), abs=1e-12)
            assert (r["win_low"], r["win_high"]) == pytest.approx((lo, hi), abs=1e-12)
            assert r["fair"] == pytest.approx(1 / c.players)
            assert r["significant"] == (not lo <= 1 / c.players <= hi)
            assert (r["score_low"], r["score_high"]) == pytest.approx(t_ref(score[:, s]), abs=1e-9)
            assert r["aborted"] == sum(1 for g in range(GAMES) if g % 97 == 5)


def test_game_lengths_are_t_intervals(folders, rows):
    lengths = game_lengths(folders[0])
    for c in CONFIGS:
        x = per_game(rows, c, "length")[:, 0]
        r = lengths.filter(pl.col("config") == c.id).row(0, named=True)
        assert r["mean_length"] == pytest.approx(x.mean())
        assert (r["length_low"], r["length_high"]) == pytest.approx(t_ref(x), abs=1e-9)
        assert r["variant"] == c.variant and r["players"] == c.players


def test_distributions_count_every_game(folders, rows):
    scores = score_distribution(folders[0])
    c = CONFIGS[0]
    s0 = per_game(rows, c, "score")[:, 0]
    values, counts = np.unique(s0, return_counts=True)
    mine = scores.filter((pl.col("config") == c.id) & (pl.col("seat") == 0)).sort("score")
    assert mine["score"].to_list() == values.tolist() and mine["count"].to_list() == counts.tolist()
    lengths = length_distribution(folders[0]).filter(pl.col("config") == c.id)
    assert lengths["count"].sum() == GAMES
    with pytest.raises(StudyError, match="aggregate-only"):
        score_distribution(folders[1])


# ----------------------------------------------------------------------------- comparisons


def test_paired_differences_match_scipy_and_are_narrower(folders, rows):
    table = compare_variants(folders[0])
    base, sleep = CONFIGS[0], CONFIGS[1]
    a, b = per_game(rows, base, "win")[:, 0], per_game(rows, sleep, "win")[:, 0]
    r = table.filter((pl.col("variant") == "sleep-token") & (pl.col("metric") == "first_seat_win")).row(0, named=True)
    paired = sps.ttest_rel(b, a).confidence_interval(0.95)
    welch = sps.ttest_ind(b, a, equal_var=False).confidence_interval(0.95)
    assert r["paired"] and r["baseline"] == "base" and r["games"] == GAMES
    assert r["diff"] == pytest.approx(b.mean() - a.mean())
    assert (r["diff_low"], r["diff_high"]) == pytest.approx((paired.low, paired.high), abs=1e-9)
    assert (r["unpaired_low"], r["unpaired_high"]) == pytest.approx((welch.low, welch.high), abs=1e-9)
    # Winning score: the highest score of each non-aborted game.
    ok = np.arange(GAMES) % 97 != 5
    wa, wb = per_game(rows, base, "score").max(axis=1)[ok], per_game(rows, sleep, "score").max(axis=1)[ok]
    r = table.filter((pl.col("variant") == "sleep-token") & (pl.col("metric") == "winning_score")).row(0, named=True)
    ci = sps.ttest_rel(wb, wa).confidence_interval(0.95)
    assert (r["baseline_value"], r["variant_value"]) == pytest.approx((wa.mean(), wb.mean()))
    assert (r["diff_low"], r["diff_high"]) == pytest.approx((ci.low, ci.high), abs=1e-9)
    # Common random numbers: the shared luck cancels in the paired interval.
    for metric in ("winning_score", "game_length", "seat_spread"):
        r = table.filter((pl.col("variant") == "sleep-token") & (pl.col("metric") == metric)).row(0, named=True)
        assert r["diff_high"] - r["diff_low"] < 0.8 * (r["unpaired_high"] - r["unpaired_low"]), metric
    assert set(table["variant"].to_list()) == {"sleep-token", "FF:ID"}  # 3-player greedy group only
    assert set(table["metric"].to_list()) == {"seat_spread", "first_seat_win", "winning_score", "game_length"}


def test_seat_spread_contrast_matches_the_per_game_difference(folders, rows):
    table = compare_variants(folders[0], baseline="base")
    base, sleep = CONFIGS[0], CONFIGS[1]

    def contrast(c):
        w = per_game(rows, c, "win")
        rates = w.mean(axis=0)
        return w[:, rates.argmax()] - w[:, rates.argmin()]

    d = contrast(sleep) - contrast(base)
    r = table.filter((pl.col("variant") == "sleep-token") & (pl.col("metric") == "seat_spread")).row(0, named=True)
    assert r["diff"] == pytest.approx(d.mean())
    assert (r["diff_low"], r["diff_high"]) == pytest.approx(t_ref(d), abs=1e-9)


def test_aggregate_only_compare_falls_back_to_unpaired(folders):
    paired, unpaired = compare_variants(folders[0]), compare_variants(folders[1])
    assert not unpaired["paired"].any() and paired["paired"].all()
    for col in ("baseline_value", "variant_value", "unpaired_low", "unpaired_high"):
        assert unpaired[col].to_list() == pytest.approx(paired[col].to_list(), abs=1e-9)
    assert unpaired["diff_low"].to_list() == pytest.approx(paired["unpaired_low"].to_list(), abs=1e-9)


def test_an_unknown_baseline_is_a_clear_error(folders):
    with pytest.raises(StudyError, match="baseline"):
        compare_variants(folders[0], baseline="shifting-tokens")


# ----------------------------------------------------------------------------- sweep


def test_swap_sweep_rows_match_the_games(folders, rows):
    sweep = swap_sweep(folders[0])
    assert set(sweep["variant"].to_list()) == {"base", "sleep-token", "FF:ID"}
    r = sweep.filter(pl.col("variant") == "FF:ID").row(0, named=True)
    assert (r["swaps"], r["removed"], r["added"], r["options"]) == ("FF:ID", "FF", "ID", "base")
    r = sweep.filter((pl.col("variant") == "sleep-token") & (pl.col("players") == 3)).row(0, named=True)
    assert (r["swaps"], r["removed"], r["options"]) == ("none", "", "sleep-token")
    c = CONFIGS[1]
    w = per_game(rows, c, "win")
    rates = w.mean(axis=0)
    d = w[:, rates.argmax()] - w[:, rates.argmin()]
    assert r["seat_spread"] == pytest.approx(rates.max() - rates.min())
    assert (r["spread_low"], r["spread_high"]) == pytest.approx(t_ref(d), abs=1e-9)
    assert r["first_seat_win"] == pytest.approx(rates[0])
    ok = np.arange(GAMES) % 97 != 5
    ws = per_game(rows, c, "score").max(axis=1)[ok]
    assert r["mean_winning_score"] == pytest.approx(ws.mean())
    assert (r["ws_low"], r["ws_high"]) == pytest.approx(t_ref(ws), abs=1e-9)
    assert r["mean_length"] == pytest.approx(per_game(rows, c, "length")[:, 0].mean())


# ----------------------------------------------------------------------------- types and cards


def test_type_strength_matches_a_direct_count(folders, rows):
    strength = type_strength(folders[0])
    c = CONFIGS[0]
    perf = np.stack([per_game(rows, c, f"performed_{code}") for code in CODES], axis=2)  # games x seats x types
    chain = np.stack([per_game(rows, c, f"chain_{code}") for code in CODES], axis=2)
    win = per_game(rows, c, "win")
    base_types = [code for code in CODES[:8]]
    got = strength.filter((pl.col("variant") == "base") & (pl.col("players") == 3))
    assert got["type"].to_list() == base_types  # the expansion types are not in the base deck
    for t, code in enumerate(base_types):
        r = got.filter(pl.col("type") == code).row(0, named=True)
        more = perf[:, :, t] > perf[:, :, t].mean(axis=1, keepdims=True)
        k, n = (win * more).sum(), more.sum()
        lo, hi = wilson_ref(k, n)
        assert r["games_more"] == n
        assert r["win_rate_more"] == pytest.approx(k / n)
        assert (r["win_low"], r["win_high"]) == pytest.approx((lo, hi), abs=1e-12)
        assert r["lift"] == pytest.approx(k / n - 1 / 3)
        assert r["performed_per_game"] == pytest.approx(perf[:, :, t].sum() / GAMES)
        assert r["pick_share"] == pytest.approx(perf[:, :, t].sum() / perf[:, :, :].sum())
        assert r["chain_points_per_game"] == pytest.approx(chain[:, :, t].sum() / GAMES)


def test_pair_strength_matches_the_held_cards(folders):
    pairs = pair_strength(folders[0])
    c = CONFIGS[0]
    result = fake_result(c, SEED, 0, GAMES)
    got = pairs.filter((pl.col("variant") == "base") & (pl.col("players") == 3))
    assert sorted(got["card"].to_list()) == sorted(set(CARD_LABELS))
    for label in set(CARD_LABELS):
        cols = [i for i, lab in enumerate(CARD_LABELS) if lab == label]
        held = result.held[:, :, cols].max(axis=2) > 0
        k, n = (result.win * held).sum(), held.sum()
        r = got.filter(pl.col("card") == label).row(0, named=True)
        assert r["seat_games"] == n and r["held_rate"] == pytest.approx(n / (GAMES * 3))
        assert (r["win_rate_held"], r["win_low"], r["win_high"]) == pytest.approx((k / n, *wilson_ref(k, n)), abs=1e-12)


# ----------------------------------------------------------------------------- solo, skill, tournament


def test_solo_bands_are_wilson_shares_of_rulebook_bands(folders, rows):
    bands = solo_bands(folders[0])
    c = CONFIGS[5]
    scores = per_game(rows, c, "score")[:, 0]
    got = bands.filter((pl.col("variant") == "base") & (pl.col("strategy") == "greedy"))
    assert got["band"].to_list() == [label for _, _, label in SOLO_BANDS]  # rulebook order (R10.5)
    labels = [solo_band(s) for s in scores]
    assert len(set(labels)) >= 3  # the stand-in covers several bands
    for r in got.iter_rows(named=True):
        k = labels.count(r["band"])
        assert r["count"] == k and r["games"] == GAMES
        assert (r["share_low"], r["share_high"]) == pytest.approx(wilson_ref(k, GAMES), abs=1e-12)
        assert (r["score_low"], r["score_high"]) == pytest.approx(t_ref(scores), abs=1e-9)


def test_skill_vs_luck_counts_the_stronger_bot_where_it_met_the_weaker(folders, rows):
    skill = skill_vs_luck(folders[0])
    assert skill.height == 1
    r = skill.row(0, named=True)
    assert (r["stronger"], r["weaker"], r["ranked_by"]) == ("linear", "greedy", "ladder")  # random < greedy < ... < linear
    credit = per_game(rows, CONFIGS[3], "win")[:, 1].sum() + per_game(rows, CONFIGS[4], "win")[:, 0].sum()
    assert r["games"] == 2 * GAMES and r["fair"] == pytest.approx(0.5)
    assert (r["stronger_win_rate"], r["win_low"], r["win_high"]) == pytest.approx(
        (credit / (2 * GAMES), *wilson_ref(credit, 2 * GAMES)), abs=1e-12)


def test_a_study_tournament_equals_the_in_memory_tournament(tmp_path):
    from analyses.games.dreamscape.studyfile import configs_for

    names = ["greedy", "chain", "linear"]
    configs = configs_for(["base"], [3], tournament=names)
    Study(tmp_path / "t", configs, 300, 4, chunk_size=128).run(fake_chunk, progress=False)

    def play(players, variant, seating, seed, first, games):
        result = fake_result(RunConfig(variant, players, seating), seed, first, games)
        return {"win": result.win, "score": result.score}

    memory = run_tournament(names, 3, "base", 300, seed=4, play=play)
    study = tournament_from_study(tmp_path / "t")
    assert study.standings.equals(memory.standings)
    assert study.payoff.sort(["strategy", "opponent"]).equals(memory.payoff.sort(["strategy", "opponent"]))
    assert (study.dominant, study.cycles, study.games_per_seating) == (memory.dominant, memory.cycles, 300)


# ----------------------------------------------------------------------------- kinds, aggregate-only


def test_study_kinds_say_what_a_folder_holds(folders, tmp_path):
    assert study_kinds(folders[0]) == {"seats", "types", "compare", "sweep", "tournament", "skill", "solo"}
    Study(tmp_path / "one", [RunConfig("base", 3, G3)], 50, 1, chunk_size=50).run(fake_chunk, progress=False)
    assert study_kinds(tmp_path / "one") == {"seats", "types"}
    Study(tmp_path / "solo", [RunConfig("base", 1, ("greedy",))], 50, 1, chunk_size=50).run(fake_chunk, progress=False)
    assert study_kinds(tmp_path / "solo") == {"solo"}


@pytest.mark.parametrize("analysis", [seat_advantage, game_lengths, type_strength, pair_strength, swap_sweep,
                                      solo_bands, skill_vs_luck])
def test_aggregate_only_analyses_equal_the_per_game_ones(folders, analysis):
    with_rows, aggregates = analysis(folders[0]), analysis(folders[1])
    assert aggregates.height > 0
    assert aggregates.columns == with_rows.columns
    for col in with_rows.columns:
        a, b = with_rows[col].to_list(), aggregates[col].to_list()
        if with_rows[col].dtype == pl.Float64:
            assert b == pytest.approx(a, abs=1e-12, nan_ok=True), col
        else:
            assert a == b, col


def test_pandas_on_request(folders):
    import pandas as pd

    frame = seat_advantage(folders[0], pandas=True)
    assert isinstance(frame, pd.DataFrame) and len(frame) == sum(c.players for c in CONFIGS)
    assert math.isclose(frame["win_rate"].iloc[0], seat_advantage(folders[0])["win_rate"][0])
