"""Balance analyses over a study folder, each a tidy polars DataFrame with 95% intervals."""
from __future__ import annotations

from pathlib import Path

import polars as pl

from analyses.stats import mean_ci, wilson
from analyses.study import load_manifest, scan_games


def configs_frame(folder: str | Path) -> pl.DataFrame:
    """One row per configuration of a study: id, variant, players, strategies."""
    m = load_manifest(folder)
    return pl.DataFrame(
        [{"config": c.id, "variant": c.variant, "players": c.players, "strategies": "/".join(c.strategies)} for c in m.configs]
    )


def seat_advantage(folder: str | Path, pandas: bool = False):
    """Win rate per seat with its Wilson interval, against the fair share 1/players.

    Columns: config, variant, players, strategies, seat, strategy, games, win_rate,
    win_low, win_high, fair, lift (win_rate - fair), significant (interval excludes fair),
    mean_score (with score_low/score_high), mean_z, mean_turns, aborted.
    """
    per_seat = (
        scan_games(folder)
        .group_by(["config", "seat", "strategy"])
        .agg(
            pl.len().alias("games"),
            pl.col("win").sum().alias("wins"),
            pl.col("score").cast(pl.Float64).mean().alias("mean_score"),
            pl.col("score").cast(pl.Float64).std().alias("sd_score"),
            pl.col("z").cast(pl.Float64).mean().alias("mean_z"),
            pl.col("turns").cast(pl.Float64).mean().alias("mean_turns"),
            pl.col("aborted").sum().alias("aborted"),
        )
        .collect()
        .with_columns(pl.col("config").cast(pl.Utf8), pl.col("strategy").cast(pl.Utf8))
        .join(configs_frame(folder), on="config")
        .sort(["players", "variant", "config", "seat"])
    )
    rows = []
    for r in per_seat.iter_rows(named=True):
        est = wilson(r["wins"], r["games"])
        fair = 1.0 / r["players"]
        half = 1.959963984540054 * (r["sd_score"] or 0.0) / max(r["games"], 1) ** 0.5
        rows.append({
            "config": r["config"], "variant": r["variant"], "players": r["players"], "strategies": r["strategies"],
            "seat": r["seat"], "strategy": r["strategy"], "games": r["games"],
            "win_rate": est.value, "win_low": est.low, "win_high": est.high, "fair": fair,
            "lift": est.value - fair, "significant": not (est.low <= fair <= est.high),
            "mean_score": r["mean_score"], "score_low": r["mean_score"] - half, "score_high": r["mean_score"] + half,
            "mean_z": r["mean_z"], "mean_turns": r["mean_turns"], "aborted": r["aborted"],
        })
    out = pl.DataFrame(rows)
    return out.to_pandas() if pandas else out


def game_lengths(folder: str | Path) -> pl.DataFrame:
    """Mean game length (turns) per configuration with a t interval."""
    lf = scan_games(folder).filter(pl.col("seat") == 0).select(["config", "length"]).collect()
    rows = []
    for (config,), part in lf.group_by("config", maintain_order=True):
        est = mean_ci(part["length"].to_numpy())
        rows.append({"config": str(config), "games": part.height, "mean_length": est.value,
                     "length_low": est.low, "length_high": est.high})
    return pl.DataFrame(rows)
