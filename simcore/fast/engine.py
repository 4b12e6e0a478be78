"""The fast engine: numba kernels that play Project Dreamscape on a flat state vector.

Each kernel mirrors the function of the same name in :mod:`simcore.reference`
(rule ids from shared/rules/interpretations.md in comments). Where the
reference ``yield``s a decision, the kernel enumerates the legal options in
the reference's order into the scratch buffer ``wk`` and calls
:func:`choose`, which (only for 2+ options, R11) lets the deciding seat's
strategy score each option and picks the best, ties broken by the game's
stream exactly as :mod:`strategies.reference_bots` does.

Nested effects (Floating Free -> Recurring Dream -> ...) run on an explicit
work stack inside :func:`perform_card` instead of recursion: an effect that
performs another card returns that card and :func:`perform_card` pushes a
frame for it. Empowered Dreaming's "then discard it" (R6.10) is a frame
pushed beneath the nested performance, so it runs once that performance has
resolved completely, as in the reference's generator recursion. The R6.12
loop guard bounds the nesting by the number of cards.

Kernels take the state vector ``st`` (see :mod:`simcore.fast.layout`), the
caller-allocated scratch arrays ``wk`` / ``fw`` (including the game's random
stream, the seats' modes and linear weights), and ``strats``, a tuple of 4
strategy functions (one per seat) of the fixed type
:data:`simcore.fast.strategies.STRATEGY_TYPE`.

Seat modes (decide): MODE_CALL calls the strategy per option with its
features; MODE_ZERO / MODE_DELTA are the random / greedy shortcuts; MODE_LINEAR
scores ``dot(weights[seat], features)`` in the engine; MODE_ROLLOUT plays
flat Monte Carlo at buy decisions (rollout_decide, with its own playout
buffers ``pb``) and its policy mode elsewhere.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit, prange

# The rule kernels allocate nothing and run without NRT reference counting:
# with it, every call of a small kernel paid atomic incref/decref pairs on its
# array arguments, which dominated the run time.
kernel = njit(cache=True, _nrt=False, error_model="numpy")
inline_kernel = njit(inline="always", cache=True, _nrt=False, error_model="numpy")

from simcore.fast.layout import (
    BUY_POSITION,
    BUY_RESERVED,
    BUY_STOP,
    CHAIN_TABLE,
    F_ARG,
    F_AUX,
    F_BEST_OPP,
    F_BUDGET_AFTER,
    F_CHAIN_NOW,
    F_COST,
    F_DECK_LEFT,
    F_DELTA,
    F_N_OPTIONS,
    F_N_SEATS,
    F_OPTION_INDEX,
    F_REM_LEN,
    F_SCORE_AFTER,
    F_SCORE_NOW,
    F_TURN,
    F_Z_AFTER,
    F_BUDGET_NOW,
    F_CHAIN_AFTER,
    F_DECK_FRACTION,
    F_LEADER_DENY,
    F_OPEN_RUN_MAX,
    F_OPP_MAX_Z,
    F_PERFORM_BASE,
    F_POS_COST,
    F_TARGET_GAP,
    F_TARGET_IS_LEADER,
    F_TARGET_Z,
    F_TOP_RUN_A,
    F_TOP_RUN_B,
    H_ABORTED,
    H_ACTIVE,
    H_COSTS,
    H_DECK_PTR,
    H_DISCARD_LEN,
    H_DS_CARD,
    H_DS_DOWN,
    H_GAME_OVER,
    H_N_CARDS,
    H_N_SEATS,
    H_N_WINNERS,
    H_OPT_SHIFT_TOKENS,
    H_OPT_SLEEP_TOKEN,
    H_PERF,
    H_POS_BY_COST,
    H_PURCHASE_ID,
    H_TOKEN_POINT,
    H_TURNS,
    H_WINNERS,
    HEADER,
    K_BUY,
    K_COLLECTIVE_DREAM,
    K_EMPOWERED_DREAMING,
    K_FLOATING_FREE,
    K_INTERRUPTED_SLEEP,
    K_INVASIVE_DREAMING,
    K_LUCID_DREAMING,
    K_NIGHT_TERROR,
    K_NIGHT_TERROR_SPENT,
    K_PARADIGM_SHIFT,
    K_PERFORM,
    K_SHIFTING_DREAMS,
    K_SHIFTING_TOKENS,
    K_SLEEP_TOKEN,
    K_SOLO_DISCARD_ORDER,
    K_TAKE_Z,
    K_TARGET_DISCARD,
    MAX_SEATS,
    N_BLOCKS,
    SEAT_BLOCKS,
    N_FEATURES,
    N_TYPES,
    OPT_WIDTH,
    S_CHAIN,
    S_REM_LEN,
    S_RES_LEN,
    S_SPENT,
    S_TURNS,
    S_Z_LEN,
    STACK_DISCARD,
    STACK_NONE,
    TOKEN_DISCARD,
    TOKEN_POINT,
    TOKEN_PASS,
    off_deck,
    off_discard,
    off_mark,
    off_ready,
    off_rem,
    off_res,
    off_z,
    seat_base,
)
from simcore.fast.rng import GOLDEN, mix64, shuffle, stream_state
from simcore.fast.script import script_pick, script_running  # scripted play (conformance)
from simcore.rules import TURN_CAP

# Dream type ids (R1.1).
FF, IS, NT, LD, PR, RD, CD, SD, ID, ED, PS = range(11)

# All 120 orders of positions 1..5 in lexicographic order (itertools order):
# the option lists of shifting_tokens and (filtered) shifting_dreams, R6.8.
PERM5 = np.array(list(permutations(range(1, 6))), dtype=np.int32)


def _distinct_rows():
    """For each set of empty positions (bit mask), the PERM5 rows distinct_rearrangements keeps.

    Only empty positions are interchangeable (cards are distinct and an empty
    position is always face up), so an order is the lexicographically first
    of its class exactly when the empty positions it draws from appear in
    ascending order.
    """
    rows = np.zeros((32, 120), dtype=np.int32)
    counts = np.zeros(32, dtype=np.int32)
    for mask in range(32):
        for r, order in enumerate(permutations(range(1, 6))):
            empties = [q for q in order if mask >> (q - 1) & 1]
            if empties == sorted(empties):
                rows[mask, counts[mask]] = r
                counts[mask] += 1
    return rows, counts


DISTINCT_ROWS, DISTINCT_COUNTS = _distinct_rows()

# Work-stack frame kinds of perform_card.
FR_PERFORM = 0
FR_DISCARD = 1  # R6.10: discard the Empowered Dreaming card once its performance resolved

# How decide() obtains a seat's scores: call the strategy, or a built-in shortcut.
MODE_CALL = 0
MODE_ZERO = 1  # every option scores 0 ('random')
MODE_DELTA = 2  # the score is features[F_DELTA] ('greedy')
MODE_LINEAR = 3  # the score is dot(weights[seat], features): no call, no compile per weight vector
MODE_ROLLOUT = 4  # flat Monte Carlo at buy decisions, the seat's policy mode everywhere else
MODE_SCRIPT = 5  # scripted play (conformance): answers from a script in the trace rows (simcore.fast.script)

# Scratch of one game: two caller-allocated arrays (few arrays = few NRT
# reference-count operations per kernel call, which dominate small calls).
#
# wk : int32[rows, OPT_WIDTH]
#   rows [0, M)             the options of the decision being asked (M = max_options)
#   rows [M, M + 2C + 8)    perform_card's work stack (frames of 6 ints)
#   next T rows             trace: kind, seat, n options, chosen, first option row
#   next R rows             trace: the options of every asked decision
#   row -7                  per-seat bit mask of the decision kinds a MODE_CALL strategy is called at
#   row -6                  per-seat playouts per option (MODE_ROLLOUT)
#   row -5                  per-seat policy mode (MODE_ROLLOUT: the default policy, MODE_DELTA or MODE_LINEAR)
#   row -4                  scratch (positions lists of paradigm_shift / prepare_next_solo)
#   row -3                  trace counters: decisions, option rows, overflow, T, R
#   row -2                  per-seat score modes (MODE_CALL / MODE_ZERO / MODE_DELTA / MODE_LINEAR / MODE_ROLLOUT)
#   row -1                  the game's random stream (uint64 as low, high int32 halves)
# fw : float64[FW_SCORES + M]
#   [0, N_FEATURES)         the feature vector handed to strategies
#   [FW_WEIGHTS, +4 N_F)    per-seat linear weights (MODE_LINEAR, a linear rollout policy)
#   [FW_SCRATCH, +8)        per-decision values shared by the options' features
#   [FW_SCORES, +M)         the strategies' scores of the options
WK_DECIDES = -7
WK_PLAYOUTS = -6
WK_POLICY = -5
WK_SCRATCH = -4
WK_MISC = -3
WK_MODES = -2
WK_RNG = -1
WK_TAIL = 7  # rows after the trace
FW_WEIGHTS = N_FEATURES
FW_SCRATCH = FW_WEIGHTS + MAX_SEATS * N_FEATURES
FW_OPEN_NOW = FW_SCRATCH  # longest top run of the deciding seat's REM stack now
FW_LEADER = FW_SCRATCH + 1  # leading opponent (first of the tied best; -1 solo)
FW_PERF_HOT = FW_SCRATCH + 2  # the perform one-hot slot currently 1 (0: none)
FW_LIN_N = FW_SCRATCH + 4  # 4 slots: per seat, the number of nonzero linear weights
FW_LIN_IDX = FW_SCRATCH + 8  # per seat, the slots of the nonzero weights in ascending order
FW_SCORES = FW_LIN_IDX + MAX_SEATS * N_FEATURES


def max_options(n_cards: int) -> int:
    """Size of the option buffer: 120 orders, or every REM card / reserve + 5 positions."""
    return max(120, n_cards + 8)


@inline_kernel
def n_opt_rows(c):
    return max(120, c + 8)


@njit(cache=True)
def new_work(n_cards, rng_state, trace_decisions, trace_rows, modes, weights):
    """Allocate the scratch of one game (trace_decisions = 0: no trace).

    ``modes`` is int64[4, 4]: per seat the score mode, the rollout policy mode,
    the rollout playouts per option and the bit mask of the decision kinds a
    MODE_CALL strategy is called at; ``weights`` is float64[4, N_FEATURES].
    """
    m = n_opt_rows(n_cards)
    rows = m + 2 * n_cards + 8 + trace_decisions + trace_rows + WK_TAIL
    wk = np.zeros((rows, OPT_WIDTH), dtype=np.int32)
    wk[rows - 3, 3] = trace_decisions
    wk[rows - 3, 4] = trace_rows
    for s in range(4):
        wk[rows - 2, s] = modes[0, s]
        wk[rows + WK_POLICY, s] = modes[1, s]
        wk[rows + WK_PLAYOUTS, s] = modes[2, s]
        wk[rows + WK_DECIDES, s] = modes[3, s]
    set_rng(wk, rng_state)
    fw = np.zeros(FW_SCORES + m, dtype=np.float64)
    for s in range(4):
        if modes[0, s] == MODE_LINEAR or modes[0, s] == MODE_ROLLOUT:  # fw is zeros otherwise
            set_weights(fw, s, weights[s])
    return wk, fw


@inline_kernel
def set_weights(fw, s, w):
    """Seat s's linear weights, and the list of their nonzero slots (see linear_score)."""
    k = 0
    for j in range(N_FEATURES):
        fw[FW_WEIGHTS + s * N_FEATURES + j] = w[j]
        if w[j] != 0.0:
            fw[FW_LIN_IDX + s * N_FEATURES + k] = j
            k += 1
    fw[FW_LIN_N + s] = k


