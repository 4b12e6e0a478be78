"""The fast engine: numba kernels on flat state vectors, plus a batch runner.

Public API::

    from simcore.fast import SimConfig, simulate, iter_chunks
    result = simulate(SimConfig(players=3), n_games=100_000, seed=1, strategies="greedy")

Strategies are numba cfuncs of one fixed signature (see
:mod:`simcore.fast.strategies`), registered by name with :func:`register`
(one :class:`StrategyRecord` per name, :func:`get_record`);
linear strategies (:func:`register_linear`) and flat Monte Carlo players
(:func:`register_rollout`) run as built-in engine modes without a call.
"""
from simcore.fast.runner import SimConfig, SimResult, iter_chunks, simulate
from simcore.fast.strategies import (
    STRATEGY_SIG,
    STRATEGY_TYPE,
    StrategyRecord,
    get_record,
    get_strategy,
    register,
    register_linear,
    register_rollout,
    strategy_names,
)

__all__ = [
    "SimConfig",
    "SimResult",
    "iter_chunks",
    "simulate",
    "register",
    "register_linear",
    "register_rollout",
    "get_record",
    "get_strategy",
    "StrategyRecord",
    "strategy_names",
    "STRATEGY_SIG",
    "STRATEGY_TYPE",
]
