"""Afterstate features of the fast engine, checked on a hand-built position.

Every expected value below is derived by hand from the rules (R8.2 chart:
run 1 -> 0, 2 -> 2, 3 -> 4, 4 -> 6) and the slot definitions in
simcore.games.dreamscape.fast.layout, not copied from engine output.
"""
from __future__ import annotations

import numpy as np
import pytest

from simcore.games.dreamscape.fast.features import decision_features, option_features
from simcore.games.dreamscape.fast.scratch import FW_SCORES, max_options
from simcore.games.dreamscape.fast.zones import new_state
from simcore.games.dreamscape.fast.layout import (
    BUY_POSITION,
    BUY_RESERVED,
    BUY_STOP,
    F_BEST_OPP,
    F_BUDGET_AFTER,
    F_BUDGET_NOW,
    F_BUY_DENY,
    F_BUYS_LEFT,
    F_CARD_BASE,
    F_CHAIN_AFTER,
    F_COST,
    F_DECK_FRACTION,
    F_DELTA,
    F_END_WIN,
    F_ENDS_NOW,
    F_FF_BEST,
    F_LAST_SCORE,
    F_LAST_TURN,
    F_LEADER_DENY,
    F_NEXT_GAIN,
    F_NEXT_REACH,
    F_OPEN_RUN_MAX,
    F_OPP_BEST_GAIN,
    F_OPP_MAX_Z,
    F_OWN_NEXT_GAIN,
    F_PERFORM_BASE,
    F_POS_COST,
    F_RUN_SUPPLY,
    F_SCORE_NOW,
    F_SUPPLY_A,
    F_SUPPLY_B,
    F_TARGET_GAP,
    F_TARGET_IS_LEADER,
    F_TARGET_Z,
    F_TOP_RUN_A,
    F_TOP_RUN_B,
    F_Z_AFTER,
    H_ACTIVE,
    H_COSTS,
    H_DECK_PTR,
    H_DS_CARD,
    H_DS_DOWN,
    H_POS_BY_COST,
    H_SEATS,
    H_Z_PENALTY,
    K_BUY,
    K_COLLECTIVE_DREAM,
    K_FLOATING_FREE,
    K_INTERRUPTED_SLEEP,
    K_INVASIVE_DREAMING,
    K_LUCID_DREAMING,
    K_NIGHT_TERROR,
    K_PARADIGM_SHIFT,
    K_PERFORM,
    K_SLEEP_TOKEN,
    K_TAKE_Z,
    N_FEATURES,
    OPT_WIDTH,
    S_CHAIN,
    S_REM_LEN,
    S_RES_LEN,
    S_Z_LEN,
    SEAT_STRIDE,
    python_offsets,
)

from simcore.games.dreamscape.fast.layout import CD, ED, FF, ID, IS, LD, NT, PR, PS, RD, SD  # noqa: E402 - dream type ids (R1.1)

# A designer's deck of 22 cards (id -> its two types).
CARDS = [
    (FF, IS), (IS, NT), (IS, LD),  # 0-2: seat 0's REM stack, bottom first
    (IS, PR), (LD, RD), (NT, CD), (SD, ID), (NT, PS),  # 3-7: Dreamscape cards
    (NT, LD), (NT, RD),  # 8-9: seat 1's REM stack
    (CD, SD),  # 10: seat 2's REM stack
    (FF, RD), (FF, RD), (FF, RD), (FF, RD), (FF, RD), (FF, RD),  # 11-16: Z cards
    (ED, PS), (ED, PS), (ED, PS), (ED, PS),  # 17-20: unseen deck
    (LD, FF),  # 21: seat 0's reserved card
]


def _seat(s, k):
    return H_SEATS + SEAT_STRIDE * s + k