@inline_kernel
def set_rng(wk, state):
    r = wk.shape[0] - 1
    wk[r, 0] = np.int32(state & np.uint64(0xFFFFFFFF))  # truncating casts keep the bits
    wk[r, 1] = np.int32(state >> np.uint64(32))


@inline_kernel
def get_rng(wk):
    r = wk.shape[0] - 1
    lo = np.uint64(np.int64(wk[r, 0]) & 0xFFFFFFFF)
    hi = np.uint64(np.int64(wk[r, 1]) & 0xFFFFFFFF)
    return (hi << np.uint64(32)) | lo


@kernel
def rng_below(wk, n):
    """rng.below(n) on the game's stream kept in the work array."""
    state = get_rng(wk) + GOLDEN
    set_rng(wk, state)
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


# ============================================================================ setup


@njit(cache=True)
def new_state(cards_a, cards_b, n_seats, sleep_token, shifting_tokens):
    """An empty table for a deck given as two type arrays (card id -> its types)."""
    c = cards_a.shape[0]
    st = np.zeros(HEADER + N_BLOCKS * c + MAX_SEATS * SEAT_BLOCKS * c, dtype=np.int32)
    st[H_N_SEATS] = n_seats
    st[H_N_CARDS] = c
    st[H_OPT_SLEEP_TOKEN] = 1 if sleep_token else 0
    st[H_OPT_SHIFT_TOKENS] = 1 if shifting_tokens else 0
    for i in range(c):
        st[HEADER + i] = cards_a[i]
        st[HEADER + c + i] = cards_b[i]
        st[HEADER + 2 * c + i] = (1 << cards_a[i]) | (1 << cards_b[i])
    for p in range(5):
        st[H_DS_CARD + p] = -1
        st[H_COSTS + p] = p + 1  # R2.3: cost k on position k
        st[H_POS_BY_COST + p] = p
    return st


@kernel
def setup_state(st, order):
    """R2.2/R2.3 from a deck order (card ids, top first), like reference.setup_state."""
    d = off_deck(st)
    for i in range(order.shape[0]):
        st[d + i] = order[i]
    st[H_DECK_PTR] = 0
    for s in range(st[H_N_SEATS]):  # R2.2: one Z card each, in seat order from seat 0
        z_push(st, s, draw(st))
    for p in range(4, -1, -1):  # R2.3: positions 5, 4, 3, 2, 1
        st[H_DS_CARD + p] = draw(st)
        st[H_DS_DOWN + p] = 0


# ============================================================================ small zone helpers


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
def budget(st, seat):
    """R3.1: unspent Z cards, plus the Sleep Token point while it is available."""
    b = seat_base(seat)
    extra = 1 if (st[H_TOKEN_POINT] != 0 and seat == st[H_ACTIVE]) else 0
    return st[b + S_Z_LEN] - st[b + S_SPENT] + extra


@inline_kernel
def _stack_index(k, n, moved):
    """Index in the stored stack of the k-th card of the read order (see chain_points_at)."""
    if moved < 0 or k < moved:
        return k
    if k == n - 1:
        return moved
    return k + 1


@kernel
def chain_points_at(st, off, n, moved):
    """R8.2 chain points of the stack st[off:off+n] (bottom first).

    With ``moved >= 0`` the stack is read as if its card at index ``moved``
    had been moved to the top (Floating Free's afterstate, R6.1).

    One pass: a card shows two types, so only the runs of the previous card's
    two types can continue; a run that does not continue is scored as it ends.
    """
    c = st[H_N_CARDS]
    if n == 0:
        return 0
    total = 0
    card = st[off + _stack_index(0, n, moved)]
    pa = st[HEADER + card]
    pb = st[HEADER + c + card]
    ra = 1
    rb = 1
    for k in range(1, n):
        card = st[off + _stack_index(k, n, moved)]
        a = st[HEADER + card]
        b = st[HEADER + c + card]
        na = ra + 1 if a == pa else (rb + 1 if a == pb else 1)
        nb = ra + 1 if b == pa else (rb + 1 if b == pb else 1)
        if pa != a and pa != b:
            total += CHAIN_TABLE[ra]
        if pb != a and pb != b:
            total += CHAIN_TABLE[rb]
        pa = a
        pb = b
        ra = na
        rb = nb
    return total + CHAIN_TABLE[ra] + CHAIN_TABLE[rb]


@kernel
def chain_points_by_type(st, seat, out):
    """Chain points of each dream type in a seat's REM stack, added into ``out[0:11]``.

    simcore.scoring.chain_points_by_type in one pass (as chain_points_at).
    """
    c = st[H_N_CARDS]
    off = off_rem(st, seat)
    n = st[seat_base(seat) + S_REM_LEN]
    if n == 0:
        return
    card = st[off]
    pa = st[HEADER + card]
    pb = st[HEADER + c + card]
    ra = 1
    rb = 1
    for k in range(1, n):
        card = st[off + k]
        a = st[HEADER + card]
        b = st[HEADER + c + card]
        na = ra + 1 if a == pa else (rb + 1 if a == pb else 1)
        nb = ra + 1 if b == pa else (rb + 1 if b == pb else 1)
        if pa != a and pa != b:
            out[pa] += CHAIN_TABLE[ra]
        if pb != a and pb != b:
            out[pb] += CHAIN_TABLE[rb]
        pa = a
        pb = b
        ra = na
        rb = nb
    out[pa] += CHAIN_TABLE[ra]
    out[pb] += CHAIN_TABLE[rb]


@inline_kernel
def _run_down(st, mk, k, t):
    """How many cards from index k downwards show type t (mk: the stack's mask block)."""
    r = 0
    while k >= 0 and (st[mk + k] >> t) & 1 != 0:
        r += 1
        k -= 1
    return r


@inline_kernel
def _run_up(st, mk, k, n, t):
    """How many cards from index k upwards (below n) show type t."""
    r = 0
    while k < n and (st[mk + k] >> t) & 1 != 0:
        r += 1
        k += 1
    return r


@kernel
def ff_delta(st, off, n, i):
    """Chain change of moving the card at index i of st[off:off+n] to the top (R6.1, R8.2).

    See :func:`ff_delta_runs` (this drops the run lengths).
    """
    return ff_delta_runs(st, off, n, i)[0]


