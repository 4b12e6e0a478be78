"""The strategy hook of the fast engine: one fixed numba function type.

A fast strategy scores one legal option of a decision::

    score = strategy(kind, seat, features, state)

* ``kind`` (int64): decision kind id, :data:`simcore.rules.DECISION_ID`;
* ``seat`` (int64): the deciding seat;
* ``features`` (float64[::1], length :data:`~simcore.fast.layout.N_FEATURES`):
  the option's afterstate features, slots documented in :mod:`simcore.fast.layout`
  (slot 0 is the immediate own-score delta of ``immediate_score_delta``);
* ``state`` (int32[::1]): the game's state vector *before* the option, to be
  treated as read-only.

The engine gives every option a score, the best wins, and exact ties are
broken by the game's own stream (``below(n_tied)`` over tied options in engine
order), exactly as :mod:`strategies.reference_bots` does.

Why cfuncs: the engine kernels take strategies as arguments of the explicit
first-class type :data:`STRATEGY_TYPE`, so they are compiled (and cached on
disk) once whatever strategies are plugged in. Numba passes a ``cfunc`` as a
value of that type; a plain ``@njit`` dispatcher would instead make the
kernels specialise (and recompile) per strategy, and a cfunc captured as a
global would disable the on-disk cache. :func:`register` therefore compiles
every strategy, whatever form it is given in, into a cfunc of the fixed
signature.
"""
from __future__ import annotations

from collections.abc import Callable

from numba import cfunc, types
from numba.core.ccallback import CFunc

from simcore.fast.layout import F_DELTA

STRATEGY_SIG = types.float64(types.int64, types.int64, types.float64[::1], types.int32[::1])
STRATEGY_TYPE = types.FunctionType(STRATEGY_SIG)


@cfunc(STRATEGY_SIG, cache=True)
def random_strategy(kind, seat, features, state):
    """Uniform random: every option scores 0, so the game's stream picks (ties)."""
    return 0.0


@cfunc(STRATEGY_SIG, cache=True)
def greedy_strategy(kind, seat, features, state):
    """Greedy on the immediate change of its own score (reference 'greedy')."""
    return features[F_DELTA]


_REGISTRY: dict[str, CFunc] = {}
_DESCRIPTIONS: dict[str, str] = {}
_MODES: dict[str, int] = {}

# Shortcut modes (simcore.fast.engine.MODE_*): the built-ins' scores are known
# without calling them, so the engine may skip the call with the same outcome.
MODE_CALL, MODE_ZERO, MODE_DELTA = 0, 1, 2


def register(name: str, fn: Callable | CFunc, description: str = "", *, _mode: int = MODE_CALL) -> CFunc:
    """Register a strategy under ``name`` and return its compiled cfunc.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    fn : callable or numba cfunc
        A cfunc of :data:`STRATEGY_SIG`, a numba ``@njit`` function, or a plain
        Python function with the signature ``(kind, seat, features, state) ->
        float`` written in the numba-compatible subset; it is compiled once.
    description : str, optional
        One line shown in listings.
    """
    if not isinstance(name, str) or not name:
        raise ValueError("a strategy needs a non-empty name")
    if isinstance(fn, CFunc):
        if fn._sig != STRATEGY_SIG:  # noqa: SLF001 - numba keeps the signature here
            raise TypeError(f"strategy {name!r}: cfunc signature must be {STRATEGY_SIG}")
        compiled = fn
    else:
        py = getattr(fn, "py_func", fn)  # an @njit dispatcher: compile its Python source
        if not callable(py):
            raise TypeError(f"strategy {name!r} is not callable")
        compiled = cfunc(STRATEGY_SIG)(py)
    _REGISTRY[name] = compiled
    _MODES[name] = _mode
    _DESCRIPTIONS[name] = description or (getattr(fn, "__doc__", "") or "").strip().split("\n")[0]
    return compiled


def get_strategy(name: str) -> CFunc:
    """The compiled strategy registered under ``name``."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown fast strategy {name!r} (known: {', '.join(sorted(_REGISTRY))})") from None


def get_mode(name: str) -> int:
    """The engine shortcut of a registered strategy (MODE_CALL for every user strategy)."""
    get_strategy(name)
    return _MODES[name]


def strategy_names() -> list[str]:
    """Registered strategy names, sorted."""
    return sorted(_REGISTRY)


def describe(name: str) -> str:
    return _DESCRIPTIONS.get(name, "")


register("random", random_strategy, "uniform random legal choices", _mode=MODE_ZERO)
register("greedy", greedy_strategy, "maximises the immediate change of its own score", _mode=MODE_DELTA)
# The same two through the generic hook (every option scored by a call): used
# to check that the shortcuts change nothing, and to time the hook itself.
register("random-hook", random_strategy, "'random' scored through the strategy hook")
register("greedy-hook", greedy_strategy, "'greedy' scored through the strategy hook")
