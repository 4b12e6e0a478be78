"""Tune the linear bot's weights by CMA-ES (the ``cma`` library) against a field of bots.

A candidate weight vector plays in every seat in turn (seats rotated) against
opponents drawn from the field, on the same deals for every candidate (common
random numbers: games 0..n-1 of one seed), so candidates are compared on equal
luck. Its fitness is its mean win credit (shared wins split, R8.3); CMA-ES
minimises the negative. The run is a function of its seed.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cma
import numpy as np

from simcore.games.dreamscape.cards import CODES
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.strategies import register_linear
from simcore.games.dreamscape.variants import parse_variant
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.features import N_FEATURES
from simcore.games.dreamscape.bots.linear import FEATURE_INDEX

# The features the tuner searches over (the rest weigh 0): immediate score,
# budget and Z cards, open chains, targeting, and each dream type as a perform choice.
TUNED_FEATURES = (
    "delta", "budget_after", "z_after", "cost", "top_run_a", "top_run_b", "open_run_max",
    "target_is_leader", "target_z", "target_gap", "leader_deny",
)
PERFORM_FEATURES = tuple(f"perform_{code}" for code in CODES)  # in dream type id order


def search_space() -> list[tuple[str, int]]:
    """(feature name, feature slot) of every tuned weight, in the order of the search vector."""
    return [(name, FEATURE_INDEX[name]) for name in TUNED_FEATURES + PERFORM_FEATURES]


def start_weights() -> np.ndarray:
    """A sensible start: greedy (delta) with a little value on budget and open chains."""
    x = np.zeros(len(search_space()))
    names = [n for n, _ in search_space()]
    x[names.index("delta")] = 1.0
    x[names.index("budget_after")] = 0.3
    x[names.index("top_run_a")] = 0.2
    x[names.index("top_run_b")] = 0.2
    return x


def full_weights(x: np.ndarray) -> np.ndarray:
    """The full feature-length weight vector of a search vector (untuned slots 0)."""
    w = np.zeros(N_FEATURES)
    for value, (_, i) in zip(x, search_space()):
        w[i] = value
    return w


@dataclass
class TuneResult:
    weights: np.ndarray  # full feature-length vector
    fitness: float  # mean win credit of the best candidate in its evaluation
    evaluations: int
    history: list[float]


def seatings(field: Sequence[str], players: int, candidate: str) -> list[tuple[str, ...]]:
    """The candidate in every seat; the other seats cycle through the field."""
    out = []
    for seat in range(players):
        for shift in range(len(field)):
            others = [field[(shift + k) % len(field)] for k in range(players - 1)]
            out.append(tuple(others[:seat] + [candidate] + others[seat:]))
    return out


def evaluate(
    weights: np.ndarray, players: int, variant: str, field: Sequence[str], games: int, seed: int,
) -> float:
    """Mean win credit of the linear bot with ``weights`` over the rotated seatings."""
    name = "tune-candidate"
    register_linear(name, weights, "candidate of a tuning run")
    v = parse_variant(variant)
    config = SimConfig(players=players, options=v.options, deck=v.deck())
    plan = seatings(field, players, name)
    per = max(1, games // len(plan))
    total, n = 0.0, 0
    for seating in plan:
        result = simulate(config, per, seed, list(seating))
        seat = seating.index(name)
        total += float(result.win[:, seat].sum())
        n += result.n_games
    return total / n


def tune(
    players: int = 3,
    variant: str = "base",
    field: Sequence[str] = ("greedy", "chain", "economist", "spoiler"),
    budget: int = 200,
    games_per_eval: int = 3000,
    seed: int = 1,
    sigma0: float = 0.5,
    progress: Callable[[int, float], None] | None = None,
) -> TuneResult:
    """CMA-ES over the linear weights; ``budget`` candidate evaluations in all.

    Raises
    ------
    StrategyError
        ``field`` names no opponent (the seatings would be empty).
    """
    if not field:
        raise StrategyError("tuning needs at least one opponent strategy in the field")
    x0 = start_weights()
    es = cma.CMAEvolutionStrategy(x0, sigma0, {"seed": seed, "maxfevals": budget, "verbose": -9})
    best_x, best_f, history, evals = x0, -1.0, [], 0
    while not es.stop() and evals < budget:
        xs = es.ask()
        xs = xs[: budget - evals]
        fits = [evaluate(full_weights(np.asarray(x)), players, variant, field, games_per_eval, seed) for x in xs]
        evals += len(xs)
        if len(xs) == es.popsize:
            es.tell(xs, [-f for f in fits])
        for x, f in zip(xs, fits):
            if f > best_f:
                best_x, best_f = np.asarray(x), f
        history.append(max(fits))
        if progress:
            progress(len(xs), best_f)
    return TuneResult(full_weights(best_x), best_f, evals, history)