def _position(seat1_z=1):
    """Three seats, seat 0 to decide.

    seat 0: REM FF/IS, IS/NT, IS/LD (IS run 3 = 4 points), 2 Z -> score 2,
            budget 2, reserve [LD/FF]
    seat 1: REM NT/LD, NT/RD (NT run 2 = 2 points), ``seat1_z`` Z cards
    seat 2: REM CD/SD (0 points), 3 Z -> score -3
    Dreamscape: pos1 LD/RD (cost 1), pos2 IS/PR (2), pos3 face-down NT/CD (3),
                pos4 SD/ID (4), pos5 NT/PS (5); 4 of 22 cards left in the deck.
    """
    a = np.array([c[0] for c in CARDS], np.int32)
    b = np.array([c[1] for c in CARDS], np.int32)
    st = new_state(a, b, 3, False, False)
    off = python_offsets(len(CARDS))
    # deck order: the 4 cards left (the last 4 slots, H_DECK_PTR on) are the ED/PS cards 17-20
    st[off["deck"] : off["deck"] + len(CARDS)] = [21] + list(range(17)) + [17, 18, 19, 20]
    st[H_DECK_PTR] = len(CARDS) - 4
    z_cards = {0: [11, 12], 1: [13, 14, 15, 16, 17][:seat1_z], 2: [14, 15, 16]}
    for s, (rem, chain) in enumerate([([0, 1, 2], 4), ([8, 9], 2), ([10], 0)]):
        st[off[f"rem{s}"] : off[f"rem{s}"] + len(rem)] = rem
        st[off[f"rem_mask{s}"] : off[f"rem_mask{s}"] + len(rem)] = [(1 << CARDS[i][0]) | (1 << CARDS[i][1]) for i in rem]
        st[_seat(s, S_REM_LEN)] = len(rem)
        st[_seat(s, S_CHAIN)] = chain
        st[off[f"z{s}"] : off[f"z{s}"] + len(z_cards[s])] = z_cards[s]
        st[_seat(s, S_Z_LEN)] = len(z_cards[s])
    st[off["res0"]] = 21
    st[off["ready0"]] = 1
    st[_seat(0, S_RES_LEN)] = 1
    for p, card in enumerate([4, 3, 5, 6, 7]):
        st[H_DS_CARD + p] = card
        st[H_DS_DOWN + p] = 1 if p == 2 else 0
        assert st[H_COSTS + p] == p + 1
    st[H_ACTIVE] = 0
    return st


def _features(st, kind, rows, seat=0, aux=0, fw=None):
    """Feature vectors of every option row (as the engine computes them before scoring)."""
    opts = np.zeros((max_options(len(CARDS)), OPT_WIDTH), np.int32)
    for i, row in enumerate(rows):
        opts[i, : len(row)] = row
    if fw is None:
        fw = np.zeros(FW_SCORES + max_options(len(CARDS)))
    decision_features(st, kind, seat, len(rows), aux, fw)
    out = []
    for i in range(len(rows)):
        option_features(st, kind, seat, aux, opts, i, fw)
        out.append(fw[:N_FEATURES].copy())
    return out


def test_decision_wide_features():
    (f,) = _features(_position(), K_BUY, [[BUY_STOP, 0]]) + []
    assert f[F_SCORE_NOW] == 2
    assert f[F_BEST_OPP] == 1  # seat 1: 2 - 1
    assert f[F_DECK_FRACTION] == pytest.approx(4 / 22)
    assert f[F_OPP_MAX_Z] == 3
    assert f[F_BUDGET_NOW] == 2
    # stop changes nothing: the open IS run of 3 stays the longest, chain 4
    assert f[F_OPEN_RUN_MAX] == 3 and f[F_CHAIN_AFTER] == 4
    assert f[F_TOP_RUN_A] == 0 and f[F_TOP_RUN_B] == 0 and f[F_POS_COST] == 0
    for k in (F_TARGET_IS_LEADER, F_TARGET_Z, F_TARGET_GAP, F_LEADER_DENY):
        assert f[k] == 0
    assert not f[F_PERFORM_BASE : F_PERFORM_BASE + 11].any() and not f[F_CARD_BASE : F_CARD_BASE + 11].any()
    assert f[F_BUYS_LEFT] == 0 and f[F_OWN_NEXT_GAIN] == 0 and f[F_NEXT_GAIN] == 0 and f[F_BUY_DENY] == 0
    # the end is far (4 cards in the deck, a full Dreamscape): the end-of-game slots are all 0
    assert not f[F_ENDS_NOW:].any()


