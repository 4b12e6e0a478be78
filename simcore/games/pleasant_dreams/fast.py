"""Pleasant Dreams, the numba engine: :mod:`.reference` function for function, same names, same order.

A game is one int64 array ``st`` (pgx's fixed-size state; offsets below), the cards one int64 array
``cd`` (rows: flip card?, front value, back value), the decision stream a 1-element uint64 array
``rng`` (simcore.fast_rng, bit-identical to simcore.rng). Where the reference hands a decision to an
agent object, :func:`ask` reads the seat's bot kind from ``st``; the reference's ``Pending`` exception
(a scenario's script ran out) is the ``STOP`` flag here, checked after every decision.

The search bot's playouts use their own turn loop (:func:`playout`, :func:`playout_start_of_turn`) so
that no function reaches itself through the search: numba types no recursion, and this keeps every
kernel cacheable. Compiled on first use only (this module is imported lazily).
"""
from __future__ import annotations

from pathlib import Path

from simcore.numba_cache import guard_kernels

# before any kernel is compiled or loaded: numba checks a cached kernel only against its own file, and these
# freeze the constants of the files they import (this game's rules and bots, the random streams)
guard_kernels(Path(__file__).resolve().parent)

import numpy as np  # noqa: E402 - after the cache guard
from numba import njit  # noqa: E402

from simcore.fast_rng import below, decision_state, seed_key, shuffle, stream_state

from .common import (ACTION_TYPES, BARRIER, COMPASS, CROSS, DEEP_SLEEP, EQUAL, FLIP,
                     MIRROR, PREMONITION, RECURRING, SHIMMER, SUPPRESSION, WAKE_LIMIT, Setup,
                     empty_results)
from .bots import Bot
from .reference import (ALL_SEATS, MAX_TURNS, RESOLVE, TURN_MIRROR, TURN_PREMONITION, UNSEEN_BACK, USE_BARRIER,
                        USE_SHIMMER, USE_SUPPRESSION)

NA = len(ACTION_TYPES)
DCAP = 40                       # room for every card of the largest card list (30) in any one zone
# Decision kinds (reference.KINDS order).
K_TURN, K_DEEP_SLEEP, K_COMPASS, K_RESOLVE, K_FLIP, K_PLACE, K_RECURRING = range(7)
# Modes: how ask() finds an answer.
MODE_BOTS, MODE_PLAYOUT, MODE_SCRIPT = 0, 1, 2
BOT_RANDOM, BOT_THRESHOLD, BOT_SEARCH = 0, 1, 2

# ---- layout of st
PLAYERS, ACTIVE, TURNS, OVER, WINNER, MODE, STOP, SCRIPT_POS, PENDING, NCARDS = range(10)
DECK_N = 10
DECK_CARD = 11
DECK_SIDE = DECK_CARD + DCAP
DECK_KNOWN = DECK_SIDE + DCAP
WAKE = DECK_KNOWN + DCAP
BOT = WAKE + 2
BUDGET = BOT + 2
BANNED = BUDGET + 2
HELD = BANNED + 2
DEALT = HELD + 2 * NA
USED = DEALT + 2 * NA
ASIDE_N = USED + 2 * NA
ASIDE_CARD = ASIDE_N + 2
ASIDE_SIDE = ASIDE_CARD + 2 * DCAP
DISCARD_N = ASIDE_SIDE + 2 * DCAP
DISCARD_CARD = DISCARD_N + 1
DISCARD_SIDE = DISCARD_CARD + DCAP
FLOW_N = DISCARD_SIDE + DCAP
FLOW_CARD = FLOW_N + 1
FLOW_SIDE = FLOW_CARD + DCAP
NM_N = FLOW_SIDE + DCAP
NM_CARD = NM_N + 1
NM_SIDE = NM_CARD + DCAP
ORDER = NM_SIDE + DCAP          # a compass order chosen by ask (K_COMPASS returns 1)
OPT_N = ORDER + DCAP
OPTS = OPT_N + 1
BACK_SEEN = OPTS + DCAP         # per card: its back has been shown (P9.5)
# the rules knobs (P11), set by new_game / set_knobs from the Setup: in the state so that the playouts'
# copies and the scenarios' states carry them
WAKE_AT = BACK_SEEN + DCAP      # P3.1: wakefulness that wakes (knob wake)
FLOW_MAX = WAKE_AT + 1          # P4.1: most cards in a flow (knob flow)
FLIP_EXTRA_AT = FLOW_MAX + 1    # P5.2: extra point a flip takes off (knob flip)
PREMONITION_AT = FLIP_EXTRA_AT + 1   # P8.1: cards Premonition shows (knob premonition)
COPIES_AT = PREMONITION_AT + 1  # P7.1: copies of each action type (knob copies)
SIZE = COPIES_AT + 1
# ---- script rows (scenarios): [choice, compass length, order 0..7, kind seen, accepted]
SC_CHOICE, SC_LEN, SC_ORDER, SC_KIND, SC_OK = 0, 1, 2, 10, 11
SC_WIDTH = 12