@inline_kernel
def ff_delta_runs(st, off, n, i):
    """Chain change of moving card i to the top, and the new top runs of its two types.

    Returns ``(delta, run_a, run_b)``: run_t counts the card itself (the open
    chain of type t it tops after the move, R8.2).

    Local, O(run lengths): taking card i out shortens the runs through it (of
    its two types) and joins the runs of a type shown by both of its
    neighbours but not by it; putting it on top extends the top runs of its
    types. Equals chain_points_at(st, off, n, i) - chain_points_at(st, off, n, -1).
    """
    c = st[H_N_CARDS]
    mk = off + c  # the REM stack's type masks
    card = st[off + i]
    a = st[HEADER + card]
    b = st[HEADER + c + card]
    delta = 0
    for which in range(2):
        t = a if which == 0 else b
        d = _run_down(st, mk, i - 1, t)
        u = _run_up(st, mk, i + 1, n, t)
        delta += CHAIN_TABLE[d + u] - CHAIN_TABLE[d + u + 1]
    if i >= 1 and i + 1 < n:
        below_card = st[off + i - 1]
        common = st[mk + i - 1] & st[mk + i + 1] & ~st[mk + i]
        if common != 0:  # a type shown by both neighbours but not by the card
            for which in range(2):
                t = st[HEADER + below_card] if which == 0 else st[HEADER + c + below_card]
                if (common >> t) & 1 != 0:
                    d = _run_down(st, mk, i - 1, t)
                    u = _run_up(st, mk, i + 1, n, t)
                    delta += CHAIN_TABLE[d + u] - CHAIN_TABLE[d] - CHAIN_TABLE[u]
    run_a = 0
    run_b = 0
    for which in range(2):
        t = a if which == 0 else b
        run = 0
        k = n - 1
        while k >= 0:
            if k == i:
                k -= 1
                continue
            if (st[mk + k] >> t) & 1 == 0:
                break
            run += 1
            k -= 1
        delta += CHAIN_TABLE[run + 1] - CHAIN_TABLE[run]
        if which == 0:
            run_a = run + 1
        else:
            run_b = run + 1
    return delta, run_a, run_b


@inline_kernel
def update_chain(st, seat):
    """Keep the cached chain points of a seat's REM stack current after it changed."""
    st[seat_base(seat) + S_CHAIN] = chain_points_at(st, off_rem(st, seat), st[seat_base(seat) + S_REM_LEN], -1)


@inline_kernel
def score(st, seat):
    """R8.2: chain points minus Z cards."""
    b = seat_base(seat)
    return st[b + S_CHAIN] - st[b + S_Z_LEN]


@kernel
def top_add_delta(st, seat, card):
    """Chain change of putting ``card`` on top of a seat's REM stack.

    Only the top runs of the card's two types grow (R8.2), so the change is
    the chart step from each top run's length L to L + 1.
    """
    c = st[H_N_CARDS]
    mk = off_rem(st, seat) + c  # the REM stack's type masks
    n = st[seat_base(seat) + S_REM_LEN]
    delta = 0
    for which in range(2):
        t = st[HEADER + card] if which == 0 else st[HEADER + c + card]
        run = _run_down(st, mk, n - 1, t)
        delta += CHAIN_TABLE[run + 1] - CHAIN_TABLE[run]
    return delta


@inline_kernel
def position_of_cost(st, k):
    """The position index (0..4) holding cost token ``k`` (1..5)."""
    return st[H_POS_BY_COST + k - 1]


# ============================================================================ decisions


@kernel
def top_runs(st, seat, card):
    """Top runs of ``card``'s two types on a seat's REM stack, before the card is put on it."""
    c = st[H_N_CARDS]
    mk = off_rem(st, seat) + c  # the REM stack's type masks
    n = st[seat_base(seat) + S_REM_LEN]
    return _run_down(st, mk, n - 1, st[HEADER + card]), _run_down(st, mk, n - 1, st[HEADER + c + card])


@kernel
def decision_features(st, kind, seat, n, aux, fw):
    """The feature slots shared by every option of a decision (layout in simcore.fast.layout).

    Also keeps per-decision values the options' features reuse in the fw
    scratch (the open run now, the leading opponent), so option_features
    stays cheap.
    """
    b = seat_base(seat)
    z = st[b + S_Z_LEN]
    now = st[b + S_CHAIN] - z
    best_opp = 0
    leader = -1
    opp_z = 0
    for s in range(st[H_N_SEATS]):
        if s != seat:
            sc = score(st, s)
            if leader < 0 or sc > best_opp:  # the first of tied leaders
                best_opp = sc
                leader = s
            opp_z = max(opp_z, st[seat_base(s) + S_Z_LEN])
    fw[F_SCORE_NOW] = now
    fw[F_DECK_LEFT] = deck_left(st)
    fw[F_BEST_OPP] = best_opp
    fw[F_N_OPTIONS] = n
    fw[F_TURN] = st[H_TURNS]
    fw[F_REM_LEN] = st[b + S_REM_LEN]
    fw[F_CHAIN_NOW] = st[b + S_CHAIN]
    fw[F_N_SEATS] = st[H_N_SEATS]
    fw[F_AUX] = aux
    fw[F_DECK_FRACTION] = deck_left(st) / st[H_N_CARDS]
    fw[F_OPP_MAX_Z] = opp_z
    fw[F_BUDGET_NOW] = budget(st, seat)
    # R8.2: only the top card's two types have an open (top) run
    nr = st[b + S_REM_LEN]
    open_now = 0
    if nr > 0:
        top = st[off_rem(st, seat) + nr - 1]
        mk = off_rem(st, seat) + st[H_N_CARDS]
        open_now = max(
            _run_down(st, mk, nr - 1, st[HEADER + top]), _run_down(st, mk, nr - 1, st[HEADER + st[H_N_CARDS] + top])
        )
    fw[FW_OPEN_NOW] = open_now
    fw[FW_LEADER] = leader
    clear_perform_slot(fw)


@inline_kernel
def has_delta(kind, aux):
    """Kinds whose options can change the deciding seat's score at once (immediate_score_delta)."""
    return (
        kind == K_BUY
        or kind == K_TAKE_Z
        or kind == K_SLEEP_TOKEN
        or kind == K_PERFORM
        or (kind == K_FLOATING_FREE and aux == 0)
    )


@kernel
def option_delta(st, kind, seat, aux, opts, i):
    """Immediate own-score change of option i: strategies.reference_bots.immediate_score_delta."""
    if kind == K_BUY:
        t = opts[i, 0]
        if t == BUY_STOP:
            return 0
        if t == BUY_POSITION:
            p = opts[i, 1] - 1
            if st[H_DS_DOWN + p] != 0:
                return -1  # R5.4: a face-down card is a Z card
            return top_add_delta(st, seat, st[H_DS_CARD + p])
        return top_add_delta(st, seat, st[off_res(st, seat) + opts[i, 1]])
    if kind == K_TAKE_Z:
        return -1 if opts[i, 0] == 1 else 0
    if kind == K_SLEEP_TOKEN:
        return 1 if opts[i, 0] == TOKEN_DISCARD else 0
    if kind == K_PERFORM:
        return -1 if (opts[i, 0] == PR and deck_left(st) > 0) else 0
    if kind == K_FLOATING_FREE and aux == 0:
        b = seat_base(seat)
        return ff_delta(st, off_rem(st, seat), st[b + S_REM_LEN], opts[i, 0])
    return 0


@inline_kernel
def clear_perform_slot(fw):
    """Zero the perform one-hot slot set last (FW_PERF_HOT: its index, 0 = none set)."""
    hot = np.int64(fw[FW_PERF_HOT])
    if hot != 0:
        fw[hot] = 0.0
        fw[FW_PERF_HOT] = 0.0


@inline_kernel
def leader_gain(st, leader, p):
    """F_LEADER_DENY of Dreamscape position index p: the leader's chain gain from its card."""
    if leader < 0 or st[H_DS_CARD + p] < 0:
        return 0
    return top_add_delta(st, leader, st[H_DS_CARD + p])


