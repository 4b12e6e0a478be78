"""The guard around every user strategy: exceptions, non-finite scores, bad indices and writes contained.

:func:`guard_strategy` compiles a user's scoring function into the engine's
callback type (:data:`simcore.games.dreamscape.fast.strategies.STRATEGY_SIG`) wrapped so that

* its own code is compiled with numba's bounds checks: ``features[10**8]``
  raises IndexError instead of reading (or writing) outside the array;
* ``features`` and ``state`` reach it as read-only arrays: a write into
  either fails to compile, so such a strategy is rejected when it is loaded;
* an exception or a score that is NaN or infinite is recorded once in the
  fault record of :mod:`simcore.games.dreamscape.fast.faults` (kind, seat, which strategy, a
  copy of the arguments), after which the guard ends every game it is called
  in; the Python driver then raises :class:`~simcore.faults.StrategyFault`.

The guard is a copy of :func:`_guard` whose code object names the user's
file (and a qualified name of its own), with the user's function and its
identity as globals: numba then caches the compiled guard beside the user's
file like any function there, keyed on that file's stamp (an edited file is
compiled again), and a fresh process loads it instead of compiling it. The
guard's own version is part of its qualified name (:data:`GUARD_TAG`), so a
changed guard never loads an old one.

Built-in strategies are not guarded (:func:`simcore.games.dreamscape.bots.registry.compile_strategy`):
their speed is the engine's.
"""
from __future__ import annotations

import hashlib
import types as pytypes
from collections.abc import Callable
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import cfunc, njit, types
from numba.core import cgutils
from numba.core.ccallback import CFunc
from numba.extending import intrinsic

from simcore.games.dreamscape.fast import faults
from simcore.games.dreamscape.fast.faults import (
    DATA_LEN,
    DATA_SYMBOL,
    FD_FEATURES,
    FD_SCORE,
    FH_IDENT,
    FH_KIND,
    FH_PROBLEM,
    FH_SEAT,
    FH_STATE_LEN,
    HEADER_LEN,
    HEADER_SYMBOL,
    PROBLEM_NOT_FINITE,
    PROBLEM_RAISED,
    STATE_CAP,
    STATE_SYMBOL,
)
from simcore.games.dreamscape.fast.layout import H_GAME_OVER
from simcore.games.dreamscape.fast.strategies import STRATEGY_SIG, cached_entries

_I64 = ir.IntType(64)


def _symbol(builder, name: str, length: int, elem):
    """Pointer to the first element of the process-wide array registered under ``name`` (simcore.games.dreamscape.fast.faults)."""
    module = builder.module
    gv = module.globals.get(name)
    if gv is None:  # a declaration: the linker finds the symbol, so the machine code holds no address
        gv = ir.GlobalVariable(module, ir.ArrayType(elem, length), name)
        gv.linkage = "external"
    return builder.bitcast(gv, elem.as_pointer())


@intrinsic
def _header(typingctx):
    def codegen(context, builder, signature, args):
        return _symbol(builder, HEADER_SYMBOL, HEADER_LEN, _I64)

    return types.CPointer(types.int64)(), codegen


@intrinsic
def _data(typingctx):
    def codegen(context, builder, signature, args):
        return _symbol(builder, DATA_SYMBOL, DATA_LEN, ir.DoubleType())

    return types.CPointer(types.float64)(), codegen


@intrinsic
def _claim(typingctx):
    """Atomically set the header's claimed flag from 0 to 1; True for the one caller that did."""

    def codegen(context, builder, signature, args):
        ptr = _symbol(builder, HEADER_SYMBOL, HEADER_LEN, _I64)
        pair = builder.cmpxchg(ptr, ir.Constant(_I64, 0), ir.Constant(_I64, 1), "monotonic", "monotonic")
        return builder.extract_value(pair, 1)

    return types.boolean(), codegen


@intrinsic
def _readonly(typingctx, arr):
    """The same array typed read-only (same data model: the value itself, no copy)."""

    def codegen(context, builder, signature, args):
        return args[0]

    return arr.copy(readonly=True)(arr), codegen


@intrinsic
def _copy_array(typingctx, arr):
    """Copy a float64 array (the features) after the score in the data record, or an int32 array (the
    state) into the state record, with one memcpy: copy loops here made the guard's hot path measurably
    slower (about 10% of a cheap strategy's games/s), though they never run before a fault."""
    is_state = arr.dtype == types.int32

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        if is_state:
            dst = _symbol(builder, STATE_SYMBOL, STATE_CAP, ir.IntType(32))
        else:
            dst = builder.gep(_symbol(builder, DATA_SYMBOL, DATA_LEN, ir.DoubleType()), [ir.Constant(_I64, FD_FEATURES)])
        cgutils.raw_memcpy(builder, dst, ary.data, ary.nitems, context.get_abi_sizeof(ary.data.type.pointee))
        return context.get_dummy_value()

    return types.none(arr), codegen


