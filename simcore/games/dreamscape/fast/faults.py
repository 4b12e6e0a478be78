"""Where a guarded user strategy reports a fault, and the Python side that reads it.

A numba callback cannot raise into Python: an exception in a ``cfunc`` is
printed and a garbage score returned, and an out-of-range index is not
checked at all. A user strategy therefore runs inside a guard
(:mod:`simcore.games.dreamscape.bots.guard`) that catches its exceptions (its code is compiled
with bounds checks, so an index outside ``features`` or ``state`` raises
IndexError) and checks that its score is finite. On the first fault the guard
claims the fault record below (an atomic compare-and-swap, so one of several
threads wins), writes the decision kind, the seat, the strategy's identity,
the score and a copy of the call's arguments, and ends every game it is
called in from then on (``state[H_GAME_OVER] = 1``): the chunk finishes within
a turn per game. The Python driver (:func:`simcore.games.dreamscape.fast.runner.iter_chunks`,
:func:`simcore.games.dreamscape.fast.bridge.play_traced`) calls :func:`raise_fault` after every
kernel call; it replays the failing call in Python to get the exception's own
message and raises :class:`~simcore.faults.StrategyFault`.

The record is two process-wide arrays that the guards reach by symbol name
(registered with LLVM here), not by address, so a guard's machine code can
live in numba's on-disk cache. A Python driver: no kernel reads this module.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import llvmlite.binding as llvm
import numpy as np

from simcore.faults import StrategyFault
from simcore.games.dreamscape.fast.layout import N_FEATURES
from simcore.games.dreamscape.rules import DECISION_KINDS

# The header (int64): claimed flag, problem, kind, seat, strategy identity, state length.
HEADER_SYMBOL = "dreamscape_strategy_fault_header"
DATA_SYMBOL = "dreamscape_strategy_fault_data"
STATE_SYMBOL = "dreamscape_strategy_fault_state"
HEADER_LEN = 8
FH_CLAIMED, FH_PROBLEM, FH_KIND, FH_SEAT, FH_IDENT, FH_STATE_LEN = range(6)
# The data (float64): the score, then the features.
FD_SCORE = 0
FD_FEATURES = 1
DATA_LEN = FD_FEATURES + N_FEATURES
STATE_CAP = 1 << 16  # the state (int32); a longer one (decks of thousands of cards) is not copied: no replay

PROBLEM_RAISED = 1
PROBLEM_NOT_FINITE = 2

_HEADER = np.zeros(HEADER_LEN, dtype=np.int64)
_DATA = np.zeros(DATA_LEN, dtype=np.float64)
_STATE = np.zeros(STATE_CAP, dtype=np.int32)
llvm.add_symbol(HEADER_SYMBOL, _HEADER.ctypes.data)
llvm.add_symbol(DATA_SYMBOL, _DATA.ctypes.data)
llvm.add_symbol(STATE_SYMBOL, _STATE.ctypes.data)


@dataclass(frozen=True)
class Guarded:
    """A guarded strategy as the fault reader knows it.

    Attributes
    ----------
    name : str
        The name it was registered under (named in the message).
    replay : callable
        The strategy's own compiled function, ``replay(kind, seat, features, state)``
        on read-only arrays: called again in Python to get the exception.
    """

    name: str
    replay: Callable


_GUARDED: dict[int, Guarded] = {}


def add_guarded(ident: int, name: str, replay: Callable) -> None:
    """Record which strategy a guard's identity ``ident`` stands for (the last registration wins)."""
    _GUARDED[int(ident)] = Guarded(name, replay)


def clear_fault() -> None:
    """Forget any fault (before a run: a guard ends every game while a fault is recorded)."""
    _HEADER[:] = 0


def raise_fault() -> None:
    """Raise :class:`~simcore.faults.StrategyFault` if a guarded strategy failed since :func:`clear_fault`.

    The fault is cleared before raising, so the next run starts clean.

    Raises
    ------
    StrategyFault
        One line: the strategy, the decision kind (``simcore.games.dreamscape.rules.DECISION_KINDS``),
        the seat (counted from 1) and the problem.
    """
    if _HEADER[FH_CLAIMED] == 0:
        return
    problem, kind, seat, ident, n_state = (int(_HEADER[i]) for i in (FH_PROBLEM, FH_KIND, FH_SEAT, FH_IDENT, FH_STATE_LEN))
    score = float(_DATA[FD_SCORE])
    features = _DATA[FD_FEATURES:].copy()
    state = _STATE[:n_state].copy() if 0 < n_state <= STATE_CAP else None
    clear_fault()
    guarded = _GUARDED.get(ident)
    name = repr(guarded.name) if guarded is not None else "(unknown)"
    kind_name = DECISION_KINDS[kind] if 0 <= kind < len(DECISION_KINDS) else f"kind {kind}"
    where = f"strategy {name} at a {kind_name} decision (seat {seat + 1})"
    if problem == PROBLEM_NOT_FINITE:
        raise StrategyFault(f"{where} returned {score!r}; a score must be a finite number")
    raise StrategyFault(f"{where} raised {_replayed(guarded, kind, seat, features, state)}")


def _replayed(guarded: Guarded | None, kind: int, seat: int, features: np.ndarray, state: np.ndarray | None) -> str:
    """The exception of the failing call, from calling the strategy again on the recorded arguments."""
    if guarded is None or state is None:
        return "an exception"
    features.setflags(write=False)
    state.setflags(write=False)
    try:
        guarded.replay(kind, seat, features, state)
    except IndexError as exc:
        return f"IndexError: {_first_line(exc)} (an index outside features or state)"
    except Exception as exc:  # noqa: BLE001 - any exception of user code: named, not raised
        return f"{type(exc).__name__}: {_first_line(exc)}"
    return "an exception (not raised again when replayed)"


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:200] if lines else "(no message)"