def test_buy_features():
    rows = [[BUY_POSITION, 1], [BUY_POSITION, 2], [BUY_RESERVED, 0], [BUY_POSITION, 3]]
    lr, ip, res, down = _features(_position(), K_BUY, rows)
    # LD/RD on IS/LD: LD run 1 -> 2 (+2), RD 0 -> 1 (+0); the IS run closes
    assert (lr[F_TOP_RUN_A], lr[F_TOP_RUN_B], lr[F_OPEN_RUN_MAX]) == (2, 1, 2)
    assert lr[F_DELTA] == 2 and lr[F_CHAIN_AFTER] == 6 and lr[F_POS_COST] == 1 and lr[F_COST] == 1
    assert lr[F_BUDGET_AFTER] == 1
    # IS/PR: the IS run 3 -> 4 (+2), PR 0 -> 1
    assert (ip[F_TOP_RUN_A], ip[F_TOP_RUN_B], ip[F_OPEN_RUN_MAX]) == (4, 1, 4)
    assert ip[F_CHAIN_AFTER] == 6 and ip[F_POS_COST] == 2
    # reserved LD/FF: LD 1 -> 2, FF 0 -> 1 (the top card IS/LD shows no FF); costs 1, names no position
    assert (res[F_TOP_RUN_A], res[F_TOP_RUN_B], res[F_OPEN_RUN_MAX]) == (2, 1, 2)
    assert res[F_CHAIN_AFTER] == 6 and res[F_POS_COST] == 0 and res[F_COST] == 1
    # face-down card: a Z card (R5.4), the REM stack is unchanged
    assert (down[F_TOP_RUN_A], down[F_TOP_RUN_B], down[F_OPEN_RUN_MAX]) == (0, 0, 3)
    assert down[F_DELTA] == -1 and down[F_CHAIN_AFTER] == 4 and down[F_Z_AFTER] == 3 and down[F_POS_COST] == 3
    assert down[F_BUDGET_AFTER] == 2 - 3 + 1  # pays 3, gains an unspent Z card (R5.4)


def test_budget_after_counts_unspent_z_cards():
    yes, no = _features(_position(), K_TAKE_Z, [[1], [0]])
    assert (yes[F_BUDGET_AFTER], no[F_BUDGET_AFTER]) == (3, 2)  # R4.1
    assert (yes[F_Z_AFTER], yes[F_DELTA]) == (3, -1)
    pr, is_ = _features(_position(), K_PERFORM, [[PR], [IS]])
    assert (pr[F_BUDGET_AFTER], is_[F_BUDGET_AFTER]) == (3, 2)  # R6.5
    discard, point, pass_ = _features(_position(), K_SLEEP_TOKEN, [[0], [1], [2]])
    assert [f[F_BUDGET_AFTER] for f in (discard, point, pass_)] == [1, 3, 2]  # R9
    assert discard[F_DELTA] == 1 and discard[F_Z_AFTER] == 1


def test_floating_free_features():
    # move FF/IS (index 0) to the top: IS/NT, IS/LD, FF/IS -> IS run 3 still, FF run 1
    ff_is, is_nt = _features(_position(), K_FLOATING_FREE, [[0], [1]])
    assert ff_is[F_DELTA] == 0 and ff_is[F_CHAIN_AFTER] == 4
    assert (ff_is[F_TOP_RUN_A], ff_is[F_TOP_RUN_B], ff_is[F_OPEN_RUN_MAX]) == (1, 3, 3)
    # move IS/NT (index 1): FF/IS, IS/LD, IS/NT -> IS run 3, NT 1
    assert (is_nt[F_TOP_RUN_A], is_nt[F_TOP_RUN_B], is_nt[F_OPEN_RUN_MAX]) == (3, 1, 3)
    # Floating Free on the solo discard pile (aux 1) does not touch the REM stack
    (pile,) = _features(_position(), K_FLOATING_FREE, [[0]], aux=1)
    assert pile[F_TOP_RUN_A] == 0 and pile[F_OPEN_RUN_MAX] == 3 and pile[F_CHAIN_AFTER] == 4


def test_target_features():
    s1, s2 = _features(_position(), K_NIGHT_TERROR, [[1], [2]])
    assert (s1[F_TARGET_IS_LEADER], s1[F_TARGET_Z], s1[F_TARGET_GAP]) == (1, 1, 1 - 2)
    assert (s2[F_TARGET_IS_LEADER], s2[F_TARGET_Z], s2[F_TARGET_GAP]) == (0, 3, -3 - 2)
    (cd,) = _features(_position(), K_COLLECTIVE_DREAM, [[1]])
    assert (cd[F_TARGET_IS_LEADER], cd[F_TARGET_Z], cd[F_TARGET_GAP]) == (1, 1, -1)
    # tied leaders (seat 1 with 5 Z: 2 - 5 = -3 = seat 2's score): both count as leader
    t1, t2 = _features(_position(seat1_z=5), K_NIGHT_TERROR, [[1], [2]])
    assert t1[F_TARGET_IS_LEADER] == 1 and t2[F_TARGET_IS_LEADER] == 1


