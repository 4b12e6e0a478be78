"""Compile once, visibly, and only what is played: every game's compile notices and its fast engine's warm-up.

A compile is announced the same way for every game: one line before it starts, with its
estimate (:func:`compile_line`), one after it with the time it took (:func:`compiled_line`);
loading a cached engine says nothing. :func:`ready_game_engine` compiles a game's whole fast
engine that way before a run is timed (:func:`game_engine_compiled` tells cheaply whether numba's
cache holds it). A game whose engine compiles in parts of its own says so through its wing
(:attr:`analyses.games.LabWing.prepare_engine`, ``warm_up``; Project Dreamscape's game loops:
:mod:`analyses.games.dreamscape.warmup`).
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable


def about(seconds: float) -> str:
    """A compile estimate in words: ``about 40 s``, ``about 2 minutes``."""
    if seconds < 55:
        return f"about {max(10, round(seconds / 10) * 10)} s"
    minutes = max(1, round(seconds / 60))
    return f"about {minutes} minute{'s' if minutes > 1 else ''}"


def compile_line(what: str, estimate: float, how: str = "") -> str:
    """The one line said before a compile starts: what compiles and how long it should take on 2 cores."""
    return f"compiling {what} once{how} ({about(estimate)} on 2 cores)…"


def compiled_line(what: str, seconds: float) -> str:
    """The line said after a compile: how long it took."""
    return f"{what} compiled in {seconds:.0f} s (numba's cache keeps it for every later run)"


def is_compile_line(line: str) -> bool:
    """Whether ``line`` is one of the compile notices of this module (tests tell them from a command's output)."""
    return (line.startswith("compiling ") and line.endswith("…")) or " compiled in " in line


# ---------------------------------------------------------------------------- a game's whole fast engine

# Seconds a game's whole fast engine takes to compile: numba compiles on one core, and a cold
# `dreamscape warmup --game NAME` took 40 CPU seconds for Pleasant Dreams and 47 for Counting Zzzzs
# (2026-11-27, imports and one game per bot included); said of any game without an estimate of its own.
GAME_COMPILE_ESTIMATE_S = 50.0


def possessive(title: str) -> str:
    """``Pleasant Dreams'``, ``Project Dreamscape's``."""
    return title + ("'" if title.endswith("s") else "'s")


def game_package_dir(game):
    """The folder of the game's own package (where numba caches its kernels), found from its ``play_games``."""
    from pathlib import Path

    module = sys.modules[game.play_games.__module__]
    return Path(module.__file__).resolve().parent


def game_engine_compiled(game) -> bool:
    """Whether numba's cache holds the game's fast engine (its index files; the game's cache guard drops them on an edit)."""
    from simcore.numba_cache import numba_cache_dir

    package = game_package_dir(game)
    if not any("numba" in path.read_text(encoding="utf-8") for path in package.glob("*.py")):
        return True  # a plain-Python engine: nothing to compile
    folder = numba_cache_dir(package)
    return folder is not None and os.path.isdir(folder) and any(name.endswith(".nbi") for name in os.listdir(folder))


def ready_game_engine(game, say: Callable[[str], None]) -> float | None:
    """Compile a game's fast engine now if numba's cache lacks it, between the two compile lines; seconds or None.

    The compile is the same for every game: one line before it with its
    estimate, one after it with the time it took, and the engine is ready
    before any run is timed (one game of the game's default bot, thrown away).
    """
    if game_engine_compiled(game):
        return None
    what = f"{possessive(game.title)} fast engine"
    say(compile_line(what, GAME_COMPILE_ESTIMATE_S))
    t0 = time.perf_counter()
    players = max(game.seat_counts)
    setup = game.parse_setup(players, "base", None)
    spec = game.check_strategy(game.default_strategy, setup)
    game.play_games(setup, [spec] * players, 0, 0, 1, engine="fast")
    seconds = time.perf_counter() - t0
    say(compiled_line(what, seconds))
    return seconds
