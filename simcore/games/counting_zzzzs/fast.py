"""Counting Zzzzs, the numba engine: :mod:`.reference` (and the bots of :mod:`.bots`) function for function.

A game is one int64 array ``st`` (fixed-size state, offsets below); the cards are ``cd`` (rows of
:meth:`CardSet.array`), the modifiers ``md`` ((M, 3): card, points, needed card, sorted by card) with
``ms`` (row c's modifiers are ``md[ms[c]:ms[c + 1]]``); the decision stream is a 1-element uint64 array
(simcore.fast.rng, bit-identical to simcore.rng). Each decision kind has its own option area in ``st``
(a Bender's options are listed while the second play's are still being scored). The reference's
``Pending`` exception (a scenario's script ran out) is the ``STOP`` flag here, checked after every
decision.

The search bot's playouts use their own turn loop (:func:`playout_turn`, :func:`playout_second_step`) so
that no function reaches itself through the search (numba types no recursion; every kernel caches).
Compiled on first use only (this module is imported lazily).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.fast.rng import below, shuffle, stream_state

from .common import (BEND_OWN, BEND_THEME, BEND_TYPE, BENDER, BLOCK, CANCEL_ANY, CAUSE_CARD, CAUSE_MORNING,
                     CAUSE_STUCK, CAUSE_TEN, CONTEXT, END_FORTY, END_MORNING, FORCE, FORCE_NEGATIVE,
                     FORCE_POSITIVE, FORCE_THEME0, FORCED_NEG, FORCED_POS, HAND_SIZE, MAX_DREAM, MAX_TOTAL,
                     MAX_TYPES, MIN_SCORED, NEGATIVE, POSITIVE, UNFORCED, WAKE_ALL, WAKE_ONE, WAKE_SELF, WAKE_UP,
                     WIN_POINTS)
from .bots import BIG, BLOCK_COST, FOLLOW, HALF_POINT, THEME_FORCE
from .reference import M_BENDER, M_DISCARD, M_ELEMENT, M_FORCE, M_WAKE, MAX_TURNS, MOVE, NO_BEND, PASS, SLOT, TARGET

# card table rows (CardSet.array)
C_ELEMENT, C_KIND, C_THEMES, C_POLARITY, C_PLUS, C_MINUS, C_EFFECT, C_COUNT = range(8)
# decision kinds (reference.KINDS order) and how ask() answers
K_ELEMENT, K_SECOND, K_EXTRA, K_BLOCK = range(4)
MODE_BOTS, MODE_PLAYOUT, MODE_SCRIPT = 0, 1, 2
BOT_RANDOM, BOT_GREEDY, BOT_SEARCH = 0, 1, 2
MP = 4                          # most seats
MT = MAX_TYPES
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
DISC = HAND_N + MP
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
            st[HAND + s * MT + c] += 1
            st[HAND_N + s] += 1


@njit(cache=True)
def ask(st, cd, md, ms, rng, script, seat, kind, info):
    """Seat ``seat``'s answer among the options of ``kind``; one option is taken without asking (Z18.1)."""
    n = st[OPT_N + kind]
    if n == 1:
        return st[OPTS + kind * OPTCAP]
    if st[MODE] == MODE_SCRIPT:
        return script_choice(st, script, seat, kind)
    if st[MODE] == MODE_BOTS and st[BOT + seat] == BOT_RANDOM:
        return st[OPTS + kind * OPTCAP + below(rng, n)]
    return greedy_choice(st, cd, md, ms, seat, kind, info)


@njit(cache=True)
def ask_play(st, cd, md, ms, rng, script, seat, kind):
    """The element and second decisions: the only ones the search bot searches."""
    if st[OPT_N + kind] > 1 and st[MODE] == MODE_BOTS and st[BOT + seat] == BOT_SEARCH:
        return search_choice(st, cd, md, ms, rng, seat, kind, st[BUDGET + seat])
    return ask(st, cd, md, ms, rng, script, seat, kind, 0)