def test_leader_deny_features():
    # the leading opponent is seat 1: REM NT/LD, NT/RD (top runs NT 2, RD 1)
    rows = [[1], [2], [4], [5]]
    p1, p2, p4, p5 = _features(_position(), K_LUCID_DREAMING, rows)
    assert p1[F_LEADER_DENY] == 2  # LD/RD: RD 1 -> 2 (+2), LD 0 -> 1
    assert p2[F_LEADER_DENY] == 0  # IS/PR extends nothing
    assert p4[F_LEADER_DENY] == 0
    assert p5[F_LEADER_DENY] == 2  # NT/PS: NT 2 -> 3 (+2)
    assert [f[F_POS_COST] for f in (p1, p2, p4, p5)] == [1, 2, 4, 5]
    (flip,) = _features(_position(), K_INTERRUPTED_SLEEP, [[3]])  # the face-down NT/CD
    assert flip[F_LEADER_DENY] == 2 and flip[F_POS_COST] == 3
    none, pair = _features(_position(), K_PARADIGM_SHIFT, [[0], [2, 1, 5]])
    assert none[F_LEADER_DENY] == 0 and pair[F_LEADER_DENY] == 4 and pair[F_POS_COST] == 0
    (inv,) = _features(_position(), K_INVASIVE_DREAMING, [[2, 1]])  # seat 2, position 1
    assert (inv[F_TARGET_IS_LEADER], inv[F_TARGET_Z], inv[F_TARGET_GAP]) == (0, 3, -5)
    assert inv[F_LEADER_DENY] == 2 and inv[F_POS_COST] == 1
    # tied leaders: the first in seat order (seat 1) is "the" leading opponent
    (tied,) = _features(_position(seat1_z=5), K_LUCID_DREAMING, [[1]])
    assert tied[F_LEADER_DENY] == 2


def test_perform_one_hot():
    fw = np.zeros(FW_SCORES + max_options(len(CARDS)))  # one buffer, reused as in the engine
    pr, is_ = _features(_position(), K_PERFORM, [[PR], [IS]], fw=fw)
    assert pr[F_PERFORM_BASE + PR] == 1 and pr[F_PERFORM_BASE : F_PERFORM_BASE + 11].sum() == 1
    assert pr[F_DELTA] == -1  # R6.5: a Z card from the deck
    assert is_[F_PERFORM_BASE + IS] == 1 and is_[F_PERFORM_BASE : F_PERFORM_BASE + 11].sum() == 1
    # the next decision of another kind sees no stale one-hot
    (stop,) = _features(_position(), K_BUY, [[BUY_STOP, 0]], fw=fw)
    assert not stop[F_PERFORM_BASE : F_PERFORM_BASE + 11].any()


# ---------------------------------------------------------------- the slots added for issue #12
# Supply in _position(), counted by hand: face down outside the Dreamscape are
# the deck's ED/PS x4 and the six FF/RD Z cards; face up in the Dreamscape
# LD/RD, IS/PR, SD/ID, NT/PS (NT/CD at position 3 is face down). So per type:
# FF 6, IS 1, NT 1, LD 1, PR 1, RD 7, CD 0, SD 1, ID 1, ED 4, PS 5.
# Top runs (R8.2): seat 0 IS 3, LD 1; seat 1 (the next seat and the leader,
# score 1) NT 2, RD 1; seat 2 CD 1, SD 1. Chart steps: 0->1 +0, 1->2 +2, 2->3 +2.


def _card_types(f):
    return {t for t in range(11) if f[F_CARD_BASE + t] == 1} if f[F_CARD_BASE : F_CARD_BASE + 11].sum() == 2 else None


