"""Adaptive precision: play until every reported rate is as certain as asked.

``--precision H`` keeps adding games to each configuration until the 95%
Wilson interval of every rate reported for it has a half-width of at most
``H`` (multi-player: every seat's win rate; solo: the share of every R10.5
band), or until ``--max-games`` games.

The study proceeds in rounds. Round 1 plays ``first_round`` games of every
configuration (by default one chunk, or fewer when even a rate of 1/2 needs
fewer games). After a round, each configuration whose intervals are still too
wide gets a new target: the games its worst rate needs at the current
estimate (solved from the Wilson formula), plus 3%, capped by
``max_games``. The decisions use only the finished games ``0 .. target - 1``
summed in game order, so the sequence of targets, and the study, do not
depend on timing, backend or interruptions: a resumed study reaches the same
result.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from analyses.study.model import RunConfig, StudyError
from analyses.study.progress import progress_bar
from analyses.stats.intervals import wilson, wilson_half_width
from analyses.study.folder import Study

SAFETY = 1.03  # aim 3% above the estimated need: the estimate moves a little as games are added
DEFAULT_MAX_GAMES = 1_000_000


def required_games(rate: float, precision: float) -> int:
    """The fewest games whose 95% Wilson half-width at ``rate`` is at most ``precision``."""
    if not 0 < precision < 0.5:
        raise StudyError(f"precision must be between 0 and 0.5, got {precision}")
    lo, hi = 1, 2
    while wilson_half_width(rate, hi) > precision:
        lo, hi = hi, hi * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if wilson_half_width(rate, mid) <= precision:
            hi = mid
        else:
            lo = mid + 1
    return hi


def reported_rates(study: Study, config: RunConfig) -> tuple[int, list[tuple[float, float]]]:
    """(games, [(successes, games) per reported rate]) of a configuration's finished games."""
    n, wins, bands = study.seat_stats(config)
    if config.players == 1:
        counts = bands[0] if len(bands) else np.zeros(0)
        return n, [(float(k), n) for k in counts]
    return n, [(float(w), n) for w in wins]


def next_target(study: Study, config: RunConfig, precision: float, max_games: int) -> int | None:
    """The new game target of ``config`` after a round, or None when it is done (precise or capped)."""
    n, rates = reported_rates(study, config)
    if n >= max_games or n < study.target(config):
        return None
    if n and max(wilson(k, m).half_width for k, m in rates) <= precision:
        return None
    need = max(required_games(k / m, precision) for k, m in rates) if n else required_games(0.5, precision)
    step = max(1, n // 20)
    return min(max_games, max(n + step, math.ceil(need * SAFETY)))


def run_to_precision(
    study: Study,
    precision: float,
    max_games: int = DEFAULT_MAX_GAMES,
    first_round: int | None = None,
    chunk_fn: Callable | None = None,
    progress=True,
    backend=None,
) -> dict[str, int]:
    """Play ``study`` until every configuration reaches ``precision`` or ``max_games``.

    Parameters
    ----------
    study : Study
        The study (its configurations are the ones played).
    precision : float
        Largest allowed 95% half-width of any reported rate, e.g. 0.01.
    max_games : int
        Games per configuration at most.
    first_round : int, optional
        Games per configuration of round 1 (default: one chunk, or the games
        a rate of 1/2 needs if fewer).
    chunk_fn, backend :
        As for :meth:`Study.run`.
    progress : bool
        Show one progress bar over all rounds (games/s, ETA of the games known so far).

    Returns
    -------
    dict
        config id -> games played in all.
    """
    if not 0 < precision < 0.5:
        raise StudyError(f"--precision must be between 0 and 0.5, got {precision}")
    if max_games < 1:
        raise StudyError(f"--max-games must be at least 1, got {max_games}")
    start = first_round or min(study.manifest.chunk_size, required_games(0.5, precision))
    for c in study.configs:
        study.set_target(c, min(max_games, max(start, 1)))
    study.manifest.meta.update({"precision": precision, "max_games": max_games})
    bar = progress_bar(0, enabled=bool(progress))
    try:
        rounds = 0
        while True:
            rounds += 1
            bar.set_description_str(f"round {rounds}", refresh=False)
            study.run(chunk_fn, progress=bar, backend=backend)
            grew = False
            for c in study.configs:
                target = next_target(study, c, precision, max_games)
                if target is not None and target > study.target(c):
                    study.set_target(c, target)
                    grew = True
            if not grew:
                break
    finally:
        bar.close()
        study.save()
    return {c.id: study.done(c) for c in study.configs}
