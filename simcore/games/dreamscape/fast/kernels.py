"""The rule kernels: :mod:`simcore.games.dreamscape.reference` function for function, in its order.

Each kernel mirrors the function of the same name in :mod:`simcore.games.dreamscape.reference`
(rule ids from shared/rules/interpretations.md in comments); the few helpers
the reference writes inline (begin_turn / end_turn, buy_loop, push_frame,
next_permutation) follow the kernel that uses them, and the small zone
helpers of ``GameState`` live in :mod:`simcore.games.dreamscape.fast.zones`. Where the
reference ``yield``s a decision, the kernel enumerates the legal options in
the reference's order into the scratch buffer ``wk`` and calls
:func:`simcore.games.dreamscape.fast.decisions.choose`, which (only for 2+ options, R11) lets
the deciding seat's strategy score each option and picks the best.

Nested effects (Floating Free -> Recurring Dream -> ...) run on an explicit
work stack inside :func:`perform_card` instead of recursion: an effect that
performs another card returns that card and :func:`perform_card` pushes a
frame for it. Empowered Dreaming's "then discard it" (R6.10) is a frame
pushed beneath the nested performance, so it runs once that performance has
resolved completely, as in the reference's generator recursion. The R6.12
loop guard bounds the nesting by the number of cards.

Kernels take the state vector ``st`` (:mod:`simcore.games.dreamscape.fast.layout`), the
scratch ``wk`` / ``fw`` (:mod:`simcore.games.dreamscape.fast.scratch`) and ``strats``, a tuple
of 4 strategy functions (one per seat) of the fixed type
:data:`simcore.games.dreamscape.fast.strategies.STRATEGY_TYPE`.

Imports (one way, no cycle): layout, scratch, zones, features (chain points)
and decisions (choose). The rules never call the rollout search: a rollout
seat's games run :func:`simcore.games.dreamscape.fast.search.play_game_rollout`, the same turn
with rollouts at its buys, which itself plays these kernels (and
:func:`play_game` for its playouts, which therefore cannot start playouts).
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.fast.decisions import choose
from simcore.games.dreamscape.fast.features import ff_delta, top_add_delta, update_chain
from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.layout import (
    BUY_POSITION,
    BUY_RESERVED,
    BUY_STOP,
    CD,
    DISTINCT_COUNTS,
    DISTINCT_ROWS,
    ED,
    FF,
    H_ABORTED,
    H_ACTIVE,
    H_COSTS,
    H_DECK_PTR,
    H_DISCARD_LEN,
    H_DS_CARD,
    H_DS_DOWN,
    H_GAME_OVER,
    H_MAX_BUYS,
    H_N_CARDS,
    H_N_SEATS,
    H_N_WINNERS,
    H_OPT_SHIFT_TOKENS,
    H_OPT_SLEEP_TOKEN,
    H_PERF,
    H_POS_BY_COST,
    H_PURCHASE_ID,
    H_REMOVED,
    H_TOKEN_POINT,
    H_MIN_BUYS,
    H_PARADIGM_MAX,
    H_RESERVE_COST,
    H_RESERVE_LIMIT,
    H_RESPITE_Z,
    H_TAKE_Z,
    H_TERROR_Z,
    H_Z_FLOOR,
    H_TURNS,
    H_WINNERS,
    HEADER,
    ID,
    IS,
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
    LD,
    N_ORDERS,
    N_POS,
    N_TYPES,
    NT,
    PERM5,
    PR,
    RD,
    S_CHAIN,
    S_REM_LEN,
    S_RES_LEN,
    S_SPENT,
    S_START_Z,
    S_TURNS,
    S_Z_LEN,
    SD,
    STACK_DISCARD,
    STACK_NONE,
    TOKEN_DISCARD,
    TOKEN_PASS,
    TOKEN_POINT,
    off_deck,
    off_discard,
    off_mark,
    off_ready,
    off_rem,
    off_res,
    off_z,
    seat_base,
)
from simcore.games.dreamscape.fast.scratch import WK_SCRATCH, n_opt_rows
from simcore.games.dreamscape.fast.zones import (
    budget,
    deck_left,
    discard_pop,
    discard_push,
    draw,
    face_up_options,
    occupied_options,
    opponents,
    position_of_cost,
    final_score,
    rem_push,
    stack_span,
    z_push,
)
from simcore.games.dreamscape.rules import TURN_CAP

# Work-stack frame kinds of perform_card.
FR_PERFORM = 0
FR_DISCARD = 1  # R6.10: discard the Empowered Dreaming card once its performance resolved
# Columns of a work-stack frame (one wk row).
FRAME_KIND, FRAME_CARD, FRAME_ACTING, FRAME_SRC, FRAME_MAY_TD, FRAME_INVADER = range(6)


@kernel
def play_game(st, wk, fw, strats):
    """Turns until the game ends at R7.2 (or the R8.4 safety cap).

    No rollouts: the game loop of every game without a rollout seat, and of
    the rollouts' playouts (see :mod:`simcore.games.dreamscape.fast.search`).
    """
    while st[H_GAME_OVER] == 0:
        play_turn(st, wk, fw, strats)


@kernel
def play_turn(st, wk, fw, strats):
    """Phase 1, Phase 2 (direct_your_sleep), Phase 3."""
    seat = begin_turn(st, wk, fw, strats)
    if seat < 0:
        return
    direct_your_sleep(st, wk, fw, strats, seat)
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


@kernel
def use_sleep_token(st, wk, fw, strats, seat):
    """R9: discard the top Z card (while holding 2+, R3.2 with knob z-floor), take +1 budget (knob token-point), or pass."""
    o = wk
    n = 0
    if st[seat_base(seat) + S_Z_LEN] > st[H_Z_FLOOR]:
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
    """R4.1: the player may take the Sleep Deck's top card as an unspent Z card.

    Knob take-z: that many cards, as far as the deck allows (0: Phase 1 asks nothing).
    """
    if deck_left(st) == 0 or st[H_TAKE_Z] == 0:
        return
    o = wk
    o[0, 0] = 1  # [True, False]
    o[1, 0] = 0
    if o[choose(st, wk, fw, strats, K_TAKE_Z, seat, 2, 0), 0] == 1:
        z_push(st, seat, draw(st))
        for _ in range(1, st[H_TAKE_Z]):
            if deck_left(st) == 0:
                break
            z_push(st, seat, draw(st))


@kernel
def direct_your_sleep(st, wk, fw, strats, seat):
    """R5.2: at least one purchase if any is affordable, then more or stop."""
    buy_loop(st, wk, fw, strats, seat, np.int64(0))


@kernel
def buy_loop(st, wk, fw, strats, seat, purchases):
    """The buy decisions of direct_your_sleep from ``purchases`` purchases made (a playout resumes mid-turn).

    The rules knob max-buys (``H_MAX_BUYS`` > 0) ends the phase after that many purchases (R5.2).
    """
    o = wk
    while True:
        if st[H_MAX_BUYS] > 0 and purchases >= st[H_MAX_BUYS]:
            return
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


@inline_kernel
def buy_options(st, seat, o, purchases):
    """The options of a buy decision: purchases (R5.1), then "stop" after a first purchase (R5.2; knob min-buys)."""
    n = purchase_options(st, seat, o)
    if purchases >= st[H_MIN_BUYS]:
        o[n, 0] = BUY_STOP
        o[n, 1] = 0
        n += 1
    return n


@kernel
def purchase_options(st, seat, o):
    """R5.1: a Dreamscape card at its position's cost, or a ready reserved card for 1 (knob reserve-cost)."""
    bud = budget(st, seat)
    n = 0
    for p in range(N_POS):
        if st[H_DS_CARD + p] >= 0 and st[H_COSTS + p] <= bud:
            o[n, 0] = BUY_POSITION
            o[n, 1] = p + 1
            n += 1
    if bud >= st[H_RESERVE_COST]:
        rd = off_ready(st, seat)
        for i in range(st[seat_base(seat) + S_RES_LEN]):
            if st[rd + i] != 0:
                o[n, 0] = BUY_RESERVED
                o[n, 1] = i
                n += 1
    return n


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
        pay(st, seat, st[H_RESERVE_COST])
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
def take_from_dreamscape(st, p):
    """R5.5: position index p (0..4) is left empty; nothing slides until Phase 3."""
    card = st[H_DS_CARD + p]
    down = st[H_DS_DOWN + p]
    st[H_DS_CARD + p] = -1
    st[H_DS_DOWN + p] = 0
    return card, down