@kernel
def option_features(st, kind, seat, aux, opts, i, fw):
    """The option-specific feature slots of option i (after decision_features).

    Every option-specific slot is written for every option (the buffer is
    reused across options and decisions). Buy and own-REM Floating Free
    compute their score change together with the new top runs (one scan).
    """
    b = seat_base(seat)
    z = st[b + S_Z_LEN]
    chain = st[b + S_CHAIN]
    cost = 0
    dz = 0
    dbud = 0
    delta = 0
    arg = opts[i, 0]
    run_a = 0
    run_b = 0
    open_max = fw[FW_OPEN_NOW]
    target = -1
    deny = 0
    pos = -1  # the Dreamscape position index the option names
    if kind == K_BUY:
        t = opts[i, 0]
        if t == BUY_STOP:
            arg = -1
        else:
            arg = opts[i, 1]
            card = -1
            if t == BUY_POSITION:
                pos = opts[i, 1] - 1
                cost = st[H_COSTS + pos]
                if st[H_DS_DOWN + pos] != 0:
                    dz = 1
                    delta = -1  # R5.4: a face-down card is a Z card
                    dbud = 1  # ... that goes to Deep Sleep unspent
                else:
                    card = st[H_DS_CARD + pos]
            else:
                cost = 1
                card = st[off_res(st, seat) + opts[i, 1]]
            if card >= 0:  # R5.3: on top of the own REM stack
                ra, rb = top_runs(st, seat, card)
                delta = CHAIN_TABLE[ra + 1] - CHAIN_TABLE[ra] + CHAIN_TABLE[rb + 1] - CHAIN_TABLE[rb]
                run_a = ra + 1
                run_b = rb + 1
                open_max = max(run_a, run_b)
        dbud -= cost
    elif kind == K_FLOATING_FREE:
        if aux == 0:  # R6.1 on the own REM stack (not the solo discard pile)
            delta, run_a, run_b = ff_delta_runs(st, off_rem(st, seat), st[b + S_REM_LEN], opts[i, 0])
            open_max = max(run_a, run_b)
    elif kind == K_TAKE_Z:
        dz = opts[i, 0]
        delta = -dz
        dbud = dz  # R4.1: an unspent Z card
    elif kind == K_SLEEP_TOKEN:
        if opts[i, 0] == TOKEN_DISCARD:
            dz = -1
            delta = 1
            if st[b + S_Z_LEN] > st[b + S_SPENT]:  # R3.3: an unspent card goes first
                dbud = -1
        elif opts[i, 0] == TOKEN_POINT:
            dbud = 1
    elif kind == K_PERFORM:
        delta = -1 if (opts[i, 0] == PR and deck_left(st) > 0) else 0
        dz = -delta
        dbud = dz  # R6.5: an unspent Z card
        clear_perform_slot(fw)
        fw[F_PERFORM_BASE + opts[i, 0]] = 1.0
        fw[FW_PERF_HOT] = F_PERFORM_BASE + opts[i, 0]
    elif kind == K_NIGHT_TERROR or kind == K_COLLECTIVE_DREAM:
        target = opts[i, 0]
    elif kind == K_INVASIVE_DREAMING:
        arg = opts[i, 1]
        target = opts[i, 0]  # -1 in solo (R10.2)
        pos = opts[i, 1] - 1
        deny = leader_gain(st, np.int64(fw[FW_LEADER]), pos)
    elif kind == K_LUCID_DREAMING or kind == K_INTERRUPTED_SLEEP or kind == K_EMPOWERED_DREAMING:
        pos = opts[i, 0] - 1
        deny = leader_gain(st, np.int64(fw[FW_LEADER]), pos)
    elif kind == K_PARADIGM_SHIFT:
        leader = np.int64(fw[FW_LEADER])
        for j in range(opts[i, 0]):
            deny += leader_gain(st, leader, opts[i, 1 + j] - 1)
    fw[F_DELTA] = delta
    fw[F_SCORE_AFTER] = chain - z + delta
    fw[F_BUDGET_AFTER] = fw[F_BUDGET_NOW] + dbud  # small whole numbers: exact in float64
    fw[F_COST] = cost
    fw[F_Z_AFTER] = z + dz
    fw[F_OPTION_INDEX] = i
    fw[F_ARG] = arg
    fw[F_TOP_RUN_A] = run_a
    fw[F_TOP_RUN_B] = run_b
    fw[F_OPEN_RUN_MAX] = open_max
    fw[F_CHAIN_AFTER] = chain + delta if run_a > 0 else chain  # run_a > 0: the option changes the own REM stack
    if target >= 0:
        tsc = score(st, target)
        fw[F_TARGET_IS_LEADER] = 1.0 if tsc == fw[F_BEST_OPP] else 0.0
        fw[F_TARGET_Z] = st[seat_base(target) + S_Z_LEN]
        fw[F_TARGET_GAP] = tsc - (chain - z)
    else:
        fw[F_TARGET_IS_LEADER] = 0.0
        fw[F_TARGET_Z] = 0.0
        fw[F_TARGET_GAP] = 0.0
    fw[F_LEADER_DENY] = deny
    fw[F_POS_COST] = st[H_COSTS + pos] if pos >= 0 else 0


@inline_kernel
def linear_score(fw, seat):
    """MODE_LINEAR: dot(weights[seat], features), summed in slot order from 0.0.

    The same operations in the same order as a strategy looping
    ``total += w[i] * features[i]``, so both pick identical options: the
    terms of zero weights are skipped (new_work lists the nonzero slots),
    which only turns a -0.0 sum into +0.0 or back, equal under the engine's
    ``>`` / ``==`` comparisons (features are finite).
    """
    base = FW_LIN_IDX + seat * N_FEATURES
    total = 0.0
    for k in range(np.int64(fw[FW_LIN_N + seat])):
        j = np.int64(fw[base + k])
        total += fw[FW_WEIGHTS + seat * N_FEATURES + j] * fw[j]
    return total


@inline_kernel
def linear_ignores_order(fw, seat):
    """True if the seat's linear weights give F_OPTION_INDEX and F_ARG weight 0."""
    w0 = FW_WEIGHTS + seat * N_FEATURES
    return fw[w0 + F_OPTION_INDEX] == 0.0 and fw[w0 + F_ARG] == 0.0


@inline_kernel
def pick_best(wk, scores, n):
    """Index of the best of ``scores[0:n]``; exact ties broken by below(n_tied) on the game's stream."""
    best = scores[0]
    n_best = 1
    best_i = 0
    for i in range(1, n):
        sc = scores[i]
        if sc > best:
            best = sc
            n_best = 1
            best_i = i
        elif sc == best:
            n_best += 1
    if n_best > 1:
        k = rng_below(wk, n_best)
        for i in range(n):
            if scores[i] == best:
                if k == 0:
                    best_i = i
                    break
                k -= 1
    return best_i


@kernel
def decide(st, wk, fw, strats, kind, seat, n, aux):
    """Score the ``n >= 2`` options in ``wk`` with the seat's strategy and pick one.

    The contract of strategies.reference_bots: best score wins; exact ties are
    broken by ``below(n_tied)`` over the tied options in engine order; a single
    best option draws nothing.

    Built-in strategies whose score is known without calling them (mode
    MODE_ZERO: 'random'; MODE_DELTA: 'greedy' = features[0]) take a shortcut
    with the identical outcome: when every option scores 0 the pick is
    ``below(n)`` directly, and greedy needs only the delta slot. MODE_LINEAR
    scores the features with the seat's weights without a call; a
    MODE_ROLLOUT seat plays its policy mode here (its buy decisions never
    reach decide, see direct_your_sleep). A MODE_CALL strategy is not called
    at the kinds it declared it does not tell apart (register(decides=...)):
    there every option would tie, so the pick is below(n) directly.
    """
    mode = wk[wk.shape[0] - 2, seat]
    if mode == MODE_SCRIPT:  # scripted play (conformance): the script block starts at the first trace row
        misc = wk.shape[0] + WK_MISC
        return script_pick(st, wk, kind, seat, n, wk.shape[0] - WK_TAIL - wk[misc, 3] - wk[misc, 4])
    if mode == MODE_ROLLOUT:
        mode = wk[wk.shape[0] + WK_POLICY, seat]
    if (
        mode == MODE_ZERO
        or (mode == MODE_DELTA and not has_delta(kind, aux))
        or (mode == MODE_CALL and (wk[wk.shape[0] + WK_DECIDES, seat] >> kind) & 1 == 0)
    ):
        # every option ties (at 0, or a kind the strategy declared it does not tell apart)
        best_i = rng_below(wk, n)
        if wk[wk.shape[0] + WK_MISC, 3] != 0:
            record(wk, kind, seat, n, best_i)
        return best_i
    f = fw[:N_FEATURES]
    scores = fw[FW_SCORES:]
    if mode == MODE_DELTA and (kind == K_TAKE_Z or kind == K_PERFORM):
        # The two most frequent decisions, scored in place (same scores as option_delta):
        # take_z [yes, no] scores [-1, 0] (R4.1); perform scores -1 for Perfect
        # Respite while the deck has cards (R6.5), else 0.
        if kind == K_TAKE_Z:
            best_i = 1
        else:
            s0 = -1 if (wk[0, 0] == PR and deck_left(st) > 0) else 0
            s1 = -1 if (wk[1, 0] == PR and deck_left(st) > 0) else 0
            if s0 == s1:
                best_i = rng_below(wk, 2)  # the two tie: below(2) over them
            else:
                best_i = 0 if s0 > s1 else 1
        if wk[wk.shape[0] + WK_MISC, 3] != 0:
            record(wk, kind, seat, n, best_i)
        return best_i
    if mode == MODE_DELTA:
        for i in range(n):
            scores[i] = np.float64(option_delta(st, kind, seat, aux, wk, i))
    else:
        shifting = kind == K_SHIFTING_DREAMS or kind == K_SHIFTING_TOKENS
        if mode == MODE_LINEAR and shifting and linear_ignores_order(fw, seat):
            # The 120 orders differ only in F_OPTION_INDEX and F_ARG: with both
            # weighted 0 every order scores the same sum, so all tie (R6.8 is
            # ~70% of all options in a game; same pick, same draw).
            best_i = rng_below(wk, n)
            if wk[wk.shape[0] + WK_MISC, 3] != 0:
                record(wk, kind, seat, n, best_i)
            return best_i
        decision_features(st, kind, seat, n, aux, fw)
        strat = strats[seat]
        for i in range(n):
            if shifting and i > 0:
                # an order of the Dreamscape changes no other slot (R6.8): keep option 0's
                fw[F_OPTION_INDEX] = i
                fw[F_ARG] = wk[i, 0]
            else:
                option_features(st, kind, seat, aux, wk, i, fw)
            if mode == MODE_LINEAR:
                scores[i] = linear_score(fw, seat)
            else:
                scores[i] = strat(kind, seat, f, st)
    best_i = pick_best(wk, scores, n)
    if wk[wk.shape[0] + WK_MISC, 3] != 0:
        record(wk, kind, seat, n, best_i)
    return best_i


