"""The search player (``Mode.SEARCH``): flat Monte Carlo at every decision, hidden cards resampled.

A seat registered with :func:`simcore.games.dreamscape.fast.strategies.register_search`
(``--strategy search:NAME@K``) decides every decision with two or more
options (R11) by playing each option out K times with the strategy NAME for
every seat, and takes the best mean of win credit + score margin / 1000 (as
:func:`simcore.games.dreamscape.fast.search.playout_outcome`).

Why a turn driver: the rule kernels call ``choose`` deep inside
``perform_card`` and numba compiles no recursion, so the search cannot run
from inside ``decide``. :func:`play_game_search` therefore plays the game one
turn at a time. At the start of a turn it keeps the state and the game's
stream; it replays the turn from there with the *forced prefix* of the
decisions fixed so far (every seat's, :mod:`simcore.games.dreamscape.fast.prefix`). The first
time a searching seat is asked beyond the prefix the replay stops
(a *probe*); the driver evaluates each option on copies of the turn-start
state, appends the best to the prefix and replays again, until a replay
finishes the turn without a new search decision: that replay is the real
turn. Opponents decide beyond the prefix with their own modes on the game's
stream, and their choices join the prefix, so every replay of the turn sees
the same decisions; the stream state after the prefix is stored with it.

Hidden information (what no seat can know, so the search must not read it):

* the order of the Sleep Deck below its top (R2.2, R4.1: drawn from the top);
* every Z card: the rulebook's Z cards "always remain facedown" (setup, p. 2;
  R2.2 deals them face down, R4.1 and R6.5 add them face down), so nobody,
  not even their owner, knows which cards they are. Z cards bought face down
  from the Dreamscape (R5.4) were seen face up before Interrupted Sleep
  turned them (R6.2); the search forgets that and treats them as hidden too.

Face-down Dreamscape cards are not hidden (everyone saw them turned over,
R6.2) and neither is anything else (REM stacks, reserves, the discard pile
are face up). Each playout deals a *world*: the cards hidden at the decision
(:func:`simcore.games.dreamscape.fast.prefix.mark_hidden`) that were at turn start in the
Sleep Deck or a Deep Sleep stack are dealt in a random order into those
places; a card seen during the turn (drawn face up by Paradigm Shift R6.11 or
R10.3, a Z card discarded face up R3.3) keeps its place, so the replayed
prefix sees what the seat saw. The dealt order is drawn from the *sorted*
hidden cards, so the world does not depend on the true order at all.
Playout k of every option uses the same world and stream (common random
numbers). With more than ``SCREEN`` options (Shifting Dreams lists up to 120
orders, R6.8) every option first gets one playout and only the ``SCREEN``
best get the other K - 1.

In a game with a search seat, a rollout seat (Mode.ROLLOUT) is searched the
same way at its buy decisions only (its playouts per option and policy).

Two more ways a MODE_SEARCH seat decides (``MD_LOOKAHEAD``), on the same turn loop:

* the strong bot (LOOK_VALUE, :func:`lookahead_decision`): each option is
  followed to the end of the turn only, in a dealt world, the rest of the
  turn played by its policy, and the turn's end is scored by the learned
  value in its weights row (:mod:`simcore.games.dreamscape.fast.value`);
* the search over the strong bot (LOOK_NESTED, ``search:strong@K``): the
  playouts above, except that from the next turn on every seat is a strong
  bot (:func:`strong_rest`, with a turn loop of its own, :data:`strong_turn`,
  since numba compiles no recursion). The rest of the searching seat's own
  turn in a playout is played by the policy (expert), as in every playout.

Drivers built on this turn loop (the research diagnostics label each decision
again with other playout counts, or search only some kinds) plug in through
:class:`SearchHooks` rather than copying the loop: numba functions called at
the turn start, before the game's own evaluation of a stop and after its
record (:func:`search_loop` compiles the loop around them). The engine's own
games use :data:`NO_HOOKS`, which do nothing and compile away.

Imports: layout, rng, scratch, prefix, decisions, kernels, search (the
outcome), value; imported by batch.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.games.dreamscape.fast.decisions import COLLECT_WIDTH, pick_best
from simcore.games.dreamscape.fast.jit import hooked_kernel, kernel
from simcore.games.dreamscape.fast.kernels import play_game, play_turn
from simcore.games.dreamscape.fast.layout import (
    H_DECK_PTR,
    H_GAME_OVER,
    H_N_CARDS,
    H_N_SEATS,
    H_TURNS,
    K_BUY,
    MAX_SEATS,
    N_FEATURES,
    OPT_WIDTH,
    S_Z_LEN,
    off_deck,
    off_z,
    seat_base,
)
from simcore.games.dreamscape.fast.prefix import (
    HP_LEN,
    HP_POS,
    HP_RECORD,
    HP_RESTORED,
    HP_STATUS,
    HP_STOP_ON,
    PX_ENTRIES,
    PX_ENTRY_ROWS,
    PX_HEAD,
    PX_KIND_BITS,
    PX_KINDS,
    PX_PHASE_SHIFT,
    PX_MODES,
    PX_RNG,
    PX_RUNNING,
    PX_STOP,
    PX_STOPPED,
    RP_AFTER,
    RP_DIVERGED,
    RP_FULL,
    RP_STOP,
    get_u64,
    is_hidden,
    prefix_base,
    put_u64,
    px_rows,
    restore_stream,
    set_entry,
)
from simcore.fast_rng import mix64, stream_state
from simcore.games.dreamscape.fast.scratch import (
    FW_COLLECT_AT,
    FW_EXPERT_AT,
    FW_SCORES,
    MD_DECIDES,
    LOOK_NESTED,
    LOOK_VALUE,
    MD_LOOKAHEAD,
    MD_PLAYOUTS,
    MD_POLICY,
    MD_RELEASED,
    MD_SCORE,
    MD_SKIP,
    MODE_ROLLOUT,
    MODE_SEARCH,
    STRONG_PASSED,
    WK_DECIDES,
    WK_MODES,
    WK_TAIL,
    WK_TRACE_COUNTERS,
    get_rng,
    n_opt_rows,
    new_work,
    rng_below,
    set_policy,
    set_rng,
    stack_rows,
)
from simcore.games.dreamscape.fast.search import playout_outcome
from simcore.games.dreamscape.fast.value import N_VIEW, correction_at, encode_view, tree_value, view_correction

SEARCH_SALT = np.uint64(0x8CB92BA72F3D8DD7)
LOOKAHEAD_SALT = np.uint64(0x2545F4914F6CDD1D)  # the strong bot's worlds (a stream apart from the playouts')
NESTED_SALT = np.uint64(0x9E3779B97F4A7C15)  # the strong bots' decisions in a search over them (strong_rest)
STRONG_CAP = 16  # options looked ahead at most (a random subset: Shifting Dreams has up to 120 orders)
CAP_SALT = np.uint64(0x5851F42D4C957F2D)
STRONG_WORLDS = 1  # the strong bot's dealt worlds per option (simcore.games.dreamscape.bots.strong.WORLDS)
STRONG_SKIP = (1 << PX_PHASE_SHIFT) | (1 << (PX_PHASE_SHIFT + 1)) | STRONG_PASSED  # late game only

# Columns of a training record (collect_game_search): one row per option of a search decision.
REC_KIND = 0
REC_SEAT = 1
REC_N = 2  # options of the decision
REC_OPTION = 3  # this option's index
REC_VALUE = 4  # its mean playout outcome (win credit + score margin / 1000)
REC_CHOSEN = 5  # 1 for the option the search took
REC_DECISION = 6  # the decision's number in the game (groups the rows of one decision)
REC_FEATURES = 7  # then N_FEATURES afterstate features
REC_WIDTH = REC_FEATURES + N_FEATURES
SCREEN = 8  # options kept for the full K playouts after one screening playout each
ALL_KINDS_MASK = PX_KIND_BITS  # every kind in every phase (no PX_PHASE_SHIFT bit: no phase skipped)


class SearchHooks(NamedTuple):
    """Where a driver built on the search turn loop adds its own work: three numba functions.

    :func:`search_loop` compiles a turn loop that calls them; every hook gets
    the driver's ``data`` (any numba value, e.g. a tuple of its arrays)
    first. The engine's own games use :data:`NO_HOOKS`. Why a factory and not
    hooks passed as arguments: numba passes a function argument as a value
    (an address known only in this process), which keeps every caller out of
    the on-disk cache; a function the loop names directly is just a call.

    Attributes
    ----------
    turn_start : ``hook(data, st, rwk, base, modes)``
        Before a turn's first replay: ``st`` the turn-start state, ``rwk``
        the game's scratch with its prefix block at ``base`` (e.g. set
        ``rwk[base + PX_KINDS, s]``, the kinds seat s searches this turn).
    before_search : ``hook(data, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng, pst, pwk, pfw, slots, cards, deal, totals)``
        At a search stop, before the game's own :func:`search_decision` (which
        then sets the stream as in a game, so extra evaluations here change
        nothing in the game).
    after_record : ``hook(data, row, rec_n, n)``
        After :func:`keep_record` was offered the decision (collecting games
        only): its rows start at ``row`` when ``rec_n[0] == row + n``.
    """

    turn_start: object
    before_search: object
    after_record: object


@kernel
def no_turn_start(data, st, rwk, base, modes):
    """SearchHooks.turn_start of the engine's own games: nothing."""


