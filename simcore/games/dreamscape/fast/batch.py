"""The batch drivers: whole games from a seed, many at once, and their results.

:func:`run_chunk` plays a chunk of games in parallel (``prange``) and writes
each game's results (:func:`game_results`); :func:`play_one` plays one game,
optionally traced (:mod:`simcore.games.dreamscape.fast.bridge`). A game deals itself with
:func:`start_game` (Game.new) and runs :func:`simcore.games.dreamscape.fast.kernels.play_game`,
:func:`simcore.games.dreamscape.fast.search.play_game_rollout` when a seat plays
Mode.ROLLOUT, or :func:`simcore.games.dreamscape.fast.isearch.play_game_search` when a seat
plays Mode.SEARCH.

The top of the one-way import chain
(layout <- scratch <- zones <- features <- decisions <- kernels <- search <- isearch <- batch);
:mod:`simcore.games.dreamscape.fast.runner` and :mod:`simcore.games.dreamscape.fast.bridge` call it from Python.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcore.games.dreamscape.fast.features import chain_points_by_type
from simcore.games.dreamscape.fast.jit import kernel
from simcore.games.dreamscape.fast.kernels import play_game, play_turn, setup_state
from simcore.games.dreamscape.fast.layout import (
    H_ABORTED,
    H_GAME_OVER,
    H_PERF,
    H_N_WINNERS,
    H_TURNS,
    H_WINNERS,
    N_TYPES,
    S_REM_LEN,
    S_TURNS,
    S_Z_LEN,
    off_rem,
    seat_base,
)
from simcore.fast_rng import decision_state, shuffle, stream_state
from simcore.games.dreamscape.fast.scratch import MD_SCORE, MODE_ROLLOUT, MODE_SEARCH, new_work, trace_start
from simcore.games.dreamscape.fast.isearch import any_search, collect_game_search, play_game_search
from simcore.games.dreamscape.fast.script import script_running
from simcore.games.dreamscape.fast.search import play_game_rollout, playout_buffers
from simcore.games.dreamscape.fast.zones import final_score, new_state, set_knobs


@njit(cache=True)
def start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng):
    """Game.new: shuffle ids 0..C-1 with the game's deal stream ``rng``, then setup_state (R2).

    ``knobs`` is the rules knob vector (:func:`simcore.games.dreamscape.fast.layout.knob_vector`).
    """
    c = cards_a.shape[0]
    order = np.arange(c).astype(np.int32)
    shuffle(rng, order)
    st = new_state(cards_a, cards_b, n_seats, sleep_token, shifting_tokens)
    set_knobs(st, knobs)
    setup_state(st, order)
    return st


@kernel
def game_results(
    st, n_seats, i, score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out
):
    """Write one finished game's results into row ``i`` of the output arrays.

    ``held_out[i, s, c]`` is 1 when deck card ``c`` ends in seat s's REM stack.
    """
    length_out[i] = st[H_TURNS]
    aborted = st[H_ABORTED] != 0
    aborted_out[i] = aborted
    nw = st[H_N_WINNERS]
    mask = st[H_WINNERS]
    for s in range(n_seats):
        b = seat_base(s)
        score_out[i, s] = final_score(st, s)  # R8.2 with the knobs
        z_out[i, s] = st[b + S_Z_LEN]
        turns_out[i, s] = st[b + S_TURNS]
        win_out[i, s] = 1.0 / nw if (not aborted and nw > 0 and (mask >> s) & 1) else 0.0
        for t in range(N_TYPES):
            perf_out[i, s, t] = st[H_PERF + s * N_TYPES + t]
        chain_points_by_type(st, s, chain_out[i, s])
        rem = off_rem(st, s)
        for k in range(st[b + S_REM_LEN]):
            held_out[i, s, st[rem + k]] = 1


@njit(cache=True)
def any_rollout(modes, n_seats):
    """True when a seat plays Mode.ROLLOUT (``modes`` as new_work takes it)."""
    for s in range(n_seats):
        if modes[MD_SCORE, s] == MODE_ROLLOUT:
            return True
    return False


# Three entry points play a chunk, one per kind of game loop: a run compiles only the one its seats need
# (``chunk_kernel``). The search loop (the search player, the strong bot) is most of the engine's compile
# time, the rollout loop a part; a run of random, greedy, linear, expert or hand-written bots needs neither.
# Each plays every game exactly as a single entry point with all three branches would (same streams, same
# kernels), so which one runs changes no number.


@njit(cache=True, parallel=True)
def run_chunk(
    cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game,
    s0, s1, s2, s3, modes, weights,
    score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out,
):
    """Play games ``first_game .. first_game + n - 1`` (n = len(length_out)) in parallel, no seat searching or rolling out.

    ``modes`` int64[4, 4] (per seat: score mode, rollout policy mode,
    playouts per option, kinds a MODE_CALL strategy is called at) and ``weights`` float64[4, N_FEATURES] (MODE_LINEAR
    weights / linear rollout policies) come from :func:`simcore.games.dreamscape.fast.runner.strategy_args`.
    A run with a Mode.ROLLOUT or Mode.SEARCH seat goes to :func:`run_chunk_rollout` / :func:`run_chunk_search`
    (:func:`chunk_kernel` picks).
    """
    n = length_out.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)  # the deal stream
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)  # no trace
        play_game(st, wk, fw, strats)
        game_results(
            st, n_seats, i, score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out
        )


@njit(cache=True, parallel=True)
def run_chunk_rollout(
    cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game,
    s0, s1, s2, s3, modes, weights,
    score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out,
):
    """:func:`run_chunk` for a run with a Mode.ROLLOUT seat (flat Monte Carlo) and none searching."""
    n = length_out.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)  # the deal stream
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)  # no trace
        play_game_rollout(st, wk, fw, strats, playout_buffers(st, wk, fw, modes))
        game_results(
            st, n_seats, i, score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out
        )


@njit(cache=True, parallel=True)
def run_chunk_search(
    cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game,
    s0, s1, s2, s3, modes, weights,
    score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out,
):
    """:func:`run_chunk` for a run with a Mode.SEARCH seat (the search player or the strong bot)."""
    n = length_out.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)  # the deal stream
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)  # no trace
        play_game_search(st, wk, fw, strats, modes, weights)
        game_results(
            st, n_seats, i, score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out
        )


CHUNK_LOOPS = ("plain", "rollout", "search")  # the game loops of run_chunk, run_chunk_rollout, run_chunk_search


def chunk_loop(modes: np.ndarray, n_seats: int) -> str:
    """The game loop a run needs (one of :data:`CHUNK_LOOPS`), as play_one picks it: search, else rollout, else plain."""
    seats = np.asarray(modes)[MD_SCORE, :n_seats]
    if (seats == MODE_SEARCH).any():
        return "search"
    if (seats == MODE_ROLLOUT).any():
        return "rollout"
    return "plain"


def chunk_kernel(modes: np.ndarray, n_seats: int):
    """The chunk entry point of a run with these seat modes (:func:`chunk_loop`)."""
    return {"plain": run_chunk, "rollout": run_chunk_rollout, "search": run_chunk_search}[chunk_loop(modes, n_seats)]


@njit(cache=True)
def play_one(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, game, s0, s1, s2, s3, modes, weights, trace_decisions, trace_rows):
    """One game, optionally traced (``trace_decisions > 0``): final state and the work array."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_state(key, game)  # the deal stream
    st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
    wk, fw = new_work(cards_a.shape[0], decision_state(key, game), trace_decisions, trace_rows, modes, weights)
    if any_search(modes, n_seats):
        play_game_search(st, wk, fw, (s0, s1, s2, s3), modes, weights)
    elif any_rollout(modes, n_seats):
        play_game_rollout(st, wk, fw, (s0, s1, s2, s3), playout_buffers(st, wk, fw, modes))
    else:
        play_game(st, wk, fw, (s0, s1, s2, s3))
    return st, wk