@kernel
def discard_top_z(st, seat, from_spent):
    """R3.2/R3.3: the top Z card goes face up to the discard pile (never the last one; knob z-floor)."""
    b = seat_base(seat)
    z = st[b + S_Z_LEN]
    if z <= st[H_Z_FLOOR]:
        return False
    spent = st[b + S_SPENT]
    use_spent = (from_spent and spent > 0) or z - spent == 0
    st[b + S_Z_LEN] = z - 1
    discard_push(st, st[off_z(st, seat) + z - 1])
    if use_spent:
        st[b + S_SPENT] = spent - 1
    return True


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
    sp = push_frame(ws, 0, FR_PERFORM, card, acting, src, may_td, invader)
    while sp > 0:
        sp -= 1
        kind = ws[sp, FRAME_KIND]
        card = ws[sp, FRAME_CARD]
        acting = ws[sp, FRAME_ACTING]
        src = ws[sp, FRAME_SRC]
        may_td = ws[sp, FRAME_MAY_TD]
        invader = ws[sp, FRAME_INVADER]
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
            night_terror(st, wk, fw, strats, acting, invader)  # R10.3 solo inside
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
def push_frame(ws, sp, kind, card, acting, src, may_td, invader):
    ws[sp, FRAME_KIND] = kind
    ws[sp, FRAME_CARD] = card
    ws[sp, FRAME_ACTING] = acting
    ws[sp, FRAME_SRC] = src
    ws[sp, FRAME_MAY_TD] = may_td
    ws[sp, FRAME_INVADER] = invader
    return sp + 1


