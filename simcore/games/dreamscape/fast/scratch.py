"""The scratch of one game: the ``wk`` / ``fw`` arrays, the seat modes and the game's random stream.

Two caller-allocated arrays hold everything a game needs besides its state
vector (few arrays = few reference-count operations per kernel call, which
dominate small calls). :func:`new_work` allocates them; the kernels of
:mod:`simcore.games.dreamscape.fast.features`, :mod:`simcore.games.dreamscape.fast.decisions`,
:mod:`simcore.games.dreamscape.fast.kernels` and :mod:`simcore.games.dreamscape.fast.search` read and write
them through the names below.

``wk`` : int32[rows, OPT_WIDTH]
    ========================  ===============================================
    rows [0, M)               the options of the decision being asked
                              (M = :func:`max_options`)
    rows [M, M + S)           perform_card's work stack (S = :func:`stack_rows`,
                              frames of OPT_WIDTH ints)
    next T rows               trace: kind, seat, n options, chosen, first
                              option row (``TR_*`` columns of one record)
    next R rows               trace: the options of every asked decision
    ``WK_DECIDES``            per-seat bit mask of the decision kinds a
                              MODE_CALL strategy is called at
    ``WK_PLAYOUTS``           per-seat playouts per option (MODE_ROLLOUT)
    ``WK_POLICY``             per-seat policy mode (MODE_ROLLOUT: the default
                              policy, MODE_DELTA or MODE_LINEAR)
    ``WK_SCRATCH``            scratch row (position lists of paradigm_shift /
                              prepare_next_solo)
    ``WK_TRACE_COUNTERS``     trace counters, columns ``TC_*``
    ``WK_MODES``              per-seat score mode (:class:`Mode`)
    ``WK_RNG``                the game's decision stream (uint64 as the
                              ``RNG_LO`` / ``RNG_HI`` int32 halves)
    ========================  ===============================================

    The ``WK_*`` rows are negative indices (counted from the end);
    ``WK_TAIL`` rows follow the trace.

``fw`` : float64[FW_SCORES + M]
    ========================  ===============================================
    [0, N_FEATURES)           the feature vector handed to strategies
    [FW_WEIGHTS, +4 N_F)      per-seat linear weights (MODE_LINEAR, a linear
                              rollout policy)
    [FW_SCRATCH, +64)         per-decision values shared by the options'
                              features (``FW_OPEN_NOW`` ... ``FW_LEAN``),
                              and the offsets of the optional blocks below
    [FW_LIN_IDX, +4 N_F)      per seat, the slots of the nonzero weights
    [FW_SCORES, +M)           the strategies' scores of the options
    [FW_EXPERT_AT, +4 X)      only when a seat plays (or searches with) MODE_EXPERT:
                              per seat its expert table, X = EXPERT_WIDTH
                              (``EXPERT_ROWS`` rows of N_FEATURES weights, row
                              ``kind * EXPERT_PHASES + phase``)
    [FW_COLLECT_AT, ...)      only in a training game (simcore.games.dreamscape.fast.isearch):
                              the options' features at a search decision
    ========================  ===============================================

Imports only :mod:`simcore.games.dreamscape.fast.layout`, :mod:`simcore.fast_rng` and
:mod:`simcore.games.dreamscape.fast.jit` (the bottom of the fast engine).
"""
from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.layout import (
    F_NEXT_GAIN, F_OWN_NEXT_GAIN, F_PERFORM_BASE, K_BUY, K_COLLECTIVE_DREAM, K_TAKE_Z, MAX_SEATS, N_FEATURES, N_KINDS, N_ORDERS,
    OPT_WIDTH,
)
from simcore.fast_rng import GOLDEN, mix64


class Mode(IntEnum):
    """How :func:`simcore.games.dreamscape.fast.decisions.decide` obtains a seat's scores."""

    CALL = 0  # call the seat's strategy per option with its features
    ZERO = 1  # every option scores 0 ('random')
    DELTA = 2  # the score is features[F_DELTA] ('greedy')
    LINEAR = 3  # dot(weights[seat], features): no call, no compile per weight vector
    ROLLOUT = 4  # flat Monte Carlo at buy decisions, the seat's policy mode everywhere else
    SCRIPT = 5  # scripted play (conformance): answers from a script in the trace rows (simcore.games.dreamscape.fast.script)
    SEARCH = 6  # search player (simcore.games.dreamscape.fast.isearch); in a search game's wk every seat: the forced prefix (simcore.games.dreamscape.fast.prefix)
    EXPERT = 7  # dot(expert table[seat, kind, phase], features): a linear model per decision kind and game phase


