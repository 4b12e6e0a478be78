"""Fast engine building blocks and the batch runner, checked against independent values."""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games.dreamscape.cards import N_TYPES
from simcore.games.dreamscape.decks import build_deck, deck_from_swap_texts
from simcore.games.dreamscape.fast import SimConfig, register, simulate
from simcore.games.dreamscape.fast.batch import run_chunk
from simcore.games.dreamscape.fast.features import chain_points_at, chain_points_by_type, ff_delta, top_add_delta
from simcore.games.dreamscape.fast.zones import new_state
from simcore.games.dreamscape.fast.layout import H_SEATS, S_REM_LEN, python_offsets
from simcore.games.dreamscape.fast.runner import iter_chunks
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.scoring import chain_points, chain_points_by_type as ref_by_type
from simcore.games.dreamscape.bots.reference_bots import REFERENCE_BOTS

# ------------------------------------------------------------------ chain scoring kernels


def _state_with_stack(cards, stack_ids):
    a = np.array([c[0] for c in cards], np.int32)
    b = np.array([c[1] for c in cards], np.int32)
    st = new_state(a, b, 2, False, False)
    offsets = python_offsets(len(cards))
    off = offsets["rem0"]
    st[off : off + len(stack_ids)] = stack_ids
    mk = offsets["rem_mask0"]  # the REM cards' type masks, kept alongside by the engine
    st[mk : mk + len(stack_ids)] = [(1 << cards[i][0]) | (1 << cards[i][1]) for i in stack_ids]
    st[H_SEATS + S_REM_LEN] = len(stack_ids)
    return st, off


def _random_stacks(n_stacks, seed=0):
    """Random REM stacks over few types, so long runs and joins are frequent."""
    rng = np.random.default_rng(seed)
    for _ in range(n_stacks):
        k = int(rng.integers(3, 6))  # types used
        types = rng.choice(N_TYPES, size=k, replace=False)
        n = int(rng.integers(0, 25))
        cards = []
        for _ in range(n):
            x, y = rng.choice(types, size=2, replace=False)
            cards.append((int(x), int(y)))
        yield cards


def test_chain_points_kernels_match_scoring_module():
    for cards in _random_stacks(400):
        st, off = _state_with_stack(cards, list(range(len(cards))))
        n = len(cards)
        assert chain_points_at(st, off, n, -1) == chain_points(cards)
        out = np.zeros(N_TYPES, np.int32)
        chain_points_by_type(st, 0, out)
        assert out.tolist() == ref_by_type(cards)


def test_floating_free_delta_matches_full_recount():
    """ff_delta (local) == chain of the stack with card i moved to the top - chain before."""
    checked = 0
    for cards in _random_stacks(300, seed=1):
        n = len(cards)
        st, off = _state_with_stack(cards, list(range(n)))
        for i in range(n - 1):
            moved = cards[:i] + cards[i + 1 :] + [cards[i]]
            assert ff_delta(st, off, n, i) == chain_points(moved) - chain_points(cards)
            assert chain_points_at(st, off, n, i) == chain_points(moved)
            checked += 1
    assert checked > 1000


def test_top_add_delta_matches_full_recount():
    for cards in _random_stacks(300, seed=2):
        if not cards:
            continue
        st, _ = _state_with_stack(cards, list(range(len(cards) - 1)))
        top = len(cards) - 1
        assert top_add_delta(st, 0, top) == chain_points(cards) - chain_points(cards[:-1])


# ------------------------------------------------------------------ the batch runner


def _reference_results(deck, players, options, seed, game, bot):
    g = Game.new(deck, players, GameRng(seed, game), options)
    rng = GameRng.decisions(seed, game)
    while not g.over:
        g.apply(REFERENCE_BOTS[bot].choose(g.state, g.pending, rng))
    s = g.state
    return [s.score(i) for i in range(players)], [st.z for st in s.seats], s.seat_turns, s.winners, s.turns_played