@kernel
def no_before_search(data, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng,
                     pst, pwk, pfw, slots, cards, deal, totals):
    """SearchHooks.before_search of the engine's own games: nothing."""


@kernel
def no_after_record(data, row, rec_n, n):
    """SearchHooks.after_record of the engine's own games: nothing."""


NO_HOOKS = SearchHooks(no_turn_start, no_before_search, no_after_record)


@njit(cache=True)
def any_search(modes, n_seats):
    """True when a seat plays Mode.SEARCH (``modes`` as new_work takes it)."""
    for s in range(n_seats):
        if modes[MD_SCORE, s] == MODE_SEARCH:
            return True
    return False


@njit(cache=True)
def search_work(wk, c):
    """A copy of the game's ``wk`` with the prefix block inserted before its trace rows."""
    rows = wk.shape[0]
    counters = wk[rows + WK_TRACE_COUNTERS]
    bottom = WK_TAIL + counters[3] + counters[4]  # tail + trace (TC_CAP_DECISIONS, TC_CAP_ROWS)
    out = np.zeros((rows + px_rows(c), OPT_WIDTH), dtype=np.int32)
    out[out.shape[0] - bottom :] = wk[rows - bottom :]
    return out, bottom


@njit(cache=True)
def search_buffers(st, wk, fw, modes, weights):
    """The scratch of a search game: its ``wk`` with the prefix block (seats set up), and the playouts' buffers."""
    c = st[H_N_CARDS]
    rwk, bottom = search_work(wk, c)
    rows = rwk.shape[0]
    base = prefix_base(st, rwk)
    for s in range(MAX_SEATS):
        m = modes[MD_SCORE, s]
        kinds = 0
        if m == MODE_SEARCH:
            # MD_SKIP: the game phases (PX_PHASE_SHIFT bits) and the decision kinds (kind bits) it does not
            # search; 0 searches everything. A kind it skips is played by its policy, as a skipped phase is.
            skip = modes[MD_SKIP, s]
            kinds = (ALL_KINDS_MASK & ~skip) | (skip & ~ALL_KINDS_MASK)
            rwk[base + PX_MODES, s] = modes[MD_POLICY, s]  # beyond a full prefix: the policy
            set_policy(fw, s, weights[s], modes[MD_POLICY, s])
        else:
            if m == MODE_ROLLOUT:
                kinds = 1 << K_BUY
            rwk[base + PX_MODES, s] = m
        rwk[base + PX_KINDS, s] = kinds
        rwk[rows + WK_MODES, s] = MODE_SEARCH
    # playout scratch: wk rows as new_work's without trace, plus the block
    prows = n_opt_rows(c) + stack_rows(c) + px_rows(c) + WK_TAIL
    pwk = np.zeros((prows, OPT_WIDTH), dtype=np.int32)
    pfw = np.zeros(fw.shape[0], dtype=np.float64)
    pfw[FW_EXPERT_AT] = fw[FW_EXPERT_AT]  # the same blocks; a playout never collects (FW_COLLECT_AT 0)
    bufs = (
        st.copy(), st.copy(), np.zeros(c, dtype=np.int64), np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.int32),
        np.zeros(2 * n_opt_rows(c), dtype=np.float64), np.zeros(OPT_WIDTH, dtype=np.int32),
        np.zeros(N_VIEW, dtype=np.float64),
    )
    return rwk, bottom, pwk, pfw, bufs