# The same values as plain ints, the form the kernels (and the modes array) use.
MODE_CALL = int(Mode.CALL)
MODE_ZERO = int(Mode.ZERO)
MODE_DELTA = int(Mode.DELTA)
MODE_LINEAR = int(Mode.LINEAR)
MODE_ROLLOUT = int(Mode.ROLLOUT)
MODE_SCRIPT = int(Mode.SCRIPT)
MODE_SEARCH = int(Mode.SEARCH)
MODE_EXPERT = int(Mode.EXPERT)

# Rows of ``modes`` (int64[MAX_SEATS, MAX_SEATS]) as new_work takes it, one column per seat.
MD_SCORE = 0  # the score mode
MD_POLICY = 1  # the rollout policy mode
MD_PLAYOUTS = 2  # rollout playouts per option
MD_DECIDES = 3  # bit mask of the kinds a MODE_CALL strategy is called at
MD_SKIP = 4  # MODE_SEARCH: the game phases and decision kinds it does not search (prefix.PX_KINDS bits; 0: everything)
MD_LOOKAHEAD = 5  # MODE_SEARCH: how it decides (LOOK_*)
MD_RELEASED = 6  # a strong seat or a search over strong: the STRONG_PASSED kinds strong looks ahead at here after all
N_MD = 7  # rows of ``modes``
# MD_LOOKAHEAD of a MODE_SEARCH seat: by playouts with its policy; as the strong bot (a one-turn lookahead
# on the value in its weights row, isearch.lookahead_decision); by playouts whose later turns the strong
# bot plays in every seat (search:strong@K, isearch.strong_rest)
LOOK_OFF = 0
LOOK_VALUE = 1
LOOK_NESTED = 2
# Decision kinds the strong bot leaves to its policy (the expert table) even in the late game: looking ahead
# there cost a quarter of its time and was worth nothing measurable (docs/research/2026-11-26-strong-bot.md).
# Its record's MD_SKIP and the nested search's (isearch.STRONG_SKIP) both include them.
STRONG_PASSED = (1 << K_BUY) | (1 << K_TAKE_Z) | (1 << K_COLLECTIVE_DREAM)
# ...except where a configuration measured otherwise: (players, sleep_token, shifting_tokens) -> the passed kinds strong
# looks ahead at there after all (the runner clears them from its MD_SKIP and puts them in MD_RELEASED, which the
# nested search's strong seats read too). In 2-player shifting-tokens games the expert table never takes a Z card in
# the last third (its fitted take-Z weights sum to just below zero there), and strong looking ahead at take Z beat
# strong head to head by 12.6 points (10.7 to 14.4) over 2,000 deals; nowhere else was either kind's lookahead
# beyond its interval by more than a point (docs/research/2026-11-28-strong-passed-kinds.md).
STRONG_RELEASED = {(2, False, True): 1 << K_TAKE_Z}


def strong_released(players: int | None, sleep_token: bool, shifting_tokens: bool) -> int:
    """The kinds of STRONG_PASSED the strong bot looks ahead at in this configuration after all (0: none, and for a
    row asked without a player count, as the warm-up's compile asks it)."""
    if players is None:
        return 0
    return STRONG_RELEASED.get((int(players), bool(sleep_token), bool(shifting_tokens)), 0)

# ---------------------------------------------------------------- wk rows (from the end)
WK_DECIDES = -7
WK_PLAYOUTS = -6
WK_POLICY = -5
WK_SCRATCH = -4
WK_TRACE_COUNTERS = -3
WK_MODES = -2
WK_RNG = -1
WK_TAIL = 7  # rows after the trace

# Columns of the WK_TRACE_COUNTERS row.
TC_DECISIONS = 0  # decisions recorded so far
TC_ROWS = 1  # option rows recorded so far
TC_OVERFLOW = 2  # 1 once a record did not fit: the trace is incomplete
TC_CAP_DECISIONS = 3  # trace rows for decisions (T; 0 = no trace)
TC_CAP_ROWS = 4  # trace rows for options (R)

# Columns of one trace record (the T rows).
TR_KIND = 0
TR_SEAT = 1
TR_N = 2
TR_CHOSEN = 3
TR_FIRST_ROW = 4

# Columns of the WK_RNG row.
RNG_LO = 0
RNG_HI = 1

