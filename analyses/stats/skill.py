"""Skill against luck: how often the stronger bot wins when it meets a weaker one, per variant.

A game where skill decides more is one where the stronger player wins more
often than its fair share of seats. For every variant and player count, every
pair of strategies that sat at the same table (a tournament's seatings, or a
configuration mixing strategies) gives one row: the stronger strategy's win
credit (shared wins 1/k, R8.3) in the games where both played, with its 95%
Wilson interval, against its fair share (its seats / players).

Which one is stronger comes from :data:`LADDER` (the measured strength
ladder of the built-in bots, README) when it ranks both, otherwise from their
overall win rates per seat in that variant and player count.
"""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import polars as pl

from analyses.study.model import exploit_cell
from analyses.stats.intervals import wilson
from analyses.study.folder import seat_totals, to_output

# random < greedy < spoiler / chain / economist < linear < rollout
LADDER = {"random": 0, "greedy": 1, "spoiler": 2, "chain": 2, "economist": 2, "linear": 3, "rollout": 4}

_SCHEMA = {
    "variant": pl.Utf8, "players": pl.Int64, "stronger": pl.Utf8, "weaker": pl.Utf8, "games": pl.Int64,
    "stronger_win_rate": pl.Float64, "win_low": pl.Float64, "win_high": pl.Float64, "fair": pl.Float64,
    "significant": pl.Boolean, "ranked_by": pl.Utf8,
}


def skill_vs_luck(folder: str | Path, pandas: bool = False):
    """The stronger strategy's win rate where it met the weaker one, per variant and player count.

    Columns: variant, players, stronger, weaker, games (games in which both
    sat at the table), stronger_win_rate with win_low/win_high (95% Wilson),
    fair (the stronger one's seats / players, averaged over those games),
    significant (the interval excludes fair), ranked_by (``ladder`` or
    ``win rate``).
    """
    totals = seat_totals(folder).filter(pl.col("players") >= 2)
    rows = []
    for (variant, players), group in totals.group_by(["variant", "players"], maintain_order=True):
        tables = {cid: part for (cid,), part in group.group_by(["config"], maintain_order=True)}
        # tables that mix bots; an exploit cell (one seat searching over the others' bot) measures the bot instead
        mixed = {cid: part for cid, part in tables.items() if part["strategy"].n_unique() > 1
                 and exploit_cell(part.sort("seat")["strategy"].to_list()) is None}
        if not mixed:
            continue
        overall = group.group_by("strategy").agg((pl.col("sum_win").sum() / pl.col("n").sum()).alias("rate"))
        rate = dict(zip(overall["strategy"].to_list(), overall["rate"].to_list()))
        names = sorted({s for part in mixed.values() for s in part["strategy"].to_list()})
        for a, b in combinations(names, 2):
            if a in LADDER and b in LADDER and LADDER[a] != LADDER[b]:
                strong, weak = (a, b) if LADDER[a] > LADDER[b] else (b, a)
                ranked_by = "ladder"
            else:
                strong, weak = (a, b) if rate[a] >= rate[b] else (b, a)
                ranked_by = "win rate"
            games, credit, fair_sum = 0, 0.0, 0.0
            for part in mixed.values():
                seated = part["strategy"].to_list()
                if strong not in seated or weak not in seated:
                    continue
                n = int(part["n"][0])
                mine = part.filter(pl.col("strategy") == strong)
                games += n
                credit += float(mine["sum_win"].sum())
                fair_sum += n * mine.height / players
            if not games:
                continue
            est = wilson(credit, games)
            fair = fair_sum / games
            rows.append({
                "variant": variant, "players": players, "stronger": strong, "weaker": weak, "games": games,
                "stronger_win_rate": est.value, "win_low": est.low, "win_high": est.high, "fair": fair,
                "significant": not (est.low <= fair <= est.high), "ranked_by": ranked_by,
            })
    return to_output(pl.DataFrame(rows, schema=_SCHEMA), pandas)
