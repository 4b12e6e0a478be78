"""Benchmark of a game's fast engine against its reference engine.

Any game's bots are timed on both engines through the game's interface
(:meth:`simcore.games.Game.play_games` with ``engine="fast"`` and
``engine="reference"``, the same games on both). :func:`run_bench` returns the
``dreamscape bench --json`` object::

    {"rows": [{"engine": "fast"|"reference", "players": 3, "variant": "base",
               "strategy": "greedy", "games": N, "seconds": s, "games_per_s": x}, ...],
     "cold_start_s": x, "warm_start_s": x, "help_s": x, "small_run_s": x, "small_run_spare_s": x}

Cold start is a fresh Python process with an empty numba cache
(``NUMBA_CACHE_DIR``) running the real CLI command ``dreamscape simulate
--games 1000 --json`` (with ``--game NAME`` for a game other than the default),
through the installed console script: import plus first compilation. Warm start is another
fresh process doing the same with the cache the cold run left. Both are wall
times of the whole subprocess. :func:`time_small_runs` adds the start of a
10-game simulate against ``dreamscape --help``, in its own process and handed
to a waiting spare (warm start, :mod:`simcore.warmstart`).

For the default game (Project Dreamscape) this module registers two strategies that time its strategy hook:
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
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from analyses.tools.gameplay import as_game
from simcore.games import Game

# The project folder (above analyses/tools/): where the start-time commands run.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def small_run_args(game: Game | str | None = None) -> tuple[str, ...]:
    """The small run whose start is timed: 10 games of ``game`` at 3 seats (or its largest count below that)."""
    the_game = as_game(game)
    players = str(max(n for n in the_game.seat_counts if n <= 3))
    return ("simulate", "--game", the_game.name, "--players", players, "--games", "10", "--seed", "1", "--json")


def cli_command() -> list[str]:
    """The command that starts ``dreamscape`` in a fresh process: the installed console script.

    It sits beside the running interpreter (the virtual environment's bin
    folder), so warm start (:mod:`simcore.warmstart`) applies as for a user;
    without it, ``python -m cli`` runs the same entry point.
    """
    script = Path(sys.executable).parent / ("dreamscape.exe" if os.name == "nt" else "dreamscape")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "cli"]


def start_args(game: Game | str | None = None) -> list[str]:
    """The arguments of the start-time run: a 1,000-game simulate of ``game`` as JSON."""
    return ["simulate", "--game", as_game(game).name, "--games", "1000", "--json"]


def time_games(game: Game | str | None, players: int, variant: str, seats: Sequence[str], games: int,
               engine: str, seed: int = 1) -> float:
    """Seconds for ``games`` games of one seating on ``engine`` through ``game.play_games``.

    On the fast engine ten games are played first, so loading and compiling stay outside the timing.
    """
    the_game = as_game(game)
    setup = the_game.setup(players, variant)
    seats = [the_game.check_strategy(s, setup) for s in seats]
    if engine == "fast":
        the_game.play_games(setup, seats, seed, 0, 10, engine="fast")
    t0 = time.perf_counter()
    the_game.play_games(setup, seats, seed, 0, games, engine=engine)
    return time.perf_counter() - t0


def time_start(cache_dir: str, timeout: float = 600.0, game: Game | str | None = None) -> float:
    """Wall seconds of a fresh process running a 1,000-game simulate of ``game`` with ``cache_dir``.

    Warm start is off in that process: with it on, the timed command would leave a spare behind, loading
    the engine into ``cache_dir`` while the next one is timed and while the caller deletes that folder
    (``Directory not empty``: ``dreamscape bench`` failed after playing every row), then waiting with a
    cache that no longer exists. A spare could not serve it anyway: its own ``NUMBA_CACHE_DIR`` is its key.
    """
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, DREAMSCAPE_SERVER="off")
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    # the console script exits 0 on success, anything else raises
    proc = subprocess.run(
        [*cli_command(), *start_args(game)], env=env, timeout=timeout, cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    secs = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"start-time command failed (exit {proc.returncode}): {tail[0]}")
    return secs


def _cli_seconds(args: Sequence[str], env: dict, root: str, timeout: float = 600.0) -> float:
    """Wall seconds of a fresh ``dreamscape ARGS`` process (its console entry, so warm start applies)."""
    t0 = time.perf_counter()
    proc = subprocess.run([*cli_command(), *args], env=env, timeout=timeout, cwd=root,
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
        out = subprocess.run([*cli_command(), "server", "--json"], env=env, cwd=root,
                             capture_output=True, text=True, timeout=60)
        if out.returncode == 0 and any(s["ready"] and s["current"] for s in json.loads(out.stdout)["spares"]):
            return
        time.sleep(0.25)
    raise RuntimeError("no spare process became ready for the warm-start measurement")


def time_small_runs(repeats: int = 5, game: Game | str | None = None) -> dict:
    """Start of a small run against ``dreamscape --help``, every kind in turn in one run (median seconds).

    Three kinds, each a fresh process: ``--help``; a 10-game simulate in its
    own process (warm numba cache, warm start off); the same handed to a
    waiting spare (:mod:`simcore.warmstart`). Before each round the next spare
    has finished loading, so its loading never overlaps a timed command.
    """
    root = ROOT
    small = small_run_args(game)
    with tempfile.TemporaryDirectory(prefix="dreamscape-spares-") as sockets:
        base = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""),
                    DREAMSCAPE_SERVER_DIR=sockets, DREAMSCAPE_SERVER_IDLE="300")
        off, on = dict(base, DREAMSCAPE_SERVER="off"), dict(base, DREAMSCAPE_SERVER="on")
        _cli_seconds(small, on, root)  # loads the cache and leaves the first spare
        times: dict[str, list[float]] = {"help_s": [], "small_run_s": [], "small_run_spare_s": []}
        try:
            for _ in range(repeats):
                _wait_for_spare(on, root)
                times["help_s"].append(_cli_seconds(["--help"], off, root))
                times["small_run_s"].append(_cli_seconds(small, off, root))
                times["small_run_spare_s"].append(_cli_seconds(small, on, root))
        finally:
            subprocess.run([*cli_command(), "server", "--stop"], env=on, cwd=root,
                           capture_output=True, timeout=60)
    return {key: statistics.median(values) for key, values in times.items()}


def run_bench(
    *,
    game: Game | str | None = None,
    fast_games: int = 100_000,
    reference_games: int = 200,
    players: Sequence[int] | None = None,
    variants: Sequence[str] | None = None,
    strategies: Sequence[str] | None = None,
    hook_strategies: Sequence[str] = (),
    rollout_seats: Sequence[str] | None = None,
    rollout_games: int = 300,
    start_times: bool = True,
    quick: bool = False,
    progress=None,
) -> dict:
    """Games per second of a game's two engines on the standard configurations, plus start times.

    Parameters
    ----------
    game : Game or str, optional
        The game (default: the default game, Project Dreamscape).
    fast_games, reference_games : int
        Games per configuration on each engine.
    players, variants, strategies : sequences, optional
        The configurations, each timed on both engines through ``game.play_games``.
        Defaults: every seat count of the game; its baseline and last rules variant
        (``game.variants``; ``base`` without them); the bots both engines play
        (``game.reference_strategies``).
    hook_strategies : sequence of str
        Strategies timed on the fast engine only, at 3 players (the game's largest
        seat count if it has no 3), baseline variant (a game's wing gives its own:
        Project Dreamscape's strategy-hook path, :mod:`analyses.games.dreamscape.bench`).
    rollout_seats, rollout_games : sequence of str, int
        A slow bot's row: ``rollout_games`` games of these seats (the first is the row's
        strategy), baseline variant; None or 0 games: no row.
    start_times : bool
        Also measure cold and warm start in subprocesses (about a minute).
    quick : bool
        Few games per row and no start times (a smoke test in seconds).
    progress : callable(str), optional
        Called with a line per finished row.

    Returns
    -------
    dict
        ``rows`` (engine, players, variant, strategy, games, seconds, games_per_s),
        ``cold_start_s``, ``warm_start_s``, ``help_s``, ``small_run_s``,
        ``small_run_spare_s`` (None when not measured).
    """
    the_game = as_game(game)
    if quick:
        fast_games = min(fast_games, 2_000)
        reference_games = min(reference_games, 10)
        rollout_games = min(rollout_games, 10)
        start_times = False
    counts = list(players if players is not None else the_game.seat_counts)
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

    for n in counts:
        for v in (variants if variants is not None else default_variants(the_game, n)):
            bots = strategies if strategies is not None else the_game.reference_strategies(the_game.setup(n, v))
            for strat in bots:
                add("fast", n, v, strat, fast_games, time_games(the_game, n, v, [strat] * n, fast_games, "fast"))
                add("reference", n, v, strat, reference_games,
                    time_games(the_game, n, v, [strat] * n, reference_games, "reference"))
    table = 3 if 3 in the_game.seat_counts else max(the_game.seat_counts)
    for strat in hook_strategies:
        add("fast", table, "base", strat, fast_games, time_games(the_game, table, "base", [strat] * table, fast_games, "fast"))
    if rollout_games > 0 and rollout_seats:
        seats = list(rollout_seats)
        add("fast", len(seats), "base", seats[0], rollout_games,
            time_games(the_game, len(seats), "base", seats, rollout_games, "fast"))
    out: dict = {"rows": rows, "cold_start_s": None, "warm_start_s": None, "help_s": None, "small_run_s": None,
                 "small_run_spare_s": None}
    if start_times:
        with tempfile.TemporaryDirectory(prefix="dreamscape-numba-") as cache:
            out["cold_start_s"] = time_start(cache, game=the_game)
            out["warm_start_s"] = time_start(cache, game=the_game)
        out.update(time_small_runs(game=the_game))
    return out


def default_variants(game: Game, players: int) -> tuple[str, ...]:
    """The variants a bench row is timed in: the game's baseline and its last rules variant (else ``base``)."""
    if not game.has("variants"):
        return ("base",)
    names = game.variants(players)
    return tuple(dict.fromkeys((names[0], names[-1])))


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
    lines = ([f"{report['title']}: games/s of the fast and reference engines, and the fast engine's start"]
             if report.get("title") else []) + [head, "-" * len(head)]
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