# ---------------------------------------------------------------- fw slots
FW_WEIGHTS = N_FEATURES
FW_SCRATCH = FW_WEIGHTS + MAX_SEATS * N_FEATURES
FW_OPEN_NOW = FW_SCRATCH  # longest top run of the deciding seat's REM stack now
FW_LEADER = FW_SCRATCH + 1  # leading opponent (first of the tied best; -1 solo)
FW_PERF_HOT = FW_SCRATCH + 2  # the perform one-hot slot currently 1 (0: none)
FW_EXPERT_AT = FW_SCRATCH + 3  # where the expert tables start (0: no seat plays MODE_EXPERT)
FW_LIN_N = FW_SCRATCH + 4  # MAX_SEATS slots: per seat, the number of nonzero linear weights
FW_COLLECT_AT = FW_SCRATCH + 8  # where a training game keeps a search decision's features (0: not collecting)
FW_CARD_HOT = FW_SCRATCH + 9  # 2 slots: the F_CARD_BASE one-hot slots currently 1 (0: none set)
FW_SUPPLY = FW_SCRATCH + 12  # N_TYPES slots: per dream type, the cards F_SUPPLY_A counts (kinds naming a card)
FW_TOPS = FW_SCRATCH + 24  # 4 per seat: its top card's two types and their top runs (-1, 0: empty stack)
FW_BUY_PRE = FW_SCRATCH + 40  # 16 slots: a buy decision's per-position values (features.buy_precompute)
FW_LIN_EXTRA = FW_SCRATCH + 56  # MAX_SEATS slots: 1 if the seat's linear weights use a slot of is_extra_slot
FW_LEAN = FW_SCRATCH + 60  # 1: the decision being scored needs no is_extra_slot feature (features skip them)
FW_EMPTY = FW_SCRATCH + 61  # empty Dreamscape positions at the decision (F_ENDS_NOW; set unless FW_LEAN)
FW_LIN_IDX = FW_SCRATCH + 64  # per seat, the slots of the nonzero weights in ascending order
FW_SCORES = FW_LIN_IDX + MAX_SEATS * N_FEATURES

# The expert bot's table (MODE_EXPERT): one weight row per decision kind and game phase.
# Phases by the fraction of the Sleep Deck left (F_DECK_FRACTION): early > 2/3, late <= 1/3.
EXPERT_PHASES = 3
EXPERT_ROWS = N_KINDS * EXPERT_PHASES
EXPERT_WIDTH = EXPERT_ROWS * N_FEATURES

# Option rows beyond one per card: a buy lists the N_POS positions, then every
# reserved card, then "stop" (R5.1/R5.2); the rest is slack.
OPT_EXTRA = 8
# Work-stack rows beyond two frames per card (R6.12 bounds the nesting by the cards).
STACK_EXTRA = 8


def max_options(n_cards: int) -> int:
    """Size of the option buffer: the N_ORDERS orders, or every REM card / reserve + the positions."""
    return max(N_ORDERS, n_cards + OPT_EXTRA)


@inline_kernel
def n_opt_rows(c):
    """:func:`max_options` inside the kernels."""
    return max(N_ORDERS, c + OPT_EXTRA)


@inline_kernel
def stack_rows(c):
    """Rows of perform_card's work stack for a deck of ``c`` cards."""
    return 2 * c + STACK_EXTRA


@njit(cache=True)
def new_work(n_cards, rng_state, trace_decisions, trace_rows, modes, weights):
    """Allocate the scratch of one game (trace_decisions = 0: no trace).

    ``modes`` is int64[4, 4]: per seat (column) the rows ``MD_SCORE``,
    ``MD_POLICY``, ``MD_PLAYOUTS`` and ``MD_DECIDES``; ``weights`` is
    float64[4, N_FEATURES].
    """
    m = n_opt_rows(n_cards)
    rows = m + stack_rows(n_cards) + trace_decisions + trace_rows + WK_TAIL
    wk = np.zeros((rows, OPT_WIDTH), dtype=np.int32)
    wk[rows + WK_TRACE_COUNTERS, TC_CAP_DECISIONS] = trace_decisions
    wk[rows + WK_TRACE_COUNTERS, TC_CAP_ROWS] = trace_rows
    for s in range(MAX_SEATS):
        wk[rows + WK_MODES, s] = modes[MD_SCORE, s]
        wk[rows + WK_POLICY, s] = modes[MD_POLICY, s]
        wk[rows + WK_PLAYOUTS, s] = modes[MD_PLAYOUTS, s]
        wk[rows + WK_DECIDES, s] = modes[MD_DECIDES, s]
    set_rng(wk, rng_state)
    expert = uses_expert(modes)
    fw = np.zeros(FW_SCORES + m + (MAX_SEATS * EXPERT_WIDTH if expert else 0), dtype=np.float64)
    if expert:
        fw[FW_EXPERT_AT] = FW_SCORES + m
    for s in range(MAX_SEATS):
        if modes[MD_SCORE, s] == MODE_LINEAR or modes[MD_SCORE, s] == MODE_ROLLOUT:  # fw is zeros otherwise
            set_weights(fw, s, weights[s])
        elif modes[MD_SCORE, s] == MODE_EXPERT:
            set_expert(fw, s, weights[s])
    return wk, fw


