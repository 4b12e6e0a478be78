"""Chain points (R8.2) in the fast engine: the runs of a REM stack and how a move changes them.

Split from :mod:`simcore.games.dreamscape.fast.features` (the afterstate features that use them),
function for function as :mod:`simcore.games.dreamscape.scoring` scores a finished stack.
"""
from __future__ import annotations

from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.layout import H_N_CARDS, HEADER, S_CHAIN, S_REM_LEN, chain_at, off_rem, seat_base


# ============================================================================ chain points (R8.2)

@inline_kernel
def stack_index(k, n, moved):
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
    card = st[off + stack_index(0, n, moved)]
    pa = st[HEADER + card]
    pb = st[HEADER + c + card]
    ra = 1
    rb = 1
    for k in range(1, n):
        card = st[off + stack_index(k, n, moved)]
        a = st[HEADER + card]
        b = st[HEADER + c + card]
        na = ra + 1 if a == pa else (rb + 1 if a == pb else 1)
        nb = ra + 1 if b == pa else (rb + 1 if b == pb else 1)
        if pa != a and pa != b:
            total += chain_at(st, ra)
        if pb != a and pb != b:
            total += chain_at(st, rb)
        pa = a
        pb = b
        ra = na
        rb = nb
    return total + chain_at(st, ra) + chain_at(st, rb)


@kernel
def chain_points_by_type(st, seat, out):
    """Chain points of each dream type in a seat's REM stack, added into ``out[0:11]``.

    simcore.games.dreamscape.scoring.chain_points_by_type in one pass (as chain_points_at).
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
            out[pa] += chain_at(st, ra)
        if pb != a and pb != b:
            out[pb] += chain_at(st, rb)
        pa = a
        pb = b
        ra = na
        rb = nb
    out[pa] += chain_at(st, ra)
    out[pb] += chain_at(st, rb)


@inline_kernel
def update_chain(st, seat):
    """Keep the cached chain points of a seat's REM stack current after it changed."""
    st[seat_base(seat) + S_CHAIN] = chain_points_at(st, off_rem(st, seat), st[seat_base(seat) + S_REM_LEN], -1)


@inline_kernel
def run_down(st, mk, k, t):
    """How many cards from index k downwards show type t (mk: the stack's mask block)."""
    r = 0
    while k >= 0 and (st[mk + k] >> t) & 1 != 0:
        r += 1
        k -= 1
    return r


@inline_kernel
def run_up(st, mk, k, n, t):
    """How many cards from index k upwards (below n) show type t."""
    r = 0
    while k < n and (st[mk + k] >> t) & 1 != 0:
        r += 1
        k += 1
    return r


@kernel
def top_runs(st, seat, card):
    """Top runs of ``card``'s two types on a seat's REM stack, before the card is put on it."""
    c = st[H_N_CARDS]
    mk = off_rem(st, seat) + c  # the REM stack's type masks
    n = st[seat_base(seat) + S_REM_LEN]
    return run_down(st, mk, n - 1, st[HEADER + card]), run_down(st, mk, n - 1, st[HEADER + c + card])


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
        run = run_down(st, mk, n - 1, t)
        delta += chain_at(st, run + 1) - chain_at(st, run)
    return delta


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
        d = run_down(st, mk, i - 1, t)
        u = run_up(st, mk, i + 1, n, t)
        delta += chain_at(st, d + u) - chain_at(st, d + u + 1)
    if i >= 1 and i + 1 < n:
        below_card = st[off + i - 1]
        common = st[mk + i - 1] & st[mk + i + 1] & ~st[mk + i]
        if common != 0:  # a type shown by both neighbours but not by the card
            for which in range(2):
                t = st[HEADER + below_card] if which == 0 else st[HEADER + c + below_card]
                if (common >> t) & 1 != 0:
                    d = run_down(st, mk, i - 1, t)
                    u = run_up(st, mk, i + 1, n, t)
                    delta += chain_at(st, d + u) - chain_at(st, d) - chain_at(st, u)
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
        delta += chain_at(st, run + 1) - chain_at(st, run)
        if which == 0:
            run_a = run + 1
        else:
            run_b = run + 1
    return delta, run_a, run_b
