"""Counting Zzzzs, the numba engine: :mod:`.reference` (and the bots of :mod:`.bots`) function for function.

A game is one int64 array ``st`` (fixed-size state, offsets in :mod:`.fast_state`); the cards and their
modifiers are one flat int64 array ``cd`` (:func:`.fast_state.card_table`); the decision stream is a 1-element uint64 array
(simcore.fast_rng, bit-identical to simcore.rng). Each decision kind has its own option area in ``st``
(a Bender's options are listed while the second play's are still being scored). The reference's
``Pending`` exception (a scenario's script ran out) is the ``STOP`` flag here, checked after every
decision.

The layout of ``st``, the deal, sequencing, scoring and the scripted answers are in :mod:`.fast_state`.
The search bot's playouts use their own turn loop (:func:`playout_turn`, :func:`playout_second_step`) so
that no function reaches itself through the search (numba types no recursion; every kernel caches).
Compiled on first use only (this module is imported lazily, through ``play.fast_engine``).
"""
from __future__ import annotations

from simcore.fast_rng import below, shuffle

from .bots import BIG, BLOCK_COST, FOLLOW, HORIZON_ROUNDS, THEME_FORCE, WIN_CREDIT
from .common import (BENDER, BEND_OWN, BLOCK, CANCEL_ANY, CAUSE_CARD, CAUSE_MORNING, CAUSE_STUCK, CAUSE_TEN,
                     CONTEXT, END_FORTY, END_MORNING, FORCE, FORCED_NEG, FORCED_POS, FORCE_NEGATIVE,
                     FORCE_POSITIVE, FORCE_THEME0, DREAM_CAP, UNFORCED, WAKE_ONE, WAKE_UP)
from .fast_state import (ACTIVE, BOT, BOT_RANDOM, BOT_SEARCH, BUDGET, C_COUNT, C_EFFECT, C_ELEMENT, C_KIND, C_THEMES,
                         C_POLARITY, DECK, DECK_END, DECK_POS, DISC, DREAM_CARD, DREAM_FCARD, DREAM_FORCED,
                         DREAM_N, DREAM_PTS, END, HAND, HAND_N, HCAP, HELD, HELD_N, HOLDER_CARD, HOLDER_THEME,
                         K_BLOCK, K_ELEMENT, K_EXTRA, K_SECOND, MODE, MODE_BOTS, MODE_PLAYOUT, MODE_SCRIPT, MT,
                         NTYPES, OPTCAP, OPTS, OPT_N, OVER, PLAYERS, REMOVED, R_GOAL, R_HAND, R_HIDDEN, R_MAX, R_MIN,
                         SCORE, STOP, S_BLOCKED, S_DREAMS, S_ELEMS,
                         S_ESCORED, S_PLAYED, S_SCORED, S_WOKE, TURNS, WHO, WINNERS, W_PLAY, W_POOL, W_TOTALS,
                         W_WORLD, add_to_dream, asleep_value, banked_value, can_follow, clear_dream, dream_points, followers, hand_add,
                         hand_take, inline_kernel, keep, kernel, may_play, retally, script_choice, sort_options, wake_seats)
from .reference import (MAX_TURNS, MOVE, M_BENDER, M_DISCARD, M_ELEMENT, M_FORCE, M_WAKE, NO_BEND, PASS, SLOT,
                        TARGET)



@inline_kernel
def ask(st, cd, rng, script, seat, kind, info):
    """Seat ``seat``'s answer among the options of ``kind``; one option is taken without asking (Z18.1).

    The option lists are built in hand order and sorted (Z18.2) only where the order decides: the random
    bot's draw and the search's ties. Greedy takes the smallest code among its best options, which is the
    first best one in sorted order (codes are unique), and a script looks its answer up.
    """
    n = st[OPT_N + kind]
    if n == 1:
        return st[OPTS + kind * OPTCAP]
    if st[MODE] == MODE_SCRIPT:
        return script_choice(st, script, seat, kind)
    if st[MODE] == MODE_BOTS and st[BOT + seat] == BOT_RANDOM:
        sort_options(st, kind)
        return st[OPTS + kind * OPTCAP + below(rng, n)]
    return greedy_choice(st, cd, seat, kind, info)