@njit(cache=True)
def uses_expert(modes):
    """True when a seat plays MODE_EXPERT or searches with it as its playout policy."""
    for s in range(MAX_SEATS):
        if modes[MD_SCORE, s] == MODE_EXPERT or (modes[MD_SCORE, s] == MODE_SEARCH and modes[MD_POLICY, s] == MODE_EXPERT):
            return True
    return False


@inline_kernel
def expert_phase(deck_fraction):
    """The game phase of EXPERT_PHASES (0 early, 1 mid, 2 late) at this fraction of the Sleep Deck left.

    One source for the expert tables' rows and the search's phase filter
    (simcore.games.dreamscape.fast.prefix), so both split the game at the same decisions.
    """
    return 0 if deck_fraction > 2.0 / 3.0 else (1 if deck_fraction > 1.0 / 3.0 else 2)


@inline_kernel
def expert_row(fw, seat, kind, deck_fraction):
    """The first slot of the seat's expert weights for ``kind`` at this phase (see EXPERT_PHASES)."""
    phase = expert_phase(deck_fraction)
    return np.int64(fw[FW_EXPERT_AT]) + seat * EXPERT_WIDTH + (kind * EXPERT_PHASES + phase) * N_FEATURES


@kernel
def set_expert(fw, s, w):
    """Seat s's expert table (``w[:EXPERT_WIDTH]``, rows ``kind * EXPERT_PHASES + phase``)."""
    base = np.int64(fw[FW_EXPERT_AT]) + s * EXPERT_WIDTH
    for j in range(EXPERT_WIDTH):
        fw[base + j] = w[j]


@kernel
def set_policy(fw, s, w, mode):
    """Seat s plays the policy ``mode`` with weights ``w`` (a search seat's playouts, simcore.games.dreamscape.fast.isearch)."""
    if mode == MODE_EXPERT:
        set_expert(fw, s, w)
    else:
        set_weights(fw, s, w)


@njit(cache=True)
def playout_work(n_cards, fw_size):
    """The (wk, fw) scratch of a rollout's playouts: as new_work's, without trace rows."""
    pwk = np.zeros((n_opt_rows(n_cards) + stack_rows(n_cards) + WK_TAIL, OPT_WIDTH), dtype=np.int32)
    return pwk, np.zeros(fw_size, np.float64)


@inline_kernel
def is_extra_slot(j):
    """The feature slots added for the expert bot (issue #12: 28..31, 43..): the costly ones to compute."""
    return (j >= F_NEXT_GAIN and j < F_PERFORM_BASE) or j >= F_OWN_NEXT_GAIN


@inline_kernel
def set_weights(fw, s, w):
    """Seat s's linear weights, and the list of their nonzero slots (see decisions.linear_score)."""
    k = 0
    extra = 0.0
    for j in range(N_FEATURES):
        fw[FW_WEIGHTS + s * N_FEATURES + j] = w[j]
        if w[j] != 0.0:
            fw[FW_LIN_IDX + s * N_FEATURES + k] = j
            k += 1
            if is_extra_slot(j):
                extra = 1.0
    fw[FW_LIN_N + s] = k
    fw[FW_LIN_EXTRA + s] = extra


@inline_kernel
def set_rng(wk, state):
    r = wk.shape[0] + WK_RNG
    wk[r, RNG_LO] = np.int32(state & np.uint64(0xFFFFFFFF))  # truncating casts keep the bits
    wk[r, RNG_HI] = np.int32(state >> np.uint64(32))


@inline_kernel
def get_rng(wk):
    r = wk.shape[0] + WK_RNG
    lo = np.uint64(np.int64(wk[r, RNG_LO]) & 0xFFFFFFFF)
    hi = np.uint64(np.int64(wk[r, RNG_HI]) & 0xFFFFFFFF)
    return (hi << np.uint64(32)) | lo


@kernel
def rng_below(wk, n):
    """rng.below(n) on the game's stream kept in the work array."""
    state = get_rng(wk) + GOLDEN
    set_rng(wk, state)
    return np.int64(((mix64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@inline_kernel
def tracing(wk):
    """True when the game keeps a trace (new_work got trace rows)."""
    return wk[wk.shape[0] + WK_TRACE_COUNTERS, TC_CAP_DECISIONS] != 0


@inline_kernel
def seat_mode(wk, seat):
    """The seat's score mode (:class:`Mode`)."""
    return wk[wk.shape[0] + WK_MODES, seat]


@inline_kernel
def trace_start(wk):
    """The first trace row (scripted play keeps its script block there, simcore.games.dreamscape.fast.script)."""
    counters = wk.shape[0] + WK_TRACE_COUNTERS
    return wk.shape[0] - WK_TAIL - wk[counters, TC_CAP_DECISIONS] - wk[counters, TC_CAP_ROWS]