def _guard(kind, seat, features, state):
    if _header()[0] != 0:  # a strategy failed: end this game too, the driver raises after the kernel returns
        state[H_GAME_OVER] = 1
        return 0.0
    ro_features = _readonly(features)  # outside the try: a call inside it costs an exception check
    ro_state = _readonly(state)
    problem = 0
    score = 0.0
    try:
        score = USER(kind, seat, ro_features, ro_state)
    except Exception:  # numba cannot bind the exception: the driver replays the call to name it
        problem = PROBLEM_RAISED
    if problem == 0:
        if np.isfinite(score):
            return score
        problem = PROBLEM_NOT_FINITE
    if _claim():  # the first fault is recorded (simcore.games.dreamscape.fast.faults), every later call ends its game
        header = _header()
        _data()[FD_SCORE] = score
        _copy_array(features)
        if state.shape[0] <= STATE_CAP:
            _copy_array(state)
            header[FH_STATE_LEN] = state.shape[0]
        header[FH_KIND] = kind
        header[FH_SEAT] = seat
        header[FH_IDENT] = IDENT
        header[FH_PROBLEM] = problem
    state[H_GAME_OVER] = 1
    return 0.0


def _tag() -> str:
    """The guard's version: its source and the constants it freezes (a changed guard is compiled anew)."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(repr((H_GAME_OVER, HEADER_LEN, DATA_LEN, FD_FEATURES, STATE_CAP, str(STRATEGY_SIG))).encode())
    return h.hexdigest()[:12]


GUARD_TAG = _tag()
_SOURCES: dict[int, Callable] = {}  # id(guard cfunc) -> the user's Python function


def identity(py: Callable) -> int:
    """A guard's identity: its function's file and qualified name (stable across processes, fits int64)."""
    text = f"{py.__code__.co_filename}:{py.__qualname__}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def guard_function(py: Callable, cache: bool = True) -> Callable:
    """The Python function numba compiles into ``py``'s guard (see the module docstring)."""
    # Not inlined (inline="always" would be faster): numba's try does not catch a raise inlined into it.
    user = njit(boundscheck=True, cache=cache)(py)
    qualname = f"dreamscape_guard_{GUARD_TAG}.{py.__qualname__}"
    code = _guard.__code__.replace(
        co_filename=py.__code__.co_filename,
        co_firstlineno=py.__code__.co_firstlineno,
        co_name=_guard.__name__,
        co_qualname=qualname,
    )
    namespace = dict(_guard.__globals__)
    namespace.update(USER=user, IDENT=identity(py))
    fn = pytypes.FunctionType(code, namespace, _guard.__name__)
    fn.__qualname__ = qualname
    fn.__module__ = __name__
    fn.user = user  # the strategy itself, compiled with bounds checks (replayed on a fault)
    return fn


def guard_strategy(name: str, py: Callable) -> CFunc:
    """Compile ``py`` (a plain or ``@njit`` strategy function) into its guarded engine callback.

    Parameters
    ----------
    name : str
        The name the strategy is registered under (named in a fault's message).
    py : callable
        ``(kind, seat, features, state) -> float`` in numba's subset.

    Returns
    -------
    CFunc
        The callback, of :data:`simcore.games.dreamscape.fast.strategies.STRATEGY_SIG`.

    Raises
    ------
    Exception
        numba's error when ``py`` does not compile (a write into ``features``
        or ``state`` is one).
    """
    py = getattr(py, "py_func", py)
    fn = guard_function(py)
    if _NOTICE and not cached_entries(fn):
        _NOTICE[0](py.__qualname__)
    try:
        compiled = cfunc(STRATEGY_SIG, cache=True, **_OPTIONS)(fn)
    except Exception:  # noqa: BLE001 - numba could not cache it (a function defined in a string, ...); a real
        compiled = None  # compile error is raised again just below
    if compiled is None:
        fn = guard_function(py, cache=False)
        compiled = cfunc(STRATEGY_SIG, **_OPTIONS)(fn)
    faults.add_guarded(identity(py), name, fn.user)
    _SOURCES[id(compiled)] = py
    return compiled


# The guard itself allocates nothing: without reference counting its read-only views of the
# engine's arrays cost no atomic increments (the strategy's own code keeps numba's defaults).
_OPTIONS = {"_nrt": False}
_NOTICE: list[Callable[[str], None]] = []


def set_compile_notice(notice: Callable[[str], None] | None) -> None:
    """Call ``notice(function name)`` before a guard is compiled rather than loaded from numba's cache (None: silent)."""
    _NOTICE[:] = [notice] if notice is not None else []


def source_function(compiled: CFunc) -> Callable:
    """The Python function a registered callback was compiled from (the user's own for a guard)."""
    return _SOURCES.get(id(compiled)) or getattr(compiled, "_pyfunc", None)  # numba keeps a cfunc's function there
