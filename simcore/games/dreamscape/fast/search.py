"""Rollouts: the flat Monte Carlo player (Mode.ROLLOUT) and the game loop that runs it.

A rollout seat decides its buys (R5.2) by playing every option out
(:func:`rollout_decide`): a real game with a rollout seat runs
:func:`play_game_rollout`, the rules' turn (:func:`simcore.games.dreamscape.fast.kernels.begin_turn`,
:func:`direct_your_sleep_rollout`, :func:`simcore.games.dreamscape.fast.kernels.end_turn`) with
the rollout at its buy decisions. Each playout finishes the turn with the rule
kernels and plays the game out with :func:`simcore.games.dreamscape.fast.kernels.play_game`,
which has no rollout branch: a playout never starts playouts of its own and
the kernels' call graph has no cycle (numba compiles no recursion).

Why here and not in decide: the rule kernels call ``choose``, so a rollout
reached from ``choose`` would make decisions import the rules that import
decisions. Imports therefore go one way:
layout <- scratch <- zones <- features <- decisions <- kernels <- search <- batch.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.dreamscape.fast.decisions import choose, pick_best, record
from simcore.games.dreamscape.fast.jit import kernel
from simcore.games.dreamscape.fast.kernels import begin_turn, buy_loop, buy_options, end_turn, play_game, purchase
from simcore.games.dreamscape.fast.layout import (
    BUY_STOP,
    H_ABORTED,
    H_DECK_PTR,
    H_GAME_OVER,
    H_MAX_BUYS,
    H_N_CARDS,
    H_N_SEATS,
    H_N_WINNERS,
    H_TURNS,
    H_WINNERS,
    K_BUY,
    MAX_SEATS,
    N_FEATURES,
    off_deck,
)
from simcore.fast_rng import mix64, stream_state
from simcore.games.dreamscape.fast.scratch import (
    FW_SCORES,
    FW_WEIGHTS,
    MODE_ROLLOUT,
    WK_MODES,
    WK_PLAYOUTS,
    WK_POLICY,
    get_rng,
    playout_work,
    rng_below,
    seat_mode,
    set_rng,
    set_weights,
    tracing,
)
from simcore.games.dreamscape.fast.zones import final_score

ROLLOUT_SALT = np.uint64(0xD1B54A32D192ED03)


@kernel
def play_game_rollout(st, wk, fw, strats, pb):
    """kernels.play_game for a game with a rollout seat; ``pb`` = its playout scratch (playout_buffers)."""
    while st[H_GAME_OVER] == 0:
        seat = begin_turn(st, wk, fw, strats)
        if seat < 0:
            return
        direct_your_sleep_rollout(st, wk, fw, strats, seat, pb)
        end_turn(st, wk, fw, strats)


@kernel
def direct_your_sleep_rollout(st, wk, fw, strats, seat, pb):
    """kernels.direct_your_sleep, a MODE_ROLLOUT seat deciding its buys by playouts.

    Every other seat, and every other decision, goes through choose as usual.
    """
    purchases = 0
    o = wk
    rollout = seat_mode(wk, seat) == MODE_ROLLOUT
    while True:
        if st[H_MAX_BUYS] > 0 and purchases >= st[H_MAX_BUYS]:  # rules knob max-buys (R5.2)
            return
        n = buy_options(st, seat, o, purchases)
        if n == 0 or (n == 1 and o[0, 0] == BUY_STOP):
            return
        if rollout and n >= 2:
            i = rollout_decide(st, wk, fw, strats, seat, n, purchases, pb)
        else:
            i = choose(st, wk, fw, strats, K_BUY, seat, n, 0)
        t = o[i, 0]
        v = o[i, 1]
        if t == BUY_STOP:
            return
        purchase(st, wk, fw, strats, seat, t, v)
        purchases += 1


@kernel
def rollout_decide(st, wk, fw, strats, seat, n, purchases, pb):
    """Flat Monte Carlo at a buy decision: K playouts per option, best mean wins.

    Each playout copies the state into the playout buffers (the real state,
    its R6.12 marks and the game's stream are never written), reshuffles the
    rest of the Sleep Deck (the only hidden information) with a playout
    stream, applies the option, finishes the buy loop and the turn, and plays
    the game out with the seat's default policy for every seat. Playout k
    uses the same stream for every option (common random numbers: the
    options are compared on the same deals). The streams derive from the
    game's stream state without advancing it, so the game stays a function of
    (seed, game); ties of the means are broken on the game's stream as usual.
    """
    pst, pwk, pfw = pb
    rows = wk.shape[0]
    prow = pwk.shape[0]
    k_play = wk[rows + WK_PLAYOUTS, seat]
    policy = wk[rows + WK_POLICY, seat]
    w = fw[FW_WEIGHTS + seat * N_FEATURES : FW_WEIGHTS + (seat + 1) * N_FEATURES]
    for s in range(MAX_SEATS):  # every seat plays the deciding seat's policy
        pwk[prow + WK_MODES, s] = policy
        set_weights(pfw, s, w)
    base = mix64(get_rng(wk) ^ ROLLOUT_SALT ^ (np.uint64(st[H_TURNS]) << np.uint64(8)) ^ np.uint64(purchases))
    size = st.shape[0]
    c = st[H_N_CARDS]
    d = off_deck(st)
    scores = fw[FW_SCORES:]
    for i in range(n):
        t = wk[i, 0]
        v = wk[i, 1]
        total = 0.0
        for k in range(k_play):
            for j in range(size):
                pst[j] = st[j]
            set_rng(pwk, stream_state(base, np.uint64(k)))
            ptr = pst[H_DECK_PTR]
            for j in range(c - 1, ptr, -1):  # Fisher-Yates on the unseen cards
                r = ptr + rng_below(pwk, j - ptr + 1)
                tmp = pst[d + j]
                pst[d + j] = pst[d + r]
                pst[d + r] = tmp
            if t != BUY_STOP:
                purchase(pst, pwk, pfw, strats, seat, t, v)
                buy_loop(pst, pwk, pfw, strats, seat, np.int64(purchases + 1))
            end_turn(pst, pwk, pfw, strats)
            play_game(pst, pwk, pfw, strats)
            total += playout_outcome(pst, seat)
        scores[i] = total / k_play
    best_i = pick_best(wk, scores, n)
    if tracing(wk):
        record(wk, np.int64(K_BUY), seat, n, best_i)
    return best_i


@kernel
def playout_outcome(st, seat):
    """The deciding seat's result of a finished playout: win credit + score margin / 1000.

    Scores are final scores (R8.2 with the knobs z-penalty and bonus), as the game's winner is decided.
    """
    ns = st[H_N_SEATS]
    own = final_score(st, seat)
    best = 0
    first = True
    for s in range(ns):
        if s != seat:
            sc = final_score(st, s)
            if first or sc > best:
                best = sc
                first = False
    win = 0.0
    nw = st[H_N_WINNERS]
    if st[H_ABORTED] == 0 and nw > 0 and (st[H_WINNERS] >> seat) & 1 != 0:
        win = 1.0 / nw
    return win + (own - best) / 1000.0


@njit(cache=True)
def playout_buffers(st, wk, fw, modes):
    """The playout scratch (state, wk, fw) of one game with a rollout seat."""
    pwk, pfw = playout_work(st[H_N_CARDS], fw.shape[0])
    return np.zeros(st.shape[0], np.int32), pwk, pfw
