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
from .common import (BEND_THEME, BEND_TYPE, CONTEXT, DREAM_CAP, FORCED_NEG, FORCED_POS, MAX_TOTAL, MAX_TYPES,
                     NEGATIVE, POSITIVE, UNFORCED, WAKE_ONE, WAKE_SELF, WAKE_UP)
from .reference import PASS

# The decorator of every kernel that allocates nothing: no NRT reference counting, NumPy's error model
# (no zero-division checks). With NRT every call of a kernel paid an atomic incref/decref pair on each
# array argument: a profile of one thread put NRT_incref/NRT_decref at 14% of the run, and with two
# threads the counts of the shared card table also bounce between the cores. A kernel cannot call an
# allocating function (numba compiles the callee without NRT too): the few that allocate (new_game,
# new_work, the batch driver) call kernels, never the other way round.
kernel = njit(cache=True, _nrt=False, error_model="numpy")
# Glue called once or a few times per turn (the turn's steps, ask), inlined into its caller by numba: a call
# passes every array argument as its whole descriptor (7 words for a 1-D array, 9 for 2-D), which for the
# turn's five arrays cost more than the glue's own work.
inline_kernel = njit(inline="always", cache=True, _nrt=False, error_model="numpy")

# decision kinds (reference.KINDS order) and how ask() answers
K_ELEMENT, K_SECOND, K_EXTRA, K_BLOCK = range(4)
MODE_BOTS, MODE_PLAYOUT, MODE_SCRIPT = 0, 1, 2
BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2
MP = 4                          # most seats
MT = MAX_TYPES
HCAP = 16                       # distinct card rows a hand may hold (5 in play; scenarios up to 16)
OPTCAP = 512                    # options of one decision (the most a 5-card hand can have is far fewer)

# ---- the card table ``cd`` (card_table): one flat int64 array, so that a kernel call passes one array for
# the cards and their modifiers (a call passes every array as its whole descriptor, 7 words for 1-D, 9 for 2-D).
# Rows of CardSet.array, MT wide: field f of card row c is cd[f * MT + c].
C_ELEMENT, C_KIND, C_THEMES, C_POLARITY, C_PLUS, C_MINUS, C_EFFECT, C_COUNT = range(8)
T_NTYPES = 8 * MT               # how many card rows the file has
T_BY_CARD = T_NTYPES + 1        # MT + 1 starts: row c's own modifiers are entries cd[T_BY_CARD + c] .. [+ c + 1]
T_BY_NEED = T_BY_CARD + MT + 1  # MT + 1 starts: the modifiers that need row c
T_MODS = T_BY_NEED + MT + 1     # the modifiers, 3 entries each (M_CARD, M_POINTS, M_NEED): by card, then by need
M_CARD, M_POINTS, M_NEED = range(3)

# ---- layout of st
PLAYERS, ACTIVE, TURNS, OVER, END, MODE, STOP, SCRIPT_POS, PENDING, PENDING_SEAT, NTYPES, DECK_POS, DECK_END = range(13)
# the setup's rules (rules_array, Z2.2, Z19): Wake Ups removed, 1 when the removal is hidden, the goal (Z15),
# the hand size (Z2.3, Z3.1), the fewest elements that score (Z14.1), the elements that end a dream (Z8.1)
R_REMOVED, R_HIDDEN, R_GOAL, R_HAND, R_MIN, R_MAX = range(13, 19)
BOT = 19
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
DREAM_FORCED = DREAM_CARD + MP * DREAM_CAP   # a seat's dream: DREAM_CAP slots whatever the knob max-dream
DREAM_FCARD = DREAM_FORCED + MP * DREAM_CAP
DREAM_N = DREAM_FCARD + MP * DREAM_CAP
HOLDER_THEME = DREAM_N + MP
HOLDER_CARD = HOLDER_THEME + MP
DREAM_PTS = HOLDER_CARD + MP    # each dream's points as they stand (dream_points, kept up to date)
# each dream's running tallies (add_to_dream, recount_dreams): the positive and negative cards (forced
# context cards included), the values of those, the unforced context cards' plus and minus sums, the
# modifiers in force, and how many copies of each card row it holds; dream_points reads a what-if off them
D_POS = DREAM_PTS + MP
D_NEG = D_POS + MP
D_FIXED = D_NEG + MP
D_CPLUS = D_FIXED + MP
D_CMINUS = D_CPLUS + MP
D_MOD = D_CMINUS + MP
D_COUNT = D_MOD + MP
DECK = D_COUNT + MP * MT
S_DREAMS = DECK + MAX_TOTAL
S_ELEMS = S_DREAMS + MP
S_SCORED = S_ELEMS + MP
S_WOKE = S_SCORED + MP
S_PLAYED = S_WOKE + MP * 4
S_BLOCKED = S_PLAYED + MP * 4
S_ESCORED = S_BLOCKED + MP * 4
REMOVED = S_ESCORED + MP * MT     # the Wake Ups removed at setup, per card row (Z2.2)
OPT_N = REMOVED + MT
OPTS = OPT_N + 4
WHO = OPTS + 4 * OPTCAP          # scratch: the seats a Wake Up wakes (wake_seats), instead of an array per call
SIZE = WHO + MP
# ---- the search's work area (fast.search_choice): rows of a 2-D array, each as long as st, so that no kernel
# allocates. A sampled world, the copy one playout plays on, the unseen counts (MT) followed by the pool of
# unseen cards, the options' summed outcomes. Playouts never search, so one area serves a whole game.
W_WORLD, W_PLAY, W_POOL, W_TOTALS = range(4)
WORK_ROWS = 4
assert SIZE >= MT + MAX_TOTAL and SIZE >= OPTCAP
# ---- script rows (scenarios): [choice, kind seen, accepted, seat asked]
SC_CHOICE, SC_KIND, SC_OK, SC_SEAT = range(4)
SC_WIDTH = 4