@inline_kernel
def ask_play(st, cd, rng, script, wk, seat, kind):
    """The element and second decisions: the only ones the search bot searches."""
    if st[OPT_N + kind] > 1 and st[MODE] == MODE_BOTS and st[BOT + seat] == BOT_SEARCH:
        return search_choice(st, cd, rng, script, wk, seat, kind, st[BUDGET + seat])
    return ask(st, cd, rng, script, seat, kind, 0)


@kernel
def play_game(st, cd, rng, script, wk):
    while st[OVER] == 0 and st[STOP] == 0:
        play_turn(st, cd, rng, script, wk)
        if st[TURNS] >= MAX_TURNS:
            raise RuntimeError("Counting Zzzzs game did not end")


@inline_kernel
def play_turn(st, cd, rng, script, wk):
    st[TURNS] += 1
    seat = st[ACTIVE]
    if draw_up(st, cd, seat):
        return
    if element_step(st, cd, rng, script, wk, seat) and st[OVER] == 0 and st[STOP] == 0:
        second_step(st, cd, rng, script, wk, seat)
    if st[OVER] == 0 and st[STOP] == 0:
        end_turn(st, seat)


@inline_kernel
def draw_up(st, cd, seat):
    """Z3.1, Z4.1."""
    while st[HAND_N + seat] < st[R_HAND]:
        c = st[DECK + st[DECK_POS]]
        st[DECK_POS] += 1
        hand_add(st, seat, c)
        if st[DECK_POS] == st[DECK_END]:
            morning(st, cd)
            return True
    return False


@inline_kernel
def element_step(st, cd, rng, script, wk, seat):
    element_options(st, cd, seat)
    if st[OPT_N + K_ELEMENT] == 0:
        stuck(st, cd, seat)
        return False
    card = ask_play(st, cd, rng, script, wk, seat, K_ELEMENT)
    if st[STOP]:
        return False
    return play_own_element(st, cd, seat, card)


@inline_kernel
def second_step(st, cd, rng, script, wk, seat):
    second_options(st, cd, seat)
    code = ask_play(st, cd, rng, script, wk, seat, K_SECOND)
    if st[STOP]:
        return
    do_second(st, cd, rng, script, seat, code)


@inline_kernel
def end_turn(st, seat):
    st[ACTIVE] = (seat + 1) % st[PLAYERS]


@inline_kernel
def play_own_element(st, cd, seat, card):
    return not put_element(st, cd, seat, seat, card)


# ---------------------------------------------------------------- sequencing (Z5, Z6)

@kernel
def element_options(st, cd, seat):
    """reference.element_options, in hand order (sorted only where the order decides, see ask)."""
    base = OPTS + K_ELEMENT * OPTCAP
    held = HELD + seat * HCAP
    k = 0
    n = st[DREAM_N + seat]
    if n == 0:                                                       # Z6.1 any element starts it
        for j in range(st[HELD_N + seat]):
            c = st[held + j]
            st[base + k] = c
            k += cd[C_ELEMENT * MT + c] == 1
    else:
        kind, need = follow_rule(st, cd, seat)
        for j in range(st[HELD_N + seat]):
            c = st[held + j]
            st[base + k] = c          # written always, kept when it fits: no branch on the deal's cards
            k += (cd[C_ELEMENT * MT + c] == 1) & (cd[C_KIND * MT + c] != kind) & ((cd[C_THEMES * MT + c] & need) != 0)
    st[OPT_N + K_ELEMENT] = k


@inline_kernel
def follow_rule(st, cd, owner):
    """(kind, themes) of can_follow without a bend for the started dream of ``owner``: the next element must
    be of another kind than ``kind`` and share a theme with the mask ``themes`` (Z5.1, Z5.2, Z12)."""
    last = st[DREAM_CARD + owner * DREAM_CAP + st[DREAM_N + owner] - 1]
    ht = st[HOLDER_THEME + owner]
    return cd[C_KIND * MT + last], (1 << ht) if ht >= 0 else cd[C_THEMES * MT + last]


