"""Project Dreamscape's compile, visibly and only what is played: its fast engine's game loops into numba's cache.

Project Dreamscape's fast engine has three game loops, each its own entry point
(:mod:`simcore.games.dreamscape.fast.batch`): the plain loop (random, greedy,
linear, expert and hand-written bots), the flat Monte Carlo loop (``rollout``)
and the search loop (the strong bot and ``search:...``, most of the compile).
A run compiles only the loop its seats need, on its first use; numba caches it
on disk (``__pycache__``), so only the first run of a new installation, a
cleared cache or a new numba pays it.

* :func:`loop_notice` is what a command hands the engine so that a compile is
  announced in one line before it starts, with its estimate, and followed by
  the measured time (:func:`compile_line`, :func:`compiled_line`); loading a
  cached loop says nothing.
* :func:`warm_up` (``dreamscape warmup``, run by ``python3 dev.py setup``)
  compiles the loops the main study plays (:data:`MAIN_LOOPS`), one process per
  loop on a machine with two cores or more, and says when each is ready.
* :func:`warm_run` loads or compiles a run's loop before it is timed, so
  progress bars, times and games/s count play only.
* :func:`engine_compiled` tells cheaply (reading the cache's index, compiling
  nothing) whether loops are compiled.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from analyses.study.warmup import compile_line, compiled_line

# The game loops the main study (simcore/games/dreamscape/studies/main.toml) plays: expert, linear, greedy and the
# ladder's bots on the plain loop, the strong bot and search:expert on the search loop; no seat rolls out
# (tests/test_first_contact.py checks this against the study file).
MAIN_LOOPS = ("search", "plain")

ENGINE = "Project Dreamscape's fast engine"
GAME = "Project Dreamscape"
STRATEGY_NOTICE = "compiling strategy {} (once per version of its file)…"
WORKER_NOTICE = "loading the engine in every Dask worker (a worker with a cold numba cache compiles it first: 1-3 minutes on 2 cores)…"


def loop_notice(say: Callable[[str], None]) -> Callable[[str, float, bool], None]:
    """The engine's compile callback (:func:`simcore.games.dreamscape.fast.runner.set_loop_notice`) saying lines with ``say``."""

    def notice(label: str, seconds: float, done: bool) -> None:
        what = f"{GAME}'s {label}"
        say(compiled_line(what, seconds) if done else compile_line(what, seconds))

    return notice


def engine_compiled(loops: Sequence[str] = ("plain",)) -> bool:
    """Whether numba's cache (or this process) holds every game loop of ``loops`` compiled from its current source."""
    from simcore.games.dreamscape.fast.runner import loop_compiled

    return all(loop_compiled(loop) for loop in loops)


def warm_run(config, strategies: Sequence[str]) -> None:
    """Play one throw-away game of ``config`` so its game loop is loaded (or compiled) before the timed run.

    The results of later runs do not depend on it: every game plays from its
    own stream (seed, game index).
    """
    from simcore.games.dreamscape.fast import simulate

    simulate(config, 1, 0, list(strategies), chunk_size=1)


def loop_seats(loop: str) -> list[str]:
    """Two seats whose run needs game loop ``loop`` (registered here when needed)."""
    from simcore.games.dreamscape.fast.strategies import register_rollout, register_search

    if loop == "search":
        return [register_search("greedy", 1), "greedy"]
    if loop == "rollout":
        register_rollout("warmup-rollout", 1)
        return ["warmup-rollout", "greedy"]
    return ["greedy", "random"]


def compile_loop(loop: str) -> None:
    """Load or compile one game loop (one game played and thrown away); what a warm-up worker process runs."""
    from simcore.games.dreamscape.fast import SimConfig

    warm_run(SimConfig(players=2), loop_seats(loop))


def _worker(loop: str) -> subprocess.Popen:
    """A process compiling ``loop`` into numba's cache beside this one (the same cache folder, environment inherited)."""
    code = f"from analyses.games.dreamscape.warmup import compile_loop; compile_loop({loop!r})"
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL)


