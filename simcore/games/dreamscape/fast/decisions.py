"""Decisions: how a seat picks one of the legal options the rule kernels list.

The rule kernels (:mod:`simcore.games.dreamscape.fast.kernels`) write a decision's options into
the rows of ``wk`` and call :func:`choose` (R11: none -> -1, one -> taken
without asking). :func:`decide` scores 2+ options by the seat's
:class:`~simcore.games.dreamscape.fast.scratch.Mode` (a strategy call per option with its
features, or the random / greedy / linear shortcuts) and :func:`pick_best`
takes the best, exact ties broken by ``below(n_tied)`` on the game's stream as
:mod:`simcore.games.dreamscape.bots.reference_bots` does; :func:`record` keeps the trace.

Imports :mod:`simcore.games.dreamscape.fast.layout`, :mod:`simcore.games.dreamscape.fast.scratch`,
:mod:`simcore.games.dreamscape.fast.zones` and :mod:`simcore.games.dreamscape.fast.features`; imported by
kernels and search. A rollout seat's buy decisions are not made here (that
would make the rules call the search, which calls the rules): see
:mod:`simcore.games.dreamscape.fast.search`.
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.fast.features import (
    decision_features,
    has_delta,
    option_delta,
    option_features,
    perform_delta,
    take_z_delta,
)
from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.prefix import PX_STOPPED, prefix_base, prefix_mode, prefix_pick, prefix_push, prefix_status
from simcore.games.dreamscape.fast.script import script_pick
from simcore.games.dreamscape.fast.layout import (
    F_ARG,
    F_DECK_FRACTION,
    F_OPTION_INDEX,
    K_PERFORM,
    K_SHIFTING_DREAMS,
    K_SHIFTING_TOKENS,
    K_TAKE_Z,
    N_FEATURES,
    OPT_WIDTH,
)
from simcore.games.dreamscape.fast.scratch import (
    FW_COLLECT_AT,
    FW_LEAN,
    FW_LIN_EXTRA,
    FW_LIN_IDX,
    FW_LIN_N,
    FW_SCORES,
    FW_WEIGHTS,
    MODE_CALL,
    MODE_DELTA,
    MODE_EXPERT,
    MODE_LINEAR,
    MODE_ROLLOUT,
    MODE_SCRIPT,
    MODE_SEARCH,
    MODE_ZERO,
    TC_CAP_DECISIONS,
    TC_CAP_ROWS,
    TC_DECISIONS,
    TC_OVERFLOW,
    TC_ROWS,
    TR_CHOSEN,
    TR_FIRST_ROW,
    TR_KIND,
    TR_N,
    TR_SEAT,
    WK_DECIDES,
    WK_POLICY,
    WK_TAIL,
    WK_TRACE_COUNTERS,
    expert_row,
    rng_below,
    seat_mode,
    trace_start,
    tracing,
)


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


@kernel
def decide(st, wk, fw, strats, kind, seat, n, aux):
    """Score the ``n >= 2`` options in ``wk`` with the seat's strategy and pick one.

    The contract of simcore.games.dreamscape.bots.reference_bots: best score wins; exact ties are
    broken by ``below(n_tied)`` over the tied options in engine order; a single
    best option draws nothing.

    Built-in strategies whose score is known without calling them (mode
    MODE_ZERO: 'random'; MODE_DELTA: 'greedy' = features[0]) take a shortcut
    with the identical outcome: when every option scores 0 the pick is
    ``below(n)`` directly, and greedy needs only the delta slot. MODE_LINEAR
    scores the features with the seat's weights without a call; a
    MODE_ROLLOUT seat plays its policy mode here (its buy decisions never
    reach decide, see search.direct_your_sleep_rollout); in a search game every
    seat plays MODE_SEARCH (:func:`prefix_decide`, :mod:`simcore.games.dreamscape.fast.prefix`). A MODE_CALL strategy is not called
    at the kinds it declared it does not tell apart (register(decides=...)):
    there every option would tie, so the pick is below(n) directly.
    """
    mode = seat_mode(wk, seat)
    if mode == MODE_SCRIPT:  # scripted play (conformance): the script block starts at the first trace row
        return script_pick(st, wk, kind, seat, n, trace_start(wk))
    if mode == MODE_SEARCH:  # a search game (simcore.games.dreamscape.fast.isearch): the forced prefix first
        return prefix_decide(st, wk, fw, strats, kind, seat, n, aux)
    return decide_with(st, wk, fw, strats, kind, seat, n, aux, mode)


@kernel
def prefix_decide(st, wk, fw, strats, kind, seat, n, aux):
    """MODE_SEARCH: the prefix's answer, else the seat's own mode (its choice appended to the prefix)."""
    base = prefix_base(st, wk)
    was = prefix_status(wk, base)
    best_i = prefix_pick(st, wk, kind, seat, n, base)
    if was != PX_STOPPED and prefix_status(wk, base) == PX_STOPPED and fw[FW_COLLECT_AT] > 0:
        collect_features(st, fw, kind, seat, n, aux, wk)  # a training game keeps the searched options' features
    if best_i >= 0:
        if tracing(wk):
            record(wk, kind, seat, n, best_i)
        return best_i
    best_i = decide_with(st, wk, fw, strats, kind, seat, n, aux, prefix_mode(wk, base, seat))
    prefix_push(wk, base, best_i)
    return best_i


@inline_kernel
def decide_with(st, wk, fw, strats, kind, seat, n, aux, mode):
    """decide's scoring with the seat's score mode ``mode`` (see :func:`decide`)."""
    if mode == MODE_ROLLOUT:
        mode = wk[wk.shape[0] + WK_POLICY, seat]
    if (
        mode == MODE_ZERO
        or (mode == MODE_DELTA and not has_delta(kind, aux))
        or (mode == MODE_CALL and (wk[wk.shape[0] + WK_DECIDES, seat] >> kind) & 1 == 0)
    ):
        # every option ties (at 0, or a kind the strategy declared it does not tell apart)
        best_i = rng_below(wk, n)
        if tracing(wk):
            record(wk, kind, seat, n, best_i)
        return best_i
    f = fw[:N_FEATURES]
    scores = fw[FW_SCORES:]
    if mode == MODE_DELTA and (kind == K_TAKE_Z or kind == K_PERFORM):
        # The two most frequent decisions (always two options), scored in place
        # with option_delta's own score changes (take_z_delta, perform_delta).
        if kind == K_TAKE_Z:
            s0 = take_z_delta(wk[0, 0])
            s1 = take_z_delta(wk[1, 0])
        else:
            s0 = perform_delta(st, wk[0, 0])
            s1 = perform_delta(st, wk[1, 0])
        if s0 == s1:
            best_i = rng_below(wk, 2)  # the two tie: below(2) over them
        else:
            best_i = 0 if s0 > s1 else 1
        if tracing(wk):
            record(wk, kind, seat, n, best_i)
        return best_i
    if mode == MODE_DELTA:
        for i in range(n):
            scores[i] = np.float64(option_delta(st, kind, seat, aux, wk, i))
    else:
        shifting = kind == K_SHIFTING_DREAMS or kind == K_SHIFTING_TOKENS
        if shifting and (mode == MODE_EXPERT or (mode == MODE_LINEAR and linear_ignores_order(fw, seat))):
            # The 120 orders differ only in F_OPTION_INDEX and F_ARG: with both
            # weighted 0 every order scores the same sum, so all tie (R6.8 is
            # ~70% of all options in a game; same pick, same draw). The expert
            # bot never weighs them (its trainer leaves these kinds at 0).
            best_i = rng_below(wk, n)
            if tracing(wk):
                record(wk, kind, seat, n, best_i)
            return best_i
        # a linear seat whose weights skip the costly extra slots does not need them (they keep stale values)
        fw[FW_LEAN] = 1.0 if (mode == MODE_LINEAR and fw[FW_LIN_EXTRA + seat] == 0.0) else 0.0
        decision_features(st, kind, seat, n, aux, fw)
        strat = strats[seat]
        row = expert_row(fw, seat, kind, fw[F_DECK_FRACTION]) if mode == MODE_EXPERT else 0
        for i in range(n):
            if shifting and i > 0:
                # an order of the Dreamscape changes no other slot (R6.8): keep option 0's
                fw[F_OPTION_INDEX] = i
                fw[F_ARG] = wk[i, 0]
            else:
                option_features(st, kind, seat, aux, wk, i, fw)
            if mode == MODE_LINEAR:
                scores[i] = linear_score(fw, seat)
            elif mode == MODE_EXPERT:
                scores[i] = expert_score(fw, row)
            else:
                scores[i] = strat(kind, seat, f, st)
    best_i = pick_best(wk, scores, n)
    if tracing(wk):
        record(wk, kind, seat, n, best_i)
    return best_i


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
def expert_score(fw, row):
    """MODE_EXPERT: dot(table row, features) over every slot, summed in slot order from 0.0."""
    total = 0.0
    for j in range(N_FEATURES):
        total += fw[row + j] * fw[j]
    return total


# A training game keeps at most this many options of a search decision (more: not kept).
COLLECT_MAX = 8
COLLECT_WIDTH = 2 + COLLECT_MAX * N_FEATURES  # n options kept (0: none), aux, then their features


@kernel
def collect_features(st, fw, kind, seat, n, aux, wk):
    """Keep every option's afterstate features at the search decision just stopped at (training games).

    The options are still in ``wk``'s rows; the decision's state is ``st``.
    Shifting orders (their features differ only in the option index) and
    decisions of more than COLLECT_MAX options are not kept (n = 0).
    """
    at = np.int64(fw[FW_COLLECT_AT])
    if n > COLLECT_MAX or kind == K_SHIFTING_DREAMS or kind == K_SHIFTING_TOKENS:
        fw[at] = 0.0
        return
    fw[FW_LEAN] = 0.0  # training keeps every slot
    decision_features(st, kind, seat, n, aux, fw)
    for i in range(n):
        option_features(st, kind, seat, aux, wk, i, fw)
        for j in range(N_FEATURES):
            fw[at + 2 + i * N_FEATURES + j] = fw[j]
    fw[at] = n
    fw[at + 1] = aux


@inline_kernel
def linear_ignores_order(fw, seat):
    """True if the seat's linear weights give F_OPTION_INDEX and F_ARG weight 0."""
    w0 = FW_WEIGHTS + seat * N_FEATURES
    return fw[w0 + F_OPTION_INDEX] == 0.0 and fw[w0 + F_ARG] == 0.0


@kernel
def record(wk, kind, seat, n, chosen):
    """Trace mode: keep the asked decision and its options (no-op without trace rows)."""
    tc = wk.shape[0] + WK_TRACE_COUNTERS
    cap_t = wk[tc, TC_CAP_DECISIONS]
    if cap_t == 0:
        return
    cap_r = wk[tc, TC_CAP_ROWS]
    base_t = wk.shape[0] - WK_TAIL - cap_t - cap_r
    base_r = base_t + cap_t
    t = wk[tc, TC_DECISIONS]
    row = wk[tc, TC_ROWS]
    if t >= cap_t or row + n > cap_r:
        wk[tc, TC_OVERFLOW] = 1  # the trace is incomplete
        return
    wk[base_t + t, TR_KIND] = kind
    wk[base_t + t, TR_SEAT] = seat
    wk[base_t + t, TR_N] = n
    wk[base_t + t, TR_CHOSEN] = chosen
    wk[base_t + t, TR_FIRST_ROW] = row
    for i in range(n):
        for j in range(OPT_WIDTH):
            wk[base_r + row + i, j] = wk[i, j]
    wk[tc, TC_DECISIONS] = t + 1
    wk[tc, TC_ROWS] = row + n