@inline_kernel
def nested_stack(stack, acting):
    """R10.1: effects nested below a solo discard-pile target use the REM stack again."""
    return acting if stack == STACK_DISCARD else stack


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
    if st[H_N_SEATS] == 1:
        night_terror_solo(st, wk, fw, strats, acting)
        return
    n = opponents(st, acting, wk)
    target = wk[choose(st, wk, fw, strats, K_NIGHT_TERROR, acting, n, 0), 0]
    from_spent = False
    if invader == target:  # R6.9: the invader may give up a Z card it spent this turn
        from_spent = ask_give_up_spent(st, wk, fw, strats, target)
    # Knob terror-z: that many Z cards, each as R3.2 allows; R6.9's choice is asked once, for the first.
    for _ in range(st[H_TERROR_Z] - 1):
        if discard_top_z(st, target, from_spent):
            from_spent = False
    discard_top_z(st, target, from_spent)


@kernel
def ask_give_up_spent(st, wk, fw, strats, seat):
    """R6.9/R10.3: asked only while the seat holds 2+ Z cards, some spent and some unspent."""
    b = seat_base(seat)
    z = st[b + S_Z_LEN]
    spent = st[b + S_SPENT]
    if z > st[H_Z_FLOOR] and spent > 0 and z - spent > 0:
        wk[0, 0] = 0  # [False, True]
        wk[1, 0] = 1
        return wk[choose(st, wk, fw, strats, K_NIGHT_TERROR_SPENT, seat, 2, 0), 0] == 1
    return False


@kernel
def night_terror_solo(st, wk, fw, strats, acting):
    """R10.3: fill the cheapest empty position from the deck, then discard an own Z card."""
    for k in range(1, N_POS + 1):
        p = position_of_cost(st, k)
        if st[H_DS_CARD + p] < 0:
            if deck_left(st) > 0:
                st[H_DS_CARD + p] = draw(st)
                st[H_DS_DOWN + p] = 0
            break
    from_spent = ask_give_up_spent(st, wk, fw, strats, acting)
    for _ in range(st[H_TERROR_Z] - 1):  # knob terror-z: that many own Z cards, the choice for the first
        if discard_top_z(st, acting, from_spent):
            from_spent = False
    discard_top_z(st, acting, from_spent)