def _parallel(missing: Sequence[str]) -> bool:
    return len(missing) > 1 and (os.cpu_count() or 1) >= 2


def warm_up(say: Callable[[str], None] = print, loops: Sequence[str] = MAIN_LOOPS) -> float:
    """Compile (or load) the game loops ``loops`` (default: the main study's) and the built-in strategies.

    On two or more cores each loop to compile gets a process of its own, all at
    the same time (numba compiles on one core), and a line says when each is
    ready. Returns the seconds it took; ``say`` gets the lines.
    """
    from simcore.games.dreamscape.fast.runner import COMPILE_ESTIMATE_S, LOOP_LABELS, loop_compiled

    t0 = time.perf_counter()
    missing = [loop for loop in loops if not loop_compiled(loop)]
    parallel = _parallel(missing)
    if not missing:
        say(f"{ENGINE} already compiled: loading it from the cache")
    else:
        labels = " and ".join(LOOP_LABELS[loop] for loop in missing)
        estimate = max(COMPILE_ESTIMATE_S[m] for m in missing) if parallel else sum(COMPILE_ESTIMATE_S[m] for m in missing)
        say(compile_line(f"{GAME}'s {labels}", estimate, f", in {len(missing)} processes" if parallel else ""))
    workers = {loop: _worker(loop) for loop in missing} if parallel else {}
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - compiles (or loads) the built-in strategies' callbacks

    for loop in [loop for loop in loops if loop not in workers]:
        started = time.perf_counter()
        compile_loop(loop)
        if loop in missing:
            say(f"  {LOOP_LABELS[loop]} compiled in {time.perf_counter() - started:.0f} s")
    while workers:  # each line as its process ends
        for loop, process in list(workers.items()):
            if process.poll() is None:
                continue
            del workers[loop]
            if process.returncode != 0:  # the worker failed: compile it here, where an error is seen
                say(f"  the process compiling the {LOOP_LABELS[loop]} failed (exit {process.returncode}); compiling it here")
            compile_loop(loop)  # loads what the worker cached
            say(f"  {LOOP_LABELS[loop]} compiled in {time.perf_counter() - t0:.0f} s")
        time.sleep(0.2)
    seconds = time.perf_counter() - t0
    say(f"{ENGINE} and the built-in strategies ready in {seconds:.1f} s (cached for every later run)")
    return seconds


def warm_study(say: Callable[[str], None], loops: Sequence[str] = MAIN_LOOPS) -> None:
    """Before a local study plays: compile the plain game loop here and the other loops in the background.

    The study starts playing as soon as the plain loop is ready (its first
    chunks are the expert bot's); a loop compiling in a process of its own is
    waited for, and loaded, before its first chunk
    (:func:`simcore.games.dreamscape.fast.runner.set_pending_compile`), so
    nothing compiles twice. One core, or only one loop to compile: compiled
    here, one after the other.
    """
    from simcore.games.dreamscape.fast.runner import COMPILE_ESTIMATE_S, LOOP_LABELS, loop_compiled, set_pending_compile

    missing = [loop for loop in loops if not loop_compiled(loop)]
    if not _parallel(missing) or "plain" not in missing:
        for loop in missing:
            compile_loop(loop)  # announced by the engine's notice, one loop after the other
        return
    for loop in [m for m in missing if m != "plain"]:
        started, process = time.perf_counter(), _worker(loop)
        say(compile_line(f"{GAME}'s {LOOP_LABELS[loop]}", COMPILE_ESTIMATE_S[loop], " in the background while the study plays"))

        def wait(loop=loop, process=process, started=started) -> None:
            if process.poll() is None:
                say(f"waiting for {GAME}'s {LOOP_LABELS[loop]} (compiling in the background)…")
            if process.wait() != 0:
                say(f"the process compiling {GAME}'s {LOOP_LABELS[loop]} failed (exit {process.returncode}); compiling it here")
            compile_loop(loop)
            say(compiled_line(f"{GAME}'s {LOOP_LABELS[loop]}", time.perf_counter() - started))

        set_pending_compile(loop, wait)
    compile_loop("plain")  # announced by the engine's notice: the study waits for this one only