@njit(cache=True)
def may_play(st, seat, kind):
    return (st[BANNED + seat] >> kind) & 1 == 0


# ---------------------------------------------------------------- the turn (Z3)

@njit(cache=True)
def play_game(st, cd, md, ms, rng, script):
    while st[OVER] == 0 and st[STOP] == 0:
        play_turn(st, cd, md, ms, rng, script)
        if st[TURNS] >= MAX_TURNS:
            raise RuntimeError("Counting Zzzzs game did not end")


@njit(cache=True)
def play_turn(st, cd, md, ms, rng, script):
    st[TURNS] += 1
    seat = st[ACTIVE]
    if draw_up(st, cd, md, ms, seat):
        return
    if element_step(st, cd, md, ms, rng, script, seat) and st[OVER] == 0 and st[STOP] == 0:
        second_step(st, cd, md, ms, rng, script, seat)
    if st[OVER] == 0 and st[STOP] == 0:
        end_turn(st, seat)


@njit(cache=True)
def draw_up(st, cd, md, ms, seat):
    """Z3.1, Z4.1."""
    while st[HAND_N + seat] < HAND_SIZE:
        c = st[DECK + st[DECK_POS]]
        st[DECK_POS] += 1
        st[HAND + seat * MT + c] += 1
        st[HAND_N + seat] += 1
        if st[DECK_POS] == st[DECK_END]:
            morning(st, cd, md, ms)
            return True
    return False


@njit(cache=True)
def element_step(st, cd, md, ms, rng, script, seat):
    element_options(st, cd, seat)
    if st[OPT_N + K_ELEMENT] == 0:
        stuck(st, cd, md, ms, seat)
        return False
    card = ask_play(st, cd, md, ms, rng, script, seat, K_ELEMENT)
    if st[STOP]:
        return False
    return play_own_element(st, cd, md, ms, seat, card)


@njit(cache=True)
def second_step(st, cd, md, ms, rng, script, seat):
    second_options(st, cd, seat)
    code = ask_play(st, cd, md, ms, rng, script, seat, K_SECOND)
    if st[STOP]:
        return
    do_second(st, cd, md, ms, rng, script, seat, code)


@njit(cache=True)
def end_turn(st, seat):
    st[ACTIVE] = (seat + 1) % st[PLAYERS]


@njit(cache=True)
def play_own_element(st, cd, md, ms, seat, card):
    return not put_element(st, cd, md, ms, seat, seat, card)


# ---------------------------------------------------------------- sequencing (Z5, Z6)

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
def element_options(st, cd, seat):
    k = 0
    base = OPTS + K_ELEMENT * OPTCAP
    for c in range(st[NTYPES]):
        if st[HAND + seat * MT + c] > 0 and cd[C_ELEMENT, c] == 1 and can_follow(st, cd, seat, c, NO_BEND, True):
            st[base + k] = c
            k += 1
    st[OPT_N + K_ELEMENT] = k


@njit(cache=True)
def put_element(st, cd, md, ms, by, owner, card):
    """Z12.1, Z6.2, Z8.1; True when the owner woke."""
    st[HAND + by * MT + card] -= 1
    st[HAND_N + by] -= 1
    n = st[DREAM_N + owner]
    st[DREAM_CARD + owner * MAX_DREAM + n] = card
    st[DREAM_FORCED + owner * MAX_DREAM + n] = UNFORCED
    st[DREAM_FCARD + owner * MAX_DREAM + n] = -1
    st[DREAM_N + owner] = n + 1
    if st[HOLDER_CARD + owner] >= 0:
        st[DISC + st[HOLDER_CARD + owner]] += 1
        st[HOLDER_CARD + owner] = -1
        st[HOLDER_THEME + owner] = -1
    st[DREAM_PTS + owner] = dream_points(st, cd, md, ms, owner, -1, -1, -1)
    if n + 1 >= MAX_DREAM:
        wake(st, cd, md, ms, owner, CAUSE_TEN, False)
        check_forty(st)
        return True
    return False


