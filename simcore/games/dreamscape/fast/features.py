"""Afterstate features and the R8.2 chain points kept in the state vector.

Chain points: :func:`chain_points_at` scores a stack in one pass (R8.2);
the engine keeps every seat's chain points in its ``S_CHAIN`` slot, updated
incrementally with :func:`top_add_delta` (a card put on top),
:func:`ff_delta` (Floating Free's move, R6.1) and :func:`update_chain` (a
stack changed otherwise). The same run scans give the afterstate features.

Features: :func:`decision_features` fills the slots shared by every option of
a decision, :func:`option_features` the option's own slots (layout in
:mod:`simcore.games.dreamscape.fast.layout`); :func:`option_delta` is the immediate own-score
change alone (greedy), ``simcore.games.dreamscape.bots.reference_bots.immediate_score_delta``.

One source per score change: :func:`perform_delta` (Perfect Respite, R6.5),
:func:`take_z_delta` (R4.1), :func:`token_delta` (R9 discard),
:func:`top_add_delta` / :func:`ff_delta_runs` (R8.2); the kinds whose options
can change the deciding seat's score at once are :data:`DELTA_KINDS`, from
which :func:`has_delta` is built (a strategy declaring ``decides=DELTA_KINDS``
plays greedy's games through the hook).

Imports :mod:`simcore.games.dreamscape.fast.layout`, :mod:`simcore.games.dreamscape.fast.scratch` (the fw
slots) and :mod:`simcore.games.dreamscape.fast.zones`; imported by decisions, kernels, search
and batch.
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.layout import (
    BUY_POSITION,
    BUY_RESERVED,
    BUY_STOP,
    chain_at,
    F_ARG,
    F_AUX,
    F_BEST_OPP,
    F_BUDGET_AFTER,
    F_BUDGET_NOW,
    F_BUY_DENY,
    F_BUYS_LEFT,
    F_CARD_BASE,
    F_CHAIN_AFTER,
    F_CHAIN_NOW,
    F_COST,
    F_DECK_FRACTION,
    F_DECK_LEFT,
    F_DELTA,
    F_END_WIN,
    F_ENDS_NOW,
    F_FF_BEST,
    F_LAST_SCORE,
    F_LAST_TURN,
    F_LEADER_DENY,
    F_N_OPTIONS,
    F_N_SEATS,
    F_NEXT_GAIN,
    F_NEXT_REACH,
    F_OPEN_RUN_MAX,
    F_OPP_BEST_GAIN,
    F_OPP_MAX_Z,
    F_OPTION_INDEX,
    F_OWN_NEXT_GAIN,
    F_PERFORM_BASE,
    F_POS_COST,
    F_REM_LEN,
    F_RUN_SUPPLY,
    F_SCORE_AFTER,
    F_SCORE_NOW,
    F_SUPPLY_A,
    F_SUPPLY_B,
    F_TARGET_GAP,
    F_TARGET_IS_LEADER,
    F_TARGET_Z,
    F_TOP_RUN_A,
    F_TOP_RUN_B,
    F_TURN,
    F_Z_AFTER,
    FF,
    H_COSTS,
    H_DECK_PTR,
    H_DS_CARD,
    H_DS_DOWN,
    H_N_CARDS,
    H_N_SEATS,
    H_POS_BY_COST,
    H_REMOVED,
    H_TURNS,
    H_Z_PENALTY,
    HEADER,
    K_BUY,
    K_COLLECTIVE_DREAM,
    K_EMPOWERED_DREAMING,
    K_FLOATING_FREE,
    K_INTERRUPTED_SLEEP,
    K_INVASIVE_DREAMING,
    K_LUCID_DREAMING,
    K_NIGHT_TERROR,
    K_PARADIGM_SHIFT,
    K_PERFORM,
    K_SLEEP_TOKEN,
    K_TAKE_Z,
    LD,
    ED,
    N_POS,
    N_TYPES,
    PR,
    S_BONUS,
    S_CHAIN,
    S_REM_LEN,
    S_RES_LEN,
    S_SPENT,
    S_Z_LEN,
    TOKEN_DISCARD,
    TOKEN_POINT,
    off_deck,
    off_ready,
    off_rem,
    off_res,
    off_z,
    seat_base,
)
from simcore.games.dreamscape.fast.scratch import (
    FW_BUY_PRE,
    FW_CARD_HOT,
    FW_EMPTY,
    FW_LEADER,
    FW_LEAN,
    FW_OPEN_NOW,
    FW_PERF_HOT,
    FW_SUPPLY,
    FW_TOPS,
)
from simcore.games.dreamscape.fast.zones import budget, deck_left, score
from simcore.games.dreamscape.fast.chains import (  # noqa: F401 - re-exported: the engine's kernels import them from here
    chain_points_at,
    chain_points_by_type,
    ff_delta,
    ff_delta_runs,
    run_down,
    top_add_delta,
    top_runs,
    update_chain,
)
from simcore.games.dreamscape.rules import DECISION_ID

# The decision kinds whose options can change the deciding seat's score at
# once (immediate_score_delta is 0 at every other kind). floating_free counts
# only on the own REM stack (aux 0), not on the solo discard pile (R10.1).
DELTA_KINDS = ("buy", "take_z", "sleep_token", "perform", "floating_free")
DELTA_KIND_IDS = tuple(DECISION_ID[k] for k in DELTA_KINDS)
DELTA_KINDS_MASK = sum(1 << k for k in DELTA_KIND_IDS)


# ============================================================================ score changes

@inline_kernel
def perform_delta(st, dream):
    """R6.5: performing Perfect Respite adds a Z card (-1 point) while the Sleep Deck has cards."""
    return -1 if (dream == PR and deck_left(st) > 0) else 0


@inline_kernel
def take_z_delta(take):
    """R4.1: taking the Sleep Deck's top card as a Z card costs a point (take: 1 yes, 0 no)."""
    return -take


