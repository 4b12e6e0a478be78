"""Compile once, visibly: the fast engine and the built-in strategies into numba's on-disk cache.

The engine's kernels take 1-3 minutes to compile on 2 cores; numba caches them
on disk (``__pycache__``), so only the first run of a new installation, a
cleared cache or a new numba pays it. :func:`warm_up` does it up front
(``dreamscape warmup``, run by ``python3 dev.py setup``); :func:`engine_compiled`
tells cheaply (reading the cache's index, compiling nothing) whether a command
is about to compile, so it can say so in one line first (:data:`COMPILE_NOTICE`);
:func:`warm_run` loads or compiles the kernels before a timed run, so progress
bars, times and games/s count play only.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence

COMPILE_NOTICE = "compiling the engine once (1-2 minutes on 2 cores)…"
STRATEGY_NOTICE = "compiling strategy {} (once per version of its file)…"
WORKER_NOTICE = "loading the engine in every Dask worker (a worker with a cold numba cache compiles it first: 1-2 minutes on 2 cores)…"


def engine_compiled() -> bool:
    """Whether numba's cache holds the fast engine compiled from its current source (no compilation here)."""
    from simcore.games.dreamscape.fast.batch import run_chunk
    from simcore.games.dreamscape.fast.strategies import cached_entries

    return cached_entries(run_chunk) > 0


def warm_run(config, strategies: Sequence[str]) -> None:
    """Play one throw-away game of ``config`` so the kernels are loaded (or compiled) before the timed run.

    The results of later runs do not depend on it: every game plays from its
    own stream (seed, game index).
    """
    from simcore.games.dreamscape.fast import simulate

    simulate(config, 1, 0, list(strategies), chunk_size=1)


def warm_up(say: Callable[[str], None] = print) -> float:
    """Compile (or load) the fast engine and every built-in strategy; returns the seconds it took.

    ``say`` gets one line before and one after (with the time).
    """
    t0 = time.perf_counter()
    compiled = engine_compiled()
    say("fast engine already compiled: loading it from the cache" if compiled else COMPILE_NOTICE)
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - compiles (or loads) the built-in strategies' callbacks
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.bots.api import builtin_names

    names = builtin_names()
    for players in (1, 2, 3, 4):
        seats = [names[(i + players) % len(names)] for i in range(players)]
        warm_run(SimConfig(players=players), seats)
    seconds = time.perf_counter() - t0
    say(f"fast engine and {len(names)} built-in strategies ready in {seconds:.1f} s (cached for every later run)")
    return seconds