def test_buy_card_and_outlook_features():
    rows = [[BUY_POSITION, 1], [BUY_POSITION, 2], [BUY_RESERVED, 0], [BUY_POSITION, 3], [BUY_STOP, 0]]
    lr, ip, res, down, stop = _features(_position(), K_BUY, rows)
    # LD/RD at position 1 (cost 1): budget 2 -> 1
    assert _card_types(lr) == {LD, RD}
    assert (lr[F_SUPPLY_A], lr[F_SUPPLY_B]) == (0, 6)  # LD: only itself; RD: 7 minus itself
    assert lr[F_RUN_SUPPLY] == 2 * 0 + 1 * 6  # top runs LD 2, RD 1
    assert (lr[F_NEXT_GAIN], lr[F_BUY_DENY], lr[F_OPP_BEST_GAIN]) == (2, 2, 2)  # seat 1: RD 1 -> 2
    assert lr[F_LEADER_DENY] == 0  # the old slot stays 0 at buys
    # left: IS/PR, NT/CD (down), SD/ID, NT/PS slide to costs 1-4; seat 1 can pay 1 Z + 1 take = 2:
    # IS/PR (gain 0) and the face-down card (a Z card): nothing (NT/PS at cost 4 is out of reach)
    assert lr[F_NEXT_REACH] == 0
    # budget 1 left: no position costs 1 or less, the ready reserved LD/FF does: on top of LD/RD
    # its LD run 2 -> 3 (+2), FF 0 -> 1
    assert (lr[F_BUYS_LEFT], lr[F_OWN_NEXT_GAIN]) == (1, 2)
    # IS/PR at position 2 (cost 2): nothing affordable after; LD/RD stays at cost 1 for seat 1 (+2)
    assert _card_types(ip) == {IS, PR}
    assert (ip[F_SUPPLY_A], ip[F_SUPPLY_B], ip[F_RUN_SUPPLY]) == (0, 0, 0)
    assert (ip[F_NEXT_GAIN], ip[F_BUY_DENY], ip[F_OPP_BEST_GAIN]) == (0, 0, 0)
    assert (ip[F_NEXT_REACH], ip[F_BUYS_LEFT], ip[F_OWN_NEXT_GAIN]) == (2, 0, 0)
    # the reserved LD/FF: not in the Dreamscape, so no opponent's gain; LD/RD (cost 1) affordable after,
    # on top of LD/FF: LD 2 -> 3 (+2), RD 0 -> 1
    assert _card_types(res) == {LD, FF}
    assert (res[F_SUPPLY_A], res[F_SUPPLY_B]) == (1, 6)
    assert res[F_RUN_SUPPLY] == 2 * 1 + 1 * 6
    assert (res[F_NEXT_GAIN], res[F_BUY_DENY], res[F_OPP_BEST_GAIN]) == (0, 0, 0)
    assert (res[F_NEXT_REACH], res[F_BUYS_LEFT], res[F_OWN_NEXT_GAIN]) == (2, 1, 2)
    # the face-down card is a Z card: no card types, budget 0 after
    assert _card_types(down) is None and not down[F_CARD_BASE : F_CARD_BASE + 11].any()
    assert (down[F_SUPPLY_A], down[F_NEXT_GAIN], down[F_BUY_DENY]) == (0, 0, 0)
    assert (down[F_NEXT_REACH], down[F_BUYS_LEFT], down[F_OWN_NEXT_GAIN]) == (2, 0, 0)
    # stop: the Dreamscape stays; seat 1 reaches LD/RD at cost 1
    assert (stop[F_NEXT_REACH], stop[F_BUYS_LEFT], stop[F_OWN_NEXT_GAIN]) == (2, 0, 0)


def _with_costs(st, costs):
    """The position with the costs knob's market costs (R2.3); equal costs keep the position order (rules.KNOBS)."""
    for p, c in enumerate(costs):
        st[H_COSTS + p] = c
    for k, p in enumerate(sorted(range(5), key=lambda p: (costs[p], p))):
        st[H_POS_BY_COST + k] = p
    return st


def test_next_reach_reads_the_market_costs_not_the_printed_ones():
    """F_NEXT_REACH under the costs knob (R2.3, R7.1): the k-th card left slides to the k-th cheapest position.

    Seat 1 (the next seat) has budget 2 next turn (1 Z card + the take, R7.3, R4.1). Worked by hand:
    * costs 1,1,1,1,1: after seat 0 buys LD/RD, all four cards left cost 1, so NT/PS is in reach too:
      its NT run 2 -> 3 is +2 (printed costs: NT/PS would cost 4, reach 0, as in the test above);
    * costs 3,4,5,6,7: nothing costs 2 or less, so "stop" leaves seat 1 no reach at all (printed: LD/RD, +2).
    """
    (lr,) = _features(_with_costs(_position(), (1, 1, 1, 1, 1)), K_BUY, [[BUY_POSITION, 1]])
    assert lr[F_NEXT_REACH] == 2
    (stop,) = _features(_with_costs(_position(), (3, 4, 5, 6, 7)), K_BUY, [[BUY_STOP, 0]])
    assert stop[F_NEXT_REACH] == 0
    # the printed costs written through the same helper: the hand-worked values of the test above
    lr, stop = _features(_with_costs(_position(), (1, 2, 3, 4, 5)), K_BUY, [[BUY_POSITION, 1], [BUY_STOP, 0]])
    assert (lr[F_NEXT_REACH], stop[F_NEXT_REACH]) == (0, 2)


