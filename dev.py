#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 dev.py study     # create .venv if needed, install, run the main job (dreamscape study)
    python3 dev.py test      # create .venv if needed, install with test extras, run every test
    python3 dev.py setup     # only create/refresh .venv and compile the engine

``setup`` and ``test`` compile what the main study plays into numba's on-disk cache right after an
install (``dreamscape warmup``: two processes, timed, each part announced), so the first real command
answers in seconds instead of looking hung. ``study`` leaves the compile to the study itself, which
starts playing as soon as the expert bot's game loop is compiled and compiles the search loop in the
background meanwhile. ``test`` compiles the other games' engines and the rollout loop in one more process while
pytest runs (pytest plays on one core, the compile takes the other).

Extra arguments are passed on (``python3 dev.py test -m slow``, ``python3 dev.py study --seed 7``).
The virtual environment is reinstalled whenever pyproject.toml changes.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
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


# The install compiles the default game's two main-study loops only. pytest plays on one core; this process
# compiles on the other core meanwhile, into the same numba cache, every other registered game's engine and
# bots, then the default game's rollout loop (the flat Monte Carlo bot several tests play) and the strong
# trainer's self-play games, so the tests that first play them load them instead of each compiling in turn
# (a cold run's longest waits). When the cache holds them already it ends in seconds.
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


def warm_other_games() -> subprocess.Popen:
    return subprocess.Popen([str(PYTHON), "-c", WARM_OTHER_GAMES], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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
    warming = warm_other_games()
    try:
        code = subprocess.call([str(PYTHON), "-m", "pytest", *extra], cwd=ROOT)
    finally:
        if warming.poll() is None:  # a short run ended first: the compile is not left running behind it
            warming.terminate()
        warming.wait()
    if code == 5:  # pytest: no test was collected, which here can only mean a broken checkout
        print("dev.py: pytest collected no tests", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
