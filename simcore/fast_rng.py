"""SplitMix64 in numba: the bit-identical twin of :mod:`simcore.rng`.

A game's stream is one ``uint64`` held in a 1-element array (so kernels can
advance it in place). Game ``g`` of a run seeded ``seed`` shuffles from the
deal stream ``stream_state(mix64(seed), g)``, exactly
:func:`simcore.rng.game_stream_state`, and decides from the decision stream
``decision_state(mix64(seed), g)``, exactly
:func:`simcore.rng.decision_stream_state`, so both engines shuffle and break
ties identically whatever the thread count.
"""
from __future__ import annotations

from pathlib import Path

from simcore.numba_cache import guard_kernels

# before any kernel loads: these freeze simcore/rng.py's salts, which numba's own check of this file misses
guard_kernels(Path(__file__).resolve().parent)

import numpy as np  # noqa: E402 - after the cache guard
from numba import njit  # noqa: E402

from simcore.rng import DECISION_SALT as PY_DECISION_SALT, MASK64, mix64 as py_mix64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
DECISION_SALT = np.uint64(PY_DECISION_SALT)


@njit(inline="always", cache=True)
def mix64(z):
    """SplitMix64's output function on a uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_state(seed_mixed, game):
    """Starting state of game ``game``; ``seed_mixed`` is ``mix64(seed)`` (see :func:`seed_key`)."""
    return mix64(seed_mixed + np.uint64(game) * GOLDEN)


@njit(cache=True)
def decision_state(seed_mixed, game):
    """Starting state of game ``game``'s decision stream (:func:`simcore.rng.decision_stream_state`)."""
    return mix64(stream_state(seed_mixed, game) ^ DECISION_SALT)


@njit(inline="always", cache=True)
def next_u64(rng):
    rng[0] = rng[0] + GOLDEN
    return mix64(rng[0])


@njit(inline="always", cache=True)
def below(rng, n):
    """A whole number in [0, n): multiply-shift on the high 32 bits (n >= 1)."""
    return np.int64(((next_u64(rng) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True)
def shuffle(rng, items):
    """Fisher-Yates in place, from the last item down (as GameRng.shuffle)."""
    for i in range(items.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


def seed_key(seed: int) -> np.uint64:
    """``mix64(seed)`` as the kernels take it (any Python int seed, like GameRng)."""
    return np.uint64(py_mix64(seed & MASK64))


def new_stream(seed: int, game: int) -> np.ndarray:
    """A 1-element deal stream array for game ``game`` of a run seeded ``seed``."""
    return np.array([stream_state(seed_key(seed), np.uint64(game & MASK64))], dtype=np.uint64)


def new_decision_stream(seed: int, game: int) -> np.ndarray:
    """A 1-element decision stream array for game ``game`` of a run seeded ``seed``."""
    return np.array([decision_state(seed_key(seed), np.uint64(game & MASK64))], dtype=np.uint64)