@njit(cache=True)
def play_game_search(st, wk, fw, strats, modes, weights):
    """kernels.play_game for a game with a search seat (``modes`` / ``weights`` as new_work takes them).

    The game's trace (if any) and stream end in ``wk`` as if the game had been played there.
    Returns the number of forced choices that were out of range (0: every
    dealt world agreed with what the seats had seen; the tests check it).
    """
    rec = np.zeros((0, REC_WIDTH), dtype=np.float64)
    return search_game_loop(st, wk, fw, strats, modes, weights, rec, np.zeros(2, dtype=np.int64), 0)


@njit(cache=True)
def collect_game_search(st, wk, fw, strats, modes, weights, rec, rec_n):
    """play_game_search, keeping every search decision's options: features and playout values (training).

    ``rec`` gets one row per option (``REC_*`` columns) from row ``rec_n[0]``
    on; ``rec_n[0]`` ends after the last row written and ``rec_n[1]`` counts
    the decisions that did not fit (or had too many options, or were Shifting
    orders). The game is the one play_game_search plays.
    """
    cfw = np.zeros(fw.shape[0] + COLLECT_WIDTH, dtype=np.float64)
    cfw[: fw.shape[0]] = fw
    cfw[FW_COLLECT_AT] = fw.shape[0]
    out = search_game_loop(st, wk, cfw, strats, modes, weights, rec, rec_n, 0)
    fw[:] = cfw[: fw.shape[0]]
    return out


