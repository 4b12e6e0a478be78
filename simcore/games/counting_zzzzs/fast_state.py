"""Counting Zzzzs, the fast engine's state: the layout of ``st`` and the kernels everything else builds on.

The deal (:func:`new_game`, reference.new_game), sequencing (:func:`can_follow`, Z5), scoring
(:func:`dream_points`, Z14), option sorting (Z18.2), the targets of a Wake Up (Z9.1), the value helpers
of greedy (:mod:`.bots`) and the scripted answers of scenarios. The turn, the bots and the search are in
:mod:`.fast`; nothing here imports them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.fast_rng import shuffle, stream_state

from .bots import BLOCK_COST, HALF_POINT
from .common import (BEND_THEME, BEND_TYPE, CONTEXT, FORCED_NEG, FORCED_POS, HAND_SIZE, MAX_DREAM, MAX_TOTAL,
                     MAX_TYPES, MIN_SCORED, NEGATIVE, POSITIVE, UNFORCED, WAKE_ONE, WAKE_SELF, WAKE_UP)
from .reference import PASS

# card table rows (CardSet.array)
C_ELEMENT, C_KIND, C_THEMES, C_POLARITY, C_PLUS, C_MINUS, C_EFFECT, C_COUNT = range(8)
# decision kinds (reference.KINDS order) and how ask() answers
K_ELEMENT, K_SECOND, K_EXTRA, K_BLOCK = range(4)
MODE_BOTS, MODE_PLAYOUT, MODE_SCRIPT = 0, 1, 2
BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2
MP = 4                          # most seats
MT = MAX_TYPES
HCAP = 16                       # distinct card rows a hand may hold (5 in play; scenarios up to 16)
OPTCAP = 512                    # options of one decision (the most a 5-card hand can have is far fewer)

# ---- layout of st
PLAYERS, ACTIVE, TURNS, OVER, END, MODE, STOP, SCRIPT_POS, PENDING, PENDING_SEAT, NTYPES, DECK_POS, DECK_END = range(13)
BOT = 13
BUDGET = BOT + MP
BANNED = BUDGET + MP
SCORE = BANNED + MP
WINNERS = SCORE + MP
HAND = WINNERS + MP
HAND_N = HAND + MP * MT
HELD_N = HAND_N + MP             # the distinct card rows in each hand, any order (no scans of every row)
HELD = HELD_N + MP
DISC = HELD + MP * HCAP
DREAM_CARD = DISC + MT
DREAM_FORCED = DREAM_CARD + MP * MAX_DREAM
DREAM_FCARD = DREAM_FORCED + MP * MAX_DREAM
DREAM_N = DREAM_FCARD + MP * MAX_DREAM
HOLDER_THEME = DREAM_N + MP
HOLDER_CARD = HOLDER_THEME + MP
DREAM_PTS = HOLDER_CARD + MP    # each dream's points as they stand (dream_points, kept up to date)
DECK = DREAM_PTS + MP
S_DREAMS = DECK + MAX_TOTAL
S_ELEMS = S_DREAMS + MP
S_SCORED = S_ELEMS + MP
S_WOKE = S_SCORED + MP
S_PLAYED = S_WOKE + MP * 4
S_BLOCKED = S_PLAYED + MP * 4
S_ESCORED = S_BLOCKED + MP * 4
OPT_N = S_ESCORED + MP * MT
OPTS = OPT_N + 4
SIZE = OPTS + 4 * OPTCAP
# ---- script rows (scenarios): [choice, kind seen, accepted, seat asked]
SC_CHOICE, SC_KIND, SC_OK, SC_SEAT = range(4)
SC_WIDTH = 4


@njit(cache=True)
def new_game(st, cd, players, removed, seed_mixed, game_index):
    """reference.new_game on st (Z2)."""
    st[:] = 0
    nt = cd.shape[1]
    st[PLAYERS] = players
    st[NTYPES] = nt
    for s in range(MP):
        st[HOLDER_THEME + s] = -1
        st[HOLDER_CARD + s] = -1
    total = 0
    for c in range(nt):
        total += cd[C_COUNT, c]
    deck = np.empty(total, np.int64)
    k = 0
    for c in range(nt):
        for _ in range(cd[C_COUNT, c]):
            deck[k] = c
            k += 1
    rng = np.empty(1, np.uint64)
    rng[0] = stream_state(seed_mixed, np.uint64(game_index))
    shuffle(rng, deck)                                              # Z2.1
    left = removed                                                  # Z2.2
    k = 0
    for i in range(total):
        c = deck[i]
        if left > 0 and cd[C_ELEMENT, c] == 0 and cd[C_KIND, c] == WAKE_UP:
            left -= 1
        else:
            st[DECK + k] = c
            k += 1
    st[DECK_END] = k
    for _ in range(HAND_SIZE):                                      # Z2.3
        for s in range(players):
            c = st[DECK + st[DECK_POS]]
            st[DECK_POS] += 1
            hand_add(st, s, c)


@njit(cache=True)
def may_play(st, seat, kind):
    return (st[BANNED + seat] >> kind) & 1 == 0


# ---------------------------------------------------------------- the turn (Z3)


@njit(cache=True)
def can_follow(st, cd, owner, card, bend, own):
    n = st[DREAM_N + owner]
    if n == 0:
        return own                                                   # Z6.1
    last = st[DREAM_CARD + owner * MAX_DREAM + n - 1]
    if bend != BEND_TYPE and cd[C_KIND, card] == cd[C_KIND, last]:
        return False                                                 # Z5.1
    if bend == BEND_THEME:
        return True
    ht = st[HOLDER_THEME + owner]
    need = (1 << ht) if ht >= 0 else cd[C_THEMES, last]              # Z5.2
    return (cd[C_THEMES, card] & need) != 0


@njit(cache=True)
def dream_points(st, cd, md, ms, seat, extra, fpos, fval):
    """reference.dream_points of seat's dream, with ``extra`` appended (-1: none) and element ``fpos``
    forced to ``fval`` (-1: as it is): the bots' what-ifs without copying the state."""
    n = st[DREAM_N + seat]
    m = n + 1 if extra >= 0 else n
    base = seat * MAX_DREAM
    pos = 0
    neg = 0
    for i in range(m):
        c = st[DREAM_CARD + base + i] if i < n else extra
        f = st[DREAM_FORCED + base + i] if i < n else UNFORCED
        if i == fpos:
            f = fval
        pol = cd[C_POLARITY, c]
        if pol == POSITIVE or (pol == CONTEXT and f == FORCED_POS):
            pos += 1
        elif pol == NEGATIVE or (pol == CONTEXT and f == FORCED_NEG):
            neg += 1
    total = m
    for i in range(m):
        c = st[DREAM_CARD + base + i] if i < n else extra
        f = st[DREAM_FORCED + base + i] if i < n else UNFORCED
        if i == fpos:
            f = fval
        pol = cd[C_POLARITY, c]
        if pol == POSITIVE:
            total += cd[C_PLUS, c]
        elif pol == NEGATIVE:
            total -= cd[C_MINUS, c]
        elif pol == CONTEXT:
            if f == FORCED_POS or (f == UNFORCED and pos > neg):
                total += cd[C_PLUS, c]
            elif f == FORCED_NEG or (f == UNFORCED and neg > pos):
                total -= cd[C_MINUS, c]
        for r in range(ms[c], ms[c + 1]):                            # Z14.4
            need = md[r, 2]
            for j in range(m):
                if j != i and (st[DREAM_CARD + base + j] if j < n else extra) == need:
                    total += md[r, 1]
                    break
    return total


