"""Warm start as the command line uses it: which commands a spare process takes, and how one warms up.

A module of its own, not of :mod:`analyses.lab`: ``cli.main`` asks :func:`wants_spare` before every
command is handed over, and importing the lab package would cost a spare's handover a quarter second.

The process work (sockets, handing a command over, starting the next spare) is
:mod:`simcore.warmstart`'s; this module holds the command line's side of it, so
``cli.py`` keeps only its entry points. Every function takes the typer ``app``
it serves, since this layer does not import the command line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

# Commands a spare never takes: ``server`` reports on the spares themselves, and ``ui`` serves a page of its own.
NO_SPARE_COMMANDS = frozenset({"server", "ui"})


def wants_spare(argv: list[str]) -> bool:
    """Commands hand over to a spare; help and the ``server`` command itself run here."""
    if not argv or argv[0].startswith("-") or argv[0] in NO_SPARE_COMMANDS:
        return False
    return not any(a in ("--help", "-h") for a in argv)


def warm_spare(app: Callable) -> None:
    """What a spare loads before it waits: the CLI, the engine and the built-in strategies, by playing one game."""
    import contextlib
    import io

    from analyses.lab.common import forget_notices
    from simcore import interrupts  # noqa: F401 - its native Ctrl-C handlers load from numba's cache

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        app(args=["simulate", "--players", "3", "--games", "1", "--seed", "0", "--json"], standalone_mode=False)
    forget_notices()  # the command the spare runs says its own notices


def serve_spare(root: Path, app: Callable, entry: str) -> None:
    """Be a spare process (started by :func:`simcore.warmstart.start_spare`): warm up, wait for one command, run it."""
    from simcore import warmstart

    warmstart.serve_one(root, lambda: warm_spare(app), lambda argv: app(), entry)