def turn_loop(decide):
    """The search player's turn: probes until a replay finishes the turn without a new search decision.

    Returns a numba function ``turn(st, rwk, fw, strats, modes, weights, st0,
    pst, pwk, pfw, slots, cards, deal, totals, tc, view, ctx)`` that takes each
    stop's option from ``decide(ctx, fw, st0, rwk, base, strats, modes,
    weights, kind, seat, n, stop_rng, pst, pwk, pfw, slots, cards, deal,
    totals, view)``. One loop for two callers: a game's own turns
    (:func:`search_loop`, deciding by search or lookahead with its hooks) and
    the turns a search over the strong bot plays in its playouts
    (:data:`strong_turn`, lookahead only: numba compiles no recursion, so the
    playouts' turns are a function of their own).
    """

    @hooked_kernel
    def turn(st, rwk, fw, strats, modes, weights, st0, pst, pwk, pfw, slots, cards, deal, totals, tc, view, ctx):
        rows = rwk.shape[0]
        base = prefix_base(st, rwk)
        head = rwk[base + PX_HEAD]
        for j in range(st.shape[0]):
            st0[j] = st[j]
        for j in range(OPT_WIDTH):
            tc[j] = rwk[rows + WK_TRACE_COUNTERS, j]
        head[HP_LEN] = 0
        head[HP_RECORD] = 1
        head[HP_STOP_ON] = 1
        rwk[base + PX_RNG, RP_FULL] = 0
        put_u64(rwk[base + PX_RNG], RP_AFTER, get_rng(rwk))
        while True:
            for j in range(st.shape[0]):
                st[j] = st0[j]
            for j in range(OPT_WIDTH):
                rwk[rows + WK_TRACE_COUNTERS, j] = tc[j]
            head[HP_POS] = 0
            head[HP_STATUS] = PX_RUNNING
            head[HP_RESTORED] = 0
            play_turn(st, rwk, fw, strats)
            if head[HP_STATUS] != PX_STOPPED:
                if head[HP_RESTORED] == 0:  # no decision beyond the prefix: the stream is the one stored after it
                    restore_stream(rwk, base)
                return
            stop = rwk[base + PX_STOP]
            best = decide(ctx, fw, st0, rwk, base, strats, modes, weights, stop[0], stop[1], stop[2],
                          get_u64(rwk[base + PX_RNG], RP_STOP), pst, pwk, pfw, slots, cards, deal, totals, view)
            length = head[HP_LEN]
            set_entry(rwk, base, length, best)
            head[HP_LEN] = length + 1
            put_u64(rwk[base + PX_RNG], RP_AFTER, get_rng(rwk))  # the tie break drew from the stream
            if length + 1 >= PX_ENTRY_ROWS * OPT_WIDTH:
                head[HP_STOP_ON] = 0  # a full prefix: the rest of the turn by the policy
                head[HP_RECORD] = 0

    return turn


@kernel
def lookahead_only(ctx, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng, pst, pwk, pfw, slots,
                   cards, deal, totals, view):
    """turn_loop's ``decide`` in a search over the strong bot's playouts: every seat is a strong bot there."""
    return lookahead_decision(st0, rwk, base, strats, modes, weights, seat, n, stop_rng, pst, pwk, pfw, slots, cards,
                              deal, totals, view)


strong_turn = turn_loop(lookahead_only)


@kernel
def strong_rest(st, strats, inner, rng):
    """The rest of the game from a turn start, the strong bot in every seat (a playout of ``search:strong``).

    ``inner`` is the scratch :func:`nested_buffers` made; ``rng`` the playout's
    stream for the decisions the strong bot does not look ahead at.
    """
    irwk, ifw, imodes, iweights, ipwk, ipfw, ist0, ipst, islots, icards, ideal, itotals, itc, iview = inner
    set_rng(irwk, rng)
    while st[H_GAME_OVER] == 0:
        strong_turn(st, irwk, ifw, strats, imodes, iweights, ist0, ipst, ipwk, ipfw, islots, icards, ideal, itotals,
                    itc, iview, 0)


