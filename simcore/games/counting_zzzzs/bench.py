"""Benchmark of the Counting Zzzzs engines, run by hand: ``python -m simcore.games.counting_zzzzs.bench``.

Greedy on every seat, 3 players, the shipped deck: the fast engine's games per second over a batch (all
numba threads, compile excluded), the reference engine's on a few games, and their ratio in the same run.
A benchmark, not a test: figures depend on the machine and its load (printed with them).
"""
from __future__ import annotations

import argparse
import os
import time

from . import parse_setup, play_games


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="fast engine games (default 100000)")
    parser.add_argument("--reference-games", type=int, default=200, help="reference engine games (default 200)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--strategy", default="greedy")
    args = parser.parse_args(argv)
    setup = parse_setup(args.players, "base")
    bots = [args.strategy] * args.players
    play_games(setup, bots, 1, 0, 10)                          # compile (or load the cache) first
    t = time.perf_counter()
    play_games(setup, bots, 1, 0, args.games)
    fast = args.games / (time.perf_counter() - t)
    t = time.perf_counter()
    play_games(setup, bots, 1, 0, args.reference_games, engine="reference")
    ref = args.reference_games / (time.perf_counter() - t)
    import numba
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.strategy}, {args.players} players: fast {fast:,.0f} games/s ({numba.get_num_threads()} threads), "
          f"reference {ref:,.1f} games/s, ratio {fast / ref:,.0f}x (load average {load:.1f}, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
