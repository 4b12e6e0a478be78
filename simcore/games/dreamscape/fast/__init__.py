"""The fast engine: numba kernels on flat state vectors, plus a batch runner.

Public API::

    from simcore.games.dreamscape.fast import SimConfig, simulate, iter_chunks
    result = simulate(SimConfig(players=3), n_games=100_000, seed=1, strategies="greedy")

Strategies are numba cfuncs of one fixed signature (see
:mod:`simcore.games.dreamscape.fast.strategies`), registered by name with :func:`register`
(one :class:`StrategyRecord` per name, :func:`get_record`);
linear strategies (:func:`register_linear`) and flat Monte Carlo players
(:func:`register_rollout`) run as built-in engine modes without a call.

The house, bottom up (each module imports only those above it)::

    layout     the state vector's layout, dream type ids, option encodings, PERM5
    rng        SplitMix64 (the twin of simcore.rng)
    jit        the kernel decorators
    scratch    the wk / fw scratch of a game, Mode (the seat modes), the game's stream in wk
    zones      GameState's small helpers (draw, discard, budget, score, opponents, ...)
    features   chain points (R8.2) and the afterstate features; DELTA_KINDS
    encoding   what a deciding seat may know of a position, as a vector
    prefix     the forced prefix (Mode.SEARCH): a turn's decisions replayed (below decisions, like script)
    decisions  choose / decide / pick_best / record, linear scoring
    kernels    the rule kernels, simcore.games.dreamscape.reference function for function
    search     rollouts (flat Monte Carlo) and the game loop running them
    value      the strong bot's value at a turn boundary: its inputs (encode_view) and its trees
    isearch    the search player: a turn driver, every decision played out, hidden cards dealt anew;
               the strong bot's one-turn lookahead on its value; the search over the strong bot
    batch      run_chunk / play_one / game_results: whole games from a seed
    value_games  the strong bot's training games (expert self-play, late turn starts and who won)
    runner     Python: SimConfig, simulate, iter_chunks, summarize
    bridge     Python: traced games, decoding, state export (differential test)

:mod:`simcore.games.dreamscape.fast.cache` guards numba's on-disk cache of all of them; it runs
here, before any kernel module is imported.
"""
from simcore.games.dreamscape.fast.cache import drop_stale_cache

drop_stale_cache()

from simcore.games.dreamscape.fast.runner import SimConfig, SimResult, iter_chunks, simulate
from simcore.games.dreamscape.fast.strategies import (
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