@kernel
def put_element(st, cd, by, owner, card):
    """Z12.1, Z6.2, Z8.1; True when the owner woke."""
    hand_take(st, by, card)
    n = st[DREAM_N + owner]
    st[DREAM_CARD + owner * DREAM_CAP + n] = card
    st[DREAM_FORCED + owner * DREAM_CAP + n] = UNFORCED
    st[DREAM_FCARD + owner * DREAM_CAP + n] = -1
    st[DREAM_N + owner] = n + 1
    add_to_dream(st, cd, owner, card, UNFORCED)
    if st[HOLDER_CARD + owner] >= 0:
        st[DISC + st[HOLDER_CARD + owner]] += 1
        st[HOLDER_CARD + owner] = -1
        st[HOLDER_THEME + owner] = -1
    st[DREAM_PTS + owner] = dream_points(st, cd, owner, -1, -1, -1)
    if n + 1 >= st[R_MAX]:
        wake(st, cd, owner, CAUSE_TEN, False)
        check_forty(st)
        return True
    return False


# ---------------------------------------------------------------- scoring and waking (Z14-Z16)

@kernel
def wake(st, cd, seat, cause, at_morning):
    n = st[DREAM_N + seat]
    base = seat * DREAM_CAP
    if n > 0:
        st[S_DREAMS + seat] += 1
        st[S_ELEMS + seat] += n
        st[S_WOKE + seat * 4 + cause] += 1
        if n >= st[R_MIN] or at_morning:
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
    clear_dream(st, seat)
    st[DREAM_N + seat] = 0
    st[DREAM_PTS + seat] = 0
    st[HOLDER_CARD + seat] = -1
    st[HOLDER_THEME + seat] = -1


@kernel
def set_winners(st, end):
    p = st[PLAYERS]
    best = st[SCORE]
    for s in range(1, p):
        best = max(best, st[SCORE + s])
    for s in range(p):
        st[WINNERS + s] = 1 if st[SCORE + s] == best else 0
    st[OVER] = 1
    st[END] = end


@kernel
def check_forty(st):
    if st[OVER]:
        return
    for s in range(st[PLAYERS]):
        if st[SCORE + s] >= st[R_GOAL]:
            set_winners(st, END_FORTY)
            return


@kernel
def morning(st, cd):
    for s in range(st[PLAYERS]):
        wake(st, cd, s, CAUSE_MORNING, True)
    set_winners(st, END_MORNING)


@kernel
def stuck(st, cd, seat):
    for j in range(st[HELD_N + seat]):
        c = st[HELD + seat * HCAP + j]
        st[DISC + c] += st[HAND + seat * MT + c]
        st[HAND + seat * MT + c] = 0
    st[HAND_N + seat] = 0
    st[HELD_N + seat] = 0
    wake(st, cd, seat, CAUSE_STUCK, False)
    check_forty(st)


# ---------------------------------------------------------------- the second play (Z3.3, Z9-Z13)

@kernel
def second_options(st, cd, seat):
    """reference.second_options, in another order (sorted only where the order decides, see ask)."""
    p = st[PLAYERS]
    base = OPTS + K_SECOND * OPTCAP
    k = 0
    held = HELD + seat * HCAP
    # an element into each started dream of an opponent (Z6.1), the dream's rule read once
    for s in range(p):
        if s == seat or st[DREAM_N + s] == 0:
            continue
        kind, need = follow_rule(st, cd, s)
        for j in range(st[HELD_N + seat]):
            c = st[held + j]
            st[base + k] = M_ELEMENT * MOVE + s * TARGET + c   # kept when it fits (no branch, as above)
            k += (cd[C_ELEMENT * MT + c] == 1) & (cd[C_KIND * MT + c] != kind) & ((cd[C_THEMES * MT + c] & need) != 0)
    for j in range(st[HELD_N + seat]):
        c = st[held + j]
        st[base + k] = M_DISCARD * MOVE + c
        k += 1
        if cd[C_ELEMENT * MT + c] == 1:
            continue
        kind = cd[C_KIND * MT + c]
        effect = cd[C_EFFECT * MT + c]
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
                    e = st[DREAM_CARD + s * DREAM_CAP + i]
                    if cd[C_POLARITY * MT + e] == CONTEXT and st[DREAM_FORCED + s * DREAM_CAP + i] == UNFORCED:
                        st[base + k] = M_FORCE * MOVE + (SLOT * s + i) * TARGET + c
                        k += 1
        else:
            for s in range(p):
                if st[DREAM_N + s] > 0 and st[HOLDER_CARD + s] < 0:
                    st[base + k] = M_FORCE * MOVE + s * TARGET + c
                    k += 1
    st[OPT_N + K_SECOND] = k


