"""The summary of one in-memory run, and strict JSON: light enough for a quick `dreamscape simulate`.

Nothing here loads polars, pandas or scipy.stats, so a 10-game run starts in
about the time of ``dreamscape --help`` (:mod:`analyses.summary` gathers a
study folder's analyses and re-exports these two functions).

Seats in these dicts are indexes from 0 (``"seat": 0`` is the first player,
"seat 1" in every table a person reads), as in study folders' data files.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from analyses.stats import wilson
from simcore.cards import N_TYPES


def json_ready(obj):
    """``obj`` with NaN and infinite floats as None, so ``json.dumps`` writes strict JSON."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    return obj


def simulation_summary(result, strategy_names: Sequence[str] | None = None) -> dict:
    """The ``dreamscape simulate --json`` summary of an in-memory run (a :class:`simcore.fast.SimResult`).

    Win rates and their 95% Wilson intervals (:func:`analyses.stats.wilson`)
    count every game (aborted games give no credit); score, Z and turn means
    are over all games.
    """
    names = list(strategy_names) if strategy_names is not None else list(result.strategies)
    n = result.n_games
    seats = []
    for s in range(result.players):
        wins = float(result.win[:, s].sum()) if n else 0.0
        rate = wilson(wins, n)
        seats.append(
            {
                "seat": s,
                "strategy": names[s] if s < len(names) else names[-1],
                "win_rate": wins / n if n else 0.0,
                "win_ci": [rate.low, rate.high],
                "mean_score": float(result.score[:, s].mean()) if n else 0.0,
                "mean_z": float(result.z[:, s].mean()) if n else 0.0,
                "mean_turns": float(result.turns[:, s].mean()) if n else 0.0,
                "performed": (result.performed[:, s, :].mean(axis=0).tolist() if n else [0.0] * N_TYPES),
                "chain_points_by_type": (
                    result.chain_by_type[:, s, :].mean(axis=0).tolist() if n else [0.0] * N_TYPES
                ),
            }
        )
    return {
        "games": n,
        "aborted": int(result.aborted.sum()),
        "mean_game_length": float(result.length.mean()) if n else 0.0,
        "seats": seats,
    }