@njit(cache=True)
def value(cd, card, side):
    return cd[2, card] if side else cd[1, card]


@njit(cache=True)
def symbol(cd, card, side):
    if cd[0, card] == 0:
        return EQUAL
    return CROSS if side else FLIP


@njit(cache=True)
def set_knobs(st, knobs):
    """The rules knobs (P11) into st: ``knobs`` = [wake, flow, flip, premonition, copies] (knob_array)."""
    st[WAKE_AT] = knobs[0]
    st[FLOW_MAX] = knobs[1]
    st[FLIP_EXTRA_AT] = knobs[2]
    st[PREMONITION_AT] = knobs[3]
    st[COPIES_AT] = knobs[4]


@njit(cache=True)
def new_game(st, cd, players, start, dealt_k, hand, public_backs, knobs, seed_mixed, game_index):
    """reference.new_game on st (P2); dealt_k = -2: the solo player holds ``hand`` (P7.5)."""
    st[:] = 0
    set_knobs(st, knobs)
    n = cd.shape[1]
    st[PLAYERS] = players
    st[NCARDS] = n
    st[WINNER] = -1
    rng = np.empty(1, np.uint64)
    rng[0] = stream_state(seed_mixed, np.uint64(game_index))
    order = np.arange(n)
    shuffle(rng, order)                                           # P2.1
    for i in range(n):
        st[DECK_CARD + i] = order[i]
    st[DECK_N] = n
    if dealt_k == -2:                                             # P7.5
        for t in range(NA):
            st[HELD + t] = hand[t]
    elif dealt_k < 0:                                             # P2.4
        for s in range(players):
            st[HELD + s * NA + BARRIER] = 1
            st[HELD + s * NA + PREMONITION] = 1
    else:                                                         # P7.2, P7.3
        copies = st[COPIES_AT]                                    # P11: knob copies
        pile = np.empty(NA * copies, np.int64)
        for t in range(NA):
            for c in range(copies):
                pile[t * copies + c] = t
        shuffle(rng, pile)
        for s in range(players):
            for j in range(s * dealt_k, (s + 1) * dealt_k):
                st[HELD + s * NA + pile[j]] += 1
    for s in range(players):
        st[WAKE + s] = start
        for t in range(NA):
            st[DEALT + s * NA + t] = st[HELD + s * NA + t]
    for c in range(n):
        st[BACK_SEEN + c] = public_backs                          # P9.5


@njit(cache=True)
def can_use(st, seat, action):
    return st[HELD + seat * NA + action] > 0 and not (st[BANNED + seat] >> action) & 1


@njit(cache=True)
def use_card(st, seat, action):
    st[HELD + seat * NA + action] -= 1
    st[USED + seat * NA + action] += 1


@njit(cache=True)
def ask(st, cd, rng, script, kind, card, side):
    """The active seat's answer among st[OPTS:OPTS+OPT_N] (compass: OPT_N = flow length, answer 0/1
    with the order in st[ORDER]; recurring: OPT_N = candidates, answer a bit mask). P10.2: one option
    is taken without asking."""
    if kind != K_COMPASS and kind != K_RECURRING and st[OPT_N] == 1:
        return st[OPTS]
    if st[MODE] == MODE_SCRIPT:
        return script_choice(st, script, kind)
    seat = st[ACTIVE]
    if st[MODE] == MODE_BOTS and st[BOT + seat] == BOT_RANDOM:
        return random_choice(st, rng, kind)
    return threshold_choice(st, cd, kind, card, side)


@njit(cache=True)
def raise_wake(st, seat, change):
    """P3.1, P6.1."""
    w = st[WAKE + seat] + change
    if w < 0:
        w = 0
    st[WAKE + seat] = w
    if w >= st[WAKE_AT]:                                         # P11: knob wake
        st[WAKE + seat] = st[WAKE_AT]
        st[OVER] = 1
        st[WINNER] = -1 if st[PLAYERS] == 1 else 1 - seat