@kernel
def do_second(st, cd, rng, script, seat, code):
    move = code // MOVE
    target = code % MOVE // TARGET
    card = code % TARGET
    if move == M_DISCARD:
        hand_take(st, seat, card)
        st[DISC + card] += 1
        return
    if move == M_ELEMENT:
        put_element(st, cd, seat, target, card)
        return
    kind = cd[C_KIND * MT + card]
    hand_take(st, seat, card)
    st[DISC + card] += 1
    st[S_PLAYED + seat * 4 + kind] += 1
    if blocked(st, cd, rng, script, seat, code):
        st[S_BLOCKED + seat * 4 + kind] += 1
        return
    if st[STOP]:
        return
    if move == M_WAKE:
        wake_targets(st, cd, seat, target, card)
    elif move == M_BENDER:
        extra_play(st, cd, rng, script, seat, cd[C_EFFECT * MT + card])
    else:
        place_force(st, cd, target, card)


@kernel
def blocked(st, cd, rng, script, seat, code):
    """Z13.2."""
    kind = cd[C_KIND * MT + code % TARGET]
    p = st[PLAYERS]
    base = OPTS + K_BLOCK * OPTCAP
    for k in range(1, p):
        b = (seat + k) % p
        if not may_play(st, b, BLOCK):
            continue
        st[base] = PASS
        n = 1
        for j in range(st[HELD_N + b]):
            c = st[HELD + b * HCAP + j]
            if cd[C_ELEMENT * MT + c] == 0 and cd[C_KIND * MT + c] == BLOCK and \
                    (cd[C_EFFECT * MT + c] == kind or cd[C_EFFECT * MT + c] == CANCEL_ANY):
                st[base + n] = c
                n += 1
        st[OPT_N + K_BLOCK] = n
        sort_options(st, K_BLOCK)
        choice = ask(st, cd, rng, script, b, K_BLOCK, code)
        if st[STOP]:
            return False
        if choice != PASS:
            hand_take(st, b, choice)
            st[DISC + choice] += 1
            st[S_PLAYED + b * 4 + BLOCK] += 1
            return True
    return False


@kernel
def wake_targets(st, cd, seat, target, card):
    k = wake_seats(st, cd, seat, target, card)
    for i in range(k):
        wake(st, cd, st[WHO + i], CAUSE_CARD, False)
    check_forty(st)


@kernel
def extra_options(st, cd, seat, bend):
    base = OPTS + K_EXTRA * OPTCAP
    st[base] = PASS
    k = 1
    rule = NO_BEND if bend == BEND_OWN else bend
    for j in range(st[HELD_N + seat]):
        c = st[HELD + seat * HCAP + j]
        if cd[C_ELEMENT * MT + c] == 0:
            continue
        for s in range(st[PLAYERS]):
            if bend == BEND_OWN and s != seat:
                continue
            if can_follow(st, cd, s, c, rule, s == seat):
                st[base + k] = M_ELEMENT * MOVE + s * TARGET + c
                k += 1
    st[OPT_N + K_EXTRA] = k


