"""The fast engine's SplitMix64 is bit-identical to simcore.rng.GameRng (deal and decision streams)."""
from __future__ import annotations

import numpy as np
import pytest

from simcore import fast_rng as frng
from simcore.games.dreamscape.fast.scratch import get_rng, rng_below, set_rng
from simcore.rng import MASK64, GameRng


@pytest.mark.parametrize("seed,game", [(0, 0), (1, 5), (12345678901234, 99_999), (-3, 7), (2**64 + 5, 2**40)])
def test_stream_state_matches_game_rng(seed, game):
    assert int(frng.new_stream(seed, game)[0]) == GameRng(seed, game).state


def test_below_sequence_matches_game_rng():
    ref = GameRng(42, 3)
    fast = frng.new_stream(42, 3)
    for n in [1, 2, 3, 7, 10, 100, 120, 2**31 - 1] * 50:
        assert frng.below(fast, n) == ref.below(n)


@pytest.mark.parametrize("n_items", [0, 1, 2, 52, 106])
def test_shuffle_matches_game_rng(n_items):
    ref = GameRng(9, 11)
    items = list(range(n_items))
    ref.shuffle(items)
    fast = frng.new_stream(9, 11)
    arr = np.arange(n_items, dtype=np.int32)
    frng.shuffle(fast, arr)
    assert arr.tolist() == items
    assert int(fast[0]) == ref.state  # both streams advanced by the same draws


def test_stream_kept_in_work_array_round_trips_and_draws_like_game_rng():
    """The engine keeps the stream as two int32 halves of its work array."""
    wk = np.zeros((3, 6), dtype=np.int32)
    ref = GameRng(5, 17)
    set_rng(wk, np.uint64(ref.state))
    assert int(get_rng(wk)) == ref.state
    for n in (2, 3, 5, 120, 7, 2, 2):
        assert rng_below(wk, n) == ref.below(n)
    assert int(get_rng(wk)) == ref.state


@pytest.mark.parametrize("seed,game", [(0, 0), (1, 5), (12345678901234, 99_999), (-3, 7), (2**64 + 5, 2**40)])
def test_decision_state_matches_game_rng_decisions(seed, game):
    want = GameRng.decisions(seed, game).state
    assert int(frng.new_decision_stream(seed, game)[0]) == want
    assert int(frng.decision_state(frng.seed_key(seed), np.uint64(game & MASK64))) == want
    assert want != GameRng(seed, game).state  # a stream of its own, not the deal stream


def test_decision_stream_draws_like_game_rng_decisions():
    ref = GameRng.decisions(42, 3)
    fast = frng.new_decision_stream(42, 3)
    for n in [1, 2, 3, 7, 10, 100, 120, 2**31 - 1] * 20:
        assert frng.below(fast, n) == ref.below(n)