# ---------------------------------------------------------------- scoring and waking (Z14-Z16)

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
def wake(st, cd, md, ms, seat, cause, at_morning):
    n = st[DREAM_N + seat]
    base = seat * MAX_DREAM
    if n > 0:
        st[S_DREAMS + seat] += 1
        st[S_ELEMS + seat] += n
        st[S_WOKE + seat * 4 + cause] += 1
        if n >= MIN_SCORED or at_morning:
            st[SCORE + seat] += st[DREAM_PTS + seat]
            st[S_SCORED + seat] += 1
            for i in range(n):
                st[S_ESCORED + seat * MT + st[DREAM_CARD + base + i]] += 1
    for i in range(n):
        st[DISC + st[DREAM_CARD + base + i]] += 1
        if st[DREAM_FCARD + base + i] >= 0:
            st[DISC + st[DREAM_FCARD + base + i]] += 1
    if st[HOLDER_CARD + seat] >= 0:
        st[DISC + st[HOLDER_CARD + seat]] += 1
    st[DREAM_N + seat] = 0
    st[DREAM_PTS + seat] = 0
    st[HOLDER_CARD + seat] = -1
    st[HOLDER_THEME + seat] = -1


@njit(cache=True)
def set_winners(st, end):
    p = st[PLAYERS]
    best = st[SCORE]
    for s in range(1, p):
        best = max(best, st[SCORE + s])
    for s in range(p):
        st[WINNERS + s] = 1 if st[SCORE + s] == best else 0
    st[OVER] = 1
    st[END] = end


@njit(cache=True)
def check_forty(st):
    if st[OVER]:
        return
    for s in range(st[PLAYERS]):
        if st[SCORE + s] >= WIN_POINTS:
            set_winners(st, END_FORTY)
            return


@njit(cache=True)
def morning(st, cd, md, ms):
    for s in range(st[PLAYERS]):
        wake(st, cd, md, ms, s, CAUSE_MORNING, True)
    set_winners(st, END_MORNING)


@njit(cache=True)
def stuck(st, cd, md, ms, seat):
    for c in range(st[NTYPES]):
        st[DISC + c] += st[HAND + seat * MT + c]
        st[HAND + seat * MT + c] = 0
    st[HAND_N + seat] = 0
    wake(st, cd, md, ms, seat, CAUSE_STUCK, False)
    check_forty(st)


# ---------------------------------------------------------------- the second play (Z3.3, Z9-Z13)

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
def second_options(st, cd, seat):
    p = st[PLAYERS]
    base = OPTS + K_SECOND * OPTCAP
    k = 0
    for c in range(st[NTYPES]):
        if st[HAND + seat * MT + c] == 0:
            continue
        st[base + k] = M_DISCARD * MOVE + c
        k += 1
        if cd[C_ELEMENT, c] == 1:
            for s in range(p):
                if s != seat and can_follow(st, cd, s, c, NO_BEND, False):
                    st[base + k] = M_ELEMENT * MOVE + s * TARGET + c
                    k += 1
            continue
        kind = cd[C_KIND, c]
        effect = cd[C_EFFECT, c]
        if kind == BLOCK or not may_play(st, seat, kind):
            continue
        if kind == WAKE_UP:
            if effect == WAKE_ONE:
                for s in range(p):
                    if s != seat and st[DREAM_N + s] > 0:
                        st[base + k] = M_WAKE * MOVE + s * TARGET + c
                        k += 1
            else:
                st[base + k] = M_WAKE * MOVE + c
                k += 1
        elif kind == BENDER:
            st[base + k] = M_BENDER * MOVE + c
            k += 1
        elif effect <= FORCE_NEGATIVE:
            for s in range(p):
                for i in range(st[DREAM_N + s]):
                    e = st[DREAM_CARD + s * MAX_DREAM + i]
                    if cd[C_POLARITY, e] == CONTEXT and st[DREAM_FORCED + s * MAX_DREAM + i] == UNFORCED:
                        st[base + k] = M_FORCE * MOVE + (SLOT * s + i) * TARGET + c
                        k += 1
        else:
            for s in range(p):
                if st[DREAM_N + s] > 0 and st[HOLDER_CARD + s] < 0:
                    st[base + k] = M_FORCE * MOVE + s * TARGET + c
                    k += 1
    st[OPT_N + K_SECOND] = k
    sort_options(st, K_SECOND)


