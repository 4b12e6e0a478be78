#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 dev.py study     # create .venv if needed, install, run the main job (dreamscape study)
    python3 dev.py test      # create .venv if needed, install with test extras, run every test
    python3 dev.py setup     # only create/refresh .venv and compile the engine

``setup`` and ``test`` compile what the main study plays into numba's on-disk cache right after an
install (``dreamscape warmup``: two processes, timed, each part announced), so the first real command
answers in seconds instead of looking hung. ``study`` leaves the compile to the study itself, which
starts playing as soon as the expert bot's game loop is compiled and compiles the search loop in the
background meanwhile. ``test`` runs pytest on every core (up to two, pytest-xdist, each test file whole in one
worker) and compiles the other games' engines and the rollout loop in one more process meanwhile.

Extra arguments are passed on (``python3 dev.py test -m slow``, ``python3 dev.py study --seed 7``).
The virtual environment is reinstalled whenever pyproject.toml changes.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".dreamscape-installed"


def ensure_environment(warm: bool = True) -> None:
    """Create .venv and install the package with its test, dask, docs and ui extras when missing or stale.

    ``warm``: compile the engine right after an install (``dreamscape warmup``).
    """
    if sys.version_info < (3, 11):
        sys.exit(f"dev.py: Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not PYTHON.exists():
        print("dev.py: creating the virtual environment in .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("dev.py: installing the package and its dependencies (first run takes a minute)", flush=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test,dask,docs,ui]"], check=True)
    STAMP.write_text(wanted)
    # numba compiles the fast engine into its on-disk cache here, once per install, and says how long it
    # took, so the first real command answers in seconds instead of looking hung for a minute.
    if warm:
        subprocess.run([str(BIN / "dreamscape"), "warmup"], cwd=ROOT, check=True)


# The install compiles the default game's two main-study loops only. While the pytest workers start (each
# imports every test module first), this process compiles, into the same numba cache, every other registered
# game's engine and bots, then the default game's rollout loop (the flat Monte Carlo bot several tests play)
# and the strong trainer's self-play games, so the tests that first play them load them instead of each worker
# compiling them in turn (a cold run's longest waits; numba does not stop two processes compiling the same
# kernel at once). When the cache holds them already it ends in seconds.
WARM_OTHER_GAMES = """
from analyses import lab
from analyses.games import DEFAULT_GAME, game_names
from analyses.games.dreamscape.warmup import compile_loop
for name in game_names():
    if name != DEFAULT_GAME:
        lab.warmup(name, say=lambda line: None)
compile_loop("rollout")
# the strong trainer's games (expert self-play rows), which its test plays on tiny data
from analyses.games.dreamscape.train_strong import value_rows
from simcore.games.dreamscape.decks import deck_from_swap_texts
from simcore.games.dreamscape.rules import Options
value_rows(2, Options(), deck_from_swap_texts([]), 1, 1)
"""