@kernel
def extra_play(st, cd, rng, script, seat, bend):
    extra_options(st, cd, seat, bend)
    code = ask(st, cd, rng, script, seat, K_EXTRA, bend)
    if st[STOP] or code == PASS:
        return
    put_element(st, cd, seat, code % MOVE // TARGET, code % TARGET)


@kernel
def place_force(st, cd, target, card):
    effect = cd[C_EFFECT * MT + card]
    st[DISC + card] -= 1
    if effect <= FORCE_NEGATIVE:
        owner = target // SLOT
        pos = target % SLOT
        f = FORCED_POS if effect == FORCE_POSITIVE else FORCED_NEG
        # the new points first: dream_points reads the card's old force state off the tallies
        st[DREAM_PTS + owner] = dream_points(st, cd, owner, -1, pos, f)
        retally(st, cd, owner, st[DREAM_CARD + owner * DREAM_CAP + pos], st[DREAM_FORCED + owner * DREAM_CAP + pos], f)
        st[DREAM_FORCED + owner * DREAM_CAP + pos] = f
        st[DREAM_FCARD + owner * DREAM_CAP + pos] = card
    else:
        st[HOLDER_THEME + target] = effect - FORCE_THEME0
        st[HOLDER_CARD + target] = card


# ---------------------------------------------------------------- greedy (bots.py, Z17.1)

@kernel
def element_change(st, cd, owner, card):
    n = st[DREAM_N + owner]
    before = asleep_value(st, st[DREAM_PTS + owner], n)
    w2 = dream_points(st, cd, owner, card, -1, -1)
    n2 = n + 1
    if n2 >= st[R_MAX]:
        return banked_value(st, w2, n2) - before, 1 if st[SCORE + owner] + w2 >= st[R_GOAL] else 0
    return asleep_value(st, w2, n2) - before, 0


@kernel
def wake_change(st, cd, k, me):
    """The worth change for ``me`` when the ``k`` seats in st[WHO:] wake (bots.wake_change)."""
    q = st[PLAYERS] - 1
    value = 0
    best = -(1 << 40)
    mine = 0
    for s in range(st[PLAYERS]):
        t = st[SCORE + s]
        hit = False
        for i in range(k):
            if st[WHO + i] == s:
                hit = True
        if hit:
            n = st[DREAM_N + s]
            w = st[DREAM_PTS + s]
            value += (q if s == me else -1) * (banked_value(st, w, n) - asleep_value(st, w, n))
            if n >= st[R_MIN]:
                t += w
        if s == me:
            mine = t
        best = max(best, t)
    if best >= st[R_GOAL]:
        value += BIG if mine == best else -BIG
    return value


@kernel
def others_win(st, cd, k, me):
    """-BIG when waking the ``k`` seats in st[WHO:] makes another seat win (bots._others_win), else 0."""
    best = -(1 << 40)
    mine = 0
    for s in range(st[PLAYERS]):
        t = st[SCORE + s]
        for i in range(k):
            if st[WHO + i] == s and st[DREAM_N + s] >= st[R_MIN]:
                t += st[DREAM_PTS + s]
        if s == me:
            mine = t
        best = max(best, t)
    return -BIG if best >= st[R_GOAL] and mine != best else 0


@kernel
def force_change(st, cd, owner, pos, card):
    w = st[DREAM_PTS + owner]
    f = FORCED_POS if cd[C_EFFECT * MT + card] == FORCE_POSITIVE else FORCED_NEG
    return 10 * (dream_points(st, cd, owner, -1, pos, f) - w)


@kernel
def extra_value(st, cd, seat, code):
    if code == PASS:
        return 0
    owner = code % MOVE // TARGET
    delta, win = element_change(st, cd, owner, code % TARGET)
    if owner == seat:
        return (st[PLAYERS] - 1) * delta + BIG * win
    return -delta - BIG * win


@kernel
def greedy_element(st, cd, seat):
    base = OPTS + K_ELEMENT * OPTCAP
    best = st[base]
    best_value = 0
    for i in range(st[OPT_N + K_ELEMENT]):
        c = st[base + i]
        delta, win = element_change(st, cd, seat, c)
        value = delta + FOLLOW * followers(st, cd, seat, c) + BIG * win
        if i == 0 or value > best_value or (value == best_value and c < best):
            best = c
            best_value = value
    return best


@kernel
def second_value(st, cd, seat, code):
    q = st[PLAYERS] - 1
    move = code // MOVE
    target = code % MOVE // TARGET
    card = code % TARGET
    value = -q * keep(cd, card)
    if move == M_ELEMENT:
        delta, win = element_change(st, cd, target, card)
        return value - delta - BIG * win
    if move == M_WAKE:
        k = wake_seats(st, cd, seat, target, card)
        return value + wake_change(st, cd, k, seat)
    if move == M_BENDER:
        extra_options(st, cd, seat, cd[C_EFFECT * MT + card])
        best = 0
        for i in range(st[OPT_N + K_EXTRA]):
            v = extra_value(st, cd, seat, st[OPTS + K_EXTRA * OPTCAP + i])
            if i == 0 or v > best:
                best = v
        return value + best
    if move == M_FORCE:
        if cd[C_EFFECT * MT + card] <= FORCE_NEGATIVE:
            owner = target // SLOT
            delta = force_change(st, cd, owner, target % SLOT, card)
            return value + (q * delta if owner == seat else -delta)
        return value + (-q * THEME_FORCE if target == seat else THEME_FORCE)
    return value


@kernel
def greedy_second(st, cd, seat):
    base = OPTS + K_SECOND * OPTCAP
    best = st[base]
    best_value = 0
    for i in range(st[OPT_N + K_SECOND]):
        code = st[base + i]
        value = second_value(st, cd, seat, code)
        if i == 0 or value > best_value or (value == best_value and code < best):
            best = code
            best_value = value
    return best


@kernel
def greedy_extra(st, cd, seat):
    base = OPTS + K_EXTRA * OPTCAP
    best = st[base]
    best_value = 0
    for i in range(st[OPT_N + K_EXTRA]):
        code = st[base + i]
        value = extra_value(st, cd, seat, code)
        if i == 0 or value > best_value or (value == best_value and code < best):
            best = code
            best_value = value
    return best


@kernel
def greedy_block(st, cd, seat, action):
    target = action % MOVE // TARGET
    card = action % TARGET
    kind = cd[C_KIND * MT + card]
    delta = 0
    if kind == WAKE_UP:
        k = wake_seats(st, cd, st[ACTIVE], target, card)
        if k > 0:
            hit = False
            for i in range(k):
                if st[WHO + i] == seat:
                    hit = True
            delta = wake_change(st, cd, k, seat) if hit else others_win(st, cd, k, seat)
    elif kind == FORCE:
        if cd[C_EFFECT * MT + card] <= FORCE_NEGATIVE:
            if target // SLOT == seat:
                delta = force_change(st, cd, seat, target % SLOT, card)
        elif target == seat:
            delta = -THEME_FORCE
    base = OPTS + K_BLOCK * OPTCAP
    return st[base + 1] if delta < -BLOCK_COST else st[base]


@inline_kernel
def greedy_choice(st, cd, seat, kind, info):
    if kind == K_ELEMENT:
        return greedy_element(st, cd, seat)
    if kind == K_SECOND:
        return greedy_second(st, cd, seat)
    if kind == K_EXTRA:
        return greedy_extra(st, cd, seat)
    return greedy_block(st, cd, seat, info)


# ---------------------------------------------------------------- search@K (Z17.2)

@kernel
def copy_state(src, dst):
    """dst[:] = src element by element: numba lowers the slice assignment with a temporary copy (it cannot
    rule out overlap), which a kernel without NRT cannot allocate."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel
def unseen_counts(st, cd, seat, unseen):
    """bots.unseen_counts into ``unseen`` (the first NTYPES entries): removed Wake Ups are read only when
    the removal is public (Z2.2, Z17.1)."""
    hidden = st[R_HIDDEN]
    for c in range(st[NTYPES]):
        unseen[c] = cd[C_COUNT * MT + c] - st[HAND + seat * MT + c] - st[DISC + c]
        if hidden == 0:
            unseen[c] -= st[REMOVED + c]
    for s in range(st[PLAYERS]):
        for i in range(st[DREAM_N + s]):
            unseen[st[DREAM_CARD + s * DREAM_CAP + i]] -= 1
            if st[DREAM_FCARD + s * DREAM_CAP + i] >= 0:
                unseen[st[DREAM_FCARD + s * DREAM_CAP + i]] -= 1
        if st[HOLDER_CARD + s] >= 0:
            unseen[st[HOLDER_CARD + s]] -= 1


@kernel
def sample_world(st, cd, seat, rng, wk):
    """bots.sample_world into the work row W_WORLD (the pool is built in W_POOL)."""
    world = wk[W_WORLD]
    copy_state(st, world)
    nt = st[NTYPES]
    p = st[PLAYERS]
    unseen = wk[W_POOL]
    unseen_counts(st, cd, seat, unseen)
    m = 0
    for c in range(nt):
        m += unseen[c]
    pool = wk[W_POOL, MT:MT + m]
    k = 0
    for c in range(nt):
        for _ in range(unseen[c]):
            pool[k] = c
            k += 1
    shuffle(rng, pool)
    k = 0
    for s in range(p):
        if s == seat:
            continue
        for j in range(st[HELD_N + s]):
            world[HAND + s * MT + st[HELD + s * HCAP + j]] = 0
        world[HAND_N + s] = 0
        world[HELD_N + s] = 0
        for i in range(st[HAND_N + s]):
            hand_add(world, s, pool[k + i])
        k += st[HAND_N + s]
    for i in range(st[DECK_END] - st[DECK_POS]):
        world[DECK + st[DECK_POS] + i] = pool[k + i]


@kernel
def dream_outlook(points, n, min_dream):
    return 10 * points if n >= min_dream else 10 * points * n // min_dream


@kernel
def evaluate(st, cd, seat):
    value = 0
    p = st[PLAYERS]
    if st[OVER] and st[WINNERS + seat]:
        k = 0
        for s in range(p):
            k += st[WINNERS + s]
        value += WIN_CREDIT // k
    mine = 0
    best_other = 0
    first = True
    for s in range(p):
        v = 10 * st[SCORE + s]
        if st[OVER] == 0 and st[DREAM_N + s] > 0:
            v += dream_outlook(st[DREAM_PTS + s], st[DREAM_N + s], st[R_MIN])
        if s == seat:
            mine = v
        elif first or v > best_other:
            best_other = v
            first = False
    return value + mine - best_other


@kernel
def playout(w, cd, rng, script, seat, kind, option):
    """bots.playout on the world ``w``. Playouts ask greedy only (MODE_PLAYOUT): they never draw from
    ``rng`` nor read ``script``, which are the game's, passed on because a kernel allocates nothing."""
    w[MODE] = MODE_PLAYOUT
    if kind == K_ELEMENT:
        if play_own_element(w, cd, seat, option) and w[OVER] == 0:
            playout_second_step(w, cd, rng, script, seat)
    else:
        do_second(w, cd, rng, script, seat, option)
    if w[OVER] == 0:
        end_turn(w, seat)
    for _ in range(HORIZON_ROUNDS * w[PLAYERS]):
        if w[OVER]:
            break
        playout_turn(w, cd, rng, script)
    return evaluate(w, cd, seat)


@kernel
def playout_second_step(w, cd, rng, script, seat):
    second_options(w, cd, seat)
    code = w[OPTS + K_SECOND * OPTCAP] if w[OPT_N + K_SECOND] == 1 else greedy_second(w, cd, seat)
    do_second(w, cd, rng, script, seat, code)


@kernel
def playout_turn(w, cd, rng, script):
    w[TURNS] += 1
    seat = w[ACTIVE]
    if draw_up(w, cd, seat):
        return
    element_options(w, cd, seat)
    if w[OPT_N + K_ELEMENT] == 0:
        stuck(w, cd, seat)
    else:
        card = w[OPTS + K_ELEMENT * OPTCAP] if w[OPT_N + K_ELEMENT] == 1 else greedy_element(w, cd, seat)
        if play_own_element(w, cd, seat, card) and w[OVER] == 0:
            playout_second_step(w, cd, rng, script, seat)
    if w[OVER] == 0:
        end_turn(w, seat)


@kernel
def search_choice(st, cd, rng, script, wk, seat, kind, budget):
    """bots.search_choice: ``budget`` sampled worlds, every option played out in each (the same worlds
    for all options). The options are read from st's own area, which the playouts (on copies) never
    touch; ``wk`` is the work area of :func:`.fast_state.new_work`."""
    sort_options(st, kind)                           # ties go to the first option in sorted order
    n = st[OPT_N + kind]
    base = OPTS + kind * OPTCAP
    totals = wk[W_TOTALS]
    for j in range(n):
        totals[j] = 0
    world = wk[W_WORLD]
    w = wk[W_PLAY]
    for _ in range(budget):
        sample_world(st, cd, seat, rng, wk)
        for j in range(n):
            copy_state(world, w)
            totals[j] += playout(w, cd, rng, script, seat, kind, st[base + j])
    best = 0
    for j in range(1, n):
        if totals[j] > totals[best]:
            best = j
    return st[base + best]


# ---------------------------------------------------------------- scripts (scenarios)