@njit(cache=True)
def do_second(st, cd, md, ms, rng, script, seat, code):
    move = code // MOVE
    target = code % MOVE // TARGET
    card = code % TARGET
    if move == M_DISCARD:
        st[HAND + seat * MT + card] -= 1
        st[HAND_N + seat] -= 1
        st[DISC + card] += 1
        return
    if move == M_ELEMENT:
        put_element(st, cd, md, ms, seat, target, card)
        return
    kind = cd[C_KIND, card]
    st[HAND + seat * MT + card] -= 1
    st[HAND_N + seat] -= 1
    st[DISC + card] += 1
    st[S_PLAYED + seat * 4 + kind] += 1
    if blocked(st, cd, md, ms, rng, script, seat, code):
        st[S_BLOCKED + seat * 4 + kind] += 1
        return
    if st[STOP]:
        return
    if move == M_WAKE:
        wake_targets(st, cd, md, ms, seat, target, card)
    elif move == M_BENDER:
        extra_play(st, cd, md, ms, rng, script, seat, cd[C_EFFECT, card])
    else:
        place_force(st, cd, md, ms, target, card)


@njit(cache=True)
def blocked(st, cd, md, ms, rng, script, seat, code):
    """Z13.2."""
    kind = cd[C_KIND, code % TARGET]
    p = st[PLAYERS]
    base = OPTS + K_BLOCK * OPTCAP
    for k in range(1, p):
        b = (seat + k) % p
        if not may_play(st, b, BLOCK):
            continue
        st[base] = PASS
        n = 1
        for c in range(st[NTYPES]):
            if st[HAND + b * MT + c] > 0 and cd[C_ELEMENT, c] == 0 and cd[C_KIND, c] == BLOCK and \
                    (cd[C_EFFECT, c] == kind or cd[C_EFFECT, c] == CANCEL_ANY):
                st[base + n] = c
                n += 1
        st[OPT_N + K_BLOCK] = n
        choice = ask(st, cd, md, ms, rng, script, b, K_BLOCK, code)
        if st[STOP]:
            return False
        if choice != PASS:
            st[HAND + b * MT + choice] -= 1
            st[HAND_N + b] -= 1
            st[DISC + choice] += 1
            st[S_PLAYED + b * 4 + BLOCK] += 1
            return True
    return False


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
def wake_targets(st, cd, md, ms, seat, target, card):
    who = np.empty(MP, np.int64)
    k = wake_seats(st, cd, seat, target, card, who)
    for i in range(k):
        wake(st, cd, md, ms, who[i], CAUSE_CARD, False)
    check_forty(st)


@njit(cache=True)
def extra_options(st, cd, seat, bend):
    base = OPTS + K_EXTRA * OPTCAP
    st[base] = PASS
    k = 1
    rule = NO_BEND if bend == BEND_OWN else bend
    for c in range(st[NTYPES]):
        if st[HAND + seat * MT + c] == 0 or cd[C_ELEMENT, c] == 0:
            continue
        for s in range(st[PLAYERS]):
            if bend == BEND_OWN and s != seat:
                continue
            if can_follow(st, cd, s, c, rule, s == seat):
                st[base + k] = M_ELEMENT * MOVE + s * TARGET + c
                k += 1
    st[OPT_N + K_EXTRA] = k
    sort_options(st, K_EXTRA)