@njit(cache=True)
def play_game(st, cd, rng, script):
    while st[OVER] == 0 and st[STOP] == 0:
        play_turn(st, cd, rng, script)
        if st[TURNS] >= MAX_TURNS:
            raise RuntimeError("Pleasant Dreams game did not end")


@njit(cache=True)
def play_turn(st, cd, rng, script):
    st[TURNS] += 1
    seat = st[ACTIVE]
    n = start_of_turn(st, cd, rng, script, seat)
    if st[STOP]:
        return
    rest_of_turn(st, cd, rng, script, seat, n)


@njit(cache=True)
def rest_of_turn(st, cd, rng, script, seat, n):
    draw_flow(st, seat, n)
    offer_deep_sleep(st, cd, rng, script, seat)
    if st[STOP]:
        return
    offer_compass(st, cd, rng, script, seat)
    if st[STOP]:
        return
    resolve_flow(st, cd, rng, script, seat)
    if st[OVER] or st[STOP]:
        return
    offer_recurring(st, cd, rng, script, seat)
    if st[STOP]:
        return
    end_turn(st, seat)


@njit(cache=True)
def turn_options(st, seat):
    d = st[DECK_N]
    k = 0
    if d == 0:
        st[OPTS] = 0
        k = 1
    else:
        for n in range(1, min(st[FLOW_MAX], d) + 1):             # P11: knob flow
            st[OPTS + k] = n
            k += 1
        if can_use(st, seat, MIRROR):                            # P8.6
            st[OPTS + k] = TURN_MIRROR
            k += 1
        if can_use(st, seat, PREMONITION):
            st[OPTS + k] = TURN_PREMONITION
            k += 1
    st[OPT_N] = k


@njit(cache=True)
def start_of_turn(st, cd, rng, script, seat):
    while True:
        turn_options(st, seat)
        choice = ask_turn(st, cd, rng, script)
        if st[STOP]:
            return 0
        if choice < TURN_MIRROR:
            return choice
        use_start_card(st, cd, seat, choice)


@njit(cache=True)
def ask_turn(st, cd, rng, script):
    """The "turn" decision; the search bot searches here (and only here)."""
    if st[OPT_N] == 1:
        return st[OPTS]
    seat = st[ACTIVE]
    if st[MODE] == MODE_BOTS and st[BOT + seat] == BOT_SEARCH:
        return search_turn(st, cd, seat, rng, st[BUDGET + seat])
    return ask(st, cd, rng, script, K_TURN, -1, -1)


@njit(cache=True)
def use_start_card(st, cd, seat, choice):
    if choice == TURN_MIRROR:
        use_mirror(st, cd, seat)
    else:
        use_premonition(st, seat)