@inline_kernel
def token_delta(choice):
    """R9: discarding the top Z card with the Sleep Token gains a point."""
    return 1 if choice == TOKEN_DISCARD else 0


@inline_kernel
def has_delta(kind, aux):
    """Kinds whose options can change the deciding seat's score at once (:data:`DELTA_KINDS`)."""
    return (DELTA_KINDS_MASK >> kind) & 1 != 0 and not (kind == K_FLOATING_FREE and aux != 0)


@kernel
def option_delta(st, kind, seat, aux, opts, i):
    """Immediate own-score change of option i: simcore.games.dreamscape.bots.reference_bots.immediate_score_delta."""
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
        return take_z_delta(opts[i, 0])
    if kind == K_SLEEP_TOKEN:
        return token_delta(opts[i, 0])
    if kind == K_PERFORM:
        return perform_delta(st, opts[i, 0])
    if kind == K_FLOATING_FREE and aux == 0:
        b = seat_base(seat)
        return ff_delta(st, off_rem(st, seat), st[b + S_REM_LEN], opts[i, 0])
    return 0


# ============================================================================ features

@kernel
def decision_features(st, kind, seat, n, aux, fw):
    """The feature slots shared by every option of a decision (layout in simcore.games.dreamscape.fast.layout).

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
            run_down(st, mk, nr - 1, st[HEADER + top]), run_down(st, mk, nr - 1, st[HEADER + st[H_N_CARDS] + top])
        )
    fw[FW_OPEN_NOW] = open_now
    fw[FW_LEADER] = leader
    clear_perform_slot(fw)
    clear_card_slots(fw)
    if fw[FW_LEAN] == 0.0:
        empty = 0
        for p in range(N_POS):
            if st[H_DS_CARD + p] < 0:
                empty += 1
        fw[FW_EMPTY] = empty
    if names_card(kind) and fw[FW_LEAN] == 0.0:
        count_supply(st, fw)
        cache_tops(st, fw)
        if kind == K_BUY:
            buy_precompute(st, seat, fw)


@inline_kernel
def names_card(kind):
    """The kinds whose options can name one card (F_CARD_BASE, F_SUPPLY_A)."""
    return (
        kind == K_BUY
        or kind == K_FLOATING_FREE
        or kind == K_LUCID_DREAMING
        or kind == K_INTERRUPTED_SLEEP
        or kind == K_EMPOWERED_DREAMING
        or kind == K_INVASIVE_DREAMING
    )


@inline_kernel
def add_supply(st, counts, card):
    counts[st[HEADER + card]] += 1.0
    counts[st[HEADER + st[H_N_CARDS] + card]] += 1.0


@inline_kernel
def count_supply(st, fw):
    """FW_SUPPLY: per dream type, the cards face down outside the Dreamscape or face up in it.

    Face down outside the Dreamscape: the Sleep Deck, every Deep Sleep stack
    (Z cards stay face down, R2.2) and the cards the remove knob took unseen
    (the deck order's first H_REMOVED cards). Every player can count them
    (all cards minus the ones seen face up), so no hidden card is read.
    """
    c = st[H_N_CARDS]
    counts = fw[FW_SUPPLY : FW_SUPPLY + N_TYPES]
    counts[:] = 0.0
    dk = off_deck(st)
    for k in range(st[H_REMOVED]):
        add_supply(st, counts, st[dk + k])
    for k in range(st[H_DECK_PTR], c):
        add_supply(st, counts, st[dk + k])
    for s in range(st[H_N_SEATS]):
        oz = off_z(st, s)
        for k in range(st[seat_base(s) + S_Z_LEN]):
            add_supply(st, counts, st[oz + k])
    for p in range(N_POS):
        if st[H_DS_CARD + p] >= 0 and st[H_DS_DOWN + p] == 0:
            add_supply(st, counts, st[H_DS_CARD + p])


@inline_kernel
def cache_tops(st, fw):
    """FW_TOPS: every seat's top card types and their top runs, so any top_add_delta is O(1) (cached_gain)."""
    c = st[H_N_CARDS]
    for s in range(st[H_N_SEATS]):
        base = FW_TOPS + 4 * s
        n = st[seat_base(s) + S_REM_LEN]
        if n == 0:
            fw[base] = -1.0
            fw[base + 1] = 0.0
            fw[base + 2] = -1.0
            fw[base + 3] = 0.0
            continue
        off = off_rem(st, s)
        top = st[off + n - 1]
        ta = st[HEADER + top]
        tb = st[HEADER + c + top]
        fw[base] = ta
        fw[base + 1] = run_down(st, off + c, n - 1, ta)
        fw[base + 2] = tb
        fw[base + 3] = run_down(st, off + c, n - 1, tb)


@inline_kernel
def cached_run(fw, s, u):
    """Seat s's top run of type u (R8.2: 0 unless its top card shows u), from FW_TOPS."""
    base = FW_TOPS + 4 * s
    if fw[base] == u:
        return np.int64(fw[base + 1])
    if fw[base + 2] == u:
        return np.int64(fw[base + 3])
    return 0


@inline_kernel
def cached_gain(st, fw, s, x):
    """top_add_delta(st, s, x) from FW_TOPS: only the top runs of x's two types grow (R8.2)."""
    c = st[H_N_CARDS]
    delta = 0
    for which in range(2):
        r = cached_run(fw, s, st[HEADER + x] if which == 0 else st[HEADER + c + x])
        delta += chain_at(st, r + 1) - chain_at(st, r)
    return delta


@inline_kernel
def clear_card_slots(fw):
    """Zero the F_CARD_BASE slots set last (FW_CARD_HOT: their indices, 0 = none set)."""
    for j in range(2):
        hot = np.int64(fw[FW_CARD_HOT + j])
        if hot != 0:
            fw[hot] = 0.0
            fw[FW_CARD_HOT + j] = 0.0


@inline_kernel
def gain_after(st, fw, seat, top, x):
    """Chain change of putting card x on the seat's REM stack once card ``top`` is put on it.

    ``top`` < 0: nothing is put on it first. The run of a type after ``top``
    is the run below + 1 if ``top`` shows the type, else 0 (R8.2); the runs
    below come from FW_TOPS.
    """
    c = st[H_N_CARDS]
    delta = 0
    for which in range(2):
        u = st[HEADER + x] if which == 0 else st[HEADER + c + x]
        if top < 0:
            r = cached_run(fw, seat, u)
        elif (st[HEADER + 2 * c + top] >> u) & 1 != 0:
            r = cached_run(fw, seat, u) + 1
        else:
            r = 0
        delta += chain_at(st, r + 1) - chain_at(st, r)
    return delta


@inline_kernel
def buy_precompute(st, seat, fw):
    """FW_BUY_PRE for a buy decision: per position p, the next seat's gain from its card
    (slot p; -1: empty or face down), the own top runs of the card's two types (5 + 2p, 6 + 2p),
    and the next seat's budget next turn (slot 15). Used by buy_outlook for every option."""
    ns = st[H_N_SEATS]
    c = st[H_N_CARDS]
    nxt = (seat + 1) % ns
    for p in range(N_POS):
        x = st[H_DS_CARD + p]
        if x < 0 or st[H_DS_DOWN + p] != 0:
            fw[FW_BUY_PRE + p] = -1.0
            fw[FW_BUY_PRE + 5 + 2 * p] = 0.0
            fw[FW_BUY_PRE + 6 + 2 * p] = 0.0
        else:
            fw[FW_BUY_PRE + p] = cached_gain(st, fw, nxt, x) if ns > 1 else 0
            fw[FW_BUY_PRE + 5 + 2 * p] = cached_run(fw, seat, st[HEADER + x])
            fw[FW_BUY_PRE + 6 + 2 * p] = cached_run(fw, seat, st[HEADER + c + x])
    fw[FW_BUY_PRE + 15] = st[seat_base(nxt) + S_Z_LEN] + (1 if deck_left(st) > 0 else 0)  # R7.3 all unspent; R4.1


@inline_kernel
def step_after(st, top, u, r):
    """Chart step of type u's run (r below) growing by one card, once card ``top`` (-1: none) is put on it."""
    if top >= 0:
        r = r + 1 if (st[HEADER + 2 * st[H_N_CARDS] + top] >> u) & 1 != 0 else 0
    return chain_at(st, r + 1) - chain_at(st, r)


@inline_kernel
def buy_outlook(st, fw, seat, opts, i, pos, card, bud_after):
    """(F_NEXT_REACH, F_BUYS_LEFT, F_OWN_NEXT_GAIN) of buy option i (see simcore.games.dreamscape.fast.layout).

    ``pos``: the position the option empties (-1: none); ``card``: the card it
    puts on top of the own REM stack (-1: none); ``bud_after``: F_BUDGET_AFTER.
    """
    b = seat_base(seat)
    c = st[H_N_CARDS]
    reach = 0.0
    if st[H_N_SEATS] > 1:
        nb = fw[FW_BUY_PRE + 15]
        rank = 0
        for k in range(N_POS):  # R7.1: the cards left keep their cost order in the cheapest positions
            p = st[H_POS_BY_COST + k]
            if p == pos or st[H_DS_CARD + p] < 0:
                continue
            # R7.1, R2.3: the rank-th card left slides to the rank-th cheapest position and costs what that
            # position's token says (the costs knob or the shifting tokens; the printed rules: rank + 1)
            if st[H_COSTS + st[H_POS_BY_COST + rank]] > nb:
                break
            rank += 1
            reach = max(reach, fw[FW_BUY_PRE + p])  # -1 for a face-down card
    if opts[i, 0] == BUY_STOP:
        return np.int64(reach), 0, 0
    count = 0
    best = 0
    for p in range(N_POS):  # R5.1 (R5.5: nothing slides within the turn)
        if p == pos or st[H_DS_CARD + p] < 0 or st[H_COSTS + p] > bud_after:
            continue
        if st[H_DS_DOWN + p] != 0:
            g = -1  # R5.4: a Z card
        else:
            x = st[H_DS_CARD + p]
            g = step_after(st, card, st[HEADER + x], np.int64(fw[FW_BUY_PRE + 5 + 2 * p])) + step_after(
                st, card, st[HEADER + c + x], np.int64(fw[FW_BUY_PRE + 6 + 2 * p])
            )
        best = g if count == 0 else max(best, g)
        count += 1
    if bud_after >= 1:
        rd = off_ready(st, seat)
        rs = off_res(st, seat)
        for j in range(st[b + S_RES_LEN]):
            if st[rd + j] != 0 and not (opts[i, 0] == BUY_RESERVED and j == opts[i, 1]):
                g = gain_after(st, fw, seat, card, st[rs + j])
                best = g if count == 0 else max(best, g)
                count += 1
    return np.int64(reach), count, best


@inline_kernel
def ff_best(st, seat):
    """F_FF_BEST: the best ff_delta over the own REM stack's cards but the top one (R6.1); 0 below 2 cards."""
    n = st[seat_base(seat) + S_REM_LEN]
    off = off_rem(st, seat)
    best = 0
    for j in range(n - 1):
        d = ff_delta_runs(st, off, n, j)[0]
        best = d if j == 0 else max(best, d)
    return best


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
                delta = chain_at(st, ra + 1) - chain_at(st, ra) + chain_at(st, rb + 1) - chain_at(st, rb)
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
        delta = take_z_delta(dz)
        dbud = dz  # R4.1: an unspent Z card
    elif kind == K_SLEEP_TOKEN:
        delta = token_delta(opts[i, 0])
        if opts[i, 0] == TOKEN_DISCARD:
            dz = -1
            if st[b + S_Z_LEN] > st[b + S_SPENT]:  # R3.3: an unspent card goes first
                dbud = -1
        elif opts[i, 0] == TOKEN_POINT:
            dbud = 1
    elif kind == K_PERFORM:
        delta = perform_delta(st, opts[i, 0])
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
    # The slots added for the expert bot (issue #12): which card the option names, who else wants it
    if fw[FW_LEAN] != 0.0:
        return  # a linear seat that gives them weight 0 (decisions.decide_with)
    clear_card_slots(fw)
    card = -1  # the one card the option names (F_CARD_BASE)
    if kind == K_BUY:
        if opts[i, 0] == BUY_POSITION:
            if st[H_DS_DOWN + pos] == 0:
                card = st[H_DS_CARD + pos]
        elif opts[i, 0] == BUY_RESERVED:
            card = st[off_res(st, seat) + opts[i, 1]]
    elif kind == K_FLOATING_FREE:
        if aux == 0:
            card = st[off_rem(st, seat) + opts[i, 0]]
    elif pos >= 0 and kind != K_PARADIGM_SHIFT:
        card = st[H_DS_CARD + pos]
    supply_a = 0.0
    supply_b = 0.0
    if card >= 0:
        ta = F_CARD_BASE + st[HEADER + card]
        tb = F_CARD_BASE + st[HEADER + st[H_N_CARDS] + card]
        fw[ta] = 1.0
        fw[tb] = 1.0
        fw[FW_CARD_HOT] = ta
        fw[FW_CARD_HOT + 1] = tb
        own = 1.0 if (pos >= 0 and st[H_DS_DOWN + pos] == 0) else 0.0  # FW_SUPPLY counts a face-up card itself
        supply_a = fw[FW_SUPPLY + ta - F_CARD_BASE] - own
        supply_b = fw[FW_SUPPLY + tb - F_CARD_BASE] - own
    fw[F_SUPPLY_A] = supply_a
    fw[F_SUPPLY_B] = supply_b
    fw[F_RUN_SUPPLY] = run_a * supply_a + run_b * supply_b
    next_gain = 0
    opp_best = 0
    buy_deny = 0
    ns = st[H_N_SEATS]
    if pos >= 0 and kind != K_PARADIGM_SHIFT and ns > 1 and st[H_DS_CARD + pos] >= 0 and (kind != K_BUY or card >= 0):
        leader = np.int64(fw[FW_LEADER])
        nxt = (seat + 1) % ns
        for s in range(ns):
            if s != seat:
                g = cached_gain(st, fw, s, st[H_DS_CARD + pos])
                opp_best = max(opp_best, g)
                if s == nxt:
                    next_gain = g
                if s == leader and kind == K_BUY:
                    buy_deny = g
    fw[F_NEXT_GAIN] = next_gain
    fw[F_OPP_BEST_GAIN] = opp_best
    fw[F_BUY_DENY] = buy_deny
    if kind == K_BUY:
        reach, left, own_next = buy_outlook(st, fw, seat, opts, i, pos, card, np.int64(fw[F_BUDGET_AFTER]))
        fw[F_NEXT_REACH] = reach
        fw[F_BUYS_LEFT] = left
        fw[F_OWN_NEXT_GAIN] = own_next
    else:
        fw[F_NEXT_REACH] = 0.0
        fw[F_BUYS_LEFT] = 0.0
        fw[F_OWN_NEXT_GAIN] = 0.0
    fw[F_FF_BEST] = ff_best(st, seat) if (kind == K_PERFORM and opts[i, 0] == FF) else 0
    end_features(st, fw, kind, seat, opts, i)


@inline_kernel
def end_features(st, fw, kind, seat, opts, i):
    """F_ENDS_NOW .. F_LAST_SCORE of option i (after its other slots: reads F_Z_AFTER, F_SCORE_AFTER)."""
    deck = np.int64(fw[F_DECK_LEFT])
    empty = np.int64(fw[FW_EMPTY])
    deck_after = deck
    empty_after = empty
    arg = opts[i, 0]
    if kind == K_TAKE_Z:
        if arg == 1 and deck > 0:
            deck_after -= 1  # R4.1
    elif kind == K_BUY:
        if arg == BUY_POSITION:
            empty_after += 1  # R5.5: its position stays empty until Phase 3
    elif kind == K_LUCID_DREAMING or kind == K_EMPOWERED_DREAMING:
        empty_after += 1  # R6.4 / R6.10: the card leaves its position
    elif kind == K_PARADIGM_SHIFT:
        drawn = min(arg, deck)  # R6.11: as many drawn as discarded, as far as the deck allows
        deck_after -= drawn
        empty_after += arg - drawn
    elif kind == K_PERFORM:
        if arg == PR:
            if deck > 0:
                deck_after -= 1  # R6.5
        elif arg == LD or arg == ED:
            for p in range(N_POS):  # R6.4 needs a face-up card; R6.10 any card
                if st[H_DS_CARD + p] >= 0 and (arg == ED or st[H_DS_DOWN + p] == 0):
                    empty_after += 1
                    break
    ends = deck_after < empty_after  # R7.2 at this turn's Phase 3
    # each other seat's turn takes at least one card from the deck (its first purchase empties a position)
    last = deck_after - empty_after < st[H_N_SEATS] - 1
    fw[F_ENDS_NOW] = 1.0 if ends else 0.0
    fw[F_END_WIN] = 0.0
    fw[F_LAST_TURN] = 1.0 if last else 0.0
    fw[F_LAST_SCORE] = 0.0
    if not last:
        return  # most decisions: the deciding seat moves again whatever happens this turn
    zpen = st[H_Z_PENALTY]
    own_z = np.int64(fw[F_Z_AFTER])
    own = np.int64(fw[F_SCORE_AFTER]) + own_z - zpen * own_z + st[seat_base(seat) + S_BONUS]  # zones.final_score
    fw[F_LAST_SCORE] = own
    if ends:
        fw[F_END_WIN] = end_win(st, kind, seat, opts, i, own, own_z)


@inline_kernel
def end_win(st, kind, seat, opts, i, own, own_z):
    """The deciding seat's win credit if the game ended with the scores after option i (R8.2, R8.3).

    ``own`` / ``own_z``: its final score (zones.final_score: rules knobs z-penalty, bonus) and Z cards after
    the option; the opponents' now, a night_terror target with one Z card less (R6.3, R3.2).
    """
    zpen = st[H_Z_PENALTY]
    best = 0
    best_z = 0
    n_best = 0  # opponents at the best score and its most Z cards
    for s in range(st[H_N_SEATS]):
        if s == seat:
            continue
        b = seat_base(s)
        z = st[b + S_Z_LEN]
        if kind == K_NIGHT_TERROR and opts[i, 0] == s and z >= 2:
            z -= 1
        f = st[b + S_CHAIN] - zpen * z + st[b + S_BONUS]
        if n_best == 0 or f > best or (f == best and z > best_z):
            best = f
            best_z = z
            n_best = 1
        elif f == best and z == best_z:
            n_best += 1
    if n_best == 0:
        return 1.0  # solo: the engine's end_game makes the one seat the winner
    if own != best:
        return 1.0 if own > best else 0.0
    if own_z != best_z:
        return 1.0 if own_z > best_z else 0.0
    return 1.0 / (n_best + 1)