@njit(cache=True)
def extra_play(st, cd, md, ms, rng, script, seat, bend):
    extra_options(st, cd, seat, bend)
    code = ask(st, cd, md, ms, rng, script, seat, K_EXTRA, bend)
    if st[STOP] or code == PASS:
        return
    put_element(st, cd, md, ms, seat, code % MOVE // TARGET, code % TARGET)


@njit(cache=True)
def place_force(st, cd, md, ms, target, card):
    effect = cd[C_EFFECT, card]
    st[DISC + card] -= 1
    if effect <= FORCE_NEGATIVE:
        owner = target // SLOT
        pos = target % SLOT
        st[DREAM_FORCED + owner * MAX_DREAM + pos] = FORCED_POS if effect == FORCE_POSITIVE else FORCED_NEG
        st[DREAM_FCARD + owner * MAX_DREAM + pos] = card
        st[DREAM_PTS + owner] = dream_points(st, cd, md, ms, owner, -1, -1, -1)
    else:
        st[HOLDER_THEME + target] = effect - FORCE_THEME0
        st[HOLDER_CARD + target] = card


# ---------------------------------------------------------------- greedy (bots.py, Z17.1)

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
    for d in range(st[NTYPES]):
        held = st[HAND + seat * MT + d] - (1 if d == c else 0)
        if cd[C_ELEMENT, d] == 1 and held > 0 and cd[C_KIND, d] != cd[C_KIND, c] and \
                (cd[C_THEMES, d] & cd[C_THEMES, c]) != 0:
            out += 1
    return out


@njit(cache=True)
def element_change(st, cd, md, ms, owner, card):
    n = st[DREAM_N + owner]
    before = asleep_value(st[DREAM_PTS + owner], n)
    w2 = dream_points(st, cd, md, ms, owner, card, -1, -1)
    n2 = n + 1
    if n2 >= MAX_DREAM:
        return banked_value(w2, n2) - before, 1 if st[SCORE + owner] + w2 >= WIN_POINTS else 0
    return asleep_value(w2, n2) - before, 0


@njit(cache=True)
def wake_change(st, cd, md, ms, who, k, me):
    q = st[PLAYERS] - 1
    value = 0
    best = -(1 << 40)
    mine = 0
    for s in range(st[PLAYERS]):
        t = st[SCORE + s]
        hit = False
        for i in range(k):
            if who[i] == s:
                hit = True
        if hit:
            n = st[DREAM_N + s]
            w = st[DREAM_PTS + s]
            value += (q if s == me else -1) * (banked_value(w, n) - asleep_value(w, n))
            if n >= MIN_SCORED:
                t += w
        if s == me:
            mine = t
        best = max(best, t)
    if best >= WIN_POINTS:
        value += BIG if mine == best else -BIG
    return value


@njit(cache=True)
def others_win(st, cd, md, ms, who, k, me):
    best = -(1 << 40)
    mine = 0
    for s in range(st[PLAYERS]):
        t = st[SCORE + s]
        for i in range(k):
            if who[i] == s and st[DREAM_N + s] >= MIN_SCORED:
                t += st[DREAM_PTS + s]
        if s == me:
            mine = t
        best = max(best, t)
    return -BIG if best >= WIN_POINTS and mine != best else 0


@njit(cache=True)
def force_change(st, cd, md, ms, owner, pos, card):
    w = st[DREAM_PTS + owner]
    f = FORCED_POS if cd[C_EFFECT, card] == FORCE_POSITIVE else FORCED_NEG
    return 10 * (dream_points(st, cd, md, ms, owner, -1, pos, f) - w)


@njit(cache=True)
def extra_value(st, cd, md, ms, seat, code):
    if code == PASS:
        return 0
    owner = code % MOVE // TARGET
    delta, win = element_change(st, cd, md, ms, owner, code % TARGET)
    if owner == seat:
        return (st[PLAYERS] - 1) * delta + BIG * win
    return -delta - BIG * win


@njit(cache=True)
def greedy_element(st, cd, md, ms, seat):
    base = OPTS + K_ELEMENT * OPTCAP
    best = st[base]
    best_value = 0
    for i in range(st[OPT_N + K_ELEMENT]):
        c = st[base + i]
        delta, win = element_change(st, cd, md, ms, seat, c)
        value = delta + FOLLOW * followers(st, cd, seat, c) + BIG * win
        if i == 0 or value > best_value:
            best = c
            best_value = value
    return best


@njit(cache=True)
def second_value(st, cd, md, ms, seat, code):
    q = st[PLAYERS] - 1
    move = code // MOVE
    target = code % MOVE // TARGET
    card = code % TARGET
    value = -q * keep(cd, card)
    if move == M_ELEMENT:
        delta, win = element_change(st, cd, md, ms, target, card)
        return value - delta - BIG * win
    if move == M_WAKE:
        who = np.empty(MP, np.int64)
        k = wake_seats(st, cd, seat, target, card, who)
        return value + wake_change(st, cd, md, ms, who, k, seat)
    if move == M_BENDER:
        extra_options(st, cd, seat, cd[C_EFFECT, card])
        best = 0
        for i in range(st[OPT_N + K_EXTRA]):
            v = extra_value(st, cd, md, ms, seat, st[OPTS + K_EXTRA * OPTCAP + i])
            if i == 0 or v > best:
                best = v
        return value + best
    if move == M_FORCE:
        if cd[C_EFFECT, card] <= FORCE_NEGATIVE:
            owner = target // SLOT
            delta = force_change(st, cd, md, ms, owner, target % SLOT, card)
            return value + (q * delta if owner == seat else -delta)
        return value + (-q * THEME_FORCE if target == seat else THEME_FORCE)
    return value


@njit(cache=True)
def greedy_second(st, cd, md, ms, seat):
    base = OPTS + K_SECOND * OPTCAP
    best = st[base]
    best_value = 0
    for i in range(st[OPT_N + K_SECOND]):
        code = st[base + i]
        value = second_value(st, cd, md, ms, seat, code)
        if i == 0 or value > best_value:
            best = code
            best_value = value
    return best


@njit(cache=True)
def greedy_extra(st, cd, md, ms, seat):
    base = OPTS + K_EXTRA * OPTCAP
    best = st[base]
    best_value = 0
    for i in range(st[OPT_N + K_EXTRA]):
        code = st[base + i]
        value = extra_value(st, cd, md, ms, seat, code)
        if i == 0 or value > best_value:
            best = code
            best_value = value
    return best


@njit(cache=True)
def greedy_block(st, cd, md, ms, seat, action):
    target = action % MOVE // TARGET
    card = action % TARGET
    kind = cd[C_KIND, card]
    delta = 0
    if kind == WAKE_UP:
        who = np.empty(MP, np.int64)
        k = wake_seats(st, cd, st[ACTIVE], target, card, who)
        if k > 0:
            hit = False
            for i in range(k):
                if who[i] == seat:
                    hit = True
            delta = wake_change(st, cd, md, ms, who, k, seat) if hit else others_win(st, cd, md, ms, who, k, seat)
    elif kind == FORCE:
        if cd[C_EFFECT, card] <= FORCE_NEGATIVE:
            if target // SLOT == seat:
                delta = force_change(st, cd, md, ms, seat, target % SLOT, card)
        elif target == seat:
            delta = -THEME_FORCE
    base = OPTS + K_BLOCK * OPTCAP
    return st[base + 1] if delta < -BLOCK_COST else st[base]


@njit(cache=True)
def greedy_choice(st, cd, md, ms, seat, kind, info):
    if kind == K_ELEMENT:
        return greedy_element(st, cd, md, ms, seat)
    if kind == K_SECOND:
        return greedy_second(st, cd, md, ms, seat)
    if kind == K_EXTRA:
        return greedy_extra(st, cd, md, ms, seat)
    return greedy_block(st, cd, md, ms, seat, info)


# ---------------------------------------------------------------- scripts (scenarios)

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


# The search bot (search_choice, called by ask_play) lives in fast_search, which builds on this module:
# imported last, when every name it takes from here exists (numba resolves it at the first compile).
from .fast_search import search_choice  # noqa: E402