def test_own_next_gain_counts_face_down_cards_and_other_reserved_cards():
    st = _position()
    off = python_offsets(len(CARDS))
    # seat 0 holds 4 Z cards (budget 4) and a second ready reserved card, IS/NT (card 1)
    st[off["z0"] : off["z0"] + 4] = [11, 12, 13, 14]
    st[_seat(0, S_Z_LEN)] = 4
    st[off["res0"] + 1] = 1
    st[off["ready0"] + 1] = 1
    st[_seat(0, S_RES_LEN)] = 2
    (lr, res) = _features(st, K_BUY, [[BUY_POSITION, 1], [BUY_RESERVED, 0]])
    # after LD/RD (budget 3): IS/PR (cost 2) on LD/RD: IS 0 -> 1, PR 0 -> 1: 0; the face-down card
    # (cost 3): -1; reserved LD/FF: LD 2 -> 3 (+2); reserved IS/NT: 0. Best +2 of 4 purchases
    assert (lr[F_BUYS_LEFT], lr[F_OWN_NEXT_GAIN]) == (4, 2)
    # after the reserved LD/FF (budget 3): LD/RD +2 (LD 2 -> 3), IS/PR 0, face-down -1, IS/NT 0
    assert (res[F_BUYS_LEFT], res[F_OWN_NEXT_GAIN]) == (4, 2)


def test_card_features_at_dreamscape_choices():
    p1, p4, p5 = _features(_position(), K_LUCID_DREAMING, [[1], [4], [5]])
    assert _card_types(p1) == {LD, RD} and (p1[F_NEXT_GAIN], p1[F_OPP_BEST_GAIN]) == (2, 2)
    assert (p1[F_SUPPLY_A], p1[F_SUPPLY_B], p1[F_RUN_SUPPLY]) == (0, 6, 0)  # no top run: not on the own stack
    # SD/ID: nothing for seat 1, seat 2's SD run 1 -> 2 (+2)
    assert _card_types(p4) == {SD, ID} and (p4[F_NEXT_GAIN], p4[F_OPP_BEST_GAIN]) == (0, 2)
    # NT/PS: seat 1's NT run 2 -> 3 (+2); PS: 5 minus itself
    assert _card_types(p5) == {NT, PS} and (p5[F_NEXT_GAIN], p5[F_OPP_BEST_GAIN]) == (2, 2)
    assert (p5[F_SUPPLY_A], p5[F_SUPPLY_B]) == (0, 4)
    for f in (p1, p4, p5):
        assert f[F_BUY_DENY] == 0 and f[F_NEXT_REACH] == 0 and f[F_BUYS_LEFT] == 0
    # the face-down NT/CD: known card (seen before it was turned); not counted in the supply itself
    (flip,) = _features(_position(), K_INTERRUPTED_SLEEP, [[3]])
    assert _card_types(flip) == {NT, CD} and (flip[F_SUPPLY_A], flip[F_SUPPLY_B]) == (1, 0)
    assert (flip[F_NEXT_GAIN], flip[F_OPP_BEST_GAIN]) == (2, 2)  # seat 1 NT +2, seat 2 CD +2
    (inv,) = _features(_position(), K_INVASIVE_DREAMING, [[2, 1]])  # seat 2, position 1: LD/RD
    assert _card_types(inv) == {LD, RD} and (inv[F_NEXT_GAIN], inv[F_OPP_BEST_GAIN]) == (2, 2)


def test_card_features_at_floating_free():
    fw = np.zeros(FW_SCORES + max_options(len(CARDS)))
    ff_is, is_nt = _features(_position(), K_FLOATING_FREE, [[0], [1]], fw=fw)
    # FF/IS to the top: FF run 1, IS run 3; supply FF 6, IS 1 (IS/PR in the Dreamscape)
    assert _card_types(ff_is) == {FF, IS} and ff_is[F_RUN_SUPPLY] == 1 * 6 + 3 * 1
    # IS/NT to the top: IS run 3, NT 1; supply IS 1, NT 1
    assert _card_types(is_nt) == {IS, NT} and is_nt[F_RUN_SUPPLY] == 3 * 1 + 1 * 1
    assert is_nt[F_NEXT_GAIN] == 0 and is_nt[F_OPP_BEST_GAIN] == 0  # the own REM stack: no opponent takes it
    # the next decision (take_z) sees no stale card slot
    yes, _no = _features(_position(), K_TAKE_Z, [[1], [0]], fw=fw)
    assert not yes[F_CARD_BASE : F_CARD_BASE + 11].any() and yes[F_SUPPLY_A] == 0 and yes[F_RUN_SUPPLY] == 0