@kernel
def record(wk, kind, seat, n, chosen):
    """Trace mode: keep the asked decision and its options (no-op without trace rows)."""
    misc = wk.shape[0] - 3
    cap_t = wk[misc, 3]
    if cap_t == 0:
        return
    cap_r = wk[misc, 4]
    base_t = wk.shape[0] - WK_TAIL - cap_t - cap_r
    base_r = base_t + cap_t
    t = wk[misc, 0]
    row = wk[misc, 1]
    if t >= cap_t or row + n > cap_r:
        wk[misc, 2] = 1  # overflow: the trace is incomplete
        return
    wk[base_t + t, 0] = kind
    wk[base_t + t, 1] = seat
    wk[base_t + t, 2] = n
    wk[base_t + t, 3] = chosen
    wk[base_t + t, 4] = row
    for i in range(n):
        for j in range(OPT_WIDTH):
            wk[base_r + row + i, j] = wk[i, j]
    wk[misc, 0] = t + 1
    wk[misc, 1] = row + n


@inline_kernel
def choose(st, wk, fw, strats, kind, seat, n, aux):
    """R11: none -> -1 (the effect does nothing), one -> taken without asking, else decide."""
    if n <= 0:
        return -1
    if n == 1:
        return 0
    # np.int64(...) drops literal types: numba would otherwise compile decide
    # once per (kind, n) constant of each call site (20+ copies, minutes of compile).
    return decide(st, wk, fw, strats, np.int64(kind), np.int64(seat), np.int64(n), np.int64(aux))


# ============================================================================ a game


@kernel
def play_game(st, wk, fw, strats, pb):
    """Turns until the game ends at R7.2 (or the R8.4 safety cap).

    ``pb`` = (state, wk, fw) scratch of the rollout playouts (tiny dummies
    when no seat plays MODE_ROLLOUT).
    """
    while st[H_GAME_OVER] == 0:
        play_turn(st, wk, fw, strats, pb)


@kernel
def play_turn(st, wk, fw, strats, pb):
    seat = begin_turn(st, wk, fw, strats)
    if seat < 0:
        return
    direct_your_sleep(st, wk, fw, strats, seat, pb)
    end_turn(st, wk, fw, strats)


@inline_kernel
def begin_turn(st, wk, fw, strats):
    """Phase 1 (R9 token, R4.1); returns the active seat, or -1 when R8.4 ends the game."""
    if st[H_TURNS] >= TURN_CAP:  # R8.4
        st[H_GAME_OVER] = 1
        st[H_ABORTED] = 1
        st[H_WINNERS] = 0
        st[H_N_WINNERS] = 0
        return -1
    seat = st[H_ACTIVE]
    st[H_TURNS] += 1
    st[seat_base(seat) + S_TURNS] += 1
    if st[H_OPT_SLEEP_TOKEN] != 0:
        use_sleep_token(st, wk, fw, strats, seat)
    deep_sleep_accumulation(st, wk, fw, strats, seat)
    return seat


@inline_kernel
def end_turn(st, wk, fw, strats):
    """Phase 3 (R7; R10.4 solo)."""
    if st[H_N_SEATS] == 1:
        prepare_next_solo(st, wk, fw, strats)
    else:
        prepare_next(st)


# The playouts' own game loop: the same turns without the rollout branch, so
# the kernels' call graph has no cycle (numba compiles no recursion here) and
# a playout can never start playouts of its own.


@kernel
def playout_game(st, wk, fw, strats):
    while st[H_GAME_OVER] == 0:
        seat = begin_turn(st, wk, fw, strats)
        if seat < 0:
            return
        buy_loop(st, wk, fw, strats, seat, np.int64(0))
        end_turn(st, wk, fw, strats)


@kernel
def use_sleep_token(st, wk, fw, strats, seat):
    """R9: discard the top Z card (while holding 2+), take +1 budget, or pass."""
    o = wk
    n = 0
    if st[seat_base(seat) + S_Z_LEN] >= 2:
        o[n, 0] = TOKEN_DISCARD
        n += 1
    o[n, 0] = TOKEN_POINT
    o[n + 1, 0] = TOKEN_PASS
    n += 2
    choice = o[choose(st, wk, fw, strats, K_SLEEP_TOKEN, seat, n, 0), 0]
    if choice == TOKEN_DISCARD:
        discard_top_z(st, seat, np.bool_(False))
    elif choice == TOKEN_POINT:
        st[H_TOKEN_POINT] = 1


@kernel
def deep_sleep_accumulation(st, wk, fw, strats, seat):
    """R4.1: the player may take the Sleep Deck's top card as an unspent Z card."""
    if deck_left(st) == 0:
        return
    o = wk
    o[0, 0] = 1  # [True, False]
    o[1, 0] = 0
    if o[choose(st, wk, fw, strats, K_TAKE_Z, seat, 2, 0), 0] == 1:
        z_push(st, seat, draw(st))


@kernel
def purchase_options(st, seat, o):
    """R5.1: a Dreamscape card at its position's cost, or a ready reserved card for 1."""
    bud = budget(st, seat)
    n = 0
    for p in range(5):
        if st[H_DS_CARD + p] >= 0 and st[H_COSTS + p] <= bud:
            o[n, 0] = BUY_POSITION
            o[n, 1] = p + 1
            n += 1
    if bud >= 1:
        rd = off_ready(st, seat)
        for i in range(st[seat_base(seat) + S_RES_LEN]):
            if st[rd + i] != 0:
                o[n, 0] = BUY_RESERVED
                o[n, 1] = i
                n += 1
    return n


@kernel
def direct_your_sleep(st, wk, fw, strats, seat, pb):
    """R5.2: at least one purchase if any is affordable, then more or stop.

    A MODE_ROLLOUT seat decides its buys by playouts (rollout_decide); every
    other decision goes through choose as usual.
    """
    purchases = 0
    o = wk
    rollout = wk[wk.shape[0] + WK_MODES, seat] == MODE_ROLLOUT
    while True:
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


@inline_kernel
def buy_options(st, seat, o, purchases):
    """The options of a buy decision: purchases (R5.1), then "stop" after a first purchase (R5.2)."""
    n = purchase_options(st, seat, o)
    if purchases > 0:
        o[n, 0] = BUY_STOP
        o[n, 1] = 0
        n += 1
    return n


@kernel
def buy_loop(st, wk, fw, strats, seat, purchases):
    """direct_your_sleep without rollouts, from ``purchases`` purchases made (playouts)."""
    o = wk
    while True:
        n = buy_options(st, seat, o, purchases)
        if n == 0 or (n == 1 and o[0, 0] == BUY_STOP):
            return
        i = choose(st, wk, fw, strats, K_BUY, seat, n, 0)
        t = o[i, 0]
        v = o[i, 1]
        if t == BUY_STOP:
            return
        purchase(st, wk, fw, strats, seat, t, v)
        purchases += 1


# ============================================================================ rollouts

ROLLOUT_SALT = np.uint64(0xD1B54A32D192ED03)


@kernel
def playout_outcome(st, seat):
    """The deciding seat's result of a finished playout: win credit + score margin / 1000."""
    ns = st[H_N_SEATS]
    own = score(st, seat)
    best = 0
    first = True
    for s in range(ns):
        if s != seat:
            sc = score(st, s)
            if first or sc > best:
                best = sc
                first = False
    win = 0.0
    nw = st[H_N_WINNERS]
    if st[H_ABORTED] == 0 and nw > 0 and (st[H_WINNERS] >> seat) & 1 != 0:
        win = 1.0 / nw
    return win + (own - best) / 1000.0


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
            playout_game(pst, pwk, pfw, strats)
            total += playout_outcome(pst, seat)
        scores[i] = total / k_play
    best_i = pick_best(wk, scores, n)
    if wk[rows + WK_MISC, 3] != 0:
        record(wk, np.int64(K_BUY), seat, n, best_i)
    return best_i


@kernel
def pay(st, seat, cost):
    """R3.1: unspent Z cards first; the Sleep Token point covers only what they cannot."""
    b = seat_base(seat)
    unspent = st[b + S_Z_LEN] - st[b + S_SPENT]
    from_z = min(cost, unspent)
    st[b + S_SPENT] += from_z
    if cost > from_z:
        st[H_TOKEN_POINT] = 0  # R9: the token point is used up


@kernel
def take_from_dreamscape(st, p):
    """R5.5: position index p (0..4) is left empty; nothing slides until Phase 3."""
    card = st[H_DS_CARD + p]
    down = st[H_DS_DOWN + p]
    st[H_DS_CARD + p] = -1
    st[H_DS_DOWN + p] = 0
    return card, down


@kernel
def purchase(st, wk, fw, strats, seat, t, v):
    """R5.3/R5.4: pay, take the card, then perform one of its types (R6)."""
    b = seat_base(seat)
    if t == BUY_POSITION:
        p = v - 1
        pay(st, seat, st[H_COSTS + p])
        card, down = take_from_dreamscape(st, p)
        if down != 0:  # R5.4: a Z card goes to Deep Sleep unspent, nothing performed
            z_push(st, seat, card)
            return
    else:
        pay(st, seat, np.int64(1))
        ro = off_res(st, seat)
        rd = off_ready(st, seat)
        card = st[ro + v]
        nres = st[b + S_RES_LEN]
        for k in range(v, nres - 1):
            st[ro + k] = st[ro + k + 1]
            st[rd + k] = st[rd + k + 1]
        st[b + S_RES_LEN] = nres - 1
    st[b + S_CHAIN] += top_add_delta(st, seat, card)  # chain points kept incrementally
    rem_push(st, seat, card)  # R5.3: on top of the REM stack
    st[H_PURCHASE_ID] += 1  # R6.12: a fresh loop guard for this purchase
    perform_card(st, wk, fw, strats, card, seat, seat, np.int64(0), np.int64(-1))


