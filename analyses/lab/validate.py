"""The Python API's argument check: every lab function checks its arguments here first.

The command line's options are typed and bounded by typer before a lab
function is called; a call from Python is not. Without this check
``lab.simulate(games="2000")`` or ``players=3.0`` ends in a ``TypeError`` from
deep inside, and a negative seed is played as 2**64-1. Each lab function
starts with ``check_arguments(locals())``: every parameter it knows of (by its
Python name) is checked against the same bounds as the command line's
option, and the error names the *Python parameter*, e.g.
``ValueError: seed must be 0 to 2**64-1, got -1``.

The errors are :class:`ArgumentTypeError` (a ``TypeError``) and
:class:`ArgumentValueError` (a ``ValueError``); both are
:class:`analyses.lab.common.LabInputError` too, so the command line prints them
as one line with exit code 2 like any other bad input.
"""
from __future__ import annotations

import numbers
from collections.abc import Sequence

from analyses.lab.errors import LabInputError, ParameterError
from simcore.rng import MAX_GAMES, MAX_SEED

MAX_PLAYOUTS = 10_000  # K of a search player: playouts per option (Pleasant Dreams caps its K at 10,000 too)
MAX_COUNT = 1_000_000  # iterations, trees, leaves, trials, candidates, tuning evaluations
MAX_PLAYERS = 64  # no game has more seats; the game's own check then names its real range
MAX_WORKERS = 4096


class ArgumentTypeError(LabInputError, TypeError):
    """A lab function's argument of the wrong type (named by its Python parameter)."""


class ArgumentValueError(LabInputError):
    """A lab function's argument out of its bounds (named by its Python parameter)."""


# parameter: (least, most, what the bound is called in the message); whole numbers only
WHOLE_NUMBERS: dict[str, tuple[int, int, str]] = {
    "games": (1, MAX_GAMES, "10**12"),
    "seed": (0, MAX_SEED, "2**64-1"),
    "players": (1, MAX_PLAYERS, str(MAX_PLAYERS)),
    "playouts": (1, MAX_PLAYOUTS, f"{MAX_PLAYOUTS:,}"),
    "chunk_size": (1, MAX_GAMES, "10**12"),
    "max_games": (1, MAX_GAMES, "10**12"),
    "workers": (1, MAX_WORKERS, f"{MAX_WORKERS:,}"),
    "iterations": (1, MAX_COUNT, f"{MAX_COUNT:,}"),
    "check_games": (0, MAX_GAMES, "10**12"),
    "trees": (1, MAX_COUNT, f"{MAX_COUNT:,}"),
    "leaves": (2, MAX_COUNT, f"{MAX_COUNT:,}"),
    "budget": (1, MAX_COUNT, f"{MAX_COUNT:,}"),
    "games_per_eval": (1, MAX_GAMES, "10**12"),
    "trials": (1, MAX_COUNT, f"{MAX_COUNT:,}"),
    "verify": (1, MAX_GAMES, "10**12"),
    "candidates": (1, MAX_COUNT, f"{MAX_COUNT:,}"),
}
MAY_BE_A_LIST = {"players", "playouts"}  # compare, exploit and restrict take several
REAL_NUMBERS: dict[str, tuple[float, float]] = {"precision": (0.0, 0.5)}  # open bounds, as --precision
FLAGS = ("quick", "aggregate_only", "sleep_token", "shifting_tokens", "interrupts", "distance", "restart_changed")
TEXTS = ("variant", "strategy", "baseline", "phases", "field", "scheduler", "engine", "rules")  # backend: a name or a Backend
TEXT_LISTS = ("variants", "strategies", "restrictions")
PATHS = ("out", "cards", "deck", "config")  # a file or folder: text or a path (pathlib.Path), never a number


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_whole(name: str, value: object) -> None:
    """``value`` is a whole number (not a bool, float or text) within the bounds of parameter ``name``."""
    least, most, most_text = WHOLE_NUMBERS[name]
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError(f"{name} must be a whole number (int), got {type(value).__name__} {_shown(value)}")
    if not least <= value <= most:
        raise ArgumentValueError(f"{name} must be {least} to {most_text}, got {_shown(value)}")


def _check_one(name: str, value: object) -> None:
    if value is None:  # every parameter checked here means "the default" by None, where it takes None at all
        return
    if name in WHOLE_NUMBERS:
        if name in MAY_BE_A_LIST and isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
            if not value:
                raise ArgumentValueError(f"{name} is empty: give at least one value")
            for item in value:
                check_whole(name, item)
            return
        check_whole(name, value)
    elif name in REAL_NUMBERS:
        low, high = REAL_NUMBERS[name]
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ArgumentTypeError(f"{name} must be a number, got {type(value).__name__} {_shown(value)}")
        if not low < value < high:
            raise ArgumentValueError(f"{name} must be between {low:g} and {high:g}, got {_shown(value)}")
    elif name == "game":
        from simcore.games import Game

        if not isinstance(value, (str, Game)):
            raise ArgumentTypeError(f"game must be a game's name (str), got {type(value).__name__} {_shown(value)}")
    elif name in FLAGS:
        if not isinstance(value, bool):
            raise ArgumentTypeError(f"{name} must be True or False, got {type(value).__name__} {_shown(value)}")
    elif name in TEXTS:
        if not isinstance(value, str):
            raise ArgumentTypeError(f"{name} must be a str, got {type(value).__name__} {_shown(value)}")
    elif name in PATHS:
        import os

        if not isinstance(value, (str, os.PathLike)):
            raise ArgumentTypeError(f"{name} must be a path (str or pathlib.Path), got {type(value).__name__} {_shown(value)}")
    elif name in TEXT_LISTS:
        if isinstance(value, str) or not isinstance(value, Sequence) \
                or not all(isinstance(item, str) for item in value):
            raise ArgumentTypeError(f"{name} must be a list of str, got {type(value).__name__} {_shown(value)}")


def check_arguments(arguments: dict[str, object]) -> None:
    """Check every argument of a lab function's call (its ``locals()`` on entry) that has a known bound.

    Raises
    ------
    ArgumentTypeError
        A whole number given as a float, text or bool, a flag that is not a bool, a name that is not text.
    ArgumentValueError
        A number outside the command line's bounds for it.
    """
    for name, value in arguments.items():
        if name == "options" and isinstance(value, dict):  # **options passed on to another lab function
            check_arguments(value)
        else:
            _check_one(name, value)


def command_line_error(exc: Exception) -> Exception:
    """The same error in the command line's words: its option (``--chunk-size``), not the Python parameter.

    A command passes its options on to a lab function under the same names, so an argument error raised
    there names a parameter a command-line user never typed; anything else is returned as it is.
    """
    if isinstance(exc, ParameterError):  # written in both words
        return type(exc)(exc.command_line)
    if not isinstance(exc, (ArgumentTypeError, ArgumentValueError)):
        return exc
    name, _, rest = str(exc).partition(" ")
    return type(exc)(f"--{name.replace('_', '-')} {rest}")
