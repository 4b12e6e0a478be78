"""The forced prefix: the seat mode (``Mode.SEARCH``) that replays a turn's decisions so far.

The search player (:mod:`simcore.games.dreamscape.fast.isearch`) cannot decide from inside
``decide``: the rule kernels call ``choose`` deep inside ``perform_card`` and
numba compiles no recursion. It therefore drives the game one turn at a time
and replays the turn from its start with the decisions already fixed this
turn, the *forced prefix*. In a search game every seat of the work array
plays ``MODE_SEARCH``; ``decide`` hands each asked decision (2+ options, R11)
to :func:`prefix_pick`, which

* answers decision ``pos < len`` with entry ``pos`` of the prefix (no draw
  from the stream: the stream state after the prefix is stored with it and
  restored at the first decision beyond it, or by the driver at turn end);
* beyond the prefix, when stopping is on and the deciding seat searches this
  kind, *stops*: records the decision (kind, seat, n), the stream state and
  which cards are still hidden (:func:`mark_hidden`), and answers option 0 to
  every later decision so the turn ends (that run is discarded);
* otherwise returns -1: ``decide`` then decides with the seat's own mode
  (kept here, row ``PX_MODES``) and, while recording is on, appends the
  choice (:func:`prefix_push`), so opponents' choices inside the turn are
  part of the prefix a playout replays.

This module sits below :mod:`simcore.games.dreamscape.fast.decisions` (which imports it), so it
imports only the layout and the scratch.

Block (rows of ``OPT_WIDTH`` int32 from :func:`prefix_base`, before the trace rows)
----------------------------------------------------------------------------------
==================  ============================================================
``PX_HEAD``         next decision index, prefix length, status, stream restored,
                    record (append decisions beyond the prefix), stop (on/off)
``PX_RNG``          stream after the prefix (lo, hi), stream at the stop (lo,
                    hi), divergences (a forced index out of range), prefix full
``PX_MODES``        per seat: the mode it decides with beyond the prefix
``PX_KINDS``        per seat: bit mask of the kinds it searches (0: none); bits
                    ``PX_PHASE_SHIFT + p`` set: it does not search in game phase p
                    (scratch.expert_phase: early, mid, late thirds of the Sleep
                    Deck), a diagnostic's filter (none set in normal search play)
``PX_STOP``         the stop: kind, seat, n options, aux
``PX_ENTRIES``      the prefix, ``OPT_WIDTH`` choices per row (``PX_ENTRY_ROWS`` rows)
then                one row per ``OPT_WIDTH`` cards: 1 = the card is still hidden at
                    the stop (in the Sleep Deck below the top, or a Z card)
==================  ============================================================
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.fast.jit import inline_kernel, kernel
from simcore.games.dreamscape.fast.layout import H_DECK_PTR, H_N_CARDS, H_N_SEATS, OPT_WIDTH, S_Z_LEN, off_deck, off_z, seat_base
from simcore.games.dreamscape.fast.scratch import expert_phase, get_rng, set_rng, trace_start

PX_HEAD = 0
PX_RNG = 1
PX_MODES = 2
PX_KINDS = 3
PX_STOP = 4
PX_ENTRIES = 5
# PX_KINDS bits: kind k is bit k (N_KINDS = 17 kinds); bit PX_PHASE_SHIFT + p (p = 0, 1, 2) skips game
# phase p. Skip bits rather than "search this phase" bits, so a kinds-only mask searches every phase.
PX_PHASE_SHIFT = 24
PX_KIND_BITS = (1 << PX_PHASE_SHIFT) - 1  # every kind, every phase
PX_ENTRY_ROWS = 512  # 3,072 decisions in one turn: far beyond any turn played (a full prefix stops the search)
PX_CAP = PX_ENTRY_ROWS * OPT_WIDTH

# Columns of PX_HEAD.
HP_POS = 0
HP_LEN = 1
HP_STATUS = 2
HP_RESTORED = 3
HP_RECORD = 4
HP_STOP_ON = 5

# Columns of PX_RNG.
RP_AFTER = 0  # lo, hi
RP_STOP = 2  # lo, hi
RP_DIVERGED = 4
RP_FULL = 5

# Status.
PX_RUNNING = 0
PX_STOPPED = 1


@inline_kernel
def px_rows(c):
    """Rows of the block for a deck of ``c`` cards."""
    return PX_ENTRIES + PX_ENTRY_ROWS + (c + OPT_WIDTH - 1) // OPT_WIDTH


@inline_kernel
def prefix_base(st, wk):
    """First row of the block: it ends where the trace rows begin."""
    return trace_start(wk) - px_rows(st[H_N_CARDS])


@inline_kernel
def put_u64(row, col, v):
    row[col] = np.int32(v & np.uint64(0xFFFFFFFF))
    row[col + 1] = np.int32(v >> np.uint64(32))


@inline_kernel
def get_u64(row, col):
    lo = np.uint64(np.int64(row[col]) & 0xFFFFFFFF)
    hi = np.uint64(np.int64(row[col + 1]) & 0xFFFFFFFF)
    return (hi << np.uint64(32)) | lo


@inline_kernel
def entry(wk, base, i):
    return wk[base + PX_ENTRIES + i // OPT_WIDTH, i % OPT_WIDTH]


@inline_kernel
def set_entry(wk, base, i, v):
    wk[base + PX_ENTRIES + i // OPT_WIDTH, i % OPT_WIDTH] = v


@kernel
def prefix_pick(st, wk, kind, seat, n, base):
    """The forced answer at an asked decision (>= 0), or -1: decide with the seat's own mode."""
    head = wk[base + PX_HEAD]
    if head[HP_STATUS] == PX_STOPPED:
        return 0  # the probe only finishes the turn; its result is discarded
    pos = head[HP_POS]
    if pos < head[HP_LEN]:
        head[HP_POS] = pos + 1
        r = entry(wk, base, pos)
        if r >= n:  # cannot happen when the sampled world agrees with what was seen (counted by the tests)
            wk[base + PX_RNG, RP_DIVERGED] += 1
            r = 0
        return r
    if head[HP_RESTORED] == 0:
        restore_stream(wk, base)
    searched = wk[base + PX_KINDS, seat]
    if head[HP_STOP_ON] != 0 and (searched >> kind) & 1 != 0 and not skips_phase(st, searched):
        head[HP_STATUS] = PX_STOPPED
        stop = wk[base + PX_STOP]
        stop[0] = kind
        stop[1] = seat
        stop[2] = n
        put_u64(wk[base + PX_RNG], RP_STOP, get_rng(wk))
        mark_hidden(st, wk, base)
        return 0
    return -1


