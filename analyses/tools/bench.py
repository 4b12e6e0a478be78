"""Benchmark of the fast engine against the reference engine.

:func:`run_bench` returns the ``dreamscape bench --json`` object::

    {"rows": [{"engine": "fast"|"reference", "players": 3, "variant": "base",
               "strategy": "greedy", "games": N, "seconds": s, "games_per_s": x}, ...],
     "cold_start_s": x, "warm_start_s": x, "help_s": x, "small_run_s": x, "small_run_spare_s": x}

Cold start is a fresh Python process with an empty numba cache
(``NUMBA_CACHE_DIR``) running the real CLI command ``dreamscape simulate
--games 1000 --json``: import plus first compilation. Warm start is another
fresh process doing the same with the cache the cold run left. Both are wall
times of the whole subprocess. :func:`time_small_runs` adds the start of a
10-game simulate against ``dreamscape --help``, in its own process and handed
to a waiting spare (warm start, :mod:`simcore.warmstart`).

This module registers two strategies that time the strategy hook:
'greedy-hook' (greedy's own function called at every option instead of the
engine's shortcut) and 'greedy-hook-kinds' (the same, declaring the kinds
where greedy tells options apart). Besides the built-ins' shortcut paths, rows
time the registered strategies named in ``hook_strategies`` (by default
'greedy-hook') and the rollout player ('rollout', few games: it plays
thousands of playouts per game). :func:`bench_lines` renders a report as a
readable table.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers the bots timed here ('rollout', 'chain', ...)
from simcore.games.dreamscape.decks import build_deck
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.features import DELTA_KINDS
from simcore.games.dreamscape.fast.strategies import greedy_strategy, register
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

ROOT = Path(__file__).resolve().parents[2]  # the project folder (the timed commands run there)
VARIANTS = {"base": Options(), "sleep-token+shifting-tokens": Options(True, True)}

# Greedy through the generic strategy hook: every option scored by a call of
# greedy's cfunc instead of the engine's MODE_DELTA shortcut (same games).
GREEDY_HOOK = "greedy-hook"
register(GREEDY_HOOK, greedy_strategy, "'greedy' scored through the strategy hook (bench row)")
# The same, declaring the kinds greedy tells apart: calls skipped elsewhere.
GREEDY_HOOK_KINDS = "greedy-hook-kinds"
register(GREEDY_HOOK_KINDS, greedy_strategy, "'greedy' through the hook, declaring its kinds (bench row)",
         decides=DELTA_KINDS)

START_RUN = ("simulate", "--games", "1000", "--json")


def console_script() -> list[str]:
    """The installed ``dreamscape`` command (beside this Python, else on PATH): timed as a user starts it."""
    here = Path(sys.executable).parent / "dreamscape"
    found = str(here) if here.is_file() else shutil.which("dreamscape")
    if found is None:
        raise RuntimeError("the dreamscape command is not installed (pip install -e .): nothing to time")
    return [found]


def time_fast(players: int, options: Options, strategy, games: int, seed: int = 1) -> float:
    """Seconds for ``games`` games on the fast engine (compilation excluded: warmed first).

    ``strategy`` is one registered name for every seat, or one per seat.
    """
    cfg = SimConfig(players, options, build_deck())
    simulate(cfg, 10, seed, strategy)  # load / compile outside the timing
    t0 = time.perf_counter()
    simulate(cfg, games, seed, strategy, chunk_size=max(games, 1))
    return time.perf_counter() - t0


def time_reference(players: int, options: Options, strategy: str, games: int, seed: int = 1) -> float:
    """Seconds for ``games`` games on the reference engine with the reference bots."""
    deck = build_deck()
    bot = REFERENCE_BOTS[strategy]
    t0 = time.perf_counter()
    for g in range(games):
        game = Game.new(deck, players, GameRng(seed, g), options)
        rng = GameRng.decisions(seed, g)
        while not game.over:
            game.apply(bot.choose(game.state, game.pending, rng))
    return time.perf_counter() - t0


def time_start(cache_dir: str, timeout: float = 600.0) -> float:
    """Wall seconds of a fresh process running a 1,000-game simulate with ``cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, DREAMSCAPE_SERVER="off")  # no spare: the process's own start
    t0 = time.perf_counter()
    proc = subprocess.run(
        [*console_script(), *START_RUN], env=env, timeout=timeout, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    secs = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"start-time command failed (exit {proc.returncode}): {tail[0]}")
    return secs