@pytest.mark.parametrize("players,bot", [(1, "random"), (2, "greedy"), (3, "random"), (4, "greedy")])
def test_simulate_results_equal_reference_games(players, bot):
    deck = deck_from_swap_texts(["NT:ED", "LD:PS"]) if players % 2 else build_deck()
    options = Options(sleep_token=players > 2, shifting_tokens=players == 2)
    res = simulate(SimConfig(players, options, deck), 6, 123, bot)
    for g in range(6):
        scores, zs, turns, winners, length = _reference_results(deck, players, options, 123, g, bot)
        assert res.score[g].tolist() == scores
        assert res.z[g].tolist() == zs
        assert res.turns[g].tolist() == turns
        assert res.length[g] == length
        expected_win = [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]
        assert res.win[g].tolist() == pytest.approx(expected_win)


def test_chunking_and_game_offsets_do_not_change_results():
    cfg = SimConfig(3, Options(True, True), deck_from_swap_texts(["FF:ID"]))
    whole = simulate(cfg, 300, 5, ["greedy", "random", "greedy"], chunk_size=300)
    parts = simulate(cfg, 300, 5, ["greedy", "random", "greedy"], chunk_size=37)
    for name in ("score", "z", "turns", "win", "length", "aborted", "performed", "chain_by_type"):
        assert np.array_equal(getattr(whole, name), getattr(parts, name)), name
    tail = next(iter_chunks(cfg, 100, 5, ["greedy", "random", "greedy"], first_game=200))
    assert np.array_equal(tail.score, whole.score[200:])


def test_thread_count_does_not_change_results():
    import numba

    cfg = SimConfig(2, Options(sleep_token=True))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(cfg, 300, 11, "random")
    finally:
        numba.set_num_threads(before)
    many = simulate(cfg, 300, 11, "random")
    assert np.array_equal(one.score, many.score) and np.array_equal(one.performed, many.performed)


def test_builtin_shortcuts_equal_calling_the_strategy_hook():
    cfg = SimConfig(3)
    for bot in ("greedy", "random"):
        a = simulate(cfg, 200, 8, bot)
        b = simulate(cfg, 200, 8, f"{bot}-hook")
        assert np.array_equal(a.score, b.score) and np.array_equal(a.performed, b.performed)


def test_result_invariants():
    cfg = SimConfig(4, Options(sleep_token=True))
    r = simulate(cfg, 500, 3, "greedy")
    assert not r.aborted.any()
    assert np.allclose(r.win.sum(axis=1), 1.0)  # shared wins split 1/k
    assert np.array_equal(r.turns.sum(axis=1), r.length)
    assert (r.z >= 1).all()  # R3.2
    # score = chain points - Z cards, and chain points split by type add up (R8.2: a
    # card in two runs counts in both, so the per-type sum is the total)
    assert np.array_equal(r.chain_by_type.sum(axis=2) - r.z, r.score)


def test_user_strategy_plugs_in_without_recompiling_the_engine():
    def prefer_stop(kind, seat, features, state):
        return -features[4]  # cheapest option (F_COST)

    register("test-cheapest", prefer_stop)
    simulate(SimConfig(2), 20, 1, "greedy")
    before = len(run_chunk.signatures)
    r = simulate(SimConfig(2), 50, 1, ["test-cheapest", "greedy"])
    assert len(run_chunk.signatures) == before  # one compiled engine for every strategy
    assert r.n_games == 50 and not r.aborted.any()


def test_bad_strategy_lists_are_refused():
    with pytest.raises(ValueError):
        simulate(SimConfig(3), 1, 0, ["greedy", "random"])
    with pytest.raises(KeyError):
        simulate(SimConfig(2), 1, 0, "no-such-bot")


@pytest.mark.slow
def test_one_million_games_have_no_aborted_game():
    aborted = 0

    def count(part):
        nonlocal aborted
        aborted += int(part.aborted.sum())

    simulate(SimConfig(3), 1_000_000, 2024, "greedy", chunk_size=100_000, on_chunk=count, keep=False)
    assert aborted == 0