def rules_array(setup) -> np.ndarray:
    """The setup as new_game reads it: players, then the R_* rules in their order."""
    return np.array([setup.players, setup.removed, int(setup.hidden_removal), setup.goal, setup.hand,
                     setup.min_dream, setup.max_dream], np.int64)


@njit(cache=True)
def start_state(st, rules, nt):
    """A state with no cards anywhere for the rules of rules_array (blank_game)."""
    st[:OPTS] = 0          # the option areas and WHO (half of st) are scratch, always written before read
    st[PLAYERS] = rules[0]
    for i in range(R_MAX - R_REMOVED + 1):
        st[R_REMOVED + i] = rules[1 + i]
    st[NTYPES] = nt
    for s in range(MP):
        st[HOLDER_THEME + s] = -1
        st[HOLDER_CARD + s] = -1


@njit(cache=True)
def new_game(st, cd, rules, seed_mixed, game_index):
    """reference.new_game on st (Z2)."""
    nt = cd[T_NTYPES]
    start_state(st, rules, nt)
    total = 0
    for c in range(nt):
        total += cd[C_COUNT * MT + c]
    deck = np.empty(total, np.int64)
    k = 0
    for c in range(nt):
        for _ in range(cd[C_COUNT * MT + c]):
            deck[k] = c
            k += 1
    rng = np.empty(1, np.uint64)
    rng[0] = stream_state(seed_mixed, np.uint64(game_index))
    shuffle(rng, deck)                                              # Z2.1
    deal(st, cd, deck)


@kernel
def deal(st, cd, deck):
    """reference.deal: Z2.2 (the removed Wake Ups recorded in st[REMOVED:]), Z2.3."""
    left = st[R_REMOVED]
    k = 0
    for i in range(deck.shape[0]):
        c = deck[i]
        if left > 0 and cd[C_ELEMENT * MT + c] == 0 and cd[C_KIND * MT + c] == WAKE_UP:
            left -= 1
            st[REMOVED + c] += 1
        else:
            st[DECK + k] = c
            k += 1
    st[DECK_END] = k
    for _ in range(st[R_HAND]):                                     # Z2.3
        for s in range(st[PLAYERS]):
            c = st[DECK + st[DECK_POS]]
            st[DECK_POS] += 1
            hand_add(st, s, c)


def card_table(cards) -> np.ndarray:
    """The fast engine's card table ``cd`` of a CardSet (the T_* layout above).

    Every modifier (card, points, needed card) is listed twice: sorted by its card, then by the card it
    needs (modifier_gain reads both); a start entry is the offset of the modifier's first entry in ``cd``.
    """
    nt = len(cards)
    rows = cards.array()
    mods = [m for m in cards.modifiers if m[0] >= 0]
    by_card = sorted(mods, key=lambda m: m[0])
    by_need = sorted(mods, key=lambda m: m[2])
    cd = np.zeros(T_MODS + 6 * len(mods), np.int64)
    for f in range(rows.shape[0]):
        cd[f * MT:f * MT + nt] = rows[f]
    cd[T_NTYPES] = nt
    for start, listed, key in ((T_BY_CARD, by_card, 0), (T_BY_NEED, by_need, 2)):
        at = T_MODS + (0 if key == 0 else 3 * len(mods))
        for c in range(MT + 1):
            cd[start + c] = at + 3 * sum(1 for m in listed if m[key] < c)
        for m in listed:
            cd[at:at + 3] = m
            at += 3
    return cd