@njit(cache=True)
def sort_options(st, kind):
    """Ascending codes (Z18.2): insertion sort of the kind's option area."""
    base = OPTS + kind * OPTCAP
    for i in range(1, st[OPT_N + kind]):
        v = st[base + i]
        j = i - 1
        while j >= 0 and st[base + j] > v:
            st[base + j + 1] = st[base + j]
            j -= 1
        st[base + j + 1] = v


@njit(cache=True)
def wake_seats(st, cd, seat, target, card, out):
    """reference.wake_seats into ``out``; returns how many."""
    effect = cd[C_EFFECT, card]
    p = st[PLAYERS]
    k = 0
    if effect == WAKE_SELF:
        if st[DREAM_N + seat] > 0:
            out[0] = seat
            k = 1
    elif effect == WAKE_ONE:
        if st[DREAM_N + target] > 0:
            out[0] = target
            k = 1
    else:
        for j in range(p):
            s = (seat + j) % p
            if st[DREAM_N + s] > 0:
                out[k] = s
                k += 1
    return k


@njit(cache=True)
def asleep_value(points, n):
    return 10 * points + HALF_POINT * (MAX_DREAM - n)


@njit(cache=True)
def banked_value(points, n):
    return 10 * points if n >= MIN_SCORED else 0


@njit(cache=True)
def keep(cd, c):
    if cd[C_ELEMENT, c] == 0:
        return BLOCK_COST
    pol = cd[C_POLARITY, c]
    if pol == POSITIVE or pol == CONTEXT:
        return 10 + 4 * cd[C_PLUS, c]
    if pol == NEGATIVE:
        return 10 + 2 * cd[C_MINUS, c]
    return 10