def test_floating_free_best_at_perform():
    st = _position()
    off = python_offsets(len(CARDS))
    # seat 0's REM stack IS/NT, LD/RD, IS/PR (no run: 0 points); moving IS/NT or LD/RD to the top
    # joins the two IS cards (run 2: +2); the top card cannot be moved (R6.1)
    rem = [1, 4, 3]
    st[off["rem0"] : off["rem0"] + 3] = rem
    st[off["rem_mask0"] : off["rem_mask0"] + 3] = [(1 << CARDS[i][0]) | (1 << CARDS[i][1]) for i in rem]
    st[_seat(0, S_CHAIN)] = 0
    ff, is_ = _features(st, K_PERFORM, [[FF], [IS]])
    assert ff[F_FF_BEST] == 2 and is_[F_FF_BEST] == 0
    (ff_default,) = _features(_position(), K_PERFORM, [[FF]])
    # FF/IS, IS/NT, IS/LD: either move keeps the IS run of 3 (delta 0, test_floating_free_features)
    assert ff_default[F_FF_BEST] == 0


def test_linear_weights_flag_the_extra_slots():
    # decisions.decide_with skips the costly slots of issue #12 for a linear seat only when its
    # weights give every one of them 0 (then they cannot change its scores)
    from simcore.games.dreamscape.fast.scratch import FW_LIN_EXTRA, set_weights

    fw = np.zeros(FW_SCORES + max_options(len(CARDS)))
    old = np.zeros(N_FEATURES)
    old[F_DELTA] = 1.0
    old[F_PERFORM_BASE + PR] = -0.5  # the perform one-hot is an old slot
    set_weights(fw, 0, old)
    assert fw[FW_LIN_EXTRA + 0] == 0
    extra_slots = (F_NEXT_GAIN, F_BUYS_LEFT, F_OWN_NEXT_GAIN, F_CARD_BASE + LD, F_OPP_BEST_GAIN, F_ENDS_NOW, F_LAST_SCORE)
    for slot in extra_slots:
        w = old.copy()
        w[slot] = 0.25
        set_weights(fw, 1, w)
        assert fw[FW_LIN_EXTRA + 1] == 1, slot


# -- the end of the game (slots 60-63): R7.2 ends it at Phase 3 when the deck cannot refill the Dreamscape --


def _near_end(deck_left, empty=()):
    """_position with ``deck_left`` cards in the Sleep Deck and the Dreamscape positions ``empty`` (1..5) empty.

    Scores as _position: seat 0 chain 4 - 2 Z = 2; seat 1 chain 2 - 1 Z = 1; seat 2 chain 0 - 3 Z = -3.
    Three seats: the deciding seat moves again only if at least 2 cards are left after its refill.
    """
    st = _position()
    st[H_DECK_PTR] = len(CARDS) - deck_left
    for q in empty:
        st[H_DS_CARD + q - 1] = -1
        st[H_DS_DOWN + q - 1] = 0
    return st


def _end(f):
    return f[F_ENDS_NOW], f[F_END_WIN], f[F_LAST_TURN], f[F_LAST_SCORE]


def test_end_slots_at_buys():
    # 1 card left, position 1 empty: 0 left after the refill, fewer than the 2 other seats: the last turn
    rows = [[BUY_STOP, 0], [BUY_POSITION, 2], [BUY_RESERVED, 0], [BUY_POSITION, 3]]
    stop, ip, res, down = _features(_near_end(1, empty=[1]), K_BUY, rows)
    assert _end(stop) == (0, 0, 1, 2)  # own 4 - 2
    # IS/PR leaves position 2 empty: 2 empty > 1 card, the game ends at Phase 3. IS run 3 -> 4 (+2):
    # own 6 - 2 = 4 against seat 1's 1, a win
    assert _end(ip) == (1, 1, 1, 4)
    # the reserved LD/FF empties no position: own 4 (LD run 1 -> 2), the game goes on to the next seat
    assert _end(res) == (0, 0, 1, 4)
    # the face-down card: a Z card (R5.4), own 4 - 3 = 1, tied with seat 1 (1 Z card): most Z cards wins (R8.3)
    assert _end(down) == (1, 1, 1, 1)
    # 3 cards left, position 1 empty: 2 left after the refill, each other seat may take one: not the last turn
    stop, ip = _features(_near_end(3, empty=[1]), K_BUY, rows[:2])
    assert _end(stop) == (0, 0, 0, 0)
    assert _end(ip) == (0, 0, 1, 4)  # 3 cards for 2 empty positions: 1 left


