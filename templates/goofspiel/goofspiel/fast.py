"""Goofspiel, the numba engine: :mod:`.reference` function for function, same names, same order.

A game is one int64 array ``st`` (pgx's fixed-size state; offsets below) and the suit's values one int64
array ``vals`` (lowest first); a hand is a flag per card of the suit, so a seat's options are its held
values lowest first, exactly the reference's sorted list. The decision stream is a 1-element uint64 array
(simcore.fast_rng, bit-identical to simcore.rng). Where the reference hands a bid to an agent object,
:func:`ask_bid` reads the seat's bot from ``st``; the reference's ``Pending`` exception (a scenario's
script ran out) is the ``STOP`` flag here. Compiled on first use only (this module is imported lazily).
"""
from __future__ import annotations

from pathlib import Path

from simcore.numba_cache import guard_kernels

# before any kernel is compiled or loaded: numba checks a cached kernel only against its own file, and these
# freeze the constants of the files they import (this game's rules and bots, the random streams)
guard_kernels(Path(__file__).resolve().parent)

import numpy as np  # noqa: E402 - after the cache guard
from numba import njit  # noqa: E402

from simcore.fast_rng import below, decision_state, next_u64, seed_key, shuffle, stream_state

from .bots import BOT_MATCH, BOT_RANDOM, Bot
from .common import MAX_CARDS, MAX_PLAYERS, Setup, empty_results

MODE_BOTS, MODE_SCRIPT = 0, 1

# ---- layout of st
PLAYERS, NCARDS, ROUNDS, CARRY, PILE, DISCARDED, OVER, MODE, STOP, PENDING, SCRIPT_POS = range(11)
PRIZES = 11                        # the prize deck: PRIZES + ROUNDS .. PRIZES + NCARDS - 1, top first
SCORE = PRIZES + MAX_CARDS
WINNERS = SCORE + MAX_PLAYERS
BOT = WINNERS + MAX_PLAYERS
BUDGET = BOT + MAX_PLAYERS
HELD = BUDGET + MAX_PLAYERS        # HELD + seat * MAX_CARDS + i: seat holds the suit's i-th card
BIDS = HELD + MAX_PLAYERS * MAX_CARDS
OPT_N = BIDS + MAX_PLAYERS
OPTS = OPT_N + 1
SIZE = OPTS + MAX_CARDS
# ---- script rows (scenarios): [seat, bid, seat asked (-1: not reached), accepted]
SC_SEAT, SC_BID, SC_ASKED, SC_OK = range(4)
SC_WIDTH = 4
# ---- trace rows: [round, seat, cards held, bid]
TR_WIDTH = 4


@njit(cache=True)
def new_game(st, vals, players, carry, seed_mixed, game_index):
    """reference.new_game on st (G2)."""
    st[:] = 0
    n = vals.shape[0]
    st[PLAYERS] = players
    st[NCARDS] = n
    st[CARRY] = carry
    for i in range(n):
        st[PRIZES + i] = vals[i]
    rng = np.empty(1, np.uint64)
    rng[0] = stream_state(seed_mixed, np.uint64(game_index))
    shuffle(rng, st[PRIZES:PRIZES + n])                          # G2.1
    for s in range(players):                                      # G1.2
        for i in range(n):
            st[HELD + s * MAX_CARDS + i] = 1


@njit(cache=True)
def play_game(st, vals, rng, script, trace):
    """Rounds until the prize deck is used up (G5.1) or a script runs out (STOP)."""
    while not st[OVER]:
        play_round(st, vals, rng, script, trace)
        if st[STOP]:
            return


@njit(cache=True)
def play_round(st, vals, rng, script, trace):
    """G3; trace rows (round, seat, cards held, bid), when ``trace`` has room for them."""
    reveal_prize(st)
    for seat in range(st[PLAYERS]):                               # G3.2: secret bids, seat order
        st[BIDS + seat] = ask_bid(st, vals, rng, script, seat)
        if st[STOP]:
            return
    p = st[PLAYERS]
    row = (st[ROUNDS] - 1) * p
    if trace.shape[0] >= row + p:
        for seat in range(p):
            trace[row + seat, 0] = st[ROUNDS]
            trace[row + seat, 1] = seat
            trace[row + seat, 2] = held_count(st, seat)
            trace[row + seat, 3] = st[BIDS + seat]
    resolve_round(st, vals)


