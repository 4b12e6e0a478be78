"""MODE_LINEAR and the rollout player (MODE_ROLLOUT) of the fast engine."""
from __future__ import annotations

import numpy as np
import pytest
from numba import cfunc

from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.batch import run_chunk
from simcore.games.dreamscape.fast.layout import F_BUDGET_AFTER, F_DELTA, F_LEADER_DENY, F_OPEN_RUN_MAX, F_PERFORM_BASE, N_FEATURES
from simcore.games.dreamscape.fast.strategies import (
    STRATEGY_SIG,
    describe,
    get_mode,
    register,
    register_linear,
    register_rollout,
)
from simcore.games.dreamscape.rules import Options

FIELDS = ("score", "z", "turns", "win", "length", "aborted", "performed", "chain_by_type")


def _same(a, b):
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in FIELDS)


def _weights(seed=0):
    rng = np.random.default_rng(seed)
    w = np.zeros(N_FEATURES)
    w[:28] = rng.normal(size=28)
    w[F_DELTA] = 2.0
    w[F_PERFORM_BASE : F_PERFORM_BASE + 11] = rng.normal(size=11)
    return w


def _dot_cfunc(w):
    w = w.copy()

    @cfunc(STRATEGY_SIG)
    def dot(kind, seat, features, state):
        total = 0.0
        for i in range(N_FEATURES):
            total += w[i] * features[i]
        return total

    return dot


@pytest.mark.parametrize("players,options", [(3, Options()), (2, Options(True, True)), (1, Options()), (4, Options(True, False))])
def test_linear_mode_plays_exactly_like_the_same_dot_product_cfunc(players, options):
    w = _weights(players)
    register_linear("test-linear", w, "test")
    register("test-linear-cfunc", _dot_cfunc(w), "test")
    cfg = SimConfig(players, options)
    mixed = ["test-linear", "greedy", "random", "test-linear"][:players]
    a = simulate(cfg, 300, 4, mixed)
    b = simulate(cfg, 300, 4, [n if n != "test-linear" else "test-linear-cfunc" for n in mixed])
    assert _same(a, b)


def test_linear_weights_per_seat_and_no_recompile():
    register_linear("test-lin-a", _weights(1))
    register_linear("test-lin-b", _weights(2))
    simulate(SimConfig(2), 5, 1, ["test-lin-a", "test-lin-b"])
    before = len(run_chunk.signatures)
    register_linear("test-lin-c", _weights(3))
    r = simulate(SimConfig(3), 50, 1, ["test-lin-a", "test-lin-b", "test-lin-c"])
    assert len(run_chunk.signatures) == before and not r.aborted.any()
    # a linear bot weighting only the delta plays like greedy (same ties on the same stream)
    w = np.zeros(N_FEATURES)
    w[F_DELTA] = 1.0
    register_linear("test-lin-greedy", w)
    assert _same(simulate(SimConfig(3), 200, 9, "test-lin-greedy"), simulate(SimConfig(3), 200, 9, "greedy"))


def test_registry_checks():
    with pytest.raises(ValueError):
        register_linear("bad", np.zeros(3))
    with pytest.raises(ValueError):
        register_linear("bad", np.full(N_FEATURES, np.nan))
    with pytest.raises(ValueError):
        register_rollout("bad", playouts=0)
    with pytest.raises(ValueError):
        register_rollout("bad", policy="smart")
    assert get_mode("rollout") == 4 and describe("rollout")


def test_rollout_is_deterministic_and_independent_of_chunking_and_threads():
    import numba

    cfg = SimConfig(3)
    names = ["rollout", "greedy", "greedy"]
    a = simulate(cfg, 24, 7, names)
    b = simulate(cfg, 24, 7, names, chunk_size=5)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        c = simulate(cfg, 24, 7, names)
    finally:
        numba.set_num_threads(before)
    assert _same(a, b) and _same(a, c)
    assert not a.aborted.any()


def test_rollout_with_linear_policy_and_in_every_configuration():
    w = np.zeros(N_FEATURES)
    w[F_DELTA] = 1.0
    w[F_BUDGET_AFTER] = 0.1
    w[F_OPEN_RUN_MAX] = 0.05
    w[F_LEADER_DENY] = 0.2
    register_rollout("test-rollout-lin", playouts=2, policy=w)
    register_rollout("test-rollout-2", playouts=2)
    for players, options in [(1, Options()), (2, Options(True, True)), (4, Options(True, False))]:
        names = (["test-rollout-lin", "test-rollout-2", "greedy", "random"])[:players]
        r = simulate(SimConfig(players, options), 8, 3, names)
        assert not r.aborted.any() and np.allclose(r.win.sum(axis=1), 1.0)


def test_rollout_leaves_the_real_game_consistent():
    """The traced rollout game replays legal decisions and its cached chain points are current."""
    from simcore.games.dreamscape.decks import build_deck
    from simcore.games.dreamscape.fast.bridge import decode_trace, dump_fast_state, play_traced

    deck = build_deck()
    st, meta, opts = play_traced(deck, 3, Options(), 5, 2, ["rollout", "greedy", "greedy"])
    decisions = decode_trace(meta, opts)
    assert any(k == "buy" and s == 0 for k, s, _, _ in decisions)
    for _, _, choices, chosen in decisions:
        assert chosen in choices
    for seat in dump_fast_state(st, deck)["seats"]:
        assert seat["_cached_score"] == seat["score"]


def test_rollout_differs_from_greedy_and_from_its_non_buy_play():
    cfg = SimConfig(3)
    g = simulate(cfg, 30, 2, "greedy")
    r = simulate(cfg, 30, 2, ["rollout", "greedy", "greedy"])
    assert not np.array_equal(g.score, r.score)  # the playouts change some purchases


@pytest.mark.parametrize("players,game", [(3, 0), (3, 1), (2, 4), (4, 3)])
def test_rollout_game_replays_on_the_reference_engine(players, game):
    """The playouts never touch the real game: its recorded choices, replayed on the
    reference engine from the same deal, give the same decisions and final state."""
    import json

    from simcore.games.dreamscape.decks import build_deck
    from simcore.games.dreamscape.fast.bridge import decode_trace, dump_fast_state, play_traced
    from simcore.games.dreamscape.notation import dump_state
    from simcore.games.dreamscape.reference import Game
    from simcore.rng import GameRng

    deck = build_deck()
    names = (["rollout", "greedy", "random", "rollout"])[:players]
    st, meta, opts = play_traced(deck, players, Options(), 11, game, names)
    g = Game.new(deck, players, GameRng(11, game), Options())
    for kind, seat, choices, chosen in decode_trace(meta, opts):
        d = g.pending
        assert (d.kind, d.seat) == (kind, seat)
        assert json.loads(json.dumps(list(d.choices))) == choices
        g.apply(d.choices[choices.index(chosen)])
    assert g.over
    fast = dump_fast_state(st, deck)
    for s in fast["seats"]:
        s.pop("_cached_score")
    assert json.loads(json.dumps(dump_state(g.state))) == fast
