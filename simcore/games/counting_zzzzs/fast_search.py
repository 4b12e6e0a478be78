"""Counting Zzzzs, the fast engine's search bot (search@K, Z17.2): :mod:`.bots`' sample_world, evaluate,
playout, playout_turn and search_choice on the state arrays of :mod:`.fast`.

The playouts use their own turn loop (:func:`playout_turn`, :func:`playout_second_step`) so that no
function reaches itself through the search (numba types no recursion; every kernel caches).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.fast.rng import shuffle

from .bots import HORIZON_ROUNDS, WIN_CREDIT
from .common import MAX_DREAM
from .fast import (C_COUNT, DECK, DECK_END, DECK_POS, DISC, DREAM_CARD, DREAM_FCARD, DREAM_N, DREAM_PTS, HAND,
                   HAND_N, HOLDER_CARD, K_ELEMENT, K_SECOND, MODE, MODE_PLAYOUT, MT, NTYPES, OPT_N, OPTCAP, OPTS,
                   OVER, PLAYERS, SC_WIDTH, SCORE, TURNS, ACTIVE, WINNERS, asleep_value, do_second, draw_up,
                   element_options, end_turn, greedy_element, greedy_second, play_own_element, second_options,
                   stuck)


@njit(cache=True)
def sample_world(st, cd, seat, rng):
    world = st.copy()
    nt = st[NTYPES]
    p = st[PLAYERS]
    unseen = np.empty(nt, np.int64)
    for c in range(nt):
        unseen[c] = cd[C_COUNT, c] - st[HAND + seat * MT + c] - st[DISC + c]
    for s in range(p):
        for i in range(st[DREAM_N + s]):
            unseen[st[DREAM_CARD + s * MAX_DREAM + i]] -= 1
            if st[DREAM_FCARD + s * MAX_DREAM + i] >= 0:
                unseen[st[DREAM_FCARD + s * MAX_DREAM + i]] -= 1
        if st[HOLDER_CARD + s] >= 0:
            unseen[st[HOLDER_CARD + s]] -= 1
    m = 0
    for c in range(nt):
        m += unseen[c]
    pool = np.empty(m, np.int64)
    k = 0
    for c in range(nt):
        for _ in range(unseen[c]):
            pool[k] = c
            k += 1
    shuffle(rng, pool)
    k = 0
    for s in range(p):
        if s == seat:
            continue
        for c in range(nt):
            world[HAND + s * MT + c] = 0
        for i in range(st[HAND_N + s]):
            world[HAND + s * MT + pool[k + i]] += 1
        k += st[HAND_N + s]
    for i in range(st[DECK_END] - st[DECK_POS]):
        world[DECK + st[DECK_POS] + i] = pool[k + i]
    return world


@njit(cache=True)
def evaluate(st, cd, md, ms, seat):
    value = 0
    p = st[PLAYERS]
    if st[OVER] and st[WINNERS + seat]:
        k = 0
        for s in range(p):
            k += st[WINNERS + s]
        value += WIN_CREDIT // k
    mine = 0
    best_other = 0
    first = True
    for s in range(p):
        v = 10 * st[SCORE + s]
        if st[OVER] == 0 and st[DREAM_N + s] > 0:
            v += asleep_value(st[DREAM_PTS + s], st[DREAM_N + s])
        if s == seat:
            mine = v
        elif first or v > best_other:
            best_other = v
            first = False
    return value + mine - best_other


@njit(cache=True)
def playout(w, cd, md, ms, seat, kind, option):
    w[MODE] = MODE_PLAYOUT
    rng = np.zeros(1, np.uint64)
    script = np.zeros((0, SC_WIDTH), np.int64)
    if kind == K_ELEMENT:
        if play_own_element(w, cd, md, ms, seat, option) and w[OVER] == 0:
            playout_second_step(w, cd, md, ms, rng, script, seat)
    else:
        do_second(w, cd, md, ms, rng, script, seat, option)
    if w[OVER] == 0:
        end_turn(w, seat)
    for _ in range(HORIZON_ROUNDS * w[PLAYERS]):
        if w[OVER]:
            break
        playout_turn(w, cd, md, ms, rng, script)
    return evaluate(w, cd, md, ms, seat)


@njit(cache=True)
def playout_second_step(w, cd, md, ms, rng, script, seat):
    second_options(w, cd, seat)
    code = w[OPTS + K_SECOND * OPTCAP] if w[OPT_N + K_SECOND] == 1 else greedy_second(w, cd, md, ms, seat)
    do_second(w, cd, md, ms, rng, script, seat, code)


@njit(cache=True)
def playout_turn(w, cd, md, ms, rng, script):
    w[TURNS] += 1
    seat = w[ACTIVE]
    if draw_up(w, cd, md, ms, seat):
        return
    element_options(w, cd, seat)
    if w[OPT_N + K_ELEMENT] == 0:
        stuck(w, cd, md, ms, seat)
    else:
        card = w[OPTS + K_ELEMENT * OPTCAP] if w[OPT_N + K_ELEMENT] == 1 else greedy_element(w, cd, md, ms, seat)
        if play_own_element(w, cd, md, ms, seat, card) and w[OVER] == 0:
            playout_second_step(w, cd, md, ms, rng, script, seat)
    if w[OVER] == 0:
        end_turn(w, seat)


@njit(cache=True)
def search_choice(st, cd, md, ms, rng, seat, kind, budget):
    n = st[OPT_N + kind]
    options = st[OPTS + kind * OPTCAP:OPTS + kind * OPTCAP + n].copy()
    totals = np.zeros(n, np.int64)
    for _ in range(budget):
        world = sample_world(st, cd, seat, rng)
        for j in range(n):
            totals[j] += playout(world.copy(), cd, md, ms, seat, kind, options[j])
    best = 0
    for j in range(1, n):
        if totals[j] > totals[best]:
            best = j
    return options[best]