@njit(cache=True)
def new_work():
    """The search's work area (W_* rows), for one game at a time; its contents never carry over."""
    return np.zeros((WORK_ROWS, SIZE), np.int64)


@inline_kernel
def may_play(st, seat, kind):
    return (st[BANNED + seat] >> kind) & 1 == 0


# ---------------------------------------------------------------- the turn (Z3)


@inline_kernel
def can_follow(st, cd, owner, card, bend, own):
    n = st[DREAM_N + owner]
    if n == 0:
        return own                                                   # Z6.1
    last = st[DREAM_CARD + owner * DREAM_CAP + n - 1]
    if bend != BEND_TYPE and cd[C_KIND * MT + card] == cd[C_KIND * MT + last]:
        return False                                                 # Z5.1
    if bend == BEND_THEME:
        return True
    ht = st[HOLDER_THEME + owner]
    need = (1 << ht) if ht >= 0 else cd[C_THEMES * MT + last]              # Z5.2
    return (cd[C_THEMES * MT + card] & need) != 0


@inline_kernel
def card_tally(cd, c, f):
    """(positive, negative, fixed value, context plus, context minus): what card row ``c`` with force
    state ``f`` adds to a dream's tallies (Z14.2, Z14.3). Only a context card reads ``f``; an unforced one
    adds its plus and minus, which the dream's tally then turns."""
    pol = cd[C_POLARITY * MT + c]
    if pol == POSITIVE or (pol == CONTEXT and f == FORCED_POS):
        return 1, 0, cd[C_PLUS * MT + c], 0, 0
    if pol == NEGATIVE or (pol == CONTEXT and f == FORCED_NEG):
        return 0, 1, -cd[C_MINUS * MT + c], 0, 0
    if pol == CONTEXT and f == UNFORCED:
        return 0, 0, 0, cd[C_PLUS * MT + c], cd[C_MINUS * MT + c]
    return 0, 0, 0, 0, 0


@inline_kernel
def modifier_gain(st, cd, seat, e):
    """The modifier points (Z14.4) that one more card of row ``e`` brings to seat's dream: its own
    modifiers whose named card is already there, and the modifiers of cards already there that name ``e``
    and had no other ``e`` to count with (the table lists the modifiers by card and again by the card named)."""
    base = D_COUNT + seat * MT
    gain = 0
    for r in range(cd[T_BY_CARD + e], cd[T_BY_CARD + e + 1], 3):
        if st[base + cd[r + M_NEED]] > 0:
            gain += cd[r + M_POINTS]
    for r in range(cd[T_BY_NEED + e], cd[T_BY_NEED + e + 1], 3):
        c = cd[r + M_CARD]
        if st[base + e] - (1 if c == e else 0) == 0:
            gain += cd[r + M_POINTS] * st[base + c]
    return gain


@kernel
def add_to_dream(st, cd, seat, c, f):
    """Card row ``c`` (force state ``f``) joins the tallies of seat's dream."""
    st[D_MOD + seat] += modifier_gain(st, cd, seat, c)
    p, n, fixed, cplus, cminus = card_tally(cd, c, f)
    st[D_POS + seat] += p
    st[D_NEG + seat] += n
    st[D_FIXED + seat] += fixed
    st[D_CPLUS + seat] += cplus
    st[D_CMINUS + seat] += cminus
    st[D_COUNT + seat * MT + c] += 1


@kernel
def retally(st, cd, seat, c, f0, f1):
    """A card of row ``c`` in seat's dream goes from force state ``f0`` to ``f1`` (a polarity Force)."""
    p0, n0, fixed0, cplus0, cminus0 = card_tally(cd, c, f0)
    p1, n1, fixed1, cplus1, cminus1 = card_tally(cd, c, f1)
    st[D_POS + seat] += p1 - p0
    st[D_NEG + seat] += n1 - n0
    st[D_FIXED + seat] += fixed1 - fixed0
    st[D_CPLUS + seat] += cplus1 - cplus0
    st[D_CMINUS + seat] += cminus1 - cminus0


@kernel
def clear_dream(st, seat):
    """The tallies of an empty dream (the cards are read before DREAM_N is cleared)."""
    for i in range(st[DREAM_N + seat]):
        st[D_COUNT + seat * MT + st[DREAM_CARD + seat * DREAM_CAP + i]] = 0
    st[D_POS + seat] = 0
    st[D_NEG + seat] = 0
    st[D_FIXED + seat] = 0
    st[D_CPLUS + seat] = 0
    st[D_CMINUS + seat] = 0
    st[D_MOD + seat] = 0