@kernel
def discard_top_z(st, seat, from_spent):
    """R3.2/R3.3: the top Z card goes face up to the discard pile (never the last one)."""
    b = seat_base(seat)
    z = st[b + S_Z_LEN]
    if z < 2:
        return False
    spent = st[b + S_SPENT]
    use_spent = (from_spent and spent > 0) or z - spent == 0
    st[b + S_Z_LEN] = z - 1
    discard_push(st, st[off_z(st, seat) + z - 1])
    if use_spent:
        st[b + S_SPENT] = spent - 1
    return True


# ============================================================================ performing


@inline_kernel
def push_frame(ws, sp, kind, card, acting, src, may_td, invader):
    ws[sp, 0] = kind
    ws[sp, 1] = card
    ws[sp, 2] = acting
    ws[sp, 3] = src
    ws[sp, 4] = may_td
    ws[sp, 5] = invader
    return sp + 1


@inline_kernel
def nested_stack(stack, acting):
    """R10.1: effects nested below a solo discard-pile target use the REM stack again."""
    return acting if stack == STACK_DISCARD else stack


@kernel
def perform_card(st, wk, fw, strats, card, acting, src, may_td, invader):
    """R5.3/R6: the acting player chooses one of the card's two types and performs it.

    ``src`` is the stack the card is in for R6.6 (a seat's REM stack, the
    discard pile, or STACK_NONE); ``may_td`` allows target_discard (R10.1,
    R10.2); ``invader`` is the seat that swapped the card in (R6.9) or -1.
    Nested performances are frames on the work stack rows of ``wk`` (last in, first out).
    """
    ws = wk[n_opt_rows(st[H_N_CARDS]):]  # the work stack follows the option rows
    o = wk
    c = st[H_N_CARDS]
    mark = off_mark(st)
    pid = st[H_PURCHASE_ID]
    solo = st[H_N_SEATS] == 1
    sp = push_frame(ws, 0, FR_PERFORM, card, acting, src, may_td, invader)
    while sp > 0:
        sp -= 1
        kind = ws[sp, 0]
        card = ws[sp, 1]
        acting = ws[sp, 2]
        src = ws[sp, 3]
        may_td = ws[sp, 4]
        invader = ws[sp, 5]
        if kind == FR_DISCARD:
            discard_push(st, card)  # R6.10: then discard it face up
            continue
        if st[mark + card] == pid:  # R6.12 loop guard: does nothing and asks nothing
            continue
        st[mark + card] = pid  # R6.12: performed from the moment its performance starts
        o[0, 0] = st[HEADER + card]
        o[1, 0] = st[HEADER + c + card]
        dream = o[choose(st, wk, fw, strats, K_PERFORM, acting, 2, 0), 0]
        st[H_PERF + acting * N_TYPES + dream] += 1
        own = acting
        if may_td != 0:
            # R10.1/R10.2: without target_discard "your REM stack" stays the REM stack.
            src = acting
            if dream == FF or dream == RD:
                o[0, 0] = 0  # [False, True]
                o[1, 0] = 1
                if o[choose(st, wk, fw, strats, K_TARGET_DISCARD, acting, 2, 0), 0] == 1:
                    src = STACK_DISCARD
                    own = STACK_DISCARD
        if dream == FF:
            moved = floating_free(st, wk, fw, strats, acting, own)
            if moved >= 0:
                sp = push_frame(ws, sp, FR_PERFORM, moved, acting, nested_stack(own, acting), 0, -1)
        elif dream == IS:
            interrupted_sleep(st, wk, fw, strats, acting)
        elif dream == NT:
            if solo:
                night_terror_solo(st, wk, fw, strats, acting)
            else:
                night_terror(st, wk, fw, strats, acting, invader)
        elif dream == LD:
            lucid_dreaming(st, wk, fw, strats, acting)
        elif dream == PR:
            perfect_respite(st, acting)
        elif dream == RD:
            beneath = recurring_dream(st, card, src)
            if beneath >= 0:
                sp = push_frame(ws, sp, FR_PERFORM, beneath, acting, nested_stack(src, acting), 0, -1)
        elif dream == CD:
            nxt, nsrc, ntd = collective_dream(st, wk, fw, strats, acting)
            if nxt >= 0:
                sp = push_frame(ws, sp, FR_PERFORM, nxt, acting, nsrc, ntd, -1)
        elif dream == SD:
            shifting_dreams(st, wk, fw, strats, acting)
        elif dream == ID:
            nxt, nact, nsrc, ntd, ninv = invasive_dreaming(st, wk, fw, strats, acting)
            if nxt >= 0:
                sp = push_frame(ws, sp, FR_PERFORM, nxt, nact, nsrc, ntd, ninv)
        elif dream == ED:
            nxt = empowered_dreaming(st, wk, fw, strats, acting)
            if nxt >= 0:
                sp = push_frame(ws, sp, FR_DISCARD, nxt, acting, STACK_NONE, 0, -1)
                # in no stack: R6.6 finds nothing
                sp = push_frame(ws, sp, FR_PERFORM, nxt, acting, STACK_NONE, 0, -1)
        else:
            paradigm_shift(st, wk, fw, strats, acting)


@inline_kernel
def stack_span(st, stack):
    """(offset, length) of a seat's REM stack or of the discard pile."""
    if stack == STACK_DISCARD:
        return off_discard(st), st[H_DISCARD_LEN]
    return off_rem(st, stack), st[seat_base(stack) + S_REM_LEN]


@kernel
def floating_free(st, wk, fw, strats, acting, own):
    """R6.1: move a card other than the top one to the top; returns it (to perform) or -1."""
    off, n = stack_span(st, own)
    if n < 2:
        return -1
    o = wk
    for i in range(n - 1):
        o[i, 0] = i
    aux = 1 if own == STACK_DISCARD else 0
    i = o[choose(st, wk, fw, strats, K_FLOATING_FREE, acting, n - 1, aux), 0]
    if own != STACK_DISCARD:
        st[seat_base(own) + S_CHAIN] += ff_delta(st, off, n, i)  # before the move
    moved = st[off + i]
    for k in range(i, n - 1):
        st[off + k] = st[off + k + 1]
    st[off + n - 1] = moved
    if own != STACK_DISCARD:  # the REM stack's type masks move alongside
        mk = off + st[H_N_CARDS]
        m = st[mk + i]
        for k in range(i, n - 1):
            st[mk + k] = st[mk + k + 1]
        st[mk + n - 1] = m
    return moved


@kernel
def occupied_options(st, o):
    """Positions (1..5) holding a card, either face, as options."""
    n = 0
    for p in range(5):
        if st[H_DS_CARD + p] >= 0:
            o[n, 0] = p + 1
            n += 1
    return n


@kernel
def face_up_options(st, o):
    n = 0
    for p in range(5):
        if st[H_DS_CARD + p] >= 0 and st[H_DS_DOWN + p] == 0:
            o[n, 0] = p + 1
            n += 1
    return n


@kernel
def interrupted_sleep(st, wk, fw, strats, acting):
    """R6.2: turn a Dreamscape card over (face up <-> face down)."""
    n = occupied_options(st, wk)
    i = choose(st, wk, fw, strats, K_INTERRUPTED_SLEEP, acting, n, 0)
    if i < 0:
        return
    p = wk[i, 0] - 1
    st[H_DS_DOWN + p] = 1 - st[H_DS_DOWN + p]


@kernel
def night_terror(st, wk, fw, strats, acting, invader):
    """R6.3: an opponent with 2+ Z cards discards their top one (R3.2)."""
    o = wk
    n = 0
    for s in range(st[H_N_SEATS]):
        if s != acting:
            o[n, 0] = s
            n += 1
    target = o[choose(st, wk, fw, strats, K_NIGHT_TERROR, acting, n, 0), 0]
    b = seat_base(target)
    z = st[b + S_Z_LEN]
    spent = st[b + S_SPENT]
    from_spent = False
    if invader == target and z >= 2 and spent > 0 and z - spent > 0:
        # R6.9: the invaded player's Night Terror may take a Z card the invader spent.
        o[0, 0] = 0
        o[1, 0] = 1
        from_spent = o[choose(st, wk, fw, strats, K_NIGHT_TERROR_SPENT, target, 2, 0), 0] == 1
    discard_top_z(st, target, from_spent)


@kernel
def night_terror_solo(st, wk, fw, strats, acting):
    """R10.3: fill the cheapest empty position from the deck, then discard an own Z card."""
    for k in range(1, 6):
        p = position_of_cost(st, k)
        if st[H_DS_CARD + p] < 0:
            if deck_left(st) > 0:
                st[H_DS_CARD + p] = draw(st)
                st[H_DS_DOWN + p] = 0
            break
    b = seat_base(acting)
    z = st[b + S_Z_LEN]
    spent = st[b + S_SPENT]
    from_spent = False
    if z >= 2 and spent > 0 and z - spent > 0:
        o = wk
        o[0, 0] = 0
        o[1, 0] = 1
        from_spent = o[choose(st, wk, fw, strats, K_NIGHT_TERROR_SPENT, acting, 2, 0), 0] == 1
    discard_top_z(st, acting, from_spent)


