"""Solo (Virtual Dreaming, R10): the rulebook's score bands (R10.5) per strategy and variant."""
from __future__ import annotations

from pathlib import Path

import polars as pl

from analyses.stats.intervals import mean_from_sums, wilson
from simcore.games.dreamscape.study_tables import BAND_LABELS
from analyses.study.folder import seat_totals, to_output

_SCHEMA = {
    "variant": pl.Utf8, "strategy": pl.Utf8, "band": pl.Utf8, "count": pl.Int64, "games": pl.Int64,
    "share": pl.Float64, "share_low": pl.Float64, "share_high": pl.Float64, "mean_score": pl.Float64,
    "score_low": pl.Float64, "score_high": pl.Float64,
}


def solo_bands(folder: str | Path, pandas: bool = False):
    """Share of solo games in each R10.5 band, per variant and strategy.

    Columns: variant, strategy, band (``under 15``, ``15-24``, ... ``55+``, in
    rulebook order), count, games, share with share_low/share_high (95%
    Wilson), mean_score with score_low/score_high (95% t interval; the same on
    every band row of a variant and strategy).
    """
    totals = seat_totals(folder).filter(pl.col("players") == 1)
    rows = []
    for (variant, strategy), part in totals.group_by(["variant", "strategy"], maintain_order=True):
        games = int(part["n"].sum())
        score = mean_from_sums(float(part["sum_score"].sum()), float(part["sum2_score"].sum()), games)
        for k, label in enumerate(BAND_LABELS):
            count = int(part[f"band_{k}"].sum())
            est = wilson(count, games)
            rows.append({
                "variant": variant, "strategy": strategy, "band": label, "count": count, "games": games,
                "share": est.value, "share_low": est.low, "share_high": est.high,
                "mean_score": score.value, "score_low": score.low, "score_high": score.high,
            })
    return to_output(pl.DataFrame(rows, schema=_SCHEMA), pandas)
