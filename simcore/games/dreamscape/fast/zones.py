"""The table's zones on the state vector: the small helpers of reference.GameState.

Drawing, pushing onto the discard pile, a Deep Sleep or a REM stack, a seat's
budget and score, its opponents, the Dreamscape's occupied / face-up
positions and its cost tokens: the few lines every rule kernel shares, in
the order of :class:`simcore.games.dreamscape.reference.GameState`'s methods, plus
:func:`new_state` (an empty table). All are inlined into their callers.

Imports only :mod:`simcore.games.dreamscape.fast.layout` and :mod:`simcore.games.dreamscape.fast.jit`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.layout import (
    H_ACTIVE,
    H_CHAIN_AT,
    H_COSTS,
    H_DECK_PTR,
    H_DISCARD_LEN,
    H_DS_CARD,
    H_DS_DOWN,
    H_N_CARDS,
    H_MAX_BUYS,
    H_N_SEATS,
    H_OPT_SHIFT_TOKENS,
    H_OPT_SLEEP_TOKEN,
    H_POS_BY_COST,
    H_REMOVED,
    H_TOKEN_POINT,
    H_Z_PENALTY,
    H_MIN_BUYS,
    H_PARADIGM_MAX,
    H_RESERVE_COST,
    H_RESERVE_LIMIT,
    H_RESPITE_Z,
    H_TAKE_Z,
    H_TERROR_Z,
    H_TOKEN_VALUE,
    H_Z_FLOOR,
    HEADER,
    CHAIN_TABLE,
    KN_BONUS,
    KN_CHAIN,
    KN_COSTS,
    KN_MAX_BUYS,
    KN_MIN_BUYS,
    KN_PARADIGM_MAX,
    KN_RESERVE_COST,
    KN_RESERVE_LIMIT,
    KN_RESPITE_Z,
    KN_TAKE_Z,
    KN_TERROR_Z,
    KN_TOKEN_VALUE,
    KN_Z_FLOOR,
    KN_REMOVED,
    KN_START_Z,
    KN_Z_PENALTY,
    MAX_SEATS,
    N_BLOCKS,
    N_POS,
    S_BONUS,
    S_CHAIN,
    S_REM_LEN,
    S_SPENT,
    S_START_Z,
    S_Z_LEN,
    SEAT_BLOCKS,
    STACK_DISCARD,
    off_chain,
    off_deck,
    off_discard,
    off_rem,
    off_z,
    seat_base,
)


@njit(cache=True)
def new_state(cards_a, cards_b, n_seats, sleep_token, shifting_tokens):
    """An empty table for a deck given as two type arrays (card id -> its types)."""
    c = cards_a.shape[0]
    st = np.zeros(off_chain(c) + c + 1, dtype=np.int32)
    st[H_N_SEATS] = n_seats
    st[H_N_CARDS] = c
    st[H_OPT_SLEEP_TOKEN] = 1 if sleep_token else 0
    st[H_OPT_SHIFT_TOKENS] = 1 if shifting_tokens else 0
    for i in range(c):
        st[HEADER + i] = cards_a[i]
        st[HEADER + c + i] = cards_b[i]
        st[HEADER + 2 * c + i] = (1 << cards_a[i]) | (1 << cards_b[i])
    for p in range(N_POS):
        st[H_DS_CARD + p] = -1
        st[H_COSTS + p] = p + 1  # R2.3: cost k on position k
        st[H_POS_BY_COST + p] = p
    st[H_Z_PENALTY] = 1  # the rules knobs at the rulebook's values (set_knobs changes them)
    st[H_TAKE_Z] = 1  # R4.1
    st[H_RESERVE_COST] = 1  # R5.1
    st[H_MIN_BUYS] = 1  # R5.2
    st[H_Z_FLOOR] = 1  # R3.2
    st[H_RESPITE_Z] = 1  # R6.5
    st[H_PARADIGM_MAX] = 2  # R6.11
    st[H_TOKEN_VALUE] = 1  # R9
    st[H_TERROR_Z] = 1  # R6.3
    st[H_CHAIN_AT] = off_chain(c)
    for n in range(c + 1):
        st[off_chain(c) + n] = CHAIN_TABLE[n]  # R8.2: a run is never longer than the deck
    for s in range(MAX_SEATS):
        st[seat_base(s) + S_START_Z] = 1  # R2.2
    return st


@njit(cache=True)
def set_knobs(st, knobs):
    """Store the rules knobs (``layout.knob_vector``) in the state: setup and scoring read them there."""
    st[H_Z_PENALTY] = knobs[KN_Z_PENALTY]
    st[H_MAX_BUYS] = knobs[KN_MAX_BUYS]
    st[H_REMOVED] = knobs[KN_REMOVED]
    st[H_TAKE_Z] = knobs[KN_TAKE_Z]
    st[H_RESERVE_COST] = knobs[KN_RESERVE_COST]
    st[H_MIN_BUYS] = knobs[KN_MIN_BUYS]
    st[H_RESERVE_LIMIT] = knobs[KN_RESERVE_LIMIT]
    st[H_Z_FLOOR] = knobs[KN_Z_FLOOR]
    st[H_RESPITE_Z] = knobs[KN_RESPITE_Z]
    st[H_PARADIGM_MAX] = knobs[KN_PARADIGM_MAX]
    st[H_TOKEN_VALUE] = knobs[KN_TOKEN_VALUE]
    st[H_TERROR_Z] = knobs[KN_TERROR_Z]
    for s in range(MAX_SEATS):
        st[seat_base(s) + S_START_Z] = knobs[KN_START_Z + s]
        st[seat_base(s) + S_BONUS] = knobs[KN_BONUS + s]
    for p in range(N_POS):
        st[H_COSTS + p] = knobs[KN_COSTS + p]  # R2.3, knob costs
    rank_positions_by_cost(st)
    for n in range(st[H_N_CARDS] + 1):
        st[st[H_CHAIN_AT] + n] = knobs[KN_CHAIN + n]  # R8.2, knob chain


@njit(cache=True)
def rank_positions_by_cost(st):
    """Fill ``H_POS_BY_COST`` from the costs: positions cheapest first, equal costs lower position first (R7.1).

    GameState.positions_by_cost; with the printed tokens 1..5 the position of cost k+1 at rank k.
    """
    for k in range(N_POS):
        st[H_POS_BY_COST + k] = -1
    for k in range(N_POS):
        best = -1
        for p in range(N_POS):
            taken = False
            for j in range(k):
                if st[H_POS_BY_COST + j] == p:
                    taken = True
            if not taken and (best < 0 or st[H_COSTS + p] < st[H_COSTS + best]):
                best = p
        st[H_POS_BY_COST + k] = best


@inline_kernel
def opponents(st, seat, o):
    """GameState.opponents: the other seats in seat order, as options in ``o``; their number."""
    n = 0
    for s in range(st[H_N_SEATS]):
        if s != seat:
            o[n, 0] = s
            n += 1
    return n


@inline_kernel
def budget(st, seat):
    """R3.1: unspent Z cards, plus the Sleep Token point while it is available (R9, knob token-point)."""
    b = seat_base(seat)
    extra = st[H_TOKEN_VALUE] if (st[H_TOKEN_POINT] != 0 and seat == st[H_ACTIVE]) else 0
    return st[b + S_Z_LEN] - st[b + S_SPENT] + extra


@kernel
def occupied_options(st, o):
    """GameState.occupied: positions (1..5) holding a card, either face, as options."""
    n = 0
    for p in range(N_POS):
        if st[H_DS_CARD + p] >= 0:
            o[n, 0] = p + 1
            n += 1
    return n


@kernel
def face_up_options(st, o):
    """GameState.face_up_positions: positions (1..5) holding a face-up card, as options."""
    n = 0
    for p in range(N_POS):
        if st[H_DS_CARD + p] >= 0 and st[H_DS_DOWN + p] == 0:
            o[n, 0] = p + 1
            n += 1
    return n


@inline_kernel
def position_of_cost(st, k):
    """The position index (0..4) of the ``k``-th cheapest position (``k`` 1..5): GameState.positions_by_cost.

    With the printed tokens 1..5 (R2.3, R6.8 variant) that is the position holding cost token ``k``.
    """
    return st[H_POS_BY_COST + k - 1]


@inline_kernel
def score(st, seat):
    """R8.2: chain points (kept current in S_CHAIN) minus Z cards."""
    b = seat_base(seat)
    return st[b + S_CHAIN] - st[b + S_Z_LEN]


@inline_kernel
def final_score(st, seat):
    """R8.2 with the rules knobs z-penalty and bonus: what decides the game (R8.3).

    Equal to :func:`score` at the rulebook's values; strategies' features keep
    reading :func:`score`.
    """
    b = seat_base(seat)
    return st[b + S_CHAIN] - st[H_Z_PENALTY] * st[b + S_Z_LEN] + st[b + S_BONUS]


@inline_kernel
def deck_left(st):
    return st[H_N_CARDS] - st[H_DECK_PTR]


@inline_kernel
def draw(st):
    card = st[off_deck(st) + st[H_DECK_PTR]]
    st[H_DECK_PTR] += 1
    return card


@inline_kernel
def discard_push(st, card):
    st[off_discard(st) + st[H_DISCARD_LEN]] = card
    st[H_DISCARD_LEN] += 1


@inline_kernel
def discard_pop(st):
    st[H_DISCARD_LEN] -= 1
    return st[off_discard(st) + st[H_DISCARD_LEN]]


@inline_kernel
def z_push(st, seat, card):
    b = seat_base(seat)
    st[off_z(st, seat) + st[b + S_Z_LEN]] = card
    st[b + S_Z_LEN] += 1


@inline_kernel
def rem_push(st, seat, card):
    b = seat_base(seat)
    k = off_rem(st, seat) + st[b + S_REM_LEN]
    st[k] = card
    st[k + st[H_N_CARDS]] = st[HEADER + 2 * st[H_N_CARDS] + card]  # its type mask alongside
    st[b + S_REM_LEN] += 1


@inline_kernel
def stack_span(st, stack):
    """(offset, length) of a seat's REM stack or of the discard pile."""
    if stack == STACK_DISCARD:
        return off_discard(st), st[H_DISCARD_LEN]
    return off_rem(st, stack), st[seat_base(stack) + S_REM_LEN]