def test_end_slots_at_take_z_and_perform():
    # a full Dreamscape, 2 cards left: taking one leaves 1 after the refill, fewer than the 2 other seats
    yes, no = _features(_near_end(2), K_TAKE_Z, [[1], [0]])
    assert _end(no) == (0, 0, 0, 0)
    assert _end(yes) == (0, 0, 1, 1)  # own 4 - 3
    # 1 card left, position 1 empty: Perfect Respite draws it (0 < 1), Lucid Dreaming reserves a face-up card
    # (2 empty > 1); Interrupted Sleep changes neither (0 left after the refill: the last turn all the same)
    pr, ld, is_ = _features(_near_end(1, empty=[1]), K_PERFORM, [[PR], [LD], [IS]])
    assert _end(pr) == (1, 1, 1, 1)  # own 4 - 3 = 1 ties seat 1 with more Z cards (R8.3)
    assert _end(ld) == (1, 1, 1, 2)
    assert _end(is_) == (0, 0, 1, 2)
    # with every Dreamscape card face down, Lucid Dreaming has nothing to reserve (R6.4): no position empties
    st = _near_end(1, empty=[1])
    st[H_DS_DOWN + 1 : H_DS_DOWN + 5] = 1
    (ld_down,) = _features(st, K_PERFORM, [[LD]])
    assert _end(ld_down) == (0, 0, 1, 2)


def test_end_slots_at_dreamscape_choices():
    # 2 cards left, a full Dreamscape. Paradigm Shift draws as many as it discards (R6.11): 2, 1, 0 left
    none, one = _features(_near_end(2), K_PARADIGM_SHIFT, [[0], [1, 1]])
    assert _end(none) == (0, 0, 0, 0) and _end(one) == (0, 0, 1, 2)
    # 1 card left: discarding 2 draws 1, one position stays empty
    (two,) = _features(_near_end(1), K_PARADIGM_SHIFT, [[2, 1, 2]])
    assert _end(two) == (1, 1, 1, 2)
    # Lucid Dreaming with 0 cards left: the reserved card's position stays empty
    (ld,) = _features(_near_end(0), K_LUCID_DREAMING, [[1]])
    assert _end(ld) == (1, 1, 1, 2)


def test_end_slots_read_the_winner_as_the_engine_does():
    # 0 cards left, position 1 empty: the game ends whatever happens. Seat 2 at chain 4 - 3 Z = 1.
    st = _near_end(0, empty=[1])
    st[H_SEATS + SEAT_STRIDE * 2 + S_CHAIN] = 4
    # Night Terror on seat 2 (3 Z -> 2): 4 - 2 = 2 ties own 2 with as many Z cards: a shared win (R8.3)
    # on seat 1 (1 Z card: nothing, R3.2): own 2 beats 1 and 1
    on1, on2 = _features(st, K_NIGHT_TERROR, [[1], [2]])
    assert _end(on1) == (1, 1, 1, 2)
    assert _end(on2) == (1, 0.5, 1, 2)
    # seat 2 at chain 10: 7 against own 2, a loss
    st[H_SEATS + SEAT_STRIDE * 2 + S_CHAIN] = 10
    (stop,) = _features(st, K_BUY, [[BUY_STOP, 0]])
    assert _end(stop) == (1, 0, 1, 2)
    # the z-penalty knob (2 per Z card) decides as the engine's final_score: own 4 - 4 = 0, seat 1 2 - 2 = 0,
    # seat 2 10 - 6 = 4
    st[H_Z_PENALTY] = 2
    (stop,) = _features(st, K_BUY, [[BUY_STOP, 0]])
    assert _end(stop) == (1, 0, 1, 0)
    st[H_SEATS + SEAT_STRIDE * 2 + S_CHAIN] = 0  # seat 2 at -6: own 0 ties seat 1's 0 with 2 Z against 1
    (stop,) = _features(st, K_BUY, [[BUY_STOP, 0]])
    assert _end(stop) == (1, 1, 1, 0)