@njit(cache=True)
def reveal_prize(st):
    """G3.1."""
    st[ROUNDS] += 1
    prize = st[PRIZES + st[ROUNDS] - 1]
    st[PILE] += prize
    return prize


@njit(cache=True)
def held_count(st, seat):
    k = 0
    for i in range(st[NCARDS]):
        k += st[HELD + seat * MAX_CARDS + i]
    return k


@njit(cache=True)
def list_options(st, vals, seat):
    """The seat's held values, lowest first, into st[OPTS..] (the reference's hand list)."""
    k = 0
    for i in range(st[NCARDS]):
        if st[HELD + seat * MAX_CARDS + i]:
            st[OPTS + k] = vals[i]
            k += 1
    st[OPT_N] = k


@njit(cache=True)
def ask_bid(st, vals, rng, script, seat):
    """G3.2, G3.4: a single held card is played without asking."""
    list_options(st, vals, seat)
    if st[OPT_N] == 1:
        return st[OPTS]
    if st[MODE] == MODE_SCRIPT:
        return script_bid(st, script, seat)
    kind = st[BOT + seat]
    if kind == BOT_RANDOM:
        return random_bid(st, rng)
    if kind == BOT_MATCH:
        return match_bid(st, st[PILE], rng)
    return search_bid(st, vals, seat, st[BUDGET + seat], rng)


@njit(cache=True)
def script_bid(st, script, seat):
    """A scenario's next answers for ``seat``: illegal ones (a card not held) are refused and marked."""
    while st[SCRIPT_POS] < script.shape[0]:
        r = st[SCRIPT_POS]
        st[SCRIPT_POS] += 1
        script[r, SC_ASKED] = seat
        bid = script[r, SC_BID]
        if script[r, SC_SEAT] != seat:  # another seat's answer: stop here, the driver reports it
            break
        for k in range(st[OPT_N]):
            if st[OPTS + k] == bid:
                script[r, SC_OK] = 1
                return bid
    st[STOP] = 1
    st[PENDING] = seat
    return -1


@njit(cache=True)
def remove_card(st, vals, seat, bid):
    for i in range(st[NCARDS]):
        if vals[i] == bid:
            st[HELD + seat * MAX_CARDS + i] = 0


@njit(cache=True)
def resolve_round(st, vals):
    """G3.3, G4, G5."""
    for seat in range(st[PLAYERS]):
        remove_card(st, vals, seat, st[BIDS + seat])
    take_prize(st)
    if st[ROUNDS] == st[NCARDS]:
        end_game(st)


@njit(cache=True)
def single_highest(st):
    """G4.1 on st[BIDS..]."""
    p = st[PLAYERS]
    best = -1
    for seat in range(p):
        bid = st[BIDS + seat]
        count = 0
        for other in range(p):
            if st[BIDS + other] == bid:
                count += 1
        if count == 1 and (best < 0 or bid > st[BIDS + best]):
            best = seat
    return best


@njit(cache=True)
def take_prize(st):
    """G4.1, G4.2, G4.3."""
    taker = single_highest(st)
    if taker >= 0:
        st[SCORE + taker] += st[PILE]
        st[PILE] = 0
    elif not st[CARRY]:
        st[DISCARDED] += st[PILE]
        st[PILE] = 0


@njit(cache=True)
def end_game(st):
    """G5 (G4.3: a pile still carried is discarded)."""
    st[DISCARDED] += st[PILE]
    st[PILE] = 0
    st[OVER] = 1
    best = st[SCORE]
    for seat in range(1, st[PLAYERS]):
        best = max(best, st[SCORE + seat])
    for seat in range(st[PLAYERS]):
        st[WINNERS + seat] = st[SCORE + seat] == best


# ------------------------------------------------------------------------------------------------ bots


@njit(cache=True)
def random_bid(st, rng):
    return st[OPTS + below(rng, st[OPT_N])]