@inline_kernel
def skips_phase(st, searched):
    """True when the mask ``searched`` skips the game phase of this decision (PX_PHASE_SHIFT bits).

    The phase is the expert tables' (scratch.expert_phase of features.decision_features'
    F_DECK_FRACTION, the same division), so "searches the late phase only" means the
    decisions the expert scores with its late rows.
    """
    if searched >> PX_PHASE_SHIFT == 0:
        return False  # normal search play: no phase filter, nothing computed
    phase = expert_phase((st[H_N_CARDS] - st[H_DECK_PTR]) / st[H_N_CARDS])
    return (searched >> (PX_PHASE_SHIFT + phase)) & 1 != 0


@kernel
def restore_stream(wk, base):
    """Set the game's stream to the state stored after the prefix (once per replay)."""
    set_rng(wk, get_u64(wk[base + PX_RNG], RP_AFTER))
    wk[base + PX_HEAD, HP_RESTORED] = 1


@kernel
def prefix_push(wk, base, r):
    """Append a choice made beyond the prefix (while recording; a full prefix turns stopping off)."""
    head = wk[base + PX_HEAD]
    if head[HP_RECORD] == 0:
        return
    n = head[HP_LEN]
    if n >= PX_CAP:
        wk[base + PX_RNG, RP_FULL] = 1
        head[HP_STOP_ON] = 0
        head[HP_RECORD] = 0
        return
    set_entry(wk, base, n, r)
    head[HP_LEN] = n + 1
    head[HP_POS] = n + 1


@inline_kernel
def prefix_status(wk, base):
    """The replay's status (PX_RUNNING, or PX_STOPPED once it stopped at a search decision)."""
    return wk[base + PX_HEAD, HP_STATUS]


@inline_kernel
def prefix_mode(wk, base, seat):
    """The mode a seat decides with beyond the prefix."""
    return wk[base + PX_MODES, seat]


@kernel
def mark_hidden(st, wk, base):
    """Flag the cards no seat has seen at this point: the Sleep Deck below its top, every Z card.

    Z cards stay face down (rulebook p. 2, R2.2, R4.1, R6.5); a card bought
    face down from the Dreamscape (R5.4) was seen face up before it was
    turned (R6.2), but the search forgets it and treats it as hidden too.
    """
    c = st[H_N_CARDS]
    h0 = base + PX_ENTRIES + PX_ENTRY_ROWS
    for i in range(c):
        wk[h0 + i // OPT_WIDTH, i % OPT_WIDTH] = 0
    d = off_deck(st)
    for j in range(st[H_DECK_PTR], c):
        card = st[d + j]
        wk[h0 + card // OPT_WIDTH, card % OPT_WIDTH] = 1
    for s in range(st[H_N_SEATS]):
        z = off_z(st, s)
        for k in range(st[seat_base(s) + S_Z_LEN]):
            card = st[z + k]
            wk[h0 + card // OPT_WIDTH, card % OPT_WIDTH] = 1


@inline_kernel
def is_hidden(wk, base, card):
    """Whether ``card`` was flagged by :func:`mark_hidden` at the stop."""
    h0 = base + PX_ENTRIES + PX_ENTRY_ROWS
    return wk[h0 + card // OPT_WIDTH, card % OPT_WIDTH] != 0
