"""Variant comparison against a baseline, paired on common random numbers.

Game ``g`` of every configuration of a study is dealt from the random stream
``(seed, g)`` and breaks its ties on a separate decision stream of ``(seed,
g)`` (:mod:`simcore.rng`), so game ``g`` of two variants of one deck starts
from the same shuffle and the same decision stream: the same luck, as far as
the variants let the games stay alike. A difference between variants is then
best measured game by game: the paired interval (Student t on the per-game
differences) removes the luck the two variants share. It is narrower than
the unpaired (Welch) interval of two independent samples, given alongside,
when a variant leaves the games alike for long (shifting tokens: about half
as wide) and about as wide when it changes them at once (Sleep Token); see
README "Paired comparisons".
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analyses.games.dreamscape.balance import seat_spread, winning_score
from analyses.study.model import RunConfig, StudyError
from analyses.stats.intervals import Estimate, mean_ci, sample_variance, welch_from_moments
from analyses.study.folder import finished_configs, has_games, scan_games, seat_totals, to_output
from simcore.games.dreamscape.variants import VariantError, parse_variant

METRICS = ("seat_spread", "first_seat_win", "winning_score", "game_length")


def _canonical(text: str) -> str:
    try:
        return parse_variant(text).name
    except VariantError:
        return text


def comparison_groups(folder: str | Path, baseline: str | None = None) -> list[tuple[RunConfig, list[RunConfig]]]:
    """(baseline config, other configs) for every players+strategies played in two or more variants.

    The baseline is ``baseline`` when given (groups without it are left out),
    else ``base`` when the group has it, else the group's first variant.
    """
    groups: dict[tuple, list[RunConfig]] = {}
    for c in finished_configs(folder):
        groups.setdefault((c.players, c.strategies), []).append(c)
    wanted = _canonical(baseline) if baseline else None
    out = []
    for members in groups.values():
        if len({c.variant for c in members}) < 2:
            continue
        names = [_canonical(c.variant) for c in members]
        if wanted is not None:
            if wanted not in names:
                continue
            base = members[names.index(wanted)]
        else:
            base = members[names.index("base")] if "base" in names else members[0]
        out.append((base, [c for c in members if c.id != base.id]))
    if baseline and not out:
        raise StudyError(f"{folder}: no configuration compares against baseline {baseline!r}")
    return out


def _moments(rows: list[dict]) -> dict[str, tuple[float, float, float]]:
    """(sum, sum of squares, n) of every metric's per-game value, from one configuration's seat totals."""
    rows = sorted(rows, key=lambda r: r["seat"])
    first = rows[0]
    _, _, _, spread = seat_spread(rows) if len(rows) > 1 else (None, 0, 0, (0.0, 0.0, float(first["n"])))
    _, ws_total, ws_total2, ws_n = winning_score(rows)
    return {
        "seat_spread": spread,
        "first_seat_win": (first["sum_win"], first["sum2_win"], float(first["n"])),
        "winning_score": (ws_total, ws_total2, ws_n),
        "game_length": (first["sum_length"], first["sum2_length"], float(first["n"])),
    }


def _per_game(folder, configs: list[RunConfig], seats: dict[str, tuple[int, int]]) -> dict[str, dict[str, np.ndarray]]:
    """Per-game metric values of each configuration (games in order), for paired differences."""
    out = {}
    for c in configs:  # one configuration's rows at a time: memory stays at one configuration's games
        part = (scan_games(folder, [c.id]).select(["game", "seat", "win", "score", "length", "aborted"])
                .collect().sort(["game", "seat"]))
        p = c.players
        n = part.height // p
        win = part["win"].to_numpy().reshape(n, p)
        score = part["score"].to_numpy().astype(np.float64).reshape(n, p)
        aborted = part["aborted"].to_numpy().reshape(n, p)[:, 0]
        best, worst = seats[c.id]
        ws = (win * score).sum(axis=1)
        ws[aborted] = np.nan  # aborted games have no winner (R8.4)
        out[c.id] = {
            "game": part["game"].to_numpy().reshape(n, p)[:, 0].copy(),
            "seat_spread": win[:, best] - win[:, worst],
            "first_seat_win": win[:, 0].copy(),
            "winning_score": ws,
            "game_length": part["length"].to_numpy().astype(np.float64).reshape(n, p)[:, 0].copy(),
        }
        del part, win, score
    return out


def compare_variants(folder: str | Path, baseline: str | None = None, pandas: bool = False):
    """Each variant against the baseline, per players and strategies, for four metrics.

    Columns: players, strategies, baseline, variant, metric, baseline_value,
    variant_value, diff, diff_low, diff_high, unpaired_low, unpaired_high,
    paired, games, significant.

    Metrics: ``seat_spread`` (best seat's win rate minus the worst seat's; each
    variant keeps its own best and worst seat, the per-game contrast is the
    difference of those two seats' win credits), ``first_seat_win`` (seat 0's
    win rate), ``winning_score`` (the game's highest score, non-aborted games)
    and ``game_length`` (turns); solo groups get only the last two. With per-game rows ``baseline_value`` /
    ``variant_value`` are the means over the games both played (so
    ``variant_value - baseline_value == diff``; without them, over all games). With per-game rows, ``diff`` is the mean
    per-game difference (variant - baseline) over the games both played (the
    same game index = the same random stream), ``diff_low``/``diff_high`` its
    95% paired t interval and ``paired`` is True; ``games`` counts those
    games. ``unpaired_low``/``unpaired_high`` is Welch's interval of the same
    difference treating the two variants as independent samples. An
    ``--aggregate-only`` study has no per-game rows: ``diff`` is the difference
    of the values, its interval the unpaired one, ``paired`` is False.
    ``significant``: the reported interval excludes 0.
    """
    groups = comparison_groups(folder, baseline)
    if not groups:
        return to_output(pl.DataFrame(schema=_SCHEMA), pandas)
    totals = seat_totals(folder)
    by_config: dict[str, list[dict]] = {}
    for r in totals.iter_rows(named=True):
        by_config.setdefault(r["config"], []).append(r)
    paired = has_games(folder)
    every = {c.id: c for base, others in groups for c in (base, *others)}
    seats = {}
    for c in every.values():
        _, best, worst, _ = seat_spread(by_config[c.id]) if c.players > 1 else (None, 0, 0, None)
        seats[c.id] = (best, worst)
    games = _per_game(folder, list(every.values()), seats) if paired else {}
    rows = []
    for base, others in groups:
        moments = {c.id: _moments(by_config[c.id]) for c in (base, *others)}
        for other in others:
            for metric in METRICS:
                if metric in ("seat_spread", "first_seat_win") and base.players == 1:
                    continue  # solo: one seat, which always "wins"
                sa, s2a, na = moments[base.id][metric]
                sb, s2b, nb = moments[other.id][metric]
                va, vb = (sa / na if na else float("nan")), (sb / nb if nb else float("nan"))
                unpaired = welch_from_moments(vb, sample_variance(sb, s2b, nb), nb, va, sample_variance(sa, s2a, na), na)
                if paired:
                    # values over the games both played, so value - value = diff in every sentence quoting them
                    est, n, va, vb = _paired(games[base.id], games[other.id], metric)
                else:
                    est, n = unpaired, int(min(na, nb))
                rows.append({
                    "players": base.players, "strategies": base.label, "baseline": base.variant, "variant": other.variant,
                    "metric": metric, "baseline_value": va, "variant_value": vb, "diff": est.value,
                    "diff_low": est.low, "diff_high": est.high, "unpaired_low": unpaired.low, "unpaired_high": unpaired.high,
                    "paired": paired, "games": n, "significant": not (est.low <= 0.0 <= est.high),
                })
    return to_output(pl.DataFrame(rows, schema=_SCHEMA), pandas)


def _paired(a: dict[str, np.ndarray], b: dict[str, np.ndarray], metric: str) -> tuple[Estimate, int, float, float]:
    """Paired t estimate of mean(b - a) over the games both played, its n, and the two means over them."""
    common, ia, ib = np.intersect1d(a["game"], b["game"], assume_unique=True, return_indices=True)
    xa, xb = a[metric][ia], b[metric][ib]
    keep = ~(np.isnan(xa) | np.isnan(xb))
    xa, xb = xa[keep], xb[keep]
    if xa.size == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan), 0, nan, nan
    return mean_ci(xb - xa), int(xa.size), float(xa.mean()), float(xb.mean())


_SCHEMA = {
    "players": pl.Int64, "strategies": pl.Utf8, "baseline": pl.Utf8, "variant": pl.Utf8, "metric": pl.Utf8,
    "baseline_value": pl.Float64, "variant_value": pl.Float64, "diff": pl.Float64, "diff_low": pl.Float64,
    "diff_high": pl.Float64, "unpaired_low": pl.Float64, "unpaired_high": pl.Float64, "paired": pl.Boolean,
    "games": pl.Int64, "significant": pl.Boolean,
}
