"""Balance analyses over a study folder, each a tidy polars DataFrame with 95% intervals.

Rates and means are read from the per-chunk aggregates (``agg-*.parquet``),
so they work for ``--aggregate-only`` studies and need little memory; the
distributions need per-game rows.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from analyses.stats.intervals import mean_from_sums, wilson
from analyses.study.folder import configs_frame, scan_games, seat_totals, to_output
from analyses.tools.seats import seat_spread, winning_score  # noqa: F401 - part of this module's API


def seat_advantage(folder: str | Path, pandas: bool = False):
    """Win rate per seat with its Wilson interval, against the fair share 1/players.

    Columns: config, variant, players, strategies, seat, strategy, games, win_rate,
    win_low, win_high (95% Wilson; shared wins count 1/k, R8.3), fair (1/players),
    lift (win_rate - fair), significant (the interval excludes fair), mean_score
    with score_low/score_high (95% t interval), mean_z, mean_turns, aborted (games
    ended by the R8.4 cap).
    """
    rows = []
    for r in seat_totals(folder).iter_rows(named=True):
        n = r["n"]
        est = wilson(r["sum_win"], n)
        fair = 1.0 / r["players"]
        score = mean_from_sums(r["sum_score"], r["sum2_score"], n)
        rows.append({
            "config": r["config"], "variant": r["variant"], "players": r["players"], "strategies": r["strategies"],
            "seat": int(r["seat"]), "strategy": r["strategy"], "games": n,
            "win_rate": est.value, "win_low": est.low, "win_high": est.high, "fair": fair,
            "lift": est.value - fair, "significant": not (est.low <= fair <= est.high),
            "mean_score": score.value, "score_low": score.low, "score_high": score.high,
            # Z cards and the turn cap are Project Dreamscape's; another game's folder has neither (None, 0)
            "mean_z": r["sum_z"] / n if "sum_z" in r else None, "mean_turns": r["sum_turns"] / n,
            "aborted": r.get("aborted", 0),
        })
    return to_output(pl.DataFrame(rows), pandas)


def game_lengths(folder: str | Path, pandas: bool = False):
    """Mean game length (turns) per configuration with a 95% t interval.

    Columns: config, players, variant, strategies, games, mean_length, length_low, length_high.
    """
    rows = []
    for r in seat_totals(folder).filter(pl.col("seat") == 0).iter_rows(named=True):
        # Project Dreamscape records the game's length apart from a seat's turns; every other game's
        # `turns` (required of play_games, one value per game) is the game's length
        key = "length" if "sum_length" in r else "turns"
        est = mean_from_sums(r[f"sum_{key}"], r[f"sum2_{key}"], r["n"])
        rows.append({"config": r["config"], "players": r["players"], "variant": r["variant"], "strategies": r["strategies"],
                     "games": r["n"], "mean_length": est.value, "length_low": est.low, "length_high": est.high})
    return to_output(pl.DataFrame(rows), pandas)


def _with_configs(folder, frame: pl.DataFrame) -> pl.DataFrame:
    return frame.join(configs_frame(folder).select(["config", "players", "variant"]), on="config")


def score_distribution(folder: str | Path, pandas: bool = False):
    """Histogram of final scores per configuration and seat (needs per-game rows).

    Columns: config, players, variant, seat, score, count.
    """
    counts = (scan_games(folder).group_by(["config", "seat", "score"]).agg(pl.len().alias("count")).collect()
              .with_columns(pl.col("seat").cast(pl.Int64), pl.col("score").cast(pl.Int64), pl.col("count").cast(pl.Int64)))
    out = _with_configs(folder, counts).select(["config", "players", "variant", "seat", "score", "count"])
    return to_output(out.sort(["players", "variant", "config", "seat", "score"]), pandas)


def length_distribution(folder: str | Path, pandas: bool = False):
    """Histogram of game lengths (turns) per configuration (needs per-game rows).

    Columns: config, players, variant, length, count.
    """
    counts = (scan_games(folder).filter(pl.col("seat") == 0).group_by(["config", "length"])
              .agg(pl.len().alias("count")).collect()
              .with_columns(pl.col("length").cast(pl.Int64), pl.col("count").cast(pl.Int64)))
    out = _with_configs(folder, counts).select(["config", "players", "variant", "length", "count"])
    return to_output(out.sort(["players", "variant", "config", "length"]), pandas)


# seat_spread and winning_score (shared by sweep and compare) are the lab's: analyses.tools.seats


def restriction_type_names() -> dict[str, str]:
    """Dream type code -> name (``FF`` -> its card name), the ``type_name`` of ``dreamscape restrict``'s table."""
    from simcore.games.dreamscape.cards import CODES, NAMES

    return {CODES[t]: NAMES[t] for t in range(len(CODES))}