def search_loop(hooks):
    """The turn loop of a search game calling ``hooks`` (a :class:`SearchHooks`): a new numba function.

    The loop is ``loop(st, wk, fw, strats, modes, weights, rec, rec_n, data)``
    (``rec`` / ``rec_n``: see collect_game_search; ``data`` handed to every
    hook) and returns the divergences (see play_game_search). Call it from a
    jitted entry point: numba caches that entry point with the loop's machine
    code inside, not the loop itself (it is made at import time).
    """
    turn_start, before_search, after_record = hooks

    @hooked_kernel
    def decide(ctx, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng, pst, pwk, pfw, slots, cards,
               deal, totals, view):
        """A game's own stop: the hooks, the strong bot's lookahead or the search, and the training record."""
        rec, rec_n, data, inner = ctx
        before_search(data, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng,
                      pst, pwk, pfw, slots, cards, deal, totals)
        if modes[MD_LOOKAHEAD, seat] == LOOK_VALUE:
            best = lookahead_decision(st0, rwk, base, strats, modes, weights, seat, n, stop_rng, pst, pwk, pfw, slots,
                                      cards, deal, totals, view)
        else:
            best = search_decision(st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng, pst, pwk, pfw,
                                   slots, cards, deal, totals, inner)
        if fw[FW_COLLECT_AT] > 0:
            row = rec_n[0]
            keep_record(fw, kind, seat, n, best, totals, rec, rec_n)
            after_record(data, row, rec_n, n)
        return best

    search_turn = turn_loop(decide)

    @njit
    def search_game_loop(st, wk, fw, strats, modes, weights, rec, rec_n, data):
        """The turn loop of play_game_search."""
        rwk, bottom, pwk, pfw, bufs = search_buffers(st, wk, fw, modes, weights)
        st0, pst, slots, cards, deal, totals, tc, view = bufs
        ctx = (rec, rec_n, data, nested_buffers(st, modes, weights))
        base = prefix_base(st, rwk)
        while st[H_GAME_OVER] == 0:
            turn_start(data, st, rwk, base, modes)
            search_turn(st, rwk, fw, strats, modes, weights, st0, pst, pwk, pfw, slots, cards, deal, totals, tc, view,
                        ctx)
        wk[wk.shape[0] - bottom :] = rwk[rwk.shape[0] - bottom :]
        return divergences(pwk, st) + divergences(rwk, st)

    return search_game_loop


@njit(cache=True)
def nested_buffers(st, modes, weights):
    """The scratch of a search over the strong bot (MD_LOOKAHEAD == LOOK_NESTED): the strong bot in every seat.

    A game without such a seat gets empty arrays of the same types (one
    compiled loop serves both). The strong seats of the playouts play the
    first nested seat's value (its weights row) with the strong bot's own
    worlds and phases (:data:`STRONG_WORLDS`, :data:`STRONG_SKIP`).
    """
    nested = -1
    for s in range(MAX_SEATS):
        if modes[MD_SCORE, s] == MODE_SEARCH and modes[MD_LOOKAHEAD, s] == LOOK_NESTED:
            nested = s
            break
    imodes = np.zeros((modes.shape[0], MAX_SEATS), dtype=np.int64)
    if nested < 0:
        z32 = np.zeros(0, dtype=np.int32)
        return (np.zeros((0, OPT_WIDTH), dtype=np.int32), np.zeros(0), imodes, np.zeros((0, 0)),
                np.zeros((0, OPT_WIDTH), dtype=np.int32), np.zeros(0), z32, z32.copy(), np.zeros(0, dtype=np.int64),
                z32.copy(), z32.copy(), np.zeros(0), z32.copy(), np.zeros(0))
    iweights = np.zeros((MAX_SEATS, weights.shape[1]), dtype=np.float64)
    for s in range(MAX_SEATS):
        imodes[MD_SCORE, s] = MODE_SEARCH
        imodes[MD_POLICY, s] = modes[MD_POLICY, nested]
        imodes[MD_PLAYOUTS, s] = STRONG_WORLDS
        imodes[MD_DECIDES, s] = modes[MD_DECIDES, nested]
        imodes[MD_SKIP, s] = STRONG_SKIP & ~modes[MD_RELEASED, nested]  # scratch.STRONG_RELEASED: this configuration's
        imodes[MD_RELEASED, s] = modes[MD_RELEASED, nested]
        imodes[MD_LOOKAHEAD, s] = LOOK_VALUE
        for j in range(weights.shape[1]):
            iweights[s, j] = weights[nested, j]
    iwk, ifw = new_work(st[H_N_CARDS], np.uint64(0), 0, 0, imodes, iweights)
    irwk, ibottom, ipwk, ipfw, ibufs = search_buffers(st, iwk, ifw, imodes, iweights)
    ist0, ipst, islots, icards, ideal, itotals, itc, iview = ibufs
    return irwk, ifw, imodes, iweights, ipwk, ipfw, ist0, ipst, islots, icards, ideal, itotals, itc, iview