@kernel
def lucid_dreaming(st, wk, fw, strats, acting):
    """R6.4: reserve a face-up Dreamscape card; it is ready from Phase 3 on."""
    n = face_up_options(st, wk)
    i = choose(st, wk, fw, strats, K_LUCID_DREAMING, acting, n, 0)
    if i < 0:
        return
    card, _ = take_from_dreamscape(st, wk[i, 0] - 1)
    b = seat_base(acting)
    k = st[b + S_RES_LEN]
    st[off_res(st, acting) + k] = card
    st[off_ready(st, acting) + k] = 0
    st[b + S_RES_LEN] = k + 1


@kernel
def perfect_respite(st, acting):
    """R6.5: the Sleep Deck's top card becomes an unspent Z card (empty deck: nothing)."""
    if deck_left(st) > 0:
        z_push(st, acting, draw(st))


@kernel
def recurring_dream(st, card, src):
    """R6.6: the card directly beneath the source card in its stack, or -1 (nothing)."""
    if src == STACK_NONE:
        return -1
    off, n = stack_span(st, src)
    for k in range(n):
        if st[off + k] == card:
            if k == 0:
                return -1
            return st[off + k - 1]
    return -1


@kernel
def collective_dream(st, wk, fw, strats, acting):
    """R6.7 (R10.1 solo): the card to copy, its source stack and may_target_discard.

    Returns (-1, ., .) when nothing happens.
    """
    if st[H_N_SEATS] == 1:
        if st[H_DISCARD_LEN] == 0:
            return -1, STACK_NONE, 0
        return st[off_discard(st) + st[H_DISCARD_LEN] - 1], STACK_NONE, 1
    o = wk
    n = 0
    for s in range(st[H_N_SEATS]):
        if s != acting and st[seat_base(s) + S_REM_LEN] > 0:
            o[n, 0] = s
            n += 1
    i = choose(st, wk, fw, strats, K_COLLECTIVE_DREAM, acting, n, 0)
    if i < 0:
        return -1, STACK_NONE, 0
    target = o[i, 0]
    top = st[off_rem(st, target) + st[seat_base(target) + S_REM_LEN] - 1]
    return top, target, 0  # R6.7: the copied card's stack is the source stack for R6.6


@kernel
def shifting_dreams(st, wk, fw, strats, acting):
    """R6.8: rearrange the Dreamscape (or, with the variant, the cost tokens)."""
    o = wk
    if st[H_OPT_SHIFT_TOKENS] != 0:
        for i in range(120):
            o[i, 0] = i  # an order is named by its PERM5 row (lexicographic index)
        r = o[choose(st, wk, fw, strats, K_SHIFTING_TOKENS, acting, 120, 0), 0]
        for j in range(5):
            st[H_COSTS + j] = PERM5[r, j]
            st[H_POS_BY_COST + PERM5[r, j] - 1] = j  # keep the inverse map current
        return
    # distinct_rearrangements: one order per distinct resulting Dreamscape
    mask = 0
    for p in range(5):
        if st[H_DS_CARD + p] < 0:
            mask |= 1 << p
    n = DISTINCT_COUNTS[mask]
    for k in range(n):
        o[k, 0] = DISTINCT_ROWS[mask, k]  # an order is named by its PERM5 row
    r = o[choose(st, wk, fw, strats, K_SHIFTING_DREAMS, acting, n, 0), 0]
    c0 = st[H_DS_CARD + 0]
    c1 = st[H_DS_CARD + 1]
    c2 = st[H_DS_CARD + 2]
    c3 = st[H_DS_CARD + 3]
    c4 = st[H_DS_CARD + 4]
    d0 = st[H_DS_DOWN + 0]
    d1 = st[H_DS_DOWN + 1]
    d2 = st[H_DS_DOWN + 2]
    d3 = st[H_DS_DOWN + 3]
    d4 = st[H_DS_DOWN + 4]
    for p in range(5):
        q = PERM5[r, p] - 1
        if q == 0:
            st[H_DS_CARD + p], st[H_DS_DOWN + p] = c0, d0
        elif q == 1:
            st[H_DS_CARD + p], st[H_DS_DOWN + p] = c1, d1
        elif q == 2:
            st[H_DS_CARD + p], st[H_DS_DOWN + p] = c2, d2
        elif q == 3:
            st[H_DS_CARD + p], st[H_DS_DOWN + p] = c3, d3
        else:
            st[H_DS_CARD + p], st[H_DS_DOWN + p] = c4, d4


@kernel
def invasive_dreaming(st, wk, fw, strats, acting):
    """R6.9: swap an opponent's top REM card with a Dreamscape card; they perform it.

    Returns (card, acting seat, source stack, may_target_discard, invader) of
    the performance that follows, card -1 when nothing happens.
    """
    if st[H_N_SEATS] == 1:
        return invasive_dreaming_solo(st, wk, fw, strats, acting)
    o = wk
    n = 0
    for s in range(st[H_N_SEATS]):
        if s != acting and st[seat_base(s) + S_REM_LEN] > 0:
            for p in range(5):
                if st[H_DS_CARD + p] >= 0:
                    o[n, 0] = s
                    o[n, 1] = p + 1
                    n += 1
    i = choose(st, wk, fw, strats, K_INVASIVE_DREAMING, acting, n, 0)
    if i < 0:
        return -1, -1, STACK_NONE, 0, -1
    target = o[i, 0]
    p = o[i, 1] - 1
    incoming, _ = take_from_dreamscape(st, p)
    top = off_rem(st, target) + st[seat_base(target) + S_REM_LEN] - 1
    outgoing = st[top]
    st[top] = incoming  # face up on their REM stack
    st[top + st[H_N_CARDS]] = st[HEADER + 2 * st[H_N_CARDS] + incoming]  # and its type mask
    st[H_DS_CARD + p] = outgoing  # their old top, face up
    st[H_DS_DOWN + p] = 0
    update_chain(st, target)
    return incoming, target, target, 0, acting


@kernel
def invasive_dreaming_solo(st, wk, fw, strats, acting):
    """R10.2: swap a face-up Dreamscape card with the discard pile's top card, perform it."""
    if st[H_DISCARD_LEN] == 0:
        return -1, -1, STACK_NONE, 0, -1
    o = wk
    n = 0
    for p in range(5):
        if st[H_DS_CARD + p] >= 0 and st[H_DS_DOWN + p] == 0:
            o[n, 0] = -1
            o[n, 1] = p + 1
            n += 1
    i = choose(st, wk, fw, strats, K_INVASIVE_DREAMING, acting, n, 0)
    if i < 0:
        return -1, -1, STACK_NONE, 0, -1
    p = o[i, 1] - 1
    incoming, _ = take_from_dreamscape(st, p)
    outgoing = discard_pop(st)
    discard_push(st, incoming)
    st[H_DS_CARD + p] = outgoing
    st[H_DS_DOWN + p] = 0
    return incoming, acting, STACK_NONE, 1, -1


@kernel
def empowered_dreaming(st, wk, fw, strats, acting):
    """R6.10: take a Dreamscape card (either face) to perform; returns it or -1."""
    n = occupied_options(st, wk)
    i = choose(st, wk, fw, strats, K_EMPOWERED_DREAMING, acting, n, 0)
    if i < 0:
        return -1
    card, _ = take_from_dreamscape(st, wk[i, 0] - 1)
    return card


@kernel
def paradigm_shift(st, wk, fw, strats, acting):
    """R6.11: discard 0-2 Dreamscape cards, slide, draw as many as were discarded."""
    occ = wk[wk.shape[0] + WK_SCRATCH]  # scratch row (no allocation in the kernels)
    k = 0
    for p in range(5):
        if st[H_DS_CARD + p] >= 0:
            occ[k] = p + 1
            k += 1
    o = wk
    o[0, 0] = 0  # [] first, then singles, then ordered pairs
    n = 1
    for a in range(k):
        o[n, 0] = 1
        o[n, 1] = occ[a]
        n += 1
    for a in range(k):
        for b in range(k):
            if a != b:
                o[n, 0] = 2
                o[n, 1] = occ[a]
                o[n, 2] = occ[b]
                n += 1
    i = choose(st, wk, fw, strats, K_PARADIGM_SHIFT, acting, n, 0)
    count = o[i, 0]
    p1 = o[i, 1]
    p2 = o[i, 2]
    for j in range(count):
        card, _ = take_from_dreamscape(st, (p1 if j == 0 else p2) - 1)
        discard_push(st, card)
    slide(st)  # R7.1, even when nothing was discarded
    left = count
    for kk in range(5, 0, -1):  # empty positions, most expensive first
        if left == 0:
            break
        p = position_of_cost(st, kk)
        if st[H_DS_CARD + p] < 0:
            if deck_left(st) == 0:
                break  # as far as the deck allows; never ends the game
            st[H_DS_CARD + p] = draw(st)
            st[H_DS_DOWN + p] = 0
            left -= 1


# ============================================================================ phase 3 and the end


@kernel
def slide(st):
    """R7.1: the cards left move, keeping their order of cost, to the cheapest positions.

    An in-place stable compaction along the positions sorted by cost.
    """
    j = 1  # next cheapest cost to fill
    for k in range(1, 6):
        p = position_of_cost(st, k)
        if st[H_DS_CARD + p] >= 0:
            if j != k:
                q = position_of_cost(st, j)
                st[H_DS_CARD + q] = st[H_DS_CARD + p]
                st[H_DS_DOWN + q] = st[H_DS_DOWN + p]
                st[H_DS_CARD + p] = -1
                st[H_DS_DOWN + p] = 0
            j += 1