@njit(cache=True)
def followers(st, cd, seat, c):
    out = 0
    for j in range(st[HELD_N + seat]):
        d = st[HELD + seat * HCAP + j]
        held = st[HAND + seat * MT + d] - (1 if d == c else 0)
        if cd[C_ELEMENT, d] == 1 and held > 0 and cd[C_KIND, d] != cd[C_KIND, c] and \
                (cd[C_THEMES, d] & cd[C_THEMES, c]) != 0:
            out += 1
    return out


@njit(cache=True)
def script_choice(st, script, seat, kind):
    """The next scripted answer that is legal; refused ones are marked (SC_OK = 0) and skipped. When the
    script runs out the game stops here (STOP, PENDING = kind, PENDING_SEAT = seat)."""
    base = OPTS + kind * OPTCAP
    while st[SCRIPT_POS] < script.shape[0]:
        row = st[SCRIPT_POS]
        st[SCRIPT_POS] += 1
        script[row, SC_KIND] = kind
        script[row, SC_SEAT] = seat
        c = script[row, SC_CHOICE]
        ok = False
        for i in range(st[OPT_N + kind]):
            if st[base + i] == c:
                ok = True
        script[row, SC_OK] = 1 if ok else 0
        if ok:
            return c
    st[STOP] = 1
    st[PENDING] = kind
    st[PENDING_SEAT] = seat
    return PASS


@njit(cache=True)
def hand_add(st, seat, c):
    """One card of row ``c`` into the seat's hand (counts, size and the list of rows held)."""
    k = HAND + seat * MT + c
    if st[k] == 0:
        n = st[HELD_N + seat]
        st[HELD + seat * HCAP + n] = c
        st[HELD_N + seat] = n + 1
    st[k] += 1
    st[HAND_N + seat] += 1


@njit(cache=True)
def hand_take(st, seat, c):
    """One card of row ``c`` out of the seat's hand."""
    k = HAND + seat * MT + c
    st[k] -= 1
    st[HAND_N + seat] -= 1
    if st[k] == 0:
        n = st[HELD_N + seat] - 1
        for j in range(n + 1):
            if st[HELD + seat * HCAP + j] == c:
                st[HELD + seat * HCAP + j] = st[HELD + seat * HCAP + n]
                break
        st[HELD_N + seat] = n