@kernel
def recount_dreams(st, cd):
    """Every dream's tallies from its cards: for a state built outside the engine (scenarios)."""
    for s in range(MP):
        clear_dream(st, s)
        for i in range(st[DREAM_N + s]):
            add_to_dream(st, cd, s, st[DREAM_CARD + s * DREAM_CAP + i], st[DREAM_FORCED + s * DREAM_CAP + i])


@kernel
def dream_points(st, cd, seat, extra, fpos, fval):
    """reference.dream_points of seat's dream, with ``extra`` appended (-1: none) and element ``fpos``
    forced to ``fval`` (-1: as it is): the bots' what-ifs without copying the state.

    Read off the dream's tallies (add_to_dream) in time independent of the dream's length; the sums are
    of integers, so the order they are added in changes nothing.
    """
    n = st[DREAM_N + seat]
    pos = st[D_POS + seat]
    neg = st[D_NEG + seat]
    fixed = st[D_FIXED + seat]
    cplus = st[D_CPLUS + seat]
    cminus = st[D_CMINUS + seat]
    mod = st[D_MOD + seat]
    if fpos >= 0:
        c = st[DREAM_CARD + seat * DREAM_CAP + fpos]
        p0, n0, fixed0, cplus0, cminus0 = card_tally(cd, c, st[DREAM_FORCED + seat * DREAM_CAP + fpos])
        p1, n1, fixed1, cplus1, cminus1 = card_tally(cd, c, fval)
        pos += p1 - p0
        neg += n1 - n0
        fixed += fixed1 - fixed0
        cplus += cplus1 - cplus0
        cminus += cminus1 - cminus0
    if extra >= 0:
        n += 1
        p1, n1, fixed1, cplus1, cminus1 = card_tally(cd, extra, UNFORCED)
        pos += p1
        neg += n1
        fixed += fixed1
        cplus += cplus1
        cminus += cminus1
        mod += modifier_gain(st, cd, seat, extra)
    total = n + fixed + mod                                          # Z14.1 base, Z14.3, Z14.4
    if pos > neg:                                                    # Z14.2 the tally turns unforced ones
        total += cplus
    elif neg > pos:
        total -= cminus
    return total


@kernel
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


@kernel
def wake_seats(st, cd, seat, target, card):
    """reference.wake_seats into the scratch st[WHO:]; returns how many."""
    effect = cd[C_EFFECT * MT + card]
    p = st[PLAYERS]
    k = 0
    if effect == WAKE_SELF:
        if st[DREAM_N + seat] > 0:
            st[WHO] = seat
            k = 1
    elif effect == WAKE_ONE:
        if st[DREAM_N + target] > 0:
            st[WHO] = target
            k = 1
    else:
        for j in range(p):
            s = (seat + j) % p
            if st[DREAM_N + s] > 0:
                st[WHO + k] = s
                k += 1
    return k


@inline_kernel
def asleep_value(st, points, n):
    return 10 * points + HALF_POINT * (st[R_MAX] - n)


@inline_kernel
def banked_value(st, points, n):
    return 10 * points if n >= st[R_MIN] else 0


@inline_kernel
def keep(cd, c):
    if cd[C_ELEMENT * MT + c] == 0:
        return BLOCK_COST
    pol = cd[C_POLARITY * MT + c]
    if pol == POSITIVE or pol == CONTEXT:
        return 10 + 4 * cd[C_PLUS * MT + c]
    if pol == NEGATIVE:
        return 10 + 2 * cd[C_MINUS * MT + c]
    return 10


@kernel
def followers(st, cd, seat, c):
    """bots.followers: the element rows in the seat's hand (after playing one ``c``) that could follow ``c``.

    Each test is evaluated whole (``&`` of all four, no short-circuit): which rows pass depends on the deal,
    and the branches of the short-circuit form cost more than the four tests.
    """
    kind = cd[C_KIND * MT + c]
    themes = cd[C_THEMES * MT + c]
    out = 0
    for j in range(st[HELD_N + seat]):
        d = st[HELD + seat * HCAP + j]
        out += (cd[C_ELEMENT * MT + d] == 1) & (st[HAND + seat * MT + d] - (d == c) > 0) & \
            (cd[C_KIND * MT + d] != kind) & ((cd[C_THEMES * MT + d] & themes) != 0)
    return out


@kernel
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


@inline_kernel
def hand_add(st, seat, c):
    """One card of row ``c`` into the seat's hand (counts, size and the list of rows held)."""
    k = HAND + seat * MT + c
    if st[k] == 0:
        n = st[HELD_N + seat]
        st[HELD + seat * HCAP + n] = c
        st[HELD_N + seat] = n + 1
    st[k] += 1
    st[HAND_N + seat] += 1


@inline_kernel
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