@njit(cache=True)
def use_mirror(st, cd, seat):
    """P8.6: the deck's order reverses and every card shows its other side."""
    use_card(st, seat, MIRROR)
    d = st[DECK_N]
    for i in range(d // 2):
        j = d - 1 - i
        for base in (DECK_CARD, DECK_SIDE, DECK_KNOWN):
            t = st[base + i]
            st[base + i] = st[base + j]
            st[base + j] = t
    for i in range(d):
        if cd[0, st[DECK_CARD + i]]:
            st[DECK_SIDE + i] = 1 - st[DECK_SIDE + i]
    reveal_top(st)


@njit(cache=True)
def reveal(st, card, side):
    """P9.5."""
    if side:
        st[BACK_SEEN + card] = 1


@njit(cache=True)
def reveal_top(st):
    """P4.4."""
    if st[DECK_N] > 0:
        reveal(st, st[DECK_CARD], st[DECK_SIDE])


@njit(cache=True)
def use_premonition(st, seat):
    """P8.1."""
    use_card(st, seat, PREMONITION)
    for i in range(min(st[PREMONITION_AT], st[DECK_N])):        # P11: knob premonition
        st[DECK_KNOWN + i] = ALL_SEATS
        reveal(st, st[DECK_CARD + i], st[DECK_SIDE + i])


@njit(cache=True)
def deck_pop_top(st):
    d = st[DECK_N]
    for i in range(d - 1):
        st[DECK_CARD + i] = st[DECK_CARD + i + 1]
        st[DECK_SIDE + i] = st[DECK_SIDE + i + 1]
        st[DECK_KNOWN + i] = st[DECK_KNOWN + i + 1]
    st[DECK_N] = d - 1


@njit(cache=True)
def deck_insert(st, pos, card, side, known):
    d = st[DECK_N]
    for i in range(d, pos, -1):
        st[DECK_CARD + i] = st[DECK_CARD + i - 1]
        st[DECK_SIDE + i] = st[DECK_SIDE + i - 1]
        st[DECK_KNOWN + i] = st[DECK_KNOWN + i - 1]
    st[DECK_CARD + pos] = card
    st[DECK_SIDE + pos] = side
    st[DECK_KNOWN + pos] = known
    st[DECK_N] = d + 1


@njit(cache=True)
def flow_push_front(st, card, side):
    for i in range(st[FLOW_N], 0, -1):
        st[FLOW_CARD + i] = st[FLOW_CARD + i - 1]
        st[FLOW_SIDE + i] = st[FLOW_SIDE + i - 1]
    st[FLOW_CARD] = card
    st[FLOW_SIDE] = side
    st[FLOW_N] += 1


@njit(cache=True)
def draw_flow(st, seat, n):
    """P4.3, P8.7: the flow in resolution order, cards set aside first."""
    st[FLOW_N] = n
    for i in range(n):
        st[FLOW_CARD + n - 1 - i] = st[DECK_CARD + i]
        st[FLOW_SIDE + n - 1 - i] = st[DECK_SIDE + i]
        reveal(st, st[DECK_CARD + i], st[DECK_SIDE + i])
    for _ in range(n):
        deck_pop_top(st)
    reveal_top(st)
    for j in range(st[ASIDE_N + seat] - 1, -1, -1):
        flow_push_front(st, st[ASIDE_CARD + seat * DCAP + j], st[ASIDE_SIDE + seat * DCAP + j])
    st[ASIDE_N + seat] = 0


@njit(cache=True)
def offer_deep_sleep(st, cd, rng, script, seat):
    """P8.3."""
    if st[DECK_N] == 0 or not can_use(st, seat, DEEP_SLEEP):
        return
    st[OPTS] = 0
    st[OPTS + 1] = 1
    st[OPT_N] = 2
    if ask(st, cd, rng, script, K_DEEP_SLEEP, -1, -1) == 1 and st[STOP] == 0:
        use_card(st, seat, DEEP_SLEEP)
        card = st[DECK_CARD]
        side = st[DECK_SIDE]
        deck_pop_top(st)
        flow_push_front(st, card, side)
        reveal_top(st)


@njit(cache=True)
def offer_compass(st, cd, rng, script, seat):
    """P8.5."""
    n = st[FLOW_N]
    if n < 2 or not can_use(st, seat, COMPASS):
        return
    st[OPT_N] = n
    if ask(st, cd, rng, script, K_COMPASS, -1, -1) == 1 and st[STOP] == 0:
        use_card(st, seat, COMPASS)
        tc = np.empty(n, np.int64)
        ts = np.empty(n, np.int64)
        for i in range(n):
            tc[i] = st[FLOW_CARD + st[ORDER + i]]
            ts[i] = st[FLOW_SIDE + st[ORDER + i]]
        for i in range(n):
            st[FLOW_CARD + i] = tc[i]
            st[FLOW_SIDE + i] = ts[i]


@njit(cache=True)
def resolve_flow(st, cd, rng, script, seat):
    """P4.3; the nightmares (P8.8) gather in st[NM_*]."""
    st[NM_N] = 0
    while st[FLOW_N] > 0 and st[OVER] == 0 and st[STOP] == 0:
        card = st[FLOW_CARD]
        side = st[FLOW_SIDE]
        for i in range(st[FLOW_N] - 1):
            st[FLOW_CARD + i] = st[FLOW_CARD + i + 1]
            st[FLOW_SIDE + i] = st[FLOW_SIDE + i + 1]
        st[FLOW_N] -= 1
        resolve_card(st, cd, rng, script, seat, card, side)
    if st[STOP] == 0:
        st[FLOW_N] = 0


@njit(cache=True)
def resolve_card(st, cd, rng, script, seat, card, side):
    sym = symbol(cd, card, side)
    while True:
        sym = symbol(cd, card, side)
        k = 1
        st[OPTS] = RESOLVE
        if (sym == CROSS or sym == EQUAL) and can_use(st, seat, BARRIER):
            st[OPTS + k] = USE_BARRIER
            k += 1
        if sym == CROSS and can_use(st, seat, SHIMMER):
            st[OPTS + k] = USE_SHIMMER
            k += 1
        if can_use(st, seat, SUPPRESSION):
            st[OPTS + k] = USE_SUPPRESSION
            k += 1
        st[OPT_N] = k
        choice = ask(st, cd, rng, script, K_RESOLVE, card, side)
        if st[STOP]:
            return
        if choice == USE_BARRIER:                                # P8.2
            use_card(st, seat, BARRIER)
            deck_insert(st, st[DECK_N], card, side, ALL_SEATS)
            return
        if choice == USE_SUPPRESSION:                            # P8.7
            use_card(st, seat, SUPPRESSION)
            a = st[ASIDE_N + seat]
            st[ASIDE_CARD + seat * DCAP + a] = card
            st[ASIDE_SIDE + seat * DCAP + a] = side
            st[ASIDE_N + seat] = a + 1
            return
        if choice == USE_SHIMMER:                                # P8.4
            use_card(st, seat, SHIMMER)
            side = 0
            continue
        break
    v = value(cd, card, side)
    raise_wake(st, seat, v)
    if st[OVER]:
        return
    if sym == FLIP and st[DECK_N] > 0:
        st[OPTS] = 0
        st[OPTS + 1] = 1
        st[OPT_N] = 2
        flip = ask(st, cd, rng, script, K_FLIP, card, side)
        if st[STOP]:
            return
        if flip == 1:
            raise_wake(st, seat, -st[FLIP_EXTRA_AT])             # P5.2 (knob flip)
            reveal(st, card, 1)
            insert_secretly(st, cd, rng, script, seat, card, 1)
            return
    d = st[DISCARD_N]                                            # P5.1, P5.3
    st[DISCARD_CARD + d] = card
    st[DISCARD_SIDE + d] = side
    st[DISCARD_N] = d + 1
    if v > 0:                                                    # P8.8
        m = st[NM_N]
        st[NM_CARD + m] = card
        st[NM_SIDE + m] = side
        st[NM_N] = m + 1


@njit(cache=True)
def place_options(st):
    """P5.4."""
    d = st[DECK_N]
    if st[PLAYERS] == 1:
        st[OPTS] = (d + 1) // 2
        st[OPT_N] = 1
    else:
        for i in range(d):
            st[OPTS + i] = i + 1
        st[OPT_N] = d


@njit(cache=True)
def insert_secretly(st, cd, rng, script, seat, card, side):
    place_options(st)
    pos = ask(st, cd, rng, script, K_PLACE, card, side)
    if st[STOP]:
        return
    deck_insert(st, pos, card, side, 1 << seat)
    keep = ~ALL_SEATS | (1 << seat)                              # P9.4
    for i in range(1, st[DECK_N]):
        st[DECK_KNOWN + i] &= keep


@njit(cache=True)
def offer_recurring(st, cd, rng, script, seat):
    """P8.8."""
    m = st[NM_N]
    if m == 0 or st[DECK_N] == 0 or not can_use(st, seat, RECURRING):
        return
    st[OPT_N] = m
    mask = ask(st, cd, rng, script, K_RECURRING, -1, -1)
    if mask == 0 or st[STOP]:
        return
    use_card(st, seat, RECURRING)
    for i in range(m):
        if (mask >> i) & 1:
            card = st[NM_CARD + i]
            side = st[NM_SIDE + i]
            remove_from_discard(st, card)
            insert_secretly(st, cd, rng, script, seat, card, side)
            if st[STOP]:
                return


@njit(cache=True)
def remove_from_discard(st, card):
    n = st[DISCARD_N]
    j = 0
    while st[DISCARD_CARD + j] != card:
        j += 1
    for i in range(j, n - 1):
        st[DISCARD_CARD + i] = st[DISCARD_CARD + i + 1]
        st[DISCARD_SIDE + i] = st[DISCARD_SIDE + i + 1]
    st[DISCARD_N] = n - 1


@njit(cache=True)
def end_turn(st, seat):
    """P6.2."""
    if st[DECK_N] == 0 and st[ASIDE_N + seat] == 0:
        st[OVER] = 1
        st[WINNER] = seat
        return
    st[ACTIVE] = (seat + 1) % st[PLAYERS]


# ---------------------------------------------------------------- bots (P9)

@njit(cache=True)
def knows(st, seat, i):
    return i == 0 or (st[DECK_KNOWN + i] >> seat) & 1 == 1


@njit(cache=True)
def face_known(st, card, side):
    return side == 0 or st[BACK_SEEN + card] == 1


@njit(cache=True)
def seen_value(st, cd, card, side):
    return value(cd, card, side) if face_known(st, card, side) else UNSEEN_BACK


@njit(cache=True)
def exact(st, seat, i):
    return knows(st, seat, i) and face_known(st, st[DECK_CARD + i], st[DECK_SIDE + i])


@njit(cache=True)
def unseen_total(st, cd, seat):
    total = 0
    count = 0
    low = WAKE_LIMIT
    high = -WAKE_LIMIT
    hidden = False
    for i in range(st[DECK_N]):
        if not exact(st, seat, i):
            c = st[DECK_CARD + i]
            sd = st[DECK_SIDE + i]
            v = seen_value(st, cd, c, sd)
            hidden = hidden or not face_known(st, c, sd)
            total += v
            count += 1
            low = min(low, v)
            high = max(high, v)
    return total, count, hidden or (count > 1 and low < high)


@njit(cache=True)
def random_choice(st, rng, kind):
    """reference.random_choice: the same draws in the same order."""
    n = st[OPT_N]
    if kind == K_COMPASS:
        if below(rng, 2) == 0:
            return 0
        for i in range(n):
            st[ORDER + i] = i
        for i in range(n - 1, 0, -1):
            j = below(rng, i + 1)
            t = st[ORDER + i]
            st[ORDER + i] = st[ORDER + j]
            st[ORDER + j] = t
        return 1
    if kind == K_RECURRING:
        mask = 0
        for i in range(n):
            if below(rng, 2):
                mask |= 1 << i
        return mask
    return st[OPTS + below(rng, n)]


@njit(cache=True)
def threshold_choice(st, cd, kind, card, side):
    seat = st[ACTIVE]
    if kind == K_TURN:
        return threshold_turn(st, cd, seat)
    if kind == K_DEEP_SLEEP:
        return threshold_deep_sleep(st, cd, seat)
    if kind == K_COMPASS:
        return threshold_compass(st, cd, seat)
    if kind == K_RESOLVE:
        return threshold_resolve(st, cd, seat, card, side)
    if kind == K_FLIP:
        return threshold_flip(st, cd, seat, card)
    if kind == K_PLACE:
        return threshold_place(st, cd, card, side)
    return threshold_recurring(st)


@njit(cache=True)
def has_option(st, choice):
    for i in range(st[OPT_N]):
        if st[OPTS + i] == choice:
            return True
    return False


@njit(cache=True)
def threshold_turn(st, cd, seat):
    d = st[DECK_N]
    if has_option(st, TURN_MIRROR):
        delta = 0
        for i in range(d):
            c = st[DECK_CARD + i]
            s = st[DECK_SIDE + i]
            delta += seen_value(st, cd, c, 1 - s) - seen_value(st, cd, c, s)
        if delta <= -2:
            return TURN_MIRROR
    if has_option(st, TURN_PREMONITION) and st[WAKE + seat] >= 2:
        for i in range(1, min(st[PREMONITION_AT], d)):
            if not exact(st, seat, i):
                return TURN_PREMONITION
    if d == 0:
        return 0
    total, count, varied = unseen_total(st, cd, seat)
    scale = max(count, 1)
    best = 1
    best_final = -1
    wake_at = st[WAKE_AT]
    for n in range(1, min(st[FLOW_MAX], d) + 1):
        w = st[WAKE + seat] * scale
        safe = True
        all_known = True
        for j in range(st[ASIDE_N + seat] - 1, -1, -1):
            w = max(0, w + value(cd, st[ASIDE_CARD + seat * DCAP + j], st[ASIDE_SIDE + seat * DCAP + j]) * scale)
        for i in range(n - 1, -1, -1):
            if exact(st, seat, i):
                w = max(0, w + value(cd, st[DECK_CARD + i], st[DECK_SIDE + i]) * scale)
            else:
                all_known = all_known and not varied
                w = max(0, w + total)
            limit = wake_at if all_known else wake_at - 1
            if w >= limit * scale:
                safe = False
        if not safe:
            continue
        if n == d:
            return n
        if best_final < 0 or w < best_final:
            best = n
            best_final = w
    return best


@njit(cache=True)
def threshold_deep_sleep(st, cd, seat):
    return 1 if value(cd, st[DECK_CARD], st[DECK_SIDE]) <= -1 and st[WAKE + seat] >= 1 else 0


@njit(cache=True)
def flow_outcome(st, cd, seat, order, n):
    """(woke, final wakefulness) of the flow taken in ``order``, by value alone."""
    w = st[WAKE + seat]
    for i in range(n):
        w = max(0, w + value(cd, st[FLOW_CARD + order[i]], st[FLOW_SIDE + order[i]]))
        if w >= st[WAKE_AT]:
            return 1, w
    return 0, w


@njit(cache=True)
def threshold_compass(st, cd, seat):
    n = st[FLOW_N]
    taken = np.zeros(n, np.bool_)
    order = np.empty(n, np.int64)
    w = st[WAKE + seat]
    for k in range(n):
        pick = -1
        for i in range(n):
            if taken[i]:
                continue
            v = value(cd, st[FLOW_CARD + i], st[FLOW_SIDE + i])
            if w + v < st[WAKE_AT] and (pick < 0 or v > value(cd, st[FLOW_CARD + pick], st[FLOW_SIDE + pick])):
                pick = i
        if pick < 0:
            for i in range(n):
                if taken[i]:
                    continue
                if pick < 0 or value(cd, st[FLOW_CARD + i], st[FLOW_SIDE + i]) < value(cd, st[FLOW_CARD + pick], st[FLOW_SIDE + pick]):
                    pick = i
        order[k] = pick
        taken[pick] = True
        w = max(0, w + value(cd, st[FLOW_CARD + pick], st[FLOW_SIDE + pick]))
    ident = np.arange(n)
    a0, a1 = flow_outcome(st, cd, seat, order, n)
    b0, b1 = flow_outcome(st, cd, seat, ident, n)
    if a0 < b0 or (a0 == b0 and a1 < b1):
        for i in range(n):
            st[ORDER + i] = order[i]
        return 1
    return 0


@njit(cache=True)
def threshold_resolve(st, cd, seat, card, side):
    v = value(cd, card, side)
    w = st[WAKE + seat]
    front = cd[1, card]
    limit = st[WAKE_AT]
    if has_option(st, USE_BARRIER) and (w + v >= limit or (v >= 3 and st[DECK_N] > 0)):
        return USE_BARRIER
    if has_option(st, USE_SHIMMER) and front < v and (w + v >= limit or v - front >= 2):
        return USE_SHIMMER
    if has_option(st, USE_SUPPRESSION) and w + v >= limit:
        return USE_SUPPRESSION
    return RESOLVE


@njit(cache=True)
def threshold_flip(st, cd, seat, card):
    return 1 if st[WAKE + seat] >= 1 and (st[PLAYERS] == 2 or seen_value(st, cd, card, 1) <= 1) else 0


@njit(cache=True)
def threshold_place(st, cd, card, side):
    return st[OPTS] if value(cd, card, side) > 0 else st[OPTS + st[OPT_N] - 1]


@njit(cache=True)
def threshold_recurring(st):
    return (1 << st[OPT_N]) - 1 if st[PLAYERS] == 2 else 0


@njit(cache=True)
def model_cards(st, cd):
    """reference.model_cards (P9.5)."""
    out = cd.copy()
    for c in range(cd.shape[1]):
        if cd[0, c] and st[BACK_SEEN + c] == 0:
            out[2, c] = UNSEEN_BACK
    return out


@njit(cache=True)
def sample_world(st, seat, rng):
    """reference.sample_world: the unknown slots' contents, sorted (P9.4), shuffled among those slots (P9.3)."""
    world = st.copy()
    d = st[DECK_N]
    slots = np.empty(d, np.int64)
    keys = np.empty(d, np.int64)
    m = 0
    for i in range(d):
        if not knows(st, seat, i):
            slots[m] = i
            keys[m] = (st[DECK_CARD + i] * 2 + st[DECK_SIDE + i]) * 4 + st[DECK_KNOWN + i]
            m += 1
    keys[:m] = np.sort(keys[:m])
    for i in range(m - 1, 0, -1):
        j = below(rng, i + 1)
        t = keys[i]
        keys[i] = keys[j]
        keys[j] = t
    for k in range(m):
        world[DECK_CARD + slots[k]] = keys[k] // 8
        world[DECK_SIDE + slots[k]] = keys[k] // 4 % 2
        world[DECK_KNOWN + slots[k]] = keys[k] % 4
    return world


@njit(cache=True)
def search_turn(st, cd, seat, rng, budget):
    k = st[OPT_N]
    options = st[OPTS:OPTS + k].copy()
    wins = np.zeros(k, np.int64)
    cdm = model_cards(st, cd)
    for _ in range(budget):
        world = sample_world(st, seat, rng)
        for j in range(k):
            wins[j] += playout(world.copy(), cdm, seat, options[j])
    best = 0
    for j in range(1, k):
        if wins[j] > wins[best]:
            best = j
    return options[best]


@njit(cache=True)
def playout(st, cd, seat, option):
    st[MODE] = MODE_PLAYOUT
    rng = np.zeros(1, np.uint64)
    script = np.zeros((0, SC_WIDTH), np.int64)
    if option < TURN_MIRROR:
        n = option
    else:
        use_start_card(st, cd, seat, option)
        n = playout_start_of_turn(st, cd, seat)
    rest_of_turn(st, cd, rng, script, seat, n)
    while st[OVER] == 0:
        st[TURNS] += 1
        n = playout_start_of_turn(st, cd, st[ACTIVE])
        rest_of_turn(st, cd, rng, script, st[ACTIVE], n)
        if st[TURNS] >= MAX_TURNS:
            raise RuntimeError("Pleasant Dreams game did not end")
    return 1 if st[WINNER] == (0 if st[PLAYERS] == 1 else seat) else 0


@njit(cache=True)
def playout_start_of_turn(st, cd, seat):
    while True:
        turn_options(st, seat)
        choice = st[OPTS] if st[OPT_N] == 1 else threshold_turn(st, cd, seat)
        if choice < TURN_MIRROR:
            return choice
        use_start_card(st, cd, seat, choice)


# ---------------------------------------------------------------- scripts (scenarios) and batches

@njit(cache=True)
def script_choice(st, script, kind):
    """The next scripted answer that is legal; refused ones are marked (SC_OK = 0) and skipped.
    When the script runs out the game stops here (STOP, PENDING = kind)."""
    while st[SCRIPT_POS] < script.shape[0]:
        row = st[SCRIPT_POS]
        st[SCRIPT_POS] += 1
        script[row, SC_KIND] = kind
        c = script[row, SC_CHOICE]
        ok = False
        n = st[OPT_N]
        if kind == K_COMPASS:
            if c == 0:
                ok = True
            elif c == 1 and script[row, SC_LEN] == n:
                seen = np.zeros(n, np.bool_)
                ok = True
                for i in range(n):
                    o = script[row, SC_ORDER + i]
                    if o < 0 or o >= n or seen[o]:
                        ok = False
                        break
                    seen[o] = True
                if ok:
                    for i in range(n):
                        st[ORDER + i] = script[row, SC_ORDER + i]
        elif kind == K_RECURRING:
            ok = 0 <= c < (1 << n)
        else:
            ok = has_option(st, c)
        script[row, SC_OK] = 1 if ok else 0
        if ok:
            return c
    st[STOP] = 1
    st[PENDING] = kind
    return 0


@njit(cache=True)
def play_batch(cd, players, start, dealt_k, hand, public_backs, knobs, bots, budgets, banned, seed_mixed, first_game,
               n_games, winner, turns, wake, deck_left, dealt, used):
    st = np.zeros(SIZE, np.int64)
    script = np.zeros((0, SC_WIDTH), np.int64)
    rng = np.empty(1, np.uint64)
    for i in range(n_games):
        g = first_game + i
        new_game(st, cd, players, start, dealt_k, hand, public_backs, knobs, seed_mixed, g)
        for s in range(players):
            st[BOT + s] = bots[s]
            st[BUDGET + s] = budgets[s]
            st[BANNED + s] = banned[s]
        rng[0] = decision_state(seed_mixed, np.uint64(g))
        play_game(st, cd, rng, script)
        winner[i] = st[WINNER]
        turns[i] = st[TURNS]
        deck_left[i] = st[DECK_N]
        for s in range(players):
            wake[i, s] = st[WAKE + s]
            for t in range(NA):
                dealt[i, s, t] = st[DEALT + s * NA + t]
                used[i, s, t] = st[USED + s * NA + t]


def card_array(setup: Setup) -> np.ndarray:
    c = setup.cards
    return np.array([[int(f) for f in c.flip], list(c.front), list(c.back)], dtype=np.int64)


def knob_array(setup: Setup) -> np.ndarray:
    """The rules knobs the fast engine keeps in its state (set_knobs order; P11)."""
    return np.array([setup.wake_limit, setup.max_flow, setup.flip_extra, setup.premonition, setup.copies], np.int64)


def play_games_fast(setup: Setup, bots: list[Bot], seed: int, first_game: int, n_games: int) -> dict:
    out = empty_results(setup, first_game, n_games)
    p = setup.players
    hand = np.array(setup.hand if setup.hand is not None else (0,) * NA, np.int64)
    play_batch(card_array(setup), p, setup.start, -2 if setup.hand is not None else setup.dealt_at_random(),
               hand, int(setup.public_backs), knob_array(setup), np.array([b.kind for b in bots], np.int64), np.array([b.budget for b in bots], np.int64),
               np.array([b.banned for b in bots], np.int64), seed_key(seed), first_game, n_games,
               out["winner"], out["turns"], out["wake"], out["deck_left"], out["dealt"], out["used"])
    return out