@njit(cache=True)
def play_scripted(st, wk, fw, strats):
    """Play a scenario's turns with every seat in MODE_SCRIPT (driver: :mod:`simcore.games.dreamscape.fast.scenario`).

    Turns from the active seat's turn start until the script is done or has
    failed (that turn is finished with option 0) or the game ends.
    """
    base = trace_start(wk)
    while st[H_GAME_OVER] == 0 and script_running(wk, base):
        play_turn(st, wk, fw, strats)


@njit(cache=True, parallel=True)
def collect_chunk(
    cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game, s0, s1, s2, s3, modes, weights,
    rec, rec_n, win_out,
):
    """Play training games ``first_game ..`` (n = rec.shape[0]) with search seats, keeping their decisions.

    Game i's search decisions go to ``rec[i]`` (rows of ``simcore.games.dreamscape.fast.isearch.REC_*``
    columns, ``rec_n[i, 0]`` of them; ``rec_n[i, 1]`` decisions not kept) and
    its win credits to ``win_out[i]``. The games are the ones run_chunk plays
    with the same arguments.
    """
    n = rec.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)  # the deal stream
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)  # no trace
        collect_game_search(st, wk, fw, strats, modes, weights, rec[i], rec_n[i])
        aborted = st[H_ABORTED] != 0
        nw = st[H_N_WINNERS]
        for s in range(n_seats):
            win_out[i, s] = 1.0 / nw if (not aborted and nw > 0 and (st[H_WINNERS] >> s) & 1) else 0.0
