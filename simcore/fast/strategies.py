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

Two kinds of strategy need no cfunc at all and run as engine modes:
:func:`register_linear` (MODE_LINEAR, ``dot(weights, features)`` computed by
the engine) and :func:`register_rollout` (MODE_ROLLOUT, flat Monte Carlo at
buy decisions; the built-in "rollout" uses 8 greedy playouts per option).

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

import numpy as np
from numba import cfunc, types
from numba.core.ccallback import CFunc

from simcore.fast.layout import F_DELTA, N_FEATURES
from simcore.rules import DECISION_ID, DECISION_KINDS

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
# name -> (weights float64[N_FEATURES], playouts per option, rollout policy mode)
_PARAMS: dict[str, tuple[np.ndarray, int, int]] = {}
# name -> bit mask over DECISION_ID of the kinds whose options the strategy tells apart
_DECIDES: dict[str, int] = {}
ALL_KINDS = (1 << len(DECISION_KINDS)) - 1


def kinds_mask(decides) -> int:
    """Bit mask of decision kinds (names or ids); ``None`` means every kind."""
    if decides is None:
        return ALL_KINDS
    if isinstance(decides, str):
        decides = [decides]
    mask = 0
    for kind in decides:
        if isinstance(kind, str):
            if kind not in DECISION_ID:
                raise ValueError(f"unknown decision kind {kind!r} (known: {', '.join(DECISION_KINDS)})")
            kind = DECISION_ID[kind]
        if not 0 <= int(kind) < len(DECISION_KINDS):
            raise ValueError(f"decision kind id {kind!r} out of range 0..{len(DECISION_KINDS) - 1}")
        mask |= 1 << int(kind)
    return mask

# Engine modes (simcore.fast.engine.MODE_*). Shortcuts: the built-ins' scores
# are known without calling them, so the engine may skip the call with the
# same outcome. MODE_LINEAR scores dot(weights, features) inside the engine;
# MODE_ROLLOUT is the flat Monte Carlo player.
from simcore.fast.scratch import MODE_CALL, MODE_DELTA, MODE_LINEAR, MODE_ROLLOUT, MODE_ZERO  # noqa: E402
_NO_WEIGHTS = np.zeros(N_FEATURES)


def register(
    name: str, fn: Callable | CFunc, description: str = "", *, decides=None, _mode: int = MODE_CALL
) -> CFunc:
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
    decides : list of decision kinds (names or ids), optional
        The kinds whose options the strategy tells apart. At any other kind
        the engine does not call it and picks as it would if every option
        scored the same (``below(n)`` on the game's stream), so declaring the
        kinds changes no game, only the time: e.g. Shifting Dreams' up to 120
        orders (R6.8) differ only in ``option_index`` and ``arg``. ``None``
        (the default) calls the strategy at every kind.
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
    mask = kinds_mask(decides)
    _REGISTRY[name] = compiled
    _MODES[name] = _mode
    _DECIDES[name] = mask
    _PARAMS[name] = (_NO_WEIGHTS, 0, MODE_DELTA)
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


def _check_weights(name: str, weights) -> np.ndarray:
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (N_FEATURES,):
        raise ValueError(f"strategy {name!r}: weights must be a vector of {N_FEATURES} numbers, got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"strategy {name!r}: weights must be finite")
    return w.copy()


def register_linear(name: str, weights: np.ndarray, description: str = "") -> None:
    """Register a linear strategy: an option scores ``dot(weights, features)``.

    The engine computes the dot product itself (MODE_LINEAR: no strategy call
    and no compilation per weight vector), summing ``weights[j] * features[j]``
    in slot order from 0.0, so it picks exactly what a strategy looping
    ``total += w[j] * features[j]`` picks.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    weights : array of N_FEATURES floats
        One weight per feature slot (:mod:`simcore.fast.layout`).
    description : str, optional
        One line shown in listings.
    """
    w = _check_weights(name, weights)
    register(name, greedy_strategy, description or "linear scoring of the afterstate features", _mode=MODE_LINEAR)
    _PARAMS[name] = (w, 0, MODE_DELTA)


def register_rollout(name: str, playouts: int = 8, policy="greedy", description: str = "") -> None:
    """Register a flat Monte Carlo strategy (MODE_ROLLOUT) running inside the engine.

    At every buy decision with 2+ options it plays ``playouts`` games to the
    end per option (rest of the Sleep Deck reshuffled, every seat playing the
    default policy) and takes the best mean of win credit + score margin /
    1000; every other decision it plays like the default policy.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    playouts : int
        Playouts per option (K >= 1).
    policy : "greedy" or array of N_FEATURES floats
        The default policy: greedy (immediate own-score change) or a linear
        weight vector (as :func:`register_linear`).
    description : str, optional
        One line shown in listings.
    """
    k = int(playouts)
    if k < 1 or k != playouts:
        raise ValueError(f"strategy {name!r}: playouts must be a whole number >= 1, got {playouts!r}")
    if isinstance(policy, str):
        if policy != "greedy":
            raise ValueError(f"strategy {name!r}: policy must be 'greedy' or a weight vector, got {policy!r}")
        w, pmode = _NO_WEIGHTS, MODE_DELTA
    else:
        w, pmode = _check_weights(name, policy), MODE_LINEAR
    register(name, greedy_strategy, description or f"flat Monte Carlo at buys, {k} playouts per option", _mode=MODE_ROLLOUT)
    _PARAMS[name] = (w, k, pmode)


def get_decides(name: str) -> int:
    """Bit mask over DECISION_ID of the kinds the strategy is called at."""
    get_strategy(name)
    return _DECIDES[name]


def get_params(name: str) -> tuple[np.ndarray, int, int]:
    """(weights, playouts, rollout policy mode) of a registered strategy (zeros/0 when unused)."""
    get_strategy(name)
    return _PARAMS[name]


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
# Greedy told apart only the kinds where an option can change its score at once
# (has_delta in the engine): same games as 'greedy', timed through the hook.
GREEDY_DECIDES = ("buy", "take_z", "sleep_token", "perform", "floating_free")
register("greedy-hook-kinds", greedy_strategy, "'greedy' through the hook, declaring the kinds it tells apart",
         decides=GREEDY_DECIDES)
register_rollout("rollout", 8, "greedy", "flat Monte Carlo at purchases: 8 greedy playouts per option, best mean")