@njit(cache=True)
def match_bid(st, stake, rng):
    """reference.match_bid on the options in st[OPTS..]."""
    target = stake + below(rng, 3) - 1
    best = st[OPTS]
    for k in range(1, st[OPT_N]):
        card = st[OPTS + k]
        if abs(card - target) < abs(best - target):
            best = card
    return best


@njit(cache=True)
def search_bid(st, vals, seat, budget, rng):
    """reference.search_bid: its own playout stream from one draw of the decision stream."""
    playout_rng = np.empty(1, np.uint64)
    playout_rng[0] = next_u64(rng)
    n_options = st[OPT_N]
    options = st[OPTS:OPTS + n_options].copy()
    best = options[0]
    best_total = 0
    for k in range(n_options):
        total = 0
        for _ in range(budget):
            total += playout(st, vals, seat, options[k], playout_rng)
        if k == 0 or total > best_total:
            best = options[k]
            best_total = total
    return best


@njit(cache=True)
def playout(st, vals, seat, card, rng):
    """reference.playout on a copy of st."""
    g = st.copy()
    p = g[PLAYERS]
    for s in range(p):
        if s == seat:
            g[BIDS + s] = card
        else:
            list_options(g, vals, s)
            g[BIDS + s] = match_bid(g, g[PILE], rng)
    resolve_round(g, vals)
    shuffle(rng, g[PRIZES + g[ROUNDS]:PRIZES + g[NCARDS]])       # G6.1
    while not g[OVER]:
        reveal_prize(g)
        for s in range(p):
            list_options(g, vals, s)
            g[BIDS + s] = match_bid(g, g[PILE], rng)
        resolve_round(g, vals)
    best_other = -1
    for s in range(p):
        if s != seat and (best_other < 0 or g[SCORE + s] > best_other):
            best_other = g[SCORE + s]
    return g[SCORE + seat] - best_other


# ------------------------------------------------------------------------------------------------ driver


@njit(cache=True)
def play_many(vals, players, carry, kinds, budgets, seed_mixed, first_game, n_games,
              turns, score, winners, discarded):
    st = np.zeros(SIZE, np.int64)
    rng = np.empty(1, np.uint64)
    no_script = np.zeros((0, SC_WIDTH), np.int64)
    no_trace = np.zeros((0, TR_WIDTH), np.int64)
    for i in range(n_games):
        g = np.uint64(first_game + i)
        new_game(st, vals, players, carry, seed_mixed, g)
        for s in range(players):
            st[BOT + s] = kinds[s]
            st[BUDGET + s] = budgets[s]
        rng[0] = decision_state(seed_mixed, g)
        play_game(st, vals, rng, no_script, no_trace)
        turns[i] = st[ROUNDS]
        discarded[i] = st[DISCARDED]
        for s in range(players):
            score[i, s] = st[SCORE + s]
            winners[i, s] = st[WINNERS + s] == 1


def suit_array(setup: Setup) -> np.ndarray:
    return np.array(setup.values, dtype=np.int64)


def play_games_fast(setup: Setup, bots: list[Bot], seed: int, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """play_games on the fast engine (the arguments checked by the caller)."""
    out = empty_results(setup, first_game, n_games)
    play_many(suit_array(setup), setup.players, int(setup.carry), np.array([b.kind for b in bots], np.int64),
              np.array([b.budget for b in bots], np.int64), seed_key(seed), first_game, n_games,
              out["turns"], out["score"], out["winners"], out["discarded"])
    return out


def trace_game(setup: Setup, bots: list[Bot], seed: int, game_index: int) -> np.ndarray:
    """Every bid of one game as rows (round, seat, cards held, bid): the reference's ``trace``."""
    vals = suit_array(setup)
    st = np.zeros(SIZE, np.int64)
    key = seed_key(seed)
    new_game(st, vals, setup.players, int(setup.carry), key, np.uint64(game_index))
    for s, bot in enumerate(bots):
        st[BOT + s], st[BUDGET + s] = bot.kind, bot.budget
    rng = np.array([decision_state(key, np.uint64(game_index))], np.uint64)
    trace = np.zeros((setup.n_cards * setup.players, TR_WIDTH), np.int64)
    play_game(st, vals, rng, np.zeros((0, SC_WIDTH), np.int64), trace)
    return trace