search_game_loop = search_loop(NO_HOOKS)  # the engine's own: play_game_search, collect_game_search


@njit(cache=True)
def first_search(st, wk, fw, s0, s1, s2, s3, modes, weights, skip):
    """A search decision of the turn starting at ``st`` (for the tests; ``st`` / ``wk`` are not changed).

    The first ``skip`` search decisions of the turn are searched and taken as
    in a game; returns the next one's (kind, seat, n options, the options'
    mean playout values, the chosen index); kind -1 when the turn asks no
    further searching decision.
    """
    strats = (s0, s1, s2, s3)
    st = st.copy()
    fw = fw.copy()
    rwk, bottom, pwk, pfw, bufs = search_buffers(st, wk.copy(), fw, modes, weights)
    st0, pst, slots, cards, deal, totals, tc, view = bufs
    inner = nested_buffers(st, modes, weights)
    base = prefix_base(st, rwk)
    head = rwk[base + PX_HEAD]
    head[HP_LEN] = 0
    head[HP_RECORD] = 1
    head[HP_STOP_ON] = 1
    put_u64(rwk[base + PX_RNG], RP_AFTER, get_rng(rwk))
    for done in range(skip + 1):
        for j in range(st.shape[0]):
            st[j] = st0[j]
        head[HP_POS] = 0
        head[HP_STATUS] = PX_RUNNING
        head[HP_RESTORED] = 0
        play_turn(st, rwk, fw, strats)
        if head[HP_STATUS] != PX_STOPPED:
            return -1, -1, 0, totals[:0].copy(), -1
        stop = rwk[base + PX_STOP]
        if modes[MD_LOOKAHEAD, stop[1]] == LOOK_VALUE:
            best = lookahead_decision(
                st0, rwk, base, strats, modes, weights, stop[1], stop[2], get_u64(rwk[base + PX_RNG], RP_STOP),
                pst, pwk, pfw, slots, cards, deal, totals, view,
            )
        else:
            best = search_decision(
                st0, rwk, base, strats, modes, weights, stop[0], stop[1], stop[2], get_u64(rwk[base + PX_RNG], RP_STOP),
                pst, pwk, pfw, slots, cards, deal, totals, inner,
            )
        if done == skip:
            return stop[0], stop[1], stop[2], totals[: stop[2]].copy(), best
        length = head[HP_LEN]
        set_entry(rwk, base, length, best)
        head[HP_LEN] = length + 1
        put_u64(rwk[base + PX_RNG], RP_AFTER, get_rng(rwk))
    return -1, -1, 0, totals[:0].copy(), -1


@kernel
def keep_record(fw, kind, seat, n, best, totals, rec, rec_n):
    """Append a search decision's options (features kept at the stop, playout means) to ``rec``."""
    at = np.int64(fw[FW_COLLECT_AT])
    row = rec_n[0]
    if fw[at] != n or row + n > rec.shape[0]:  # not kept at the stop (see collect_features), or no room
        rec_n[1] += 1
        return
    decision = row if row == 0 else np.int64(rec[row - 1, REC_DECISION]) + 1
    for i in range(n):
        r = rec[row + i]
        r[REC_KIND] = kind
        r[REC_SEAT] = seat
        r[REC_N] = n
        r[REC_OPTION] = i
        r[REC_VALUE] = totals[i]
        r[REC_CHOSEN] = 1.0 if i == best else 0.0
        r[REC_DECISION] = decision
        for j in range(N_FEATURES):
            r[REC_FEATURES + j] = fw[at + 2 + i * N_FEATURES + j]
    rec_n[0] = row + n
    fw[at] = 0.0


@kernel
def hidden_places(st0, rwk, base, slots, cards):
    """The places (state indices) the world deals into and the hidden cards in ascending id order.

    Places: the turn-start Sleep Deck below its top and every Deep Sleep stack,
    where the card there is still hidden at the decision (prefix.mark_hidden).
    Cards: those cards, sorted by id, so the dealt world does not depend on
    where they really are. Returns their number.
    """
    c = st0[H_N_CARDS]
    m = 0
    d = off_deck(st0)
    for j in range(st0[H_DECK_PTR], c):
        if is_hidden(rwk, base, st0[d + j]):
            slots[m] = d + j
            m += 1
    for s in range(st0[H_N_SEATS]):
        z = off_z(st0, s)
        for k in range(st0[seat_base(s) + S_Z_LEN]):
            if is_hidden(rwk, base, st0[z + k]):
                slots[m] = z + k
                m += 1
    # the cards at those places, by id (counting sort over the ids 0..c-1)
    k = 0
    for card in range(c):
        for j in range(m):
            if st0[slots[j]] == card:
                cards[k] = card
                k += 1
                break
    return m


