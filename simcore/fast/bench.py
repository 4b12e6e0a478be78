"""Benchmark of the fast engine against the reference engine.

:func:`run_bench` returns the ``dreamscape bench --json`` object::

    {"rows": [{"engine": "fast"|"reference", "players": 3, "variant": "base",
               "strategy": "greedy", "games": N, "seconds": s, "games_per_s": x}, ...],
     "cold_start_s": x, "warm_start_s": x}

Cold start is a fresh Python process with an empty numba cache
(``NUMBA_CACHE_DIR``) running a 1,000-game ``simulate``: import plus first
compilation. Warm start is another fresh process doing the same with the cache
the cold run left. Both are wall times of the whole subprocess.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

from simcore.decks import build_deck
from simcore.rng import GameRng
from simcore.rules import Options

VARIANTS = {"base": Options(), "sleep-token+shifting-tokens": Options(True, True)}

_START_SCRIPT = (
    "from simcore.fast import SimConfig, simulate\n"
    "r = simulate(SimConfig(3), 1000, 1, 'greedy')\n"
    "assert r.n_games == 1000\n"
)


def time_fast(players: int, options: Options, strategy: str, games: int, seed: int = 1) -> float:
    """Seconds for ``games`` games on the fast engine (compilation excluded: warmed first)."""
    from simcore.fast import SimConfig, simulate

    cfg = SimConfig(players, options, build_deck())
    simulate(cfg, 10, seed, strategy)  # load / compile outside the timing
    t0 = time.perf_counter()
    simulate(cfg, games, seed, strategy)
    return time.perf_counter() - t0


def time_reference(players: int, options: Options, strategy: str, games: int, seed: int = 1) -> float:
    """Seconds for ``games`` games on the reference engine with the reference bots."""
    from simcore.reference import Game
    from strategies.reference_bots import REFERENCE_BOTS

    deck = build_deck()
    bot = REFERENCE_BOTS[strategy]
    t0 = time.perf_counter()
    for g in range(games):
        rng = GameRng(seed, g)
        game = Game.new(deck, players, rng, options)
        while not game.over:
            game.apply(bot.choose(game.state, game.pending, rng))
    return time.perf_counter() - t0


def time_start(cache_dir: str, timeout: float = 600.0) -> float:
    """Wall seconds of a fresh process running a 1,000-game simulate with ``cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", _START_SCRIPT], env=env, check=True, timeout=timeout, cwd=root)
    return time.perf_counter() - t0


def run_bench(
    *,
    fast_games: int = 100_000,
    reference_games: int = 200,
    players: Sequence[int] = (1, 2, 3, 4),
    variants: Sequence[str] = tuple(VARIANTS),
    strategies: Sequence[str] = ("greedy", "random"),
    start_times: bool = True,
    progress=None,
) -> dict:
    """Games per second of both engines on the standard configurations, plus start times.

    Parameters
    ----------
    fast_games, reference_games : int
        Games per configuration on each engine.
    players, variants, strategies : sequences
        The configurations (variant names from :data:`VARIANTS`).
    start_times : bool
        Also measure cold and warm start in subprocesses (about a minute).
    progress : callable(str), optional
        Called with a line per finished row.
    """
    rows = []
    for n in players:
        for v in variants:
            for strat in strategies:
                for engine, games, timer in (
                    ("fast", fast_games, time_fast),
                    ("reference", reference_games, time_reference),
                ):
                    secs = timer(n, VARIANTS[v], strat, games)
                    row = {
                        "engine": engine,
                        "players": n,
                        "variant": v,
                        "strategy": strat,
                        "games": games,
                        "seconds": secs,
                        "games_per_s": games / secs if secs > 0 else float("inf"),
                    }
                    rows.append(row)
                    if progress:
                        progress(f"{engine:9} {n}p {v:28} {strat:7} {row['games_per_s']:>12,.0f} games/s")
    out: dict = {"rows": rows, "cold_start_s": None, "warm_start_s": None}
    if start_times:
        with tempfile.TemporaryDirectory(prefix="dreamscape-numba-") as cache:
            out["cold_start_s"] = time_start(cache)
            out["warm_start_s"] = time_start(cache)
    return out


def speedups(bench: dict) -> list[dict]:
    """Fast / reference games-per-second ratio for every configuration measured on both."""
    ref = {(r["players"], r["variant"], r["strategy"]): r["games_per_s"] for r in bench["rows"] if r["engine"] == "reference"}
    return [
        {"players": r["players"], "variant": r["variant"], "strategy": r["strategy"],
         "ratio": r["games_per_s"] / ref[(r["players"], r["variant"], r["strategy"])]}
        for r in bench["rows"]
        if r["engine"] == "fast" and (r["players"], r["variant"], r["strategy"]) in ref
    ]