@kernel
def lucid_dreaming(st, wk, fw, strats, acting):
    """R6.4: reserve a face-up Dreamscape card; it is ready from Phase 3 on.

    Knob reserve-limit: a seat holding that many reserved cards reserves nothing (and is asked nothing).
    """
    if st[H_RESERVE_LIMIT] > 0 and st[seat_base(acting) + S_RES_LEN] >= st[H_RESERVE_LIMIT]:
        return
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
    """R6.5: the Sleep Deck's top card becomes an unspent Z card (empty deck: nothing; knob respite-z: that many)."""
    for _ in range(st[H_RESPITE_Z]):
        if deck_left(st) == 0:
            break
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
        for i in range(N_ORDERS):
            o[i, 0] = i  # an order is named by its PERM5 row (lexicographic index)
        r = o[choose(st, wk, fw, strats, K_SHIFTING_TOKENS, acting, N_ORDERS, 0), 0]
        for j in range(N_POS):
            st[H_COSTS + j] = PERM5[r, j]
            st[H_POS_BY_COST + PERM5[r, j] - 1] = j  # keep the inverse map current
        return
    # distinct_rearrangements: one order per distinct resulting Dreamscape
    mask = 0
    for p in range(N_POS):
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
    for p in range(N_POS):
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
            for p in range(N_POS):
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
    for p in range(N_POS):
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
    for p in range(N_POS):
        if st[H_DS_CARD + p] >= 0:
            occ[k] = p + 1
            k += 1
    o = wk
    o[0, 0] = 0  # [] first, then singles, then ordered pairs
    n = 1
    most = st[H_PARADIGM_MAX]  # knob paradigm-max (R6.11: 2)
    for a in range(k if most >= 1 else 0):
        o[n, 0] = 1
        o[n, 1] = occ[a]
        n += 1
    for a in range(k if most >= 2 else 0):
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
    for kk in range(N_POS, 0, -1):  # empty positions, most expensive first
        if left == 0:
            break
        p = position_of_cost(st, kk)
        if st[H_DS_CARD + p] < 0:
            if deck_left(st) == 0:
                break  # as far as the deck allows; never ends the game
            st[H_DS_CARD + p] = draw(st)
            st[H_DS_DOWN + p] = 0
            left -= 1


@kernel
def slide(st):
    """R7.1: the cards left move, keeping their order of cost, to the cheapest positions.

    An in-place stable compaction along the positions sorted by cost.
    """
    j = 1  # next cheapest cost to fill
    for k in range(1, N_POS + 1):
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
    for p in range(N_POS):
        if st[H_DS_CARD + p] < 0:
            empty += 1
    if deck_left(st) < empty:
        return False
    for k in range(N_POS, 0, -1):
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
def prepare_next_solo(st, wk, fw, strats):
    """R10.4: discard the face-up cards in a chosen order, slide and turn up the rest, refill."""
    fu = wk[wk.shape[0] + WK_SCRATCH]  # scratch row (no allocation in the kernels)
    k = 0
    for p in range(N_POS):
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
    for p in range(N_POS):
        st[H_DS_DOWN + p] = 0
    if not refill(st):
        end_game(st)  # R10.4: the game ends
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
    best = final_score(st, 0)
    for s in range(1, ns):
        best = max(best, final_score(st, s))
    most_z = -1
    for s in range(ns):
        if final_score(st, s) == best:
            most_z = max(most_z, st[seat_base(s) + S_Z_LEN])
    mask = 0
    nw = 0
    for s in range(ns):
        if final_score(st, s) == best and st[seat_base(s) + S_Z_LEN] == most_z:
            mask |= 1 << s
            nw += 1
    st[H_WINNERS] = mask
    st[H_N_WINNERS] = nw


@kernel
def setup_state(st, order):
    """R2.2/R2.3 from a deck order (card ids, top first), like reference.setup_state."""
    d = off_deck(st)
    for i in range(order.shape[0]):
        st[d + i] = order[i]
    st[H_DECK_PTR] = st[H_REMOVED]  # knob remove: the top cards leave the game unseen
    for s in range(st[H_N_SEATS]):  # R2.2: knob start-z Z cards each (1), in seat order from seat 0
        for _ in range(st[seat_base(s) + S_START_Z]):
            z_push(st, s, draw(st))
    for p in range(N_POS - 1, -1, -1):  # R2.3: positions 5, 4, 3, 2, 1
        st[H_DS_CARD + p] = draw(st)
        st[H_DS_DOWN + p] = 0