def pytest_workers() -> int:
    """How many pytest processes ``test`` runs: one per core this process may use, at most two.

    Two is what the suite is measured and kept safe on (2-core machines, CI included); more would mostly add
    another copy of the loaded engine per worker while the tests that run the CLI in a subprocess already use
    the spare cores. ``python3 dev.py test -n 4`` asks for more, ``-n 0`` runs in one process.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(2, cores)


# The warm-start spare tests (marker ``spares``) start, serve and stop spare processes through the CLI; inside a
# pytest-xdist worker the spare does not take the command (measured: they pass in one process, fail in a worker),
# so the default run plays them in a second, single-process pass beside the two-worker pass.
SPARES = "spares"


def pytest_passes(extra: list[str]) -> list[list[str]]:
    """pytest's runs: ``-n N --dist loadfile`` (pytest-xdist) for every test but the spare tests, then those in one
    process; or the caller's arguments as one run when they chose the workers or the markers themselves.

    ``loadfile`` keeps each test file in one worker, in its order, so a module's shared fixtures (a study
    played once for many tests) are built once and a test that reads what an earlier one of its file left
    (tests/test_docs_data.py's replays) finds it.
    """
    chosen = any(arg in ("-n", "--numprocesses", "no:xdist", "-pno:xdist")
                 or arg.startswith(("-n", "--numprocesses=", "--dist")) for arg in extra)
    workers = pytest_workers()
    if chosen or workers < 2:
        return [extra]
    if any(arg == "-m" or arg.startswith("-m") for arg in extra):  # the caller's selection, in workers
        return [["-n", str(workers), "--dist", "loadfile", *extra]]
    return [["-n", str(workers), "--dist", "loadfile", "-m", f"not slow and not {SPARES}", *extra],
            ["-p", "no:xdist", "-m", f"{SPARES} and not slow", *extra]]


def combined_exit(codes: list[int]) -> int:
    """One exit code for the passes: 5 (nothing collected) only if no pass collected a test; else the worst."""
    ran = [c for c in codes if c != 5]
    return max(ran) if ran else 5


def run_passes(passes: list[list[str]]) -> int:
    """Run pytest's passes; a second pass (the spare tests, which mostly wait on the processes they start) runs
    beside the first, its report kept in a file and printed after the first pass's, so the two do not mix."""
    if len(passes) == 1:
        return combined_exit([subprocess.call([str(PYTHON), "-m", "pytest", *passes[0]], cwd=ROOT)])
    with tempfile.TemporaryFile() as report:
        beside = subprocess.Popen([str(PYTHON), "-m", "pytest", *passes[1]], cwd=ROOT, stdin=subprocess.DEVNULL,
                                  stdout=report, stderr=subprocess.STDOUT)
        try:
            first = subprocess.call([str(PYTHON), "-m", "pytest", *passes[0]], cwd=ROOT)
        finally:
            second = beside.wait()
        report.seek(0)
        print("dev.py: the warm-start spare tests, run in one process beside the others:", flush=True)
        sys.stdout.buffer.write(report.read())
        sys.stdout.flush()
    return combined_exit([first, second])


def warm_other_games(errors) -> subprocess.Popen:
    return subprocess.Popen([str(PYTHON), "-c", WARM_OTHER_GAMES], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=errors)


def report_failed_warm(code: int | None, errors) -> None:
    """One line when the background compile broke (the tests then compile what they play themselves)."""
    if code in (None, 0) or code < 0:  # still running, done, or ended by us after a short run
        return
    errors.seek(0)
    lines = errors.read().decode("utf-8", "replace").strip().splitlines()
    print(f"dev.py: the background compile of the other games failed (exit {code}): "
          f"{lines[-1] if lines else 'no message'}", file=sys.stderr)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("setup", "study", "test"):
        print(__doc__)
        return 2
    command, extra = argv[0], argv[1:]
    if command == "test":  # no spare process (warm start, simcore/warmstart.py) left waiting after a test run
        os.environ["DREAMSCAPE_SERVER"] = "off"
    ensure_environment(warm=command != "study")  # the study compiles what it plays, playing meanwhile
    if command == "setup":  # the install above compiled the engine; warmup again reports (or rebuilds) the cache
        return subprocess.call([str(BIN / "dreamscape"), "warmup", *extra], cwd=ROOT)
    if command == "study":
        return subprocess.call([str(BIN / "dreamscape"), "study", *extra], cwd=ROOT)
    with tempfile.TemporaryFile() as errors:
        warming = warm_other_games(errors)
        try:
            code = run_passes(pytest_passes(extra))
        finally:
            if warming.poll() is None:  # a short run ended first: the compile is not left running behind it
                warming.terminate()
            report_failed_warm(warming.wait(), errors)
    if code == 5:  # pytest: no test was collected, which here can only mean a broken checkout
        print("dev.py: pytest collected no tests", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