@kernel
def refill(st):
    """R7.2: fill the empty positions, most expensive first, if the deck can fill them all."""
    empty = 0
    for p in range(5):
        if st[H_DS_CARD + p] < 0:
            empty += 1
    if deck_left(st) < empty:
        return False
    for k in range(5, 0, -1):
        p = position_of_cost(st, k)
        if st[H_DS_CARD + p] < 0:
            st[H_DS_CARD + p] = draw(st)
            st[H_DS_DOWN + p] = 0
    return True


@kernel
def start_next_turn(st):
    """R7.3: spent Z cards become unspent, reserved cards ready, the next seat is active."""
    ns = st[H_N_SEATS]
    for s in range(ns):
        b = seat_base(s)
        st[b + S_SPENT] = 0
        rd = off_ready(st, s)
        for i in range(st[b + S_RES_LEN]):
            st[rd + i] = 1
    st[H_TOKEN_POINT] = 0
    st[H_ACTIVE] = (st[H_ACTIVE] + 1) % ns


@kernel
def prepare_next(st):
    """Phase 3 (R7): slide, refill or end the game, pass the turn."""
    slide(st)
    if not refill(st):
        end_game(st)  # R7.2; R7.3 is not applied
        return
    start_next_turn(st)


@kernel
def next_permutation(a, n):
    """Advance a[0:n] to the next lexicographic permutation; False after the last."""
    i = n - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while a[j] <= a[i]:
        j -= 1
    a[i], a[j] = a[j], a[i]
    lo = i + 1
    hi = n - 1
    while lo < hi:
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1
        hi -= 1
    return True


@kernel
def prepare_next_solo(st, wk, fw, strats):
    """R10.4: discard the face-up cards in a chosen order, slide and turn up the rest, refill."""
    fu = wk[wk.shape[0] + WK_SCRATCH]  # scratch row (no allocation in the kernels)
    k = 0
    for p in range(5):
        if st[H_DS_CARD + p] >= 0 and st[H_DS_DOWN + p] == 0:
            fu[k] = p + 1
            k += 1
    o = wk
    n = 0
    while True:  # permutations(face_up): lexicographic, fu is ascending
        o[n, 0] = k
        for j in range(k):
            o[n, 1 + j] = fu[j]
        n += 1
        if not next_permutation(fu, k):
            break
    i = choose(st, wk, fw, strats, K_SOLO_DISCARD_ORDER, st[H_ACTIVE], n, 0)
    for j in range(o[i, 0]):
        card, _ = take_from_dreamscape(st, o[i, 1 + j] - 1)
        discard_push(st, card)
    slide(st)
    for p in range(5):
        st[H_DS_DOWN + p] = 0
    if not refill(st):
        end_game(st)  # R10.4: the game ends
        return
    start_next_turn(st)


@kernel
def end_game(st):
    """R8.3: discard unplayed reserves; highest score, then most Z cards; else shared."""
    st[H_GAME_OVER] = 1
    ns = st[H_N_SEATS]
    for s in range(ns):  # seat 0's reserve first, each in order
        b = seat_base(s)
        ro = off_res(st, s)
        for i in range(st[b + S_RES_LEN]):
            discard_push(st, st[ro + i])
        st[b + S_RES_LEN] = 0
    best = score(st, 0)
    for s in range(1, ns):
        best = max(best, score(st, s))
    most_z = -1
    for s in range(ns):
        if score(st, s) == best:
            most_z = max(most_z, st[seat_base(s) + S_Z_LEN])
    mask = 0
    nw = 0
    for s in range(ns):
        if score(st, s) == best and st[seat_base(s) + S_Z_LEN] == most_z:
            mask |= 1 << s
            nw += 1
    st[H_WINNERS] = mask
    st[H_N_WINNERS] = nw


# ============================================================================ whole games


@njit(cache=True)
def start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, rng):
    """Game.new: shuffle ids 0..C-1 with the game's stream, then setup_state (R2)."""
    c = cards_a.shape[0]
    order = np.arange(c).astype(np.int32)
    shuffle(rng, order)
    st = new_state(cards_a, cards_b, n_seats, sleep_token, shifting_tokens)
    setup_state(st, order)
    return st


# ============================================================================ batch kernels
# (here, not in runner.py: numba's cache of a kernel is refreshed only when
# its own file changes, so drivers live in the file of the code they inline)


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
        score_out[i, s] = score(st, s)
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
    for s in range(n_seats):
        if modes[0, s] == MODE_ROLLOUT:
            return True
    return False


@njit(cache=True)
def dummy_playout_buffers():
    """Placeholders of the playout scratch when no seat plays MODE_ROLLOUT (never touched)."""
    return np.zeros(1, np.int32), np.zeros((1, OPT_WIDTH), np.int32), np.zeros(1, np.float64)


@njit(cache=True)
def playout_buffers(st, wk, fw, modes):
    """The playout scratch (state, wk, fw) of one game with a rollout seat."""
    c = st[H_N_CARDS]
    pwk = np.zeros((n_opt_rows(c) + 2 * c + 8 + WK_TAIL, OPT_WIDTH), dtype=np.int32)  # no trace rows
    return np.zeros(st.shape[0], np.int32), pwk, np.zeros(fw.shape[0], np.float64)


@njit(cache=True, parallel=True)
def run_chunk(
    cards_a, cards_b, n_seats, sleep_token, shifting_tokens, key, first_game,
    s0, s1, s2, s3, modes, weights,
    score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out,
):
    """Play games ``first_game .. first_game + n - 1`` (n = len(length_out)) in parallel.

    ``modes`` int64[4, 4] (per seat: score mode, rollout policy mode,
    playouts per option, kinds a MODE_CALL strategy is called at) and ``weights`` float64[4, N_FEATURES] (MODE_LINEAR
    weights / linear rollout policies) come from :func:`simcore.fast.runner._strategy_args`.
    """
    n = length_out.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    rollout = any_rollout(modes, n_seats)
    dummy = dummy_playout_buffers()  # shared: read by no game without a rollout seat
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, rng)
        wk, fw = new_work(c, rng[0], 0, 0, modes, weights)  # no trace
        if rollout:
            play_game(st, wk, fw, strats, playout_buffers(st, wk, fw, modes))
        else:
            play_game(st, wk, fw, strats, dummy)
        game_results(
            st, n_seats, i, score_out, z_out, turns_out, win_out, length_out, aborted_out, perf_out, chain_out, held_out
        )


@njit(cache=True)
def play_one(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, key, game, s0, s1, s2, s3, modes, weights, trace_decisions, trace_rows):
    """One game, optionally traced (``trace_decisions > 0``): final state and the work array."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_state(key, game)
    st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, rng)
    wk, fw = new_work(cards_a.shape[0], rng[0], trace_decisions, trace_rows, modes, weights)
    pb = playout_buffers(st, wk, fw, modes) if any_rollout(modes, n_seats) else dummy_playout_buffers()
    play_game(st, wk, fw, (s0, s1, s2, s3), pb)
    return st, wk


# ============================================================================ scripted play (conformance)


@njit(cache=True)
def play_scripted(st, wk, fw, strats):
    """Play a scenario's turns with every seat in MODE_SCRIPT (driver: simcore.fast.scenario).

    Turns from the active seat's turn start until the script is done or has
    failed (that turn is finished with option 0) or the game ends.
    """
    pb = dummy_playout_buffers()
    misc = wk.shape[0] + WK_MISC
    base = wk.shape[0] - WK_TAIL - wk[misc, 3] - wk[misc, 4]
    while st[H_GAME_OVER] == 0 and script_running(wk, base):
        play_turn(st, wk, fw, strats, pb)


# ============================================================================ cache guard


def _drop_stale_cache() -> None:
    """Drop this module's on-disk numba cache when a file it depends on changed.

    numba re-validates a cached kernel only against the timestamp of the file
    that defines it, but the kernels here freeze constants and inline helpers
    from layout.py, rng.py, rules.py and scoring.py. A stamp of those files'
    contents next to the cache makes an edit there recompile the engine
    instead of silently loading stale machine code.
    """
    import glob
    import hashlib
    import os
    from pathlib import Path

    here = Path(__file__).resolve().parent
    deps = [here / "layout.py", here / "rng.py", here / "script.py", here.parent / "rules.py", here.parent / "scoring.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in deps)).hexdigest()
    try:
        cache_dir = run_chunk._cache._cache_path  # noqa: SLF001 - where numba keeps this file's cache
    except AttributeError:  # pragma: no cover - numba internals moved
        return
    stamp = os.path.join(cache_dir, "engine.deps-stamp")
    try:
        with open(stamp, encoding="ascii") as fh:
            if fh.read() == digest:
                return
    except OSError:
        pass
    try:
        os.makedirs(cache_dir, exist_ok=True)
        for path in glob.glob(os.path.join(cache_dir, "engine.*.nb[ic]")):
            os.remove(path)
        with open(stamp, "w", encoding="ascii") as fh:
            fh.write(digest)
    except OSError:  # pragma: no cover - read-only cache: numba copes on its own
        pass


_drop_stale_cache()