SMALL_RUN = ("simulate", "--players", "3", "--games", "10", "--seed", "1", "--json")


def _cli_seconds(args: Sequence[str], env: dict, root: str, timeout: float = 600.0) -> float:
    """Wall seconds of a fresh ``dreamscape ARGS`` process (its console entry, so warm start applies)."""
    t0 = time.perf_counter()
    proc = subprocess.run([*console_script(), *args], env=env, timeout=timeout, cwd=root,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"start-time command failed (exit {proc.returncode}): {tail[0]}")
    return secs


def _wait_for_spare(env: dict, root: str, timeout: float = 600.0) -> None:
    """Until a spare of the current code waits (``dreamscape server --json``); raises RuntimeError after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run([*console_script(), "server", "--json"], env=env, cwd=root,
                             capture_output=True, text=True, timeout=60)
        if out.returncode == 0 and any(s["ready"] and s["current"] for s in json.loads(out.stdout)["spares"]):
            return
        time.sleep(0.25)
    raise RuntimeError("no spare process became ready for the warm-start measurement")


def time_small_runs(repeats: int = 5) -> dict:
    """Start of a small run against ``dreamscape --help``, every kind in turn in one run (median seconds).

    Three kinds, each a fresh process: ``--help``; a 10-game simulate in its
    own process (warm numba cache, warm start off); the same handed to a
    waiting spare (:mod:`simcore.warmstart`). Before each round the next spare
    has finished loading, so its loading never overlaps a timed command.
    """
    root = ROOT
    with tempfile.TemporaryDirectory(prefix="dreamscape-spares-") as sockets:
        base = dict(os.environ, DREAMSCAPE_SERVER_DIR=sockets, DREAMSCAPE_SERVER_IDLE="300")
        off, on = dict(base, DREAMSCAPE_SERVER="off"), dict(base, DREAMSCAPE_SERVER="on")
        _cli_seconds(SMALL_RUN, on, root)  # loads the cache and leaves the first spare
        times: dict[str, list[float]] = {"help_s": [], "small_run_s": [], "small_run_spare_s": []}
        try:
            for _ in range(repeats):
                _wait_for_spare(on, root)
                times["help_s"].append(_cli_seconds(["--help"], off, root))
                times["small_run_s"].append(_cli_seconds(SMALL_RUN, off, root))
                times["small_run_spare_s"].append(_cli_seconds(SMALL_RUN, on, root))
        finally:
            subprocess.run([*console_script(), "server", "--stop"], env=on, cwd=root,
                           capture_output=True, timeout=60)
    return {key: statistics.median(values) for key, values in times.items()}


def run_bench(
    *,
    fast_games: int = 100_000,
    reference_games: int = 200,
    players: Sequence[int] = (1, 2, 3, 4),
    variants: Sequence[str] = tuple(VARIANTS),
    strategies: Sequence[str] = ("greedy", "random"),
    hook_strategies: Sequence[str] = (GREEDY_HOOK,),
    rollout_games: int = 300,
    start_times: bool = True,
    quick: bool = False,
    progress=None,
) -> dict:
    """Games per second of both engines on the standard configurations, plus start times.

    Parameters
    ----------
    fast_games, reference_games : int
        Games per configuration on each engine.
    players, variants, strategies : sequences
        The configurations (variant names from :data:`VARIANTS`); each is
        timed on both engines.
    hook_strategies : sequence of str
        Registered fast strategies timed on the fast engine only (3 players,
        base game): the strategy-hook path (:data:`GREEDY_HOOK`,
        :data:`GREEDY_HOOK_KINDS`), a user's bot, a linear bot...
    rollout_games : int
        Games of the 'rollout' row (3 players, base game, 2 greedy opponents); 0: no row.
    start_times : bool
        Also measure cold and warm start in subprocesses (about a minute).
    quick : bool
        Few games per row and no start times (a smoke test in seconds).
    progress : callable(str), optional
        Called with a line per finished row.
    """
    if quick:
        fast_games = min(fast_games, 2_000)
        reference_games = min(reference_games, 10)
        rollout_games = min(rollout_games, 10)
        start_times = False
    rows = []

    def add(engine, n, v, strat, games, secs):
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
            progress(f"{engine:9} {n}p {v:28} {strat:12} {row['games_per_s']:>12,.0f} games/s")

    for n in players:
        for v in variants:
            for strat in strategies:
                add("fast", n, v, strat, fast_games, time_fast(n, VARIANTS[v], strat, fast_games))
                add("reference", n, v, strat, reference_games, time_reference(n, VARIANTS[v], strat, reference_games))
    for strat in hook_strategies:
        add("fast", 3, "base", strat, fast_games, time_fast(3, VARIANTS["base"], strat, fast_games))
    if rollout_games > 0:
        seats = ["rollout", "greedy", "greedy"]
        add("fast", 3, "base", "rollout", rollout_games, time_fast(3, VARIANTS["base"], seats, rollout_games))
    out: dict = {"rows": rows, "cold_start_s": None, "warm_start_s": None, "help_s": None, "small_run_s": None,
                 "small_run_spare_s": None}
    if start_times:
        with tempfile.TemporaryDirectory(prefix="dreamscape-numba-") as cache:
            out["cold_start_s"] = time_start(cache)
            out["warm_start_s"] = time_start(cache)
        out.update(time_small_runs())
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


def bench_lines(report: dict) -> list[str]:
    """A run_bench report as readable lines: one table row per measurement, then start times.

    Columns: engine, players, variant, strategy, games, games/s, on the
    fast rows measured on both engines the fast / reference ratio, and on the
    fast 3-player base-game rows the share of greedy's games/s (the strategy
    plug-in target: a heuristic bot keeps at least half of it).
    """
    ratio = {(r["players"], r["variant"], r["strategy"]): r["ratio"] for r in speedups(report)}
    greedy = next(
        (r["games_per_s"] for r in report["rows"]
         if r["engine"] == "fast" and r["players"] == 3 and r["variant"] == "base" and r["strategy"] == "greedy"),
        None,
    )
    head = (f"{'engine':<10}{'players':>7}  {'variant':<28}{'strategy':<20}{'games':>9}{'games/s':>14}"
            f"{'fast/ref':>10}{'of greedy':>11}")
    lines = [head, "-" * len(head)]
    for r in report["rows"]:
        key = (r["players"], r["variant"], r["strategy"])
        x = f"{ratio[key]:,.0f}x" if r["engine"] == "fast" and key in ratio else ""
        share = ""
        if greedy and r["engine"] == "fast" and r["players"] == 3 and r["variant"] == "base":
            share = f"{r['games_per_s'] / greedy:.0%}"
        lines.append(
            f"{r['engine']:<10}{r['players']:>7}  {r['variant']:<28}{str(r['strategy']):<20}"
            f"{r['games']:>9,}{r['games_per_s']:>14,.1f}{x:>10}{share:>11}"
        )
    for label, key in (("cold start", "cold_start_s"), ("warm start", "warm_start_s")):
        v = report.get(key)
        lines.append(f"{label}: " + (f"{v:.2f} s (fresh process: dreamscape simulate --games 1000 --json)" if v is not None else "not measured"))
    help_s = report.get("help_s")
    for label, key in (("small run, own process", "small_run_s"), ("small run, handed to a spare", "small_run_spare_s")):
        v = report.get(key)
        lines.append(f"{label}: " + (f"{v:.2f} s = {v / help_s:.1f}x dreamscape --help ({help_s:.2f} s; "
                                     f"simulate --players 3 --games 10, median of 5)" if v is not None and help_s
                                     else "not measured"))
    return lines