@kernel
def search_decision(st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng, pst, pwk, pfw, slots, cards, deal, totals,
                    inner):
    """The option a searching seat takes: best mean playout outcome; ties on the game's stream.

    ``rwk``'s stream is set to the stream at the stop and left after the tie break.
    A search over the strong bot (MD_LOOKAHEAD == LOOK_NESTED) plays its
    playouts' later turns with the strong bot in every seat (``inner``, see
    :func:`playout`).
    """
    nested = modes[MD_LOOKAHEAD, seat] == LOOK_NESTED
    k_play = modes[MD_PLAYOUTS, seat]
    policy = modes[MD_POLICY, seat]
    pbase, length = playout_scratch(st0, rwk, base, modes, weights, seat, pwk, pfw)
    f = strats[seat]
    pstrats = (f, f, f, f)
    m = hidden_places(st0, rwk, base, slots, cards)
    sample = mix64(stop_rng ^ SEARCH_SALT ^ (np.uint64(st0[H_TURNS]) << np.uint64(8)) ^ np.uint64(length))
    scores = totals[:n]
    if n > SCREEN and k_play > 1:
        # one screening playout each (kept in the second half of ``totals``),
        # then K - 1 more for the SCREEN best (ties: the lower index)
        screen = totals[totals.shape[0] // 2 : totals.shape[0] // 2 + n]
        for i in range(n):
            screen[i] = playout(st0, pst, pwk, pfw, pstrats, pbase, length, i, seat, policy, sample, 0, slots, cards, deal, m,
                                nested, inner)
        for i in range(n):
            better = 0
            for j in range(n):
                if screen[j] > screen[i] or (screen[j] == screen[i] and j < i):
                    better += 1
            if better >= SCREEN:
                scores[i] = -1e9  # screened out
                continue
            total = screen[i]
            for k in range(1, k_play):
                total += playout(st0, pst, pwk, pfw, pstrats, pbase, length, i, seat, policy, sample, k,
                                 slots, cards, deal, m, nested, inner)
            scores[i] = total / k_play
    else:
        for i in range(n):
            total = 0.0
            for k in range(k_play):
                total += playout(st0, pst, pwk, pfw, pstrats, pbase, length, i, seat, policy, sample, k,
                                 slots, cards, deal, m, nested, inner)
            scores[i] = total / k_play
    set_rng(rwk, stop_rng)
    return pick_best(rwk, scores, n)


@kernel
def playout_scratch(st0, rwk, base, modes, weights, seat, pwk, pfw):
    """Set up the playouts' scratch of ``seat``'s decision; returns (the prefix block in ``pwk``, the prefix length).

    Every seat plays the deciding seat's policy after the prefix, which is
    copied from the game's block; a playout then forces one more entry (the option).
    """
    policy = modes[MD_POLICY, seat]
    prows = pwk.shape[0]
    pbase = prefix_base(st0, pwk)
    length = rwk[base + PX_HEAD, HP_LEN]
    for s in range(MAX_SEATS):
        set_policy(pfw, s, weights[seat], policy)
        pwk[pbase + PX_MODES, s] = policy
        pwk[pbase + PX_KINDS, s] = 0
        pwk[prows + WK_DECIDES, s] = modes[MD_DECIDES, seat]
    phead = pwk[pbase + PX_HEAD]
    phead[HP_STOP_ON] = 0
    phead[HP_RECORD] = 0
    phead[HP_LEN] = length + 1
    for r in range(PX_ENTRIES, PX_ENTRIES + length // OPT_WIDTH + 1):
        for j in range(OPT_WIDTH):
            pwk[pbase + r, j] = rwk[base + r, j]
    return pbase, length


@kernel
def deal_world(st0, pst, pwk, pbase, length, i, sample, k, slots, cards, deal, m):
    """World k of option i in ``pst``: the hidden cards dealt from their sorted order, the prefix and i forced next."""
    for j in range(st0.shape[0]):
        pst[j] = st0[j]
    set_rng(pwk, stream_state(sample, np.uint64(k)))
    for j in range(m):
        deal[j] = cards[j]
    for j in range(m - 1, 0, -1):  # Fisher-Yates over the sorted hidden cards
        r = rng_below(pwk, j + 1)
        t = deal[j]
        deal[j] = deal[r]
        deal[r] = t
    for j in range(m):
        pst[slots[j]] = deal[j]
    prows = pwk.shape[0]
    phead = pwk[pbase + PX_HEAD]
    set_entry(pwk, pbase, length, i)
    phead[HP_POS] = 0
    phead[HP_STATUS] = PX_RUNNING
    phead[HP_RESTORED] = 1  # the playout's stream goes on from the deal
    for s in range(MAX_SEATS):
        pwk[prows + WK_MODES, s] = MODE_SEARCH


@kernel
def lookahead_decision(st0, rwk, base, strats, modes, weights, seat, n, stop_rng, pst, pwk, pfw, slots, cards, deal,
                       totals, view):
    """The option a strong seat takes (MD_LOOKAHEAD): the best mean value at the end of the turn; ties on the game's stream.

    For each option, in each of W worlds (``MD_PLAYOUTS``; dealt as a
    playout deals them, from the sorted hidden cards), the turn is replayed
    with the prefix and the option forced and finished by the seat's policy
    (its other decisions of the turn too: the lookahead is one turn deep, not
    a search of the turn); the position it ends in is scored by the value in
    the seat's weights row from the seat's view (:func:`encode_view`,
    :func:`tree_value`), plus sharp's linear correction of the decision's
    kind where the row carries one (:func:`correction_at`), or by the outcome
    when that turn ended the game (win credit + margin / 1000, as a playout). No playout goes past the turn,
    which is what makes it cheap. Worlds are shared by the options (common
    random numbers). ``rwk``'s stream is set to the stream at the stop and left
    after the tie break, as :func:`search_decision` leaves it.
    """
    worlds = modes[MD_PLAYOUTS, seat]
    policy = modes[MD_POLICY, seat]
    w = weights[seat]
    # sharp's correction of this decision's kind (the stop's), -1 for strong: its rows carry none
    corrected = correction_at(w, np.int64(rwk[base + PX_STOP, 0]))
    prows = pwk.shape[0]
    pbase, length = playout_scratch(st0, rwk, base, modes, weights, seat, pwk, pfw)  # the rest of the turn, as a playout's
    f = strats[seat]
    pstrats = (f, f, f, f)
    m = hidden_places(st0, rwk, base, slots, cards)
    sample = mix64(stop_rng ^ LOOKAHEAD_SALT ^ np.uint64(length))
    needed = STRONG_CAP  # selection sampling: exactly STRONG_CAP of the n options, each as likely
    for i in range(n):
        if n > STRONG_CAP:
            u = np.float64(mix64(sample ^ CAP_SALT ^ np.uint64(i)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
            if u * (n - i) >= needed:
                totals[i] = -1e9
                continue
            needed -= 1
        total = 0.0
        for k in range(worlds):
            deal_world(st0, pst, pwk, pbase, length, i, sample, k, slots, cards, deal, m)
            play_turn(pst, pwk, pfw, pstrats)
            for s in range(MAX_SEATS):
                pwk[prows + WK_MODES, s] = policy
            if pst[H_GAME_OVER] != 0:
                total += playout_outcome(pst, seat)
            else:
                encode_view(pst, seat, view)
                if corrected >= 0:
                    total += tree_value(view, w) + view_correction(view, w, corrected)
                else:
                    total += tree_value(view, w)
        totals[i] = total / worlds
    set_rng(rwk, stop_rng)
    return pick_best(rwk, totals, n)


@kernel
def playout(st0, pst, pwk, pfw, pstrats, pbase, length, i, seat, policy, sample, k, slots, cards, deal, m, nested,
            inner):
    """Playout k of option i: a dealt world, the prefix and option i forced, then the policy to the end.

    ``nested``: the policy finishes this turn only, and the strong bot plays
    every seat from the next turn on (:func:`strong_rest`; the search over
    the strong bot, ``search:strong@K``), on a stream of the playout's own.
    """
    deal_world(st0, pst, pwk, pbase, length, i, sample, k, slots, cards, deal, m)
    prows = pwk.shape[0]
    play_turn(pst, pwk, pfw, pstrats)
    for s in range(MAX_SEATS):  # the rest of the game without the prefix hook
        pwk[prows + WK_MODES, s] = policy
    if nested:
        if pst[H_GAME_OVER] == 0:
            strong_rest(pst, pstrats, inner, mix64(stream_state(sample, np.uint64(k)) ^ NESTED_SALT))
    else:
        play_game(pst, pwk, pfw, pstrats)
    return playout_outcome(pst, seat)


@kernel
def divergences(pwk, st):
    """Forced choices out of range met in playouts (0 unless a world contradicts what was seen)."""
    return pwk[prefix_base(st, pwk) + PX_RNG, RP_DIVERGED]
