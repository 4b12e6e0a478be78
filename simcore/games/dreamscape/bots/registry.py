"""Registering a strategy function with the fast engine: signature check, compilation, one-line errors.

This is the step between a Python function and the engine's registry
(:mod:`simcore.games.dreamscape.fast.strategies`): the built-in bots (:mod:`simcore.games.dreamscape.bots.builtins`)
and the user-facing decorator and loader (:mod:`simcore.games.dreamscape.bots.api`) both go
through :func:`compile_strategy`.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence

from simcore.games.dreamscape.fast.strategies import is_builtin, kinds_mask, register
from simcore.games.dreamscape.bots.errors import StrategyError, error_line
from simcore.games.dreamscape.bots.guard import guard_strategy

SIGNATURE_TEXT = "(kind, seat, features, state) -> float"


def compile_strategy(
    name: str,
    fn: Callable,
    description: str = "",
    source: str | None = None,
    decides: Sequence[str] | None = None,
    *,
    builtin: bool = False,
) -> None:
    """Check ``fn``'s signature, compile it and register it as ``name``.

    Parameters
    ----------
    name : str
        The name ``--strategy`` takes.
    fn : callable
        ``(kind, seat, features, state) -> float`` in numba's subset (or an
        ``@njit`` function of it).
    description : str, optional
        One line for ``dreamscape strategies``.
    source : str, optional
        How the user named the strategy (``bot.py:f``), for messages; default ``name``.
    decides : list of decision kind names, optional
        The kinds the strategy tells options apart at (see :func:`simcore.games.dreamscape.bots.api.strategy`).
    builtin : bool, optional
        Register a built-in bot (for :mod:`simcore.games.dreamscape.bots.builtins` only).

    Raises
    ------
    StrategyError
        In one line: ``name`` is a built-in's (and ``builtin`` is false), ``fn``
        is not a function of four arguments, ``decides`` names an unknown
        kind, or ``fn`` does not compile (writing into ``features`` or
        ``state`` is a compile error: both are read-only).

    Notes
    -----
    A strategy that is not built in is compiled inside its guard
    (:func:`simcore.games.dreamscape.bots.guard.guard_strategy`): with bounds checks, read-only
    arguments, and its exceptions and non-finite scores ending the run with
    :class:`~simcore.faults.StrategyFault`.
    """
    where = source or name
    if is_builtin(name) and not builtin:
        also = f" ({where})" if where != name else ""
        raise StrategyError(f"strategy {name!r}{also} has the name of a built-in strategy; give yours another name")
    py = getattr(fn, "py_func", fn)
    if not callable(py):
        raise StrategyError(f"strategy {where}: {fn!r} is not a function")
    try:
        params = list(inspect.signature(py).parameters.values())
    except (TypeError, ValueError):
        params = None
    if params is not None and (
        len(params) != 4 or any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    ):
        got = "(" + ", ".join(p.name for p in params) + ")"
        raise StrategyError(f"strategy {where}: takes {got}, but a strategy takes {SIGNATURE_TEXT}")
    try:
        kinds_mask(decides)
    except ValueError as exc:
        raise StrategyError(f"strategy {where}: {exc}") from None
    description = description or (getattr(py, "__doc__", "") or "").strip().split("\n")[0]
    try:
        # A user strategy runs inside its guard (simcore.games.dreamscape.bots.guard); a built-in is trusted and runs bare.
        compiled = fn if builtin else guard_strategy(name, py)
        register(name, compiled, description, decides=decides, builtin=builtin)
    except Exception as exc:  # numba typing errors are long: keep their first meaningful line
        if not builtin and writes_read_only(exc):
            raise StrategyError(
                f"strategy {where} writes into features or state, which are read-only: "
                "copy them first (features.copy()) to compute with changed values"
            ) from None
        raise StrategyError(f"strategy {where} does not compile as {SIGNATURE_TEXT}: {error_line(exc)}") from None


def writes_read_only(exc: BaseException) -> bool:
    """Whether numba rejected a function for assigning into a read-only array."""
    text = str(exc)
    return "readonly array" in text and ("setitem" in text or "Cannot modify" in text)
